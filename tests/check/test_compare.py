"""The one definition of a difference (compare.py), checked with codecs scripted to answer one
way, against expectations written by hand from RFC 3629 and checked against CPython."""

from __future__ import annotations

import codecs
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from utf8cert.harness.check.compare import (
    chunkings,
    compare,
    compare_chunks,
    compare_decode,
    compare_encode,
    compare_replace,
    compare_validate,
)
from utf8cert.harness.check.describe import describe_bytes, describe_text
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.expected import (
    Expected,
    ExpectedEncoding,
    encoding_for,
    expectation_for,
)
from utf8cert.harness.codec.interface import (
    CAPABILITIES,
    Capability,
    Failed,
    Inapplicable,
    Outcome,
    Refused,
    Returned,
)
from utf8cert.harness.vectors.model import ExpectedError
from utf8cert.reference import ErrorKind

LABEL = ("v-1", "as-is")


class Scripted:
    """A codec whose every answer is computed by one function of the input."""

    spec = "scripted"
    description = "a codec scripted by the test"
    capabilities = frozenset(CAPABILITIES)

    def __init__(self, answer: Callable[[object], Outcome]) -> None:
        self.answer = answer
        self.fed: list[tuple[list[bytes], bool]] = []

    def decode(self, data: bytes) -> Outcome:
        return self.answer(data)

    def decode_replace(self, data: bytes) -> Outcome:
        return self.answer(data)

    def validate(self, data: bytes) -> Outcome:
        return self.answer(data)

    def encode(self, scalars: Sequence[int]) -> Outcome:
        return self.answer(tuple(scalars))

    def decode_chunks(self, chunks: Sequence[bytes], final_empty: bool) -> Outcome:
        self.fed.append((list(chunks), final_empty))
        return self.answer(b"".join(chunks))

    def close(self) -> None:
        pass


def always(outcome: Outcome) -> Scripted:
    return Scripted(lambda _: outcome)


def cpython(errors: str = "strict") -> Scripted:
    """Return a codec answering as CPython's UTF-8 codec does, in one mode."""

    def answer(data: object) -> Outcome:
        try:
            if isinstance(data, tuple):
                return Returned("".join(map(chr, data)).encode("utf-8", errors))
            assert isinstance(data, bytes)
            return Returned(data.decode("utf-8", errors))
        except (UnicodeDecodeError, UnicodeEncodeError) as error:
            return Refused(str(error), error.start)

    return Scripted(answer)


# RFC 3629 §10: C0 AF is an overlong '/', two maximal subparts (Unicode §3.9).
OVERLONG = Expected(
    data=b"/\xc0\xaf/",
    text=None,
    errors=(
        ExpectedError(1, 1, ErrorKind.OVERLONG),
        ExpectedError(2, 1, ErrorKind.UNEXPECTED_CONTINUATION),
    ),
    replaced="/\ufffd\ufffd/",
)
# RFC 3629 §7: U+65E5 U+672C U+8A9E.
NIHONGO = Expected(b"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", "日本語", (), "日本語")
# RFC 3629 §7: U+FEFF U+233B4, the signature before a four-byte character.
SIGNED = Expected(b"\xef\xbb\xbf\xf0\xa3\x8e\xb4", "\ufeff\U000233b4", (), "\ufeff\U000233b4")


def whats(differences: list[Difference]) -> list[tuple[str, str]]:
    return [(difference.level, difference.what) for difference in differences]


def test_the_expectation_for_rfc_examples_is_what_the_rfc_writes() -> None:
    assert expectation_for(NIHONGO.data).text == "日本語"
    assert expectation_for(SIGNED.data).text == SIGNED.text
    overlong = expectation_for(OVERLONG.data)
    assert (overlong.text, overlong.replaced, overlong.first_error) == (None, OVERLONG.replaced, 1)
    assert [e.kind for e in overlong.errors] == [e.kind for e in OVERLONG.errors]


