"""Dialect profiles: each published definition's own examples, and codecs written by hand from
those definitions (tests/support/dialect_codecs.py) that pass their profile, fail RFC 3629 with a
fingerprint naming it, and fail the profile on exactly one added deviation."""

from __future__ import annotations

import dataclasses
import re
from functools import cache

import pytest

from utf8cert.harness.check.expected import Decoded, encoding_for, expectation_for
from utf8cert.harness.check.fingerprint import fingerprint
from utf8cert.harness.check.profiles import PROFILES, profile_named
from utf8cert.harness.check.report import Report
from utf8cert.harness.check.run import run_check
from utf8cert.harness.codec.interface import Capability
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import DecodeVector, VectorSet
from utf8cert.harness.world.catalog import PYTHON_ADAPTERS
from utf8cert.harness.world.spec import load_codec

DIALECTS = {
    "python-surrogatepass": "Surrogatepass",
    "wtf-8": "Wtf8",
    "cesu-8": "Cesu8",
    "java-modified": "JavaModified",
    "rfc2279": "Rfc2279",
    "whatwg": "Whatwg",
}
"""Each profile and the hand-written codec of its dialect."""

QUICK_DIALECTS = frozenset({"whatwg", "python-surrogatepass", "cesu-8"})
"""The dialects whose codecs are quick to check whole (1.6 to 3 CPU-s): the default tier's."""

ONE_SHOT: tuple[Capability, ...] = ("decode", "replace", "validate", "encode")
"""The incremental decoders of dialect_codecs buffer to the end: nothing more to learn there."""
TOUCHED = ("sur", "ovl", "sec", "enc", "bom", "wf", "rfc", "leg", "oor", "bnd", "u39")
"""Vector families where the dialects differ from RFC 3629 or each other (and some controls)."""


@cache
def vectors() -> VectorSet:
    return load_vectors()


@cache
def touched() -> VectorSet:
    return VectorSet(
        tuple(
            dataclasses.replace(
                part, vectors=tuple(v for v in part.vectors if v.id.startswith(TOUCHED))
            )
            for part in vectors().files
        )
    )


@cache
def report(codec: str, profile: str, every_vector: bool = True) -> Report:
    loaded = load_codec(f"support.dialect_codecs:{codec}")
    chosen = vectors() if every_vector else touched()
    return run_check(loaded, chosen, only=ONE_SHOT, profile=PROFILES[profile])


def decoded(profile: str, hex_bytes: str) -> Decoded | None:
    """Return what the profile expects strict decoding to give (None: a refusal)."""
    return profile_named(profile).expect(expectation_for(bytes.fromhex(hex_bytes))).text


def encoded(profile: str, values: list[int]) -> str | None:
    """Return the hex the profile expects of an encoder (None: a refusal)."""
    written = profile_named(profile).expect_encoding(encoding_for(values)).encoded
    return None if written is None else written.hex(" ")


def test_wtf8_reads_lone_surrogates_and_joins_pairs_as_its_specification_says() -> None:
    # simonsapin.github.io/wtf-8: Table 1 (surrogate byte sequences ED A0..BF 80..BF); a
    # surrogate pair byte sequence is ill-formed; encoding joins a lead and a trail surrogate.
    assert decoded("wtf-8", "ed a0 80") == "\ud800"
    assert decoded("wtf-8", "ed b0 80 41") == "\udc00A"
    assert decoded("wtf-8", "ed a0 bd ed b8 80") is None
    assert decoded("wtf-8", "f0 9f 98 80") == "\U0001f600"
    assert encoded("wtf-8", [0xD83D, 0xDE00]) == "f0 9f 98 80"
    assert encoded("wtf-8", [0xD800, 0x41]) == "ed a0 80 41"
    assert encoded("wtf-8", [0x110000]) is None


