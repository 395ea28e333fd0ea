"""A verdict means what it says: coverage counted per capability, each difference graded in the
RFC's words, a signature's freedom kept to the signature, one input judged alone."""

from __future__ import annotations

import json
import re
import shlex
import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import pytest
from support.declining_codecs import Declining, any_surrogate, over_64_kib
from support.samples import few_of_each_kind, options

from utf8cert.harness.check.compare import compare_decode, compare_encode, compare_replace
from utf8cert.harness.check.coverage import THRESHOLD
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.expected import ExpectedEncoding, expectation_for
from utf8cert.harness.check.profiles import PROFILES
from utf8cert.harness.check.report import Report
from utf8cert.harness.check.run import run_check
from utf8cert.harness.check.schedule import DEPTHS, Depth
from utf8cert.harness.cli.main import main
from utf8cert.harness.codec.interface import (
    CAPABILITIES,
    Capability,
    Codec,
    Outcome,
    Refused,
    Returned,
)
from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import DecodeVector, VectorSet
from utf8cert.reference import SIGNATURE

PROGRAMS = Path(__file__).parent.parent / "support" / "scripted_programs.py"
LABEL = ("input", "as-is")


def program(mode: str) -> str:
    return f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(PROGRAMS))} {mode}"


@cache
def vectors() -> VectorSet:
    return load_vectors()


def check_with(codec: Codec) -> Report:
    try:
        return run_check(codec, vectors())
    finally:
        codec.close()


class Always:
    """A codec that gives one outcome to every question of every capability."""

    spec, description = "always", "one answer to everything"
    capabilities: frozenset[Capability] = frozenset(CAPABILITIES)

    def __init__(self, outcome: Outcome) -> None:
        self.outcome = outcome

    def decode(self, data: bytes) -> Outcome:
        return self.outcome

    def decode_replace(self, data: bytes) -> Outcome:
        return self.outcome

    def validate(self, data: bytes) -> Outcome:
        return self.outcome

    def encode(self, scalars: Sequence[int]) -> Outcome:
        return self.outcome

    def decode_chunks(self, chunks: Sequence[bytes], final_empty: bool) -> Outcome:
        return self.outcome

    def close(self) -> None:
        pass


def test_a_program_that_answers_inapplicable_to_everything_is_never_conformant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A few vectors of each kind: every capability is asked, and never answered.
    report, few = tmp_path / "report.json", options(few_of_each_kind())
    assert main(["check", program("inapplicable"), *few, "--json", str(report)]) == 1
    out = capsys.readouterr().out
    assert "NOT certified: the codec answered no question" in " ".join(out.split())
    assert "recommended practice" not in out  # it answered nothing to follow it in
    document = json.loads(report.read_text(encoding="utf-8"))
    assert document["certified"] is False
    assert document["summary"]["conformant"] is False
    for capability in ("decode", "replace", "validate", "encode", "incremental"):
        coverage = document["coverage"][capability]
        assert coverage["answered"] == 0
        assert coverage["asked"] > 0
        assert coverage["inapplicable"] == {"this program answers nothing": coverage["asked"]}


@pytest.mark.slow
def test_a_codec_that_declines_every_surrogate_is_not_certified_to_encode() -> None:
    checked = check_with(Declining(refuses=any_surrogate))
    assert checked.differences == []
    assert checked.conformant and not checked.covered
    assert checked.coverage.uncertified() == ["encode"]
    encode = checked.coverage.of("encode")
    assert encode.inapplicable["cannot carry a surrogate"] > 0
    assert encode.share < THRESHOLD
    assert "not certified for encode" in checked.verdict()


