"""The leading signature's allowance (RFC 3629 §6: `may`) is for what the signature explains, and
nothing else: an encoder that writes a signature and then substitutes for an unencodable value
has substituted (`should`); a decoder that keeps the signature and reports an offset short by
its length has a wrong offset (`should`), while one that strips it may count from after it."""

from __future__ import annotations

import codecs

import pytest

from utf8cert.harness.check.compare import compare, compare_encode
from utf8cert.harness.check.diagnose import OFFSET_AFTER_SIGNATURE
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.expected import encoding_for, expectation_for
from utf8cert.harness.codec.interface import Capability, Codec
from utf8cert.harness.codec.python_codec import PythonCodec
from utf8cert.harness.codec.raised import Refusal
from utf8cert.harness.world.spec import load_codec

SIGNED_TRUNCATED = b"\xef\xbb\xbf\xef\xbb"  # bom-12: a signature, then EF BB cut short
SUBSTITUTED = ("encode", "should", "substituted a character for an unencodable value")
WRONG_OFFSET = ("should", "wrong error offset")


def kinds(differences: list[Difference]) -> set[tuple[str, str, str]]:
    return {(d.capability, d.level, d.what) for d in differences}


def decoded(codec: Codec, capability: Capability, data: bytes) -> set[tuple[str, str, str]]:
    return kinds(compare(codec, capability, expectation_for(data), bytewise=False, cuts=()))


def search_from_the_start(data: bytes) -> str:
    """Decode as PyICU does in strict mode: the signature kept as U+FEFF, and an error placed
    where its bytes first occur in the input (PyICU's common.cpp searches for them)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        bad = data[error.start : error.end]
        raise Refusal(str(error), data.find(bad)) from None


def test_a_decoder_that_keeps_the_signature_has_a_wrong_offset_not_a_signature_one() -> None:
    keeper = PythonCodec("keeper", "keeps the signature", decode=search_from_the_start)
    assert keeper.decode(SIGNED_TRUNCATED).offset == 0  # type: ignore[union-attr]
    assert decoded(keeper, "decode", SIGNED_TRUNCATED) == {("decode", *WRONG_OFFSET)}


def test_a_decoder_that_strips_the_signature_may_count_from_after_it() -> None:
    stripper = load_codec("codec:utf-8-sig")  # CPython decodes what follows the signature alone
    assert stripper.decode(SIGNED_TRUNCATED).offset == 0  # type: ignore[union-attr]
    assert decoded(stripper, "decode", SIGNED_TRUNCATED) == {
        ("decode", "may", OFFSET_AFTER_SIGNATURE)
    }


def test_pyicu_keeps_the_signature_so_its_offset_on_bom_12_is_its_own_bug() -> None:
    icu = pytest.importorskip("icu", reason="PyICU is not installed here")
    assert str(icu.UnicodeString(b"\xef\xbb\xbfA", "utf-8", "strict")) == "\ufeffA"
    codec = load_codec("adapter:pyicu")
    assert decoded(codec, "decode", SIGNED_TRUNCATED) == {("decode", *WRONG_OFFSET)}


def encoded(codec: Codec, *values: int) -> set[tuple[str, str, str]]:
    return kinds(compare_encode(codec, encoding_for(values), ("input", "as-is")))


def test_a_signature_then_a_substitution_is_a_substitution() -> None:
    codec = load_codec("codec:utf-8-sig:replace")
    assert codec.encode([0xD800]).value == b"\xef\xbb\xbf?"  # type: ignore[union-attr]
    assert encoded(codec, 0xD800) == {SUBSTITUTED}
    assert encoded(codec, 0x41, 0xDFFF, 0x42) == {SUBSTITUTED}
    assert encoded(codec, 0x41) == {("encode", "may", "signature written")}
    assert encoded(load_codec("codec:utf-8-sig"), 0xD800) == set()  # refused


def test_a_signature_then_ill_formed_bytes_keeps_its_must() -> None:
    def surrogates_after_a_signature(text: str) -> bytes:
        return codecs.BOM_UTF8 + text.encode("utf-8", "surrogatepass")

    codec = PythonCodec("signed", "signed CESU", encode=surrogates_after_a_signature)
    assert encoded(codec, 0xD800) == {("encode", "must", "encoded a surrogate")}
    assert encoded(codec, 0x20AC) == {("encode", "may", "signature written")}