def test_cesu8_writes_supplementary_characters_as_in_technical_report_26() -> None:
    # Unicode TR #26, section 2: U+10400 is F0 90 90 80 in UTF-8, ED A0 81 ED B0 80 in CESU-8.
    assert encoded("cesu-8", [0x10400]) == "ed a0 81 ed b0 80"
    assert decoded("cesu-8", "ed a0 81 ed b0 80") == "\U00010400"
    assert decoded("cesu-8", "f0 90 90 80") is None
    assert decoded("cesu-8", "ed a0 81") is None  # a lone surrogate is ill-formed
    assert encoded("cesu-8", [0xD800]) is None
    assert encoded("cesu-8", [0x41, 0x20AC]) == "41 e2 82 ac"  # the BMP as in UTF-8


def test_java_modified_utf8_is_what_the_datainput_documentation_describes() -> None:
    # java.io.DataInput: "the null character '\u0000' is encoded in 2-byte format rather than
    # 1-byte"; "only the 1-byte, 2-byte, and 3-byte formats are used"; "supplementary
    # characters are represented in the form of surrogate pairs".
    assert encoded("java-modified", [0]) == "c0 80"
    assert decoded("java-modified", "c0 80") == "\0"
    assert encoded("java-modified", [0x1F600]) == "ed a0 bd ed b8 80"
    assert decoded("java-modified", "ed a0 bd ed b8 80") == "\U0001f600"
    assert decoded("java-modified", "f0 9f 98 80") is None
    assert decoded("java-modified", "c0 af") is None  # only C0 80 of the overlong forms


def test_rfc2279_reads_surrogates_as_values_and_writes_up_to_0x7fffffff() -> None:
    # RFC 2279 §2's table: 1 to 6 octets up to 0x7FFFFFFF (seeds/004_*.txt); §6 rejects
    # overlong forms (its C0 80 example), so they stay ill-formed.
    # §4's first example: "A<NOT IDENTICAL TO><ALPHA>." is 41 E2 89 A2 CE 91 2E.
    assert encoded("rfc2279", [0x41, 0x2262, 0x391, 0x2E]) == "41 e2 89 a2 ce 91 2e"
    assert decoded("rfc2279", "41 e2 89 a2 ce 91 2e") == "A\u2262\u0391."
    assert decoded("rfc2279", "ed a0 80") == "\ud800"
    assert encoded("rfc2279", [0x7FFFFFFF]) == "fd bf bf bf bf bf"
    assert encoded("rfc2279", [0x200000]) == "f8 88 80 80 80"
    assert encoded("rfc2279", [0x80000000]) is None
    assert decoded("rfc2279", "c0 80") is None


def test_rfc2279_reads_every_row_of_its_table_in_the_shortest_form_only() -> None:
    # RFC 2279 §2's table, the first and last value of each row RFC 3629 §3 took away (values
    # above U+10FFFF, which no str holds: code points); §6: shortest forms only.
    assert decoded("rfc2279", "f4 90 80 80") == (0x110000,)
    assert decoded("rfc2279", "41 f7 bf bf bf") == (0x41, 0x1FFFFF)
    assert decoded("rfc2279", "f8 88 80 80 80") == (0x200000,)
    assert decoded("rfc2279", "fb bf bf bf bf") == (0x3FFFFFF,)
    assert decoded("rfc2279", "fc 84 80 80 80 80") == (0x4000000,)
    assert decoded("rfc2279", "fd bf bf bf bf bf") == (0x7FFFFFFF,)
    for form in ("f0 8f bf bf", "f8 87 bf bf bf", "fc 83 bf bf bf bf", "c1 bf"):
        assert decoded("rfc2279", form) is None, form
    assert decoded("rfc2279", "fe") is None  # no row of the table begins with FE or FF
    # A form cut short is one maximal subpart (Unicode §3.9 D93b on RFC 2279's table).
    rfc2279 = profile_named("rfc2279")
    cut = rfc2279.expect(expectation_for(bytes.fromhex("41 f8 88 80 80 42")), "replace")
    assert cut.replaced == "A\ufffdB"
    assert [(e.offset, e.length) for e in cut.errors] == [(1, 4)]
    # An overlong F8 form: F8 alone, then four stray continuation bytes, as RFC 3629 reads it.
    overlong = rfc2279.expect(expectation_for(bytes.fromhex("f8 80 80 80 80")), "replace")
    assert overlong.replaced == "\ufffd" * 5
    mixed = rfc2279.expect(expectation_for(bytes.fromhex("f4 90 80 80 ff")), "replace")
    assert mixed.replaced == (0x110000, 0xFFFD)


