"""The conformance property: a codec agrees with the reference on one input, asked as a plain
function, as a Hypothesis test and as an atheris `TestOneInput(data)`.

    assert_conforms(codec, data, chunks=…, code_points=…)   raises AssertionError on a difference
    conformance_test(codec)    a ready `@given` test of assert_conforms on utf8_inputs()
    fuzz_one_input(codec)      the same property as an atheris `TestOneInput(data)`

Usage in a project's tests::

    from hypothesis import given
    from utf8cert.harness.fuzzing.conformance import assert_conforms
    from utf8cert.harness.fuzzing.strategies import utf8_inputs

    @given(utf8_inputs())
    def test_my_codec_conforms(data: bytes) -> None:
        assert_conforms("mypkg.codec:Utf8", data)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from utf8cert.harness.check.expected import expectation_for
from utf8cert.harness.check.probe import at_or_above, probe
from utf8cert.harness.codec.interface import Codec
from utf8cert.harness.fuzzing.kinds import one_kind_each
from utf8cert.harness.fuzzing.signatures import describe
from utf8cert.harness.fuzzing.strategies import chunkings, code_points, utf8_inputs
from utf8cert.harness.vectors.model import Level
from utf8cert.harness.world.spec import load_codec


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
    derived from `data` as the fuzzer derives them. Ill-formed `data` is also asked with every
    error replaced by U+FFFD and, when it holds errors of several kinds, with each kind's errors
    alone (kinds.py), each with questions derived from it: a validator that misses one kind is
    caught next to others, and a decoder that mangles text behind a refusal. Raises
    CodecSpecError for a bad spec.
    """
    loaded = _codec(codec)
    binding = at_or_above(fail_on)
    expected = expectation_for(data)  # the reference reads `data` once, for both uses
    for each in [data, *one_kind_each(data, expected.reading.pieces)]:
        # The chunks and code points given are those of `data`; its parts get their own.
        own = each is data
        found = probe(
            loaded,
            each,
            chunks=chunks if own else None,
            code_points=code_points if own else None,
            reference=expected if own else None,
        )
        differences = [difference for difference in found if difference.level in binding]
        if differences:
            described = "\n".join(describe(difference, each) for difference in differences)
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
