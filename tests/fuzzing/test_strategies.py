"""The Hypothesis strategies and the conformance property built on them.

What the strategies draw is judged by CPython's codec (well-formed or not, where the first error
is), and the kind of that error by the reference; the property is run on CPython's conformant
codec and on the broken codecs of tests/support/fuzz_codecs.py.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from utf8cert.harness.fuzzing.conformance import assert_conforms, conformance_test, fuzz_one_input
from utf8cert.harness.fuzzing.kinds import one_kind_each
from utf8cert.harness.fuzzing.strategies import (
    ALL_SCALARS,
    chunkings,
    code_points,
    ill_formed,
    scalars,
    utf8_inputs,
    well_formed,
)
from utf8cert.reference import ErrorKind, errors


def first_error_start(data: bytes) -> int | None:
    """Return CPython's offset of the first ill-formed byte, None for well-formed input."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        return error.start
    return None


@given(well_formed())
def test_well_formed_bytes_are_valid_utf8(data: bytes) -> None:
    assert first_error_start(data) is None


@given(well_formed([range(0x800, 0x10000)], min_size=1))
def test_well_formed_bytes_hold_only_scalars_of_the_ranges_asked(data: bytes) -> None:
    values = [ord(character) for character in data.decode("utf-8")]
    assert values
    assert all(0x800 <= value <= 0xFFFF and not 0xD800 <= value <= 0xDFFF for value in values)


def test_scalars_are_biased_to_the_ends_of_each_range() -> None:
    seen: set[int] = set()

    @settings(max_examples=300)
    @given(scalars([range(0x80, 0x800), range(0x10000, 0x10000 + 50)]))
    def collect(value: int) -> None:
        seen.add(value)

    collect()
    assert {0x80, 0x7FF, 0x10000, 0x10000 + 49} <= seen


def test_scalars_refuse_a_range_of_surrogates_only() -> None:
    with pytest.raises(ValueError, match="no scalar value"):
        scalars([range(0xD800, 0xE000)])
    with pytest.raises(ValueError, match="not a range of code points"):
        scalars([range(0x10FFFF, 0x110001)])


def test_all_scalars_are_every_unicode_scalar_value() -> None:
    assert sum(map(len, ALL_SCALARS)) == 0x110000 - 0x800


@pytest.mark.parametrize("kind", list(ErrorKind))
def test_ill_formed_inserts_one_error_of_the_kind_asked(kind: ErrorKind) -> None:
    @settings(max_examples=60)
    @given(ill_formed(kind))
    def check(data: bytes) -> None:
        start = first_error_start(data)
        assert start is not None  # CPython rejects it
        first = errors(data)[0]
        assert (first.offset, first.kind) == (start, kind)
        assert first_error_start(data[:start]) is None  # all before it is well-formed
        if kind is ErrorKind.TRUNCATED:
            assert first.incomplete and first.offset + first.length == len(data)

    check()


@given(st.data())
def test_chunkings_put_the_input_back_together(draw: st.DataObject) -> None:
    data = draw.draw(utf8_inputs())
    chunks = draw.draw(chunkings(data))
    assert b"".join(chunks) == data
    assert 1 <= len(chunks) <= max(16, len(data))


def test_code_points_include_surrogates_and_values_above_u10ffff() -> None:
    seen: list[int] = []

    @settings(max_examples=200)
    @given(code_points())
    def collect(values: list[int]) -> None:
        seen.extend(values)

    collect()
    assert any(0xD800 <= value <= 0xDFFF for value in seen)
    assert any(value > 0x10FFFF for value in seen)


@settings(max_examples=150)
@given(utf8_inputs(), st.data())
@pytest.mark.slow
def test_cpythons_codec_conforms_on_every_input_and_chunking(
    data: bytes, draw: st.DataObject
) -> None:
    assert_conforms("codec:utf-8", data, chunks=draw.draw(chunkings(data)))