def test_whatwg_skips_a_leading_bom_and_encodes_usvstrings() -> None:
    # Encoding Standard "UTF-8 decode" skips a leading BOM; WebIDL's USVString conversion
    # makes a lone surrogate U+FFFD before "UTF-8 encode".
    assert decoded("whatwg", "ef bb bf 41") == "A"
    assert decoded("whatwg", "41 ef bb bf") == "A\ufeff"
    assert encoded("whatwg", [0x41, 0xD800]) == "41 ef bf bd"
    assert encoded("whatwg", [0xD83D, 0xDE00]) == "f0 9f 98 80"


def test_every_profile_leaves_well_formed_utf8_and_other_errors_as_rfc3629_reads_them() -> None:
    expected = expectation_for(bytes.fromhex("41 e2 82 ac c0 af e0 80 af fe 80"))
    beyond = expectation_for(bytes.fromhex("41 f5 80"))  # RFC 2279 reads a cut 4-octet form
    for profile in PROFILES.values():
        assert profile.expect(expected) is expected, profile.name
        assert (profile.expect(beyond) is beyond) != (profile.name == "rfc2279"), profile.name
        assert profile.waives or profile.is_reference, profile.name


@pytest.mark.parametrize(
    "profile",
    [
        pytest.param(name, marks=[] if name in QUICK_DIALECTS else [pytest.mark.slow])
        for name in DIALECTS
    ],
)
def test_a_codec_of_the_dialect_passes_its_profile_on_every_vector(profile: str) -> None:
    checked = report(DIALECTS[profile], profile)
    assert checked.differences == []
    assert checked.allowed, "the dialect differs from RFC 3629 somewhere"
    assert checked.certified
    assert checked.verdict().startswith(
        f"conformant to the {profile} profile; differs from RFC 3629 only in the ways"
    )


@pytest.mark.parametrize("profile", DIALECTS)
@pytest.mark.slow
def test_without_its_profile_the_codec_fails_with_a_fingerprint_naming_it(profile: str) -> None:
    checked = report(DIALECTS[profile], "rfc3629", every_vector=False)
    assert not checked.conformant
    likeness = checked.fingerprint()
    assert profile in likeness.fitting
    assert "behaves like" in checked.verdict()
    assert PROFILES[profile].title in checked.verdict()


@pytest.mark.parametrize("profile", DIALECTS)
def test_one_more_deviation_fails_the_profile_on_exactly_that_one(profile: str) -> None:
    checked = report(DIALECTS[profile] + "Plus", profile, every_vector=False)
    musts = [d for d in checked.differences if d.level == "must"]
    assert musts
    assert {(d.capability, d.what) for d in musts} == {("decode", "accepted ill-formed input")}
    for difference in checked.differences:  # and what follows from it: later offsets move
        assert isinstance(difference.input, bytes) and b"\xc0\xaf" in difference.input


@pytest.mark.slow
def test_cpython_surrogatepass_passes_its_profile_on_every_capability() -> None:
    codec = load_codec("codec:utf-8:surrogatepass")
    checked = run_check(codec, vectors(), profile=PROFILES["python-surrogatepass"])
    assert checked.differences == []
    assert checked.certified
    assert "incremental" in checked.capabilities


def test_a_dialect_with_one_more_deviation_is_closest_to_its_profile_with_the_rest_named() -> None:
    checked = report("Cesu8Plus", "rfc3629", every_vector=False)
    likeness = checked.fingerprint()
    assert likeness.fitting == ()
    assert likeness.closest == "cesu-8"
    assert likeness.left_over.keys() == {"accepted ill-formed input"}  # C0 AF read as "/"
    assert likeness.explained + sum(likeness.left_over.values()) == likeness.total
    assert "closest to CESU-8" in checked.verdict()