@given(st.binary(max_size=24))
def test_the_expectation_for_any_bytes_agrees_with_cpython(data: bytes) -> None:
    expected = expectation_for(data)
    assert expected.replaced == data.decode("utf-8", "replace")
    try:
        assert expected.text == data.decode("utf-8")
    except UnicodeDecodeError as error:
        assert expected.text is None
        assert expected.first_error == error.start


def test_the_encoding_expectation_refuses_surrogates_and_values_past_the_last() -> None:
    assert encoding_for([0x41, 0x233B4]).encoded == b"A\xf0\xa3\x8e\xb4"
    assert encoding_for([0x41, 0xDFFF]).error_index == 1  # RFC 3629 §3
    assert encoding_for([0x110000]).error_index == 0


def test_cpython_agrees_with_every_expectation_on_every_capability() -> None:
    for expected in (OVERLONG, NIHONGO, SIGNED, expectation_for(b"\xe2\x82")):
        for capability in ("decode", "incremental"):
            assert compare(cpython(), capability, expected, LABEL) == [], capability
        assert compare(cpython("replace"), "replace", expected, LABEL) == []
        validator = Scripted(lambda data: Returned(isinstance(cpython().answer(data), Returned)))
        assert compare_validate(validator, expected, LABEL) == []
    assert compare_encode(cpython(), encoding_for([0x41, 0xD800]), LABEL) == []


def test_accepting_an_overlong_is_a_must_difference_that_points_at_the_bytes() -> None:
    (difference,) = compare_decode(always(Returned("/\u002f/")), OVERLONG, LABEL)
    assert (difference.level, difference.what) == ("must", "accepted ill-formed input")
    assert difference.expected == "refusal at offset 1"
    assert difference.actual == "U+002F U+002F U+002F"
    assert difference.marks == ((1, 2), (2, 3))
    assert (difference.vector, difference.variant, difference.input) == (
        "v-1",
        "as-is",
        b"/\xc0\xaf/",
    )


def test_a_wrong_error_offset_is_a_should_difference_and_no_offset_is_not_checked() -> None:
    assert whats(compare_decode(always(Refused("bad", 2)), OVERLONG, LABEL)) == [
        ("should", "wrong error offset")
    ]
    assert compare_decode(always(Refused("bad", None)), OVERLONG, LABEL) == []
    assert compare_decode(always(Refused("bad", 1)), OVERLONG, LABEL) == []


def test_rejecting_well_formed_input_or_changing_its_text_is_a_must_difference() -> None:
    assert whats(compare_decode(always(Refused("no", 0)), NIHONGO, LABEL)) == [
        ("must", "rejected well-formed input")
    ]
    assert whats(compare_decode(always(Returned("日本")), NIHONGO, LABEL)) == [
        ("must", "lost the end of the text")
    ]


def test_normalizing_is_a_must_difference() -> None:
    # RFC 3629 §10 and Unicode: U+0065 U+0301 must come back as sent, not as U+00E9.
    expected = expectation_for(b"e\xcc\x81")
    assert whats(compare_decode(always(Returned("\u00e9")), expected, LABEL)) == [
        ("must", "normalized the text")
    ]


def test_stripping_a_leading_signature_is_a_may_difference_but_elsewhere_a_must_one() -> None:
    # RFC 3629 §6: a protocol may treat a leading EF BB BF as a signature, and only then.
    (stripped,) = compare_decode(always(Returned("\U000233b4")), SIGNED, LABEL)
    assert (stripped.level, stripped.what, stripped.marks) == (
        "may",
        "signature stripped",
        ((0, 3),),
    )
    mid_stream = expectation_for(b"a" + SIGNED.data)
    assert whats(compare_decode(always(Returned("a\U000233b4")), mid_stream, LABEL)) == [
        ("must", "dropped U+FEFF")
    ]