def test_assert_conforms_names_each_difference() -> None:
    with pytest.raises(AssertionError, match=r"encode: encoded a surrogate \(must\)"):
        assert_conforms(
            "support.fuzz_codecs:SurrogateWritingEncoder", b"", code_points=[0x61, 0xD800]
        )
    with pytest.raises(AssertionError, match="incremental: rejected well-formed input"):
        assert_conforms(
            "support.fuzz_codecs:ForgetfulIncremental",
            "€".encode(),
            chunks=[b"\xe2", b"\x82", b"\xac"],
        )


def test_assert_conforms_honours_the_level_that_fails() -> None:
    # CPython's utf-8-sig strips a leading signature: only a `may` difference (RFC 3629 §6).
    assert_conforms("codec:utf-8-sig", b"\xef\xbb\xbfabc")
    with pytest.raises(AssertionError, match="signature stripped"):
        assert_conforms("codec:utf-8-sig", b"\xef\xbb\xbfabc", fail_on="may")


def test_the_ready_property_passes_a_conformant_codec() -> None:
    settings(max_examples=60)(conformance_test("support.fuzz_codecs:Conformant"))()


@pytest.mark.parametrize(
    "name", ["ForgetfulIncremental", "SurrogateWritingEncoder", "AlignedAsciiFastPath"]
)
def test_the_ready_property_fails_a_broken_codec(name: str) -> None:
    # No shrinking: that the property fails is the point here, not the smallest example. The
    # draws depend on more than the seed (Hypothesis mixes in constants from the modules loaded
    # in the process), so enough examples that an alignment bug is met whatever was loaded.
    quick = settings(max_examples=1000, phases=[Phase.generate], print_blob=False)
    test = quick(conformance_test(f"support.fuzz_codecs:{name}"))
    with pytest.raises(AssertionError, match="differs from the reference"):
        test()


def test_the_same_property_runs_as_an_atheris_target() -> None:
    conformant = fuzz_one_input("support.fuzz_codecs:Conformant")
    broken = fuzz_one_input("support.fuzz_codecs:ForgetfulIncremental")
    rng = random.Random(5)
    buffers = [bytes(rng.randrange(256) for _ in range(200)) for _ in range(100)]
    for buffer in buffers:
        conformant(buffer)
    failures = 0
    for buffer in buffers:
        try:
            broken(buffer)
        except AssertionError:
            failures += 1
    assert failures > 0


def test_an_input_with_errors_of_three_kinds_is_also_asked_one_kind_at_a_time() -> None:
    # F4 90 80 80 is beyond U+10FFFF (one unit, read the RFC 2279 way), C0 an overlong lead,
    # AF a lone tail (RFC 3629 §4); EF BF BD is U+FFFD.
    replaced = "\ufffd".encode()
    data = b"a\xf4\x90\x80\x80b\xc0\xafc"
    assert one_kind_each(data) == [
        b"a" + replaced + b"b" + replaced + replaced + b"c",  # no error kept
        b"a" + replaced + b"b" + replaced + b"\xafc",  # unexpected continuation
        b"a" + replaced + b"b\xc0" + replaced + b"c",  # overlong
        b"a\xf4\x90\x80\x80b" + replaced + replaced + b"c",  # out of range
    ]
    assert one_kind_each(b"a" + replaced + b"b\xc0" + replaced + b"c") == [
        b"a" + replaced + b"b" + replaced + replaced + b"c"
    ]
    assert one_kind_each("well-formed €".encode()) == []
    assert one_kind_each(data)[0].decode("utf-8")  # CPython: no error left


def test_a_validator_missing_one_kind_is_caught_beside_errors_of_other_kinds() -> None:
    # LaxRangeValidator passes F4 90 80 80; C0 makes the whole input ill-formed, so only the
    # input with the out-of-range sequence alone shows the defect.
    with pytest.raises(AssertionError, match="LaxRangeValidator differs"):
        assert_conforms("support.broken_codecs:LaxRangeValidator", b"a\xf4\x90\x80\x80b\xc0")
