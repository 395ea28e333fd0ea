"""The later Python adapters of the catalog (test_adapters.py's MORE) against the real
libraries: each library called directly (the independent evidence) and the adapter's outcome
agree, and utf8cert finds each library's known defect at its level, or passes what the library
does right. A missing library is skipped: each test asks the adapter first (`available`), then
imports the library through importorskip."""

from __future__ import annotations

import json
import subprocess

import pytest

from utf8cert.harness import Refused, load_codec
from utf8cert.harness.check.compare import compare, compare_encode
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.expected import encoding_for, expectation_for
from utf8cert.harness.codec.interface import Capability, Codec, Returned
from utf8cert.harness.world.catalog import PYTHON_ADAPTERS


def available(name: str) -> Codec:
    reason = PYTHON_ADAPTERS[name].unavailable()
    if reason is not None:
        pytest.skip(f"adapter:{name} is unavailable here: {reason}")
    return load_codec(f"adapter:{name}")


def kinds(differences: list[Difference]) -> set[tuple[str, str, str]]:
    return {(d.capability, d.level, d.what) for d in differences}


def check(codec: Codec, capability: Capability, data: bytes) -> set[tuple[str, str, str]]:
    return kinds(compare(codec, capability, expectation_for(data)))


def check_encode(codec: Codec, *values: int) -> set[tuple[str, str, str]]:
    return kinds(compare_encode(codec, encoding_for(values), ("input", "as-is")))


def test_ftfy_reads_java_and_cesu_forms_and_misplaces_its_errors() -> None:
    codec = available("ftfy-utf8-variants")
    # ftfy's documentation: utf-8-variants reads C0 80 as U+0000 and CESU-8 surrogate pairs.
    assert codec.decode(b"\xc0\x80\xed\xa0\xbd\xed\xb8\x80") == Returned("\x00\U0001f600")
    assert check(codec, "decode", b"\xc0\x80") == {("decode", "must", "accepted ill-formed input")}
    # The defect: the error in 61 ED A0 is at byte 1 (CPython's own codec says so); ftfy says 0.
    with pytest.raises(UnicodeDecodeError) as cpython:
        b"a\xed\xa0".decode("utf-8")
    assert cpython.value.start == 1
    with pytest.raises(UnicodeDecodeError) as ftfy:
        b"a\xed\xa0".decode("utf-8-variants")
    assert ftfy.value.start == 0
    assert codec.decode(b"a\xed\xa0") == Refused(f"UnicodeDecodeError: {ftfy.value}", 0)
    assert check(codec, "decode", b"a\xed\xa0") == {("decode", "should", "wrong error offset")}


def test_expat_refuses_at_the_byte_its_column_names() -> None:
    codec = available("pyexpat")
    assert codec.decode(b"\xe2\x82\xacb\xc0\xaf") == Refused(
        "ExpatError: not well-formed (invalid token): line 1, column 5", 4
    )
    assert check(codec, "decode", b"\xe2\x82\xacb\xc0\xaf") == set()


def test_lxml_html_replaces_byte_by_byte() -> None:
    codec = available("lxml-html")
    etree = pytest.importorskip("lxml.etree")
    document = b'<meta charset="utf-8"><p>x\xe2\x82</p>'
    direct = etree.fromstring(document, etree.HTMLParser(encoding="utf-8")).find(".//p").text
    assert codec.decode_replace(b"x\xe2\x82") == Returned(direct) == Returned("x\ufffd\ufffd")
    assert check(codec, "replace", b"x\xe2\x82") == {("replace", "should", "wrong U+FFFD count")}


def test_pysimdjson_places_every_error_at_position_zero() -> None:
    codec = available("pysimdjson")
    simdjson = pytest.importorskip("simdjson")
    with pytest.raises(UnicodeDecodeError) as direct:
        simdjson.Parser().parse(b'"abc\xff"')
    assert direct.value.start == 0  # the byte at fault is the string's fourth
    assert codec.decode(b"abc\xff") == Refused(f"UnicodeDecodeError: {direct.value}", 0)
    assert check(codec, "decode", b"abc\xff") == {("decode", "should", "wrong error offset")}
    assert check(codec, "decode", b"\xff") == set()


def test_sqlite3_on_a_utf8_database_refuses_through_cpythons_codec() -> None:
    codec = available("sqlite3-text")
    outcome = codec.decode(b"a\xff")
    assert isinstance(outcome, Refused) and outcome.offset is None
    assert "Could not decode to UTF-8" in outcome.message
    assert check(codec, "decode", b"\xed\xa0\x80") == set()