def test_replacement_differences_are_graded_by_what_was_lost_or_invented() -> None:
    # Unicode §3.9: two maximal subparts, two U+FFFD; one per byte or per run is recommended
    # practice only, but characters made from ill-formed bytes or lost ones are not.
    cases = {
        "/\ufffd/": ("should", "wrong U+FFFD count"),
        "/\ufffd\ufffd\ufffd/": ("should", "wrong U+FFFD count"),
        "//": ("must", "dropped ill-formed input silently"),
        "///": ("must", "decoded ill-formed bytes as characters"),
        "/\ufffd\ufffd": ("must", "lost well-formed characters"),
    }
    for output, found in cases.items():
        assert whats(compare_replace(always(Returned(output)), OVERLONG, LABEL)) == [found]
    assert compare_replace(always(Returned(OVERLONG.replaced)), OVERLONG, LABEL) == []
    assert whats(compare_replace(always(Refused("x")), OVERLONG, LABEL)) == [
        ("should", "refused instead of replacing")
    ]


def test_a_validator_is_judged_on_its_verdict_and_a_refusal_is_a_no() -> None:
    assert whats(compare_validate(always(Returned(True)), OVERLONG, LABEL)) == [
        ("must", "accepted ill-formed input")
    ]
    assert whats(compare_validate(always(Returned(False)), NIHONGO, LABEL)) == [
        ("must", "rejected well-formed input")
    ]
    assert compare_validate(always(Refused("invalid")), OVERLONG, LABEL) == []
    assert whats(compare_validate(always(Returned(b"yes")), NIHONGO, LABEL)) == [
        ("must", "returned the wrong type")
    ]


def test_encoding_differences_name_surrogates_signatures_and_refusals() -> None:
    surrogate = ExpectedEncoding((0x41, 0xD800), None, 1)
    (written,) = compare_encode(always(Returned(b"A\xed\xa0\x80")), surrogate, LABEL)
    assert (written.level, written.what, written.marks) == (
        "must",
        "encoded a surrogate",
        ((1, 2),),
    )
    # Refused at the A before it: every value before the first unencodable one has a UTF-8
    # form (RFC 3629 §3), so that is refusing an encodable value, not a misplaced index.
    assert whats(compare_encode(always(Refused("no", 0)), surrogate, LABEL)) == [
        ("must", "refused an encodable value")
    ]
    # Refused past it, at the end, where nothing more could be asked: only the index is wrong.
    assert whats(compare_encode(always(Refused("no", 2)), surrogate, LABEL)) == [
        ("should", "wrong error index")
    ]
    # WHATWG's TextEncoder writes U+FFFD for a lone surrogate: no ill-formed bytes, no refusal;
    # RFC 3629 §3 does not forbid refusing by substitution, but the data changed: `should`.
    assert whats(compare_encode(always(Returned(b"A\xef\xbf\xbd")), surrogate, LABEL)) == [
        ("should", "substituted a character for an unencodable value")
    ]
    euro = ExpectedEncoding((0x20AC,), b"\xe2\x82\xac", None)
    assert whats(compare_encode(always(Returned(b"\xef\xbb\xbf\xe2\x82\xac")), euro, LABEL)) == [
        ("may", "signature written")
    ]
    assert whats(compare_encode(always(Refused("no")), euro, LABEL)) == [
        ("must", "refused an encodable value")
    ]
    assert compare_encode(always(Inapplicable("too big")), euro, LABEL) == []


def test_a_long_text_with_lone_surrogates_far_apart_is_lined_up_as_substituted() -> None:
    """CPython's encoder with errors='replace' writes '?' for each lone surrogate: on 550
    characters with two of them 300 apart (more cells than LARGEST_ALIGNMENT, few states) that
    is still a substitution (`should`), not 'other text' (`must`)."""
    text = "a?" * 75 + "\ud800" + "b" * 300 + "\udc00" + "c?" * 50
    values = tuple(map(ord, text))
    written = text.encode("utf-8", "replace")  # CPython: '?' for each surrogate
    expected = ExpectedEncoding(values, None, values.index(0xD800))
    assert whats(compare_encode(always(Returned(written)), expected, LABEL)) == [
        ("should", "substituted a character for an unencodable value")
    ]