@pytest.mark.parametrize(
    "depth",
    [pytest.param(depth, marks=[pytest.mark.slow] if depth == "full" else []) for depth in DEPTHS],
)
def test_a_codec_that_declines_every_input_over_64_kib_is_not_certified_to_decode(
    depth: Depth,
) -> None:
    # The default depth gives the 65536-byte straddle to a few vectors only: there incremental
    # declines about 1% of its questions, which the overall share may let pass. The layout
    # rule does not: those vectors are answered as they are and declined only once moved.
    # (Full depth, where every vector straddles 65536 bytes, costs a whole sweep: slow.)
    codec = Declining(declines=over_64_kib)
    try:
        checked = run_check(codec, vectors(), depth=depth)
    finally:
        codec.close()
    decoding: set[Capability] = {"decode", "replace", "validate", "incremental"}
    assert set(checked.coverage.uncertified()) == decoding, depth
    for capability in decoding:
        coverage = checked.coverage.of(capability)
        assert coverage.declined_layouts == ["straddle-65536"], (depth, capability)
        declined = coverage.layout_declined["straddle-65536"]
        assert declined == coverage.layout_asked["straddle-65536"] > 0
    # At full depth every vector straddles 65536 bytes, and the share says it already.
    assert depth == "full" or re.search(
        r"not certified for incremental \((\d+\.\d% of its questions answered, below 99%; )?"
        r"declines inputs it answers as they are, once laid out as straddle-65536 \(",
        checked.verdict(),
    )


@pytest.mark.slow
def test_a_codec_that_declines_a_few_inputs_is_certified_with_the_count_shown() -> None:
    checked = check_with(Declining(declines=lambda data: b"\xef\xbf\xbe" in data))  # U+FFFE
    assert checked.certified
    decode = checked.coverage.of("decode")
    assert 0 < decode.inapplicable["declined"] < decode.asked * (1 - THRESHOLD)
    assert decode.summary() == (
        f"{decode.answered} of {decode.asked} answered; {decode.inapplicable['declined']} "
        "inapplicable"
    )


def test_cpython_is_certified_though_it_cannot_be_offered_values_above_u10ffff() -> None:
    checked = check_with(load_codec("codec:utf-8"))
    encode = checked.coverage.of("encode")
    assert encode.beyond_code_space == sum(encode.inapplicable.values()) > 0
    assert encode.certified and checked.certified
    assert not checked.coverage.of("validate").offered  # CPython has no validator


SURROGATE_PAIR = ExpectedEncoding((0x41, 0xD83D, 0xDE00), None, 1)


def test_an_encoder_that_substitutes_for_an_unencodable_value_departs_at_should() -> None:
    # Java's getBytes writes "?", WHATWG's TextEncoder U+FFFD: refused by substitution.
    lone = ExpectedEncoding((0x41, 0xD800, 0x42), None, 1)
    for written in (b"A?B", b"A\xef\xbf\xbdB"):
        (difference,) = compare_encode(Always(Returned(written)), lone, LABEL)
        assert (difference.level, difference.what) == (
            "should",
            "substituted a character for an unencodable value",
        )
    (dropped,) = compare_encode(Always(Returned(b"AB")), lone, LABEL)
    assert (dropped.level, dropped.what) == ("must", "dropped an unencodable value")


def test_an_encoder_that_joins_a_surrogate_pair_is_named_so_at_must() -> None:
    # ICU and SQLite write U+1F600 for the code points D83D DE00.
    (difference,) = compare_encode(Always(Returned(b"A\xf0\x9f\x98\x80")), SURROGATE_PAIR, LABEL)
    assert (difference.level, difference.what) == ("must", "joined a surrogate pair")


