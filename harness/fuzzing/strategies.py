"""Hypothesis strategies for UTF-8: inputs near the valid space, their chunkings, code points.

    scalars(ranges)            scalar values, biased to the ends of each range and of each row
    well_formed(ranges)        UTF-8 of such scalars (bytes)
    ill_formed(kind)           well-formed text with one ill-formed sequence of `kind` inserted
    chunkings(data)            `data` cut into chunks, for incremental decoders
    code_points()              ints to encode: scalars, surrogates and values above U+10FFFF
    vector_inputs()            the input of one built-in vector
    utf8_inputs()              any of the above in text, or plain bytes, at every alignment and
                               across the 64- and 4096-byte boundaries (placement.py)

The property they feed, `assert_conforms`, is in conformance.py.
"""

from __future__ import annotations

import functools
import itertools
import unicodedata
from collections.abc import Sequence

from hypothesis import strategies as st

from utf8cert.harness.fuzzing.placement import TARGETS, place
from utf8cert.harness.vectors.samples import (
    BOUNDARY_SCALARS,
    SCALAR_RANGES,
    SURROGATES,
    error_sequence,
    pick,
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


@functools.cache
def _vector_inputs() -> tuple[bytes, ...]:
    """Return the distinct inputs of the built-in vectors (loaded once: half a second)."""
    from utf8cert.harness.fuzzing.corpus import seed_inputs
    from utf8cert.harness.vectors.load import load_vectors

    return tuple(seed_inputs(load_vectors()))


def vector_inputs() -> st.SearchStrategy[bytes]:
    """Return a strategy for the input of one built-in vector (each the case of a bug someone
    thought of: signatures, combining marks, every row and error of the table)."""
    return st.deferred(lambda: st.sampled_from(_vector_inputs()))


WELL_FORMED_PIECES: tuple[str, ...] = ("row end", "character", "decomposed", "signature")
"""Well-formed pieces: the UTF-8 of a row's first or last scalar (or U+FEFF, U+FFFD, U+FFFE),
of any scalar, of a character in its canonical decomposition (a letter and a combining mark,
which a codec must not compose), of U+FEFF after a character (no signature: it must be kept)."""
PIECES: tuple[ErrorKind | str, ...] = (
    *ErrorKind,
    *ErrorKind,
    *WELL_FORMED_PIECES,
    *("vector", "vector", "text", "bytes"),
)
"""What an input is made around: an ill-formed sequence of each kind of RFC 3629 §4 (each kind
one draw in twelve), a well-formed piece, a vector's input; or only text, or arbitrary bytes."""
DECOMPOSED: tuple[str, ...] = tuple(
    unicodedata.normalize("NFD", chr(value))
    for value in range(0xC0, 0x250)
    if unicodedata.normalize("NFD", chr(value)) != chr(value)
)
"""Latin letters with diacritics in their canonical decomposition (Unicode's data, by
CPython's unicodedata): the text a normalizing decoder changes."""


def _piece(draw: st.DrawFn, which: ErrorKind | str) -> bytes:
    if isinstance(which, ErrorKind):
        return error_sequence(draw(st.randoms(use_true_random=True)), which)
    if which == "vector":
        return draw(vector_inputs())
    if which == "decomposed":
        return draw(st.sampled_from(DECOMPOSED)).encode("utf-8")
    if which == "signature":
        return b"a\xef\xbb\xbf"  # after a character: U+FEFF as text (RFC 3629 §6)
    value = draw(st.sampled_from(BOUNDARY_SCALARS) if which == "row end" else scalars())
    return chr(value).encode("utf-8")


@st.composite
def utf8_inputs(draw: st.DrawFn, *, max_size: int = 32) -> bytes:
    """Return byte strings near the valid space: short well-formed text around one piece of the
    RFC 3629 §4 table (an ill-formed sequence of any kind, a row's first or last character, any
    character…) or a vector's input, in half of them followed by a second, well-formed piece;
    one draw in twelve plain text or arbitrary bytes (up to `max_size`). The first non-ASCII
    byte is put at offset 0..15, or one of its sequences across the 64- or 4096-byte boundary
    (TARGETS).

    An ill-formed piece comes with errors of two more kinds, and in half of the draws a
    sequence cut short at the end: `assert_conforms` asks about each kind alone (kinds.py).
    Measured: with Hypothesis' default 100 examples, `assert_conforms` on these inputs catches
    each broken codec of utf8cert's own tests in at least 99 runs of 100, each with a fresh
    example database (tests/fuzzing/test_strategies_rate.py, bench/README.md).
    """
    # The shape of the input is drawn from a true pseudo-random generator (seeded by Hypothesis,
    # so a failure replays): Hypothesis' own choices favour a few values in 100 examples, and
    # left the rarer kinds out of one run in six.
    rng = draw(st.randoms(use_true_random=True))
    which = pick(rng, PIECES)
    if which == "bytes":
        joined = draw(st.binary(max_size=max_size))
    elif which == "text":
        joined = draw(well_formed(max_size=max_size))
    else:
        joined = draw(well_formed(max_size=3)) + _piece(draw, which)
        if isinstance(which, ErrorKind) and which is not ErrorKind.TRUNCATED:
            # Errors of two more kinds (assert_conforms also asks each kind alone).
            for kind in rng.sample([kind for kind in ErrorKind if kind != which], 2):
                if kind is not ErrorKind.TRUNCATED:
                    joined += draw(well_formed(max_size=2)) + _piece(draw, kind)
        if rng.random() < 0.5:
            # A well-formed piece: twice the draws for codecs that mishandle text (asked alone
            # too when the input holds errors).
            joined += _piece(draw, pick(rng, WELL_FORMED_PIECES))
        if which is ErrorKind.TRUNCATED or (isinstance(which, ErrorKind) and rng.random() < 0.5):
            joined += _piece(draw, ErrorKind.TRUNCATED)  # cut short at the end of the input
        else:
            joined += draw(well_formed(max_size=3))
    return place(rng, joined, pick(rng, TARGETS))