def test_crashes_timeouts_and_wrong_types_are_always_must_differences() -> None:
    outcomes: dict[Outcome, str] = {
        Failed("crash", "TypeError: boom"): "crashed",
        Failed("timeout", "no answer in 1 s"): "timed out",
        Returned(b"bytes"): "returned the wrong type",
    }
    capabilities: list[Capability] = ["decode", "replace", "incremental"]
    for capability in capabilities:
        for outcome, what in outcomes.items():
            found = compare(always(outcome), capability, NIHONGO, LABEL)
            assert {(d.level, d.what) for d in found} == {("must", what)}, (capability, what)


def test_an_incremental_decoder_may_refuse_or_replace_ill_formed_input() -> None:
    chunks = [OVERLONG.data[:2], OVERLONG.data[2:]]
    for outcome in (Refused("strict"), Refused("strict", 1), Returned(OVERLONG.replaced)):
        assert compare_chunks(always(outcome), OVERLONG, chunks, False, LABEL) == []
    assert whats(compare_chunks(always(Refused("x", 3)), OVERLONG, chunks, True, LABEL)) == [
        ("should", "wrong error offset")
    ]


def test_incremental_decoding_is_tried_whole_bytewise_and_cut_everywhere() -> None:
    codec = cpython()
    assert compare(codec, "incremental", NIHONGO, LABEL) == []
    fed = codec.fed
    assert (fed[0], fed[1]) == (([NIHONGO.data], False), ([NIHONGO.data], True))
    assert ([bytes([b]) for b in NIHONGO.data], False) in fed
    for cut in range(1, len(NIHONGO.data)):
        assert ([NIHONGO.data[:cut], NIHONGO.data[cut:]], True) in fed
    assert len(fed) == 2 * (2 + len(NIHONGO.data) - 1)


def test_a_decoder_that_loses_state_between_chunks_is_caught_at_the_cuts() -> None:
    def forgetful(chunks: Sequence[bytes], final_empty: bool) -> Outcome:
        decoder = codecs.getincrementaldecoder("utf-8")("ignore")
        return Returned("".join(decoder.decode(chunk, True) for chunk in chunks))

    codec = cpython()
    codec.decode_chunks = forgetful  # type: ignore[method-assign]
    found = compare(codec, "incremental", NIHONGO, LABEL)
    variants = {difference.variant for difference in found}
    assert "as-is, whole" not in variants
    assert {"as-is, cut at 1", "as-is, bytewise, then final b''"} <= variants
    assert {difference.level for difference in found} == {"must"}


def test_chunkings_of_a_long_input_stay_around_the_window() -> None:
    expected = Expected(b"a" * 100 + b"\xe2\x82\xac" + b"a" * 100, "x", (), "x", window=(100, 103))
    ways = dict(chunkings(expected))
    assert ways["bytewise"] == [b"a" * 100, b"\xe2", b"\x82", b"\xac", b"a" * 100]
    assert sorted(ways) == sorted(["whole", "bytewise"] + [f"cut at {c}" for c in range(100, 104)])
    assert dict(chunkings(expected, cuts=[64]))["cut at 64"] == [b"a" * 64, expected.data[64:]]


def test_descriptions_shorten_runs_of_one_value() -> None:
    assert describe_text("a" * 4094 + "€") == "U+0061*4094 U+20AC"
    assert describe_bytes(b"a" * 7 + b"\xe2") == "61 61 61 61 61 61 61 E2"
    assert describe_bytes(b"") == "(no bytes)"
    assert describe_text("") == "(empty text)"
    assert describe_bytes(bytes(range(256)) * 2).endswith(" …")


def test_every_decoding_capability_has_a_comparison_and_encoding_its_own() -> None:
    capabilities: list[Capability] = ["decode", "replace", "validate", "incremental"]
    for capability in capabilities:
        assert compare(always(Failed("crash", "x")), capability, NIHONGO, LABEL)
    with pytest.raises(ValueError, match="compare_encode"):
        compare(always(Failed("crash", "x")), "encode", NIHONGO, LABEL)