def test_a_decoder_that_returns_0x110000_accepted_ill_formed_input(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", program("beyond"), "--input", "f4 90 80 80"]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "[decode, as-is] must: accepted ill-formed input" in out
    assert "codec: U+110000" in out


def rfc2279_differences(
    answer: Returned | Refused, hex_bytes: str, replace: bool = False
) -> list[Difference]:
    """Return the differences from the rfc2279 profile (less those it allows) of one answer."""
    compare = compare_replace if replace else compare_decode
    found = compare(
        Always(answer), expectation_for(bytes.fromhex(hex_bytes)), LABEL, PROFILES["rfc2279"]
    )
    return [difference for difference in found if not difference.allowed_by]


def test_values_above_u10ffff_are_judged_by_code_point_under_rfc_2279() -> None:
    # RFC 2279 §2 reads F4 90 80 80 as 0x110000 and F8 88 80 80 80 as 0x200000; no str holds
    # them, so the profile's expectation and the codec's answer are code points.
    data = "41 f4 90 80 80 f8 88 80 80 80"
    assert rfc2279_differences(Returned((0x41, 0x110000, 0x200000)), data) == []
    (wrong,) = rfc2279_differences(Returned((0x41, 0x110000, 0x200001)), data)
    assert (wrong.level, wrong.what, wrong.marks) == ("must", "wrong text", ((5, 10),))
    assert wrong.expected == "U+0041 U+110000 U+200000"
    (refused,) = rfc2279_differences(Refused("no", 1), data)
    assert (refused.level, refused.what) == ("must", "rejected well-formed input")
    (strict,) = rfc2279_differences(Returned("A"), data)
    assert (strict.level, strict.what) == ("must", "lost the end of the text")
    # One U+FFFD per maximal subpart of RFC 2279's table: F8 88 80 cut short by 41 is one.
    cut = "f4 90 80 80 f8 88 80 41"
    assert rfc2279_differences(Returned((0x110000, 0xFFFD, 0x41)), cut, replace=True) == []
    three = Returned((0x110000, 0xFFFD, 0xFFFD, 0xFFFD, 0x41))
    (count,) = rfc2279_differences(three, cut, replace=True)
    assert (count.level, count.what) == ("should", "wrong U+FFFD count")
    (made,) = rfc2279_differences(Returned((0x110000, 0x3FFFF, 0x41)), cut, replace=True)
    assert (made.level, made.what) == ("must", "decoded ill-formed bytes as characters")


class SignatureStripper(Always):
    """Always the one outcome, but for the signature alone, which it strips."""

    def decode(self, data: bytes) -> Outcome:
        return Returned("") if data == SIGNATURE else self.outcome


def test_a_signature_is_graded_may_alone_and_a_wrong_fffd_count_keeps_should() -> None:
    # bom-11 EF BB BF C0 AF: a signature, then an overlong slash (two maximal subparts). The
    # codec strips the signature (may) and writes one U+FFFD for both (should), as lxml's
    # recover mode does.
    vector = next(v for v in vectors() if v.id == "bom-11")
    assert isinstance(vector, DecodeVector)
    expected = expectation_for(vector.data, vector.levels)
    (difference,) = compare_replace(Always(Returned("\ufffd")), expected, LABEL)
    assert (difference.level, difference.what) == ("should", "wrong U+FFFD count")
    (stripped,) = compare_replace(Always(Returned("\ufffd\ufffd")), expected, LABEL)
    assert (stripped.level, stripped.what) == ("may", "signature stripped")
    (offset,) = compare_decode(Always(Refused("no", 4)), expected, LABEL)  # the error is at 3
    assert (offset.level, offset.what) == ("should", "wrong error offset")
    # 0 counted after EF BB BF: the signature's doing for a decoder that strips it (it reads
    # EF BB BF as ''), a wrong offset for one that does not (it refuses even that).
    (after,) = compare_decode(SignatureStripper(Refused("no", 0)), expected, LABEL)
    assert (after.level, after.what) == ("may", "error offset counted after the signature")
    (kept,) = compare_decode(Always(Refused("no", 0)), expected, LABEL)
    assert (kept.level, kept.what) == ("should", "wrong error offset")


def test_one_input_shows_the_reference_answer_beside_the_codec_for_each_capability(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", "codec:utf-8", "--input", "e2 82 ac"]) == 0
    out = capsys.readouterr().out
    for capability in ("decode", "replace", "incremental"):
        assert f"{capability} of e2 82 ac:\n  reference: U+20AC\n  codec:     U+20AC" in out
    assert "encode of U+20AC:\n  reference: E2 82 AC\n  codec:     E2 82 AC" in out
    assert "on input e2 82 ac: conformant to RFC 3629" in " ".join(out.split())


@pytest.mark.slow
def test_the_readme_profile_command_passes_cpython_surrogatepass(tmp_path: Path) -> None:
    report, certificate = tmp_path / "report.json", tmp_path / "CERTIFICATE.md"
    arguments = ["--json", str(report), "--markdown", str(certificate)]
    assert (
        main(
            ["check", "codec:utf-8:surrogatepass", "--profile", "python-surrogatepass", *arguments]
        )
        == 0
    )
    document = json.loads(report.read_text(encoding="utf-8"))
    assert document["profile"]["name"] == "python-surrogatepass"
    assert document["profile"]["allowed"] > 0
    assert document["profile"]["waives"] == [
        "RFC 3629 §3: surrogates (U+D800..U+DFFF) are not encoded or decoded"
    ]
    assert document["coverage"]["decode"]["certified"] is True
    markdown = certificate.read_text(encoding="utf-8")
    assert "conformant to the python-surrogatepass profile" in markdown
    asked = document["coverage"]["decode"]["asked"]
    assert f"decode: {asked} of {asked} answered (100.0% of those counted): certified" in markdown


@pytest.mark.slow
def test_without_the_profile_the_verdict_names_the_dialect(tmp_path: Path) -> None:
    # A few vectors of each kind: the surrogates they hold are what the dialect explains.
    report, few = tmp_path / "report.json", options(few_of_each_kind())
    assert main(["check", "codec:utf-8:surrogatepass", *few, "--json", str(report)]) == 1
    fingerprint = json.loads(report.read_text(encoding="utf-8"))["fingerprint"]
    assert "python-surrogatepass" in fingerprint["fitting"]
    assert fingerprint["sentence"].startswith("behaves like CPython surrogatepass")


CONTRADICTION = re.compile(r"does as RFC 3629 where .+ differs \(([\w-]+), (\w+): ([^)]+)\)")


@pytest.mark.parametrize(
    "name", ["SurrogateWritingEncoder", "LaxRangeValidator", "Cesu8Decoder", "NaiveBitDecoder"]
)
@pytest.mark.slow
def test_the_verdict_names_only_what_the_codec_did(name: str) -> None:
    # Each of these codecs is closest to a dialect (or to none) and does as RFC 3629 somewhere
    # that dialect differs: the verdict said "rejected well-formed input: bnd-32" of a codec
    # that rejected no well-formed input. It now names the act, which the codec class itself,
    # asked directly, must confirm; and every act the verdict names is one some difference shows.
    from support import broken_codecs

    checked = check_with(load_codec(f"support.broken_codecs:{name}"))
    verdict = checked.verdict()
    named = set(re.findall(r"([a-z][a-z -]+[a-z]) \(\d+\)", verdict.split("left over: ")[-1]))
    assert named <= {difference.what for difference in checked.differences}, verdict
    if "rejected well-formed input" in verdict:
        assert any(d.what == "rejected well-formed input" for d in checked.differences)
    contradiction = CONTRADICTION.search(verdict)
    if contradiction is None:
        return
    vector_id, capability, act = contradiction.groups()
    vector = next(v for v in vectors() if v.id == vector_id)
    assert isinstance(vector, DecodeVector)
    data = vector.data
    codec = getattr(broken_codecs, name)()
    if capability == "validate":
        assert act == f"said {codec.validate(data)}"
    else:
        assert capability in ("decode", "incremental")
        with pytest.raises(UnicodeDecodeError) as refused:
            codec.decode(data)
        assert act == f"refused at {refused.value.start}"