def test_ujson_dumps_writes_a_lone_surrogate() -> None:
    codec = available("ujson-dumps")
    ujson = pytest.importorskip("ujson")
    assert ujson.dumps("A\ud800", ensure_ascii=False) == '"A\ud800"'
    assert codec.encode([0x41, 0xD800]) == Returned(b"A\xed\xa0\x80")
    assert check_encode(codec, 0x41, 0xD800) == {("encode", "must", "encoded a surrogate")}


@pytest.mark.parametrize("name", ["msgpack-replace", "cbor2-replace"])
def test_the_replacing_modes_replace_by_maximal_subparts(name: str) -> None:
    codec = available(name)
    assert codec.decode_replace(b"x\xe2\x82\xff") == Returned("x\ufffd\ufffd")
    assert check(codec, "replace", b"\xf0\x80\x80\xaf") == set()


def test_glibc_refuses_to_write_a_surrogate_and_keeps_nul() -> None:
    codec = available("glibc-wcrtomb")
    assert codec.encode([0x41, 0x00, 0x20AC]) == Returned(b"A\x00\xe2\x82\xac")
    assert codec.encode([0x41, 0x42, 0xDFFF]) == Refused("wcsrtombs: EILSEQ", 2)
    assert check_encode(codec, 0x41, 0xD800) == set()


def test_sqlite_encoder_joins_a_lone_high_surrogate_with_the_next_character() -> None:
    codec = available("sqlite-encode")
    # SQLite reads D800 0042 as a surrogate pair: the "B" is lost in U+10042 (F0 90 81 82).
    assert codec.encode([0x41, 0xD800, 0x42]) == Returned(b"A\xf0\x90\x81\x82")
    assert ("encode", "must", "wrote other text for an unencodable value") in check_encode(
        codec, 0x41, 0xD800, 0x42
    )
    assert codec.encode([0x41, 0x20AC]) == Returned(b"A\xe2\x82\xac")


def test_icu_substitutes_for_a_lone_surrogate() -> None:
    codec = available("pyicu-encode")
    icu = pytest.importorskip("icu")
    assert bytes(icu.UnicodeString("A\ud800").encode("utf-8")) == b"A\xef\xbf\xbd"
    assert codec.encode([0x41, 0xD800]) == Returned(b"A\xef\xbf\xbd")
    assert check_encode(codec, 0x41, 0xD800) == {
        ("encode", "should", "substituted a character for an unencodable value")
    }


def test_sqlite_decoder_loses_the_character_before_a_stray_continuation_byte() -> None:
    """The issue's SQLite defect, seen through catalog.py's `sqlite` adapter (bind_text as UTF-8,
    column_text16): C3 A9 80 becomes U+3A40, the "é" lost."""
    reason = PYTHON_ADAPTERS["sqlite"].unavailable()
    if reason is not None:
        pytest.skip(reason)
    codec = load_codec("adapter:sqlite")
    assert codec.decode_replace(b"\xc3\xa9\x80") == Returned("\u3a40")
    assert ("replace", "must", "lost well-formed characters") in check(
        codec, "replace", b"\xc3\xa9\x80"
    )


def test_pyjson5_reads_an_overlong_nul_a_surrogate_and_crashes_above_u_10ffff() -> None:
    codec = available("pyjson5")
    pyjson5 = pytest.importorskip("pyjson5")

    assert pyjson5.decode_utf8(b'"\xc0\x80"') == "\x00"  # the library itself
    assert pyjson5.decode_utf8(b'"\xed\xa0\x80"') == "\ud800"
    with pytest.raises(SystemError):
        pyjson5.decode_utf8(b'"\xf4\x90\x80\x80"')
    assert check(codec, "decode", b"\xc0\x80") == {("decode", "must", "accepted ill-formed input")}
    assert check(codec, "decode", b"\xf4\x90\x80\x80") == {("decode", "must", "crashed")}


def test_jq_drops_the_characters_a_lead_byte_near_the_end_of_a_string_promised() -> None:
    codec = available("jq")

    def explode(document: bytes) -> object:
        done = subprocess.run(["jq", "-c", "explode"], input=document, capture_output=True)
        return json.loads(done.stdout)

    # jq itself: E0 then a space at the end of the string is one U+FFFD, the space gone; with
    # one more byte after them, the space is kept.
    assert explode(b'"\xe0 "') == [0xFFFD]
    assert explode(b'"\xe0 A"') == [0xFFFD, 0x20, 0x41]
    assert codec.decode_replace(b"\xe0 ") == Returned("\ufffd")
    assert check(codec, "replace", b"\xe0 ") == {("replace", "must", "lost well-formed characters")}
    assert check(codec, "replace", b"\xe0 A") == set()
