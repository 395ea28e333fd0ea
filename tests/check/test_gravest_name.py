"""One answer that is several departures is named and levelled by the gravest (issue 33).

The evidence is the libraries themselves: each adapter's library is asked the values alone (a
lone U+D800, U+10FFFF) as a user would, and what it does there is what the judge must name the
later refusal by. A missing library is skipped.
"""

from __future__ import annotations

import pytest

from utf8cert.harness.check.behaviour import LET_THROUGH, Behaviour, behaviour_of
from utf8cert.harness.check.compare import compare_decode, compare_encode
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.expected import encoding_for, expectation_for
from utf8cert.harness.codec.interface import Codec, Refused, Returned
from utf8cert.harness.world.catalog import registry
from utf8cert.harness.world.spec import load_codec

LABEL = ("input", "as-is")


def available(name: str) -> Codec:
    reason = registry()[name].unavailable()
    if reason is not None:
        pytest.skip(f"adapter:{name} is unavailable here: {reason}")
    return load_codec(f"adapter:{name}")


def encoded(codec: Codec, *values: int) -> list[Difference]:
    return compare_encode(codec, encoding_for(values), LABEL)


@pytest.mark.parametrize("name", ["php-intlchar", "cxx-wstring-convert", "utf8proc-encode-char"])
def test_a_surrogate_written_then_a_refusal_is_named_by_the_surrogate(name: str) -> None:
    codec = available(name)
    try:
        # The library alone: U+D800 is written in its 3-byte form, U+110000 refused.
        assert codec.encode([0xD800]) == Returned(b"\xed\xa0\x80")
        refusal = codec.encode([0xD800, 0x110000])
        assert isinstance(refusal, Refused) and refusal.offset == 1
        (difference,) = encoded(codec, 0xD800, 0x110000)  # enc-27: refusal due at index 0
    finally:
        codec.close()
    assert (difference.level, difference.what) == ("must", "encoded a surrogate")
    assert difference.actual.startswith("wrote ED A0 80 for U+D800, then refused at 1")
    assert difference.marks == ((0, 1),)


def test_a_refusal_of_an_encodable_noncharacter_before_the_error_is_a_refusal() -> None:
    codec = available("perl-utf-8-croak")
    try:
        # Encode's strict UTF-8 refuses the noncharacter U+10FFFF on its own (Corrigendum #9
        # made noncharacters interchangeable; RFC 3629 §3 encodes every scalar value).
        alone = codec.encode([0x10FFFF])
        assert isinstance(alone, Refused) and alone.offset == 0
        (difference,) = encoded(codec, 0x10FFFF, 0x110000)  # enc-25: refusal due at index 1
    finally:
        codec.close()
    assert (difference.level, difference.what) == ("must", "refused an encodable value")


def test_an_index_counted_otherwise_stays_a_wrong_index() -> None:
    # g_utf16_to_utf8 refuses a lone high surrogate at the unit after it (findings.md, 24): it
    # refuses U+D800 alone too, so it wrote nothing for it and only its index is wrong.
    codec = available("glib-utf8-to-utf16")
    try:
        assert isinstance(codec.encode([0xD800]), Refused)
        (difference,) = encoded(codec, 0xD800, 0xD7FF)  # edge-97
    finally:
        codec.close()
    assert (difference.level, difference.what) == ("should", "wrong error index")


def test_a_decoder_that_refuses_past_a_surrogate_it_read_let_it_through() -> None:
    # CPython's surrogatepass reads ED A0 80 as U+D800 (its documentation says so) and refuses
    # only at the FF after it.
    assert b"\xed\xa0\x80".decode("utf-8", "surrogatepass") == "\ud800"
    with pytest.raises(UnicodeDecodeError) as raised:
        b"\xed\xa0\x80\xff".decode("utf-8", "surrogatepass")
    assert raised.value.start == 3
    codec = load_codec("codec:utf-8:surrogatepass")
    (difference,) = compare_decode(codec, expectation_for(b"\xed\xa0\x80\xff"), LABEL)
    assert (difference.level, difference.what) == (
        "must",
        "let ill-formed input through, then refused",
    )
    assert behaviour_of(difference) == Behaviour("decode", LET_THROUGH, "surrogate")


def test_a_refusal_just_after_the_ill_formed_bytes_is_still_a_way_of_counting() -> None:
    # libyaml points at the byte after a truncated sequence (findings.md, 7): the same run of
    # bad bytes, counted otherwise, not text let through.
    codec = available("pyyaml-libyaml")
    try:
        (difference,) = compare_decode(codec, expectation_for(b"x\xe2\x82"), LABEL)
    finally:
        codec.close()
    assert difference.actual.startswith("refused at 3")
    assert (difference.level, difference.what) == ("should", "wrong error offset")
