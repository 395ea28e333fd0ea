"""Hypothesis strategies for UTF-8, and a property that a codec agrees with the reference.

    scalars(ranges)            scalar values, biased to the ends of each range and of each row
    well_formed(ranges)        UTF-8 of such scalars (bytes)
    ill_formed(kind)           well-formed text with one ill-formed sequence of `kind` inserted
    chunkings(data)            `data` cut into chunks, for incremental decoders
    code_points()              ints to encode: scalars, surrogates and values above U+10FFFF
    utf8_inputs()              any of the above, or plain bytes, at every alignment

    assert_conforms(codec, data, chunks=…, code_points=…)   raises AssertionError on a difference
    conformance_test(codec)    a ready `@given` test of assert_conforms on utf8_inputs()
    fuzz_one_input(codec)      the same property as an atheris `TestOneInput(data)`

Usage in a project's tests::

    from hypothesis import given
    from utf8cert.harness.fuzzing.strategies import assert_conforms, utf8_inputs

    @given(utf8_inputs())
    def test_my_codec_conforms(data: bytes) -> None:
        assert_conforms("mypkg.codec:Utf8", data)
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from utf8cert.harness.check.probe import at_or_above, probe
from utf8cert.harness.codec.interface import Codec
from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.fuzzing.differential import describe
from utf8cert.harness.vectors.model import Level
from utf8cert.harness.vectors.samples import (
    BOUNDARY_SCALARS,
    SCALAR_RANGES,
    SURROGATES,
    error_sequence,
)
from utf8cert.reference import ErrorKind

ALL_SCALARS: tuple[range, ...] = tuple(r for length in (1, 2, 3, 4) for r in SCALAR_RANGES[length])
"""U+0000..U+D7FF and U+E000..U+10FFFF: every Unicode scalar value (RFC 3629 §3)."""


def _without_surrogates(ranges: Sequence[range]) -> list[range]:
    """Return `ranges` with U+D800..U+DFFF cut out (RFC 3629 §3: they have no UTF-8 form)."""
    kept = []
    for r in ranges:
        if r.step != 1 or r.start < 0 or r.stop > 0x110000:
            raise ValueError(f"not a range of code points U+0000..U+10FFFF: {r!r}")
        for part in (
            range(r.start, min(r.stop, SURROGATES.start)),
            range(max(r.start, 0xE000), r.stop),
        ):
            if part:
                kept.append(part)
    if not kept:
        raise ValueError("the ranges hold no scalar value (only surrogates, or nothing)")
    return kept


def scalars(
    ranges: Sequence[range] = ALL_SCALARS, *, boundary_bias: bool = True
) -> st.SearchStrategy[int]:
    """Return a strategy for scalar values within `ranges` (surrogates left out).

    With `boundary_bias`, half the draws are the first or last value of a range, or one of the
    row boundaries of RFC 3629 §4 (U+007F/U+0080, U+07FF/U+0800, U+D7FF/U+E000, U+FFFF/U+10000,
    U+10FFFF…) that falls inside them. Raises ValueError if `ranges` hold no scalar value.
    """
    kept = _without_surrogates(ranges)
    uniform = st.one_of([st.integers(r.start, r.stop - 1) for r in kept])
    if not boundary_bias:
        return uniform
    edges = {value for r in kept for value in (r.start, r.stop - 1)}
    edges |= {value for value in BOUNDARY_SCALARS if any(value in r for r in kept)}
    return st.one_of(st.sampled_from(sorted(edges)), uniform)


def well_formed(
    ranges: Sequence[range] = ALL_SCALARS,
    *,
    min_size: int = 0,
    max_size: int = 32,
    boundary_bias: bool = True,
) -> st.SearchStrategy[bytes]:
    """Return a strategy for well-formed UTF-8 of `min_size`..`max_size` scalars from `ranges`.

    b'' is among the draws when `min_size` is 0.
    """
    return st.lists(
        scalars(ranges, boundary_bias=boundary_bias), min_size=min_size, max_size=max_size
    ).map(lambda values: "".join(map(chr, values)).encode("utf-8"))


@st.composite
def ill_formed(draw: st.DrawFn, kind: ErrorKind | None = None, *, max_size: int = 16) -> bytes:
    """Return well-formed text with one ill-formed sequence of `kind` (any kind if None) inserted.

    The first error the reference finds is at the inserted sequence and has that kind; the
    bytes of the sequence may hold more errors after it (C0 AF: an overlong lead, then a lone
    UTF8-tail). A `truncated` sequence is placed at the end of the input, where it is truncated;
    any other kind is followed by up to `max_size` more well-formed characters.
    """
    kind = kind if kind is not None else draw(st.sampled_from(list(ErrorKind)))
    before = draw(well_formed(max_size=max_size))
    bad = error_sequence(draw(st.randoms(use_true_random=False)), kind)
    after = b"" if kind is ErrorKind.TRUNCATED else draw(well_formed(max_size=max_size))
    return before + bad + after


@st.composite
def chunkings(draw: st.DrawFn, data: bytes, *, max_chunks: int = 16) -> tuple[bytes, ...]:
    """Return `data` cut into 1..`max_chunks` chunks (empty chunks included), joined = `data`.

    One draw in four feeds the input one byte at a time (for inputs up to 64 bytes), which cuts
    inside every multi-byte sequence; the others cut at random points, b'' chunks allowed.
    """
    if len(data) <= 64 and draw(st.integers(0, 3)) == 0:
        return tuple(data[i : i + 1] for i in range(len(data))) or (b"",)
    cuts = draw(st.lists(st.integers(0, len(data)), max_size=max_chunks - 1))
    edges = [0, *sorted(cuts), len(data)]
    return tuple(data[start:end] for start, end in itertools.pairwise(edges))


def code_points(*, max_size: int = 16) -> st.SearchStrategy[list[int]]:
    """Return a strategy for lists of ints to encode: mostly scalars, with surrogates and values
    above U+10FFFF (up to U+7FFFFFFF, the RFC 2279 limit) mixed in; [] among the draws."""
    unencodable = st.one_of(
        st.integers(SURROGATES.start, SURROGATES.stop - 1),
        st.sampled_from([0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0x110000, 0x1FFFFF, 0x7FFFFFFF]),
        st.integers(0x110000, 0x7FFFFFFF),
    )
    return st.lists(st.one_of(scalars(), scalars(), unencodable), max_size=max_size)


def utf8_inputs(*, max_size: int = 32) -> st.SearchStrategy[bytes]:
    """Return a strategy for byte strings near the valid space: well-formed text, text with one
    error of any kind, or arbitrary bytes (one draw in five), after 0..15 bytes of ASCII.

    The ASCII puts what follows at every offset of a 16-byte register, where alignment-bound
    fast paths (word or SIMD loops over ASCII) go wrong.
    """
    core = st.one_of(
        well_formed(max_size=max_size),
        ill_formed(max_size=max_size),
        well_formed(max_size=max_size),
        ill_formed(max_size=max_size),
        st.binary(max_size=max_size),
    )
    return st.builds(lambda shift, data: b"a" * shift + data, st.integers(0, 15), core)


@functools.cache
def _loaded(spec: str | None) -> Codec:
    return load_codec(spec)


def _codec(codec: Codec | str | None) -> Codec:
    """Return `codec` itself, or the codec a spec string names (loaded once per spec)."""
    return _loaded(codec) if codec is None or isinstance(codec, str) else codec


def assert_conforms(
    codec: Codec | str | None,
    data: bytes,
    *,
    chunks: Sequence[bytes] | None = None,
    code_points: Sequence[int] | None = None,
    fail_on: Level = "must",
) -> None:
    """Return None when the codec agrees with the reference on `data` on every capability it
    offers; raise AssertionError describing each difference at or above `fail_on` otherwise.

    `codec` is a Codec or a spec string (None: CPython's codec). `chunks` (joined: `data`) are
    fed to its incremental decoder and `code_points` to its encoder; by default they are
    derived from `data` as the fuzzer derives them. Raises CodecSpecError for a bad spec.
    """
    loaded = _codec(codec)
    binding = at_or_above(fail_on)
    found = probe(loaded, data, chunks=chunks, code_points=code_points)
    differences = [difference for difference in found if difference.level in binding]
    if differences:
        described = "\n".join(describe(difference, data) for difference in differences)
        raise AssertionError(f"{loaded.spec} differs from the reference:\n{described}")


def conformance_test(codec: Codec | str | None, *, fail_on: Level = "must") -> Callable[..., None]:
    """Return a Hypothesis test (`@given`) of `assert_conforms` on utf8_inputs(), cut by
    chunkings() and with code_points() for the encoder: assign it to a `test_` name.

    The codec is loaded on the test's first example, so a bad spec fails the test, not the
    import of the test module.
    """

    @given(st.data())
    def test_conforms(draw: st.DataObject) -> None:
        data = draw.draw(utf8_inputs(), label="data")
        chunks = draw.draw(chunkings(data), label="chunks")
        values = draw.draw(code_points(), label="code_points")
        assert_conforms(codec, data, chunks=chunks, code_points=values, fail_on=fail_on)

    return test_conforms


def fuzz_one_input(codec: Codec | str | None, *, fail_on: Level = "must") -> Callable[[bytes], Any]:
    """Return the conformance property as an atheris `TestOneInput(data)`: the bytes libFuzzer
    gives drive Hypothesis' choices (`.hypothesis.fuzz_one_input`); a difference raises."""
    test = conformance_test(codec, fail_on=fail_on)
    function: Callable[[bytes], Any] = test.hypothesis.fuzz_one_input  # type: ignore[attr-defined]
    return function