def test_a_codec_no_dialect_explains_is_told_so() -> None:
    codec = load_codec("support.broken_codecs:NormalizingDecoder")  # no dialect normalizes text
    checked = run_check(codec, touched(), only=("decode",))
    assert not checked.conformant
    assert checked.fingerprint().closest is None
    assert checked.fingerprint().sentence() == (
        "no dialect profile explains most of its must differences"
    )
    assert "no dialect profile explains" in checked.verdict()


@pytest.mark.slow
def test_a_codec_stricter_than_a_profile_somewhere_is_not_said_to_fit_it() -> None:
    # Every must difference of a reader of RFC 2279's long forms that refuses surrogates is one
    # RFC 2279 allows; but RFC 2279 reads surrogates, so --profile rfc2279 would fail it.
    checked = run_check(
        load_codec("support.dialect_codecs:BeyondUnicode"), touched(), only=("decode",)
    )
    likeness = checked.fingerprint()
    assert likeness.total and likeness.fitting == ()
    assert likeness.closest == "rfc2279" and likeness.explained == likeness.total
    # Named by what the codec did (it refused), not by RFC 2279's judgement of it.
    where, did = likeness.contradicted.split(": ")
    assert did.startswith("refused")
    named = {v.id: v for v in vectors()}[where.split(", ")[0]]
    assert isinstance(named, DecodeVector)
    assert re.search(rb"\xed[\xa0-\xbf][\x80-\xbf]", named.data), "an encoded surrogate"
    assert "does as RFC 3629 where RFC 2279 UTF-8 differs" in checked.verdict()
    under = run_check(
        load_codec("support.dialect_codecs:BeyondUnicode"),
        touched(),
        only=("decode",),
        profile=PROFILES["rfc2279"],
    )
    assert {d.what for d in under.differences if d.level == "must"} == {
        "rejected well-formed input"
    }
    assert {d.vector[:4] for d in under.differences} <= {"sur-", "sec-", "bnd-", "u39-"}


def test_glibc_reads_the_long_forms_as_rfc_2279_does_and_refuses_surrogates() -> None:
    adapter = PYTHON_ADAPTERS["glibc-mbrtowc"]
    if (reason := adapter.unavailable()) is not None:
        pytest.skip(f"adapter:glibc-mbrtowc is unavailable here: {reason}")
    codec = load_codec("adapter:glibc-mbrtowc")
    checked = run_check(codec, touched(), only=("decode",), profile=PROFILES["rfc2279"])
    # Values above U+10FFFF, in four to six octets, are RFC 2279's reading: no difference left.
    assert not any(d.vector.startswith(("leg-", "oor-")) for d in checked.differences)
    musts = {d.what for d in checked.differences if d.level == "must"}
    assert musts == {"rejected well-formed input"}  # the surrogates RFC 2279 reads
    assert "closest to RFC 2279 UTF-8" in run_check(codec, touched(), only=("decode",)).verdict()


def test_a_profile_explaining_half_or_fewer_of_the_must_differences_is_no_likeness() -> None:
    # A surrogatepass-like decoder that also crashes on 131 vectors: surrogatepass explains 118
    # of its 249 must differences, which says nothing of what the codec is like.
    crashes = [("crashed", ())] * 131
    passing = [("let ill-formed input through", ("python-surrogatepass",))] * 118
    assert fingerprint([*passing, *crashes]).closest is None
    assert fingerprint([*passing, *crashes]).sentence() == (
        "no dialect profile explains most of its must differences"
    )
    most = fingerprint([*passing, *crashes[:10]])
    assert most.closest == "python-surrogatepass"
    assert most.sentence().startswith("closest to CPython")
    assert "(118 of 128 must differences explained)" in most.sentence()
