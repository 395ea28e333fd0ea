"""Wrapper formats: the documents they write (checked by the formats' own specifications and by
CPython's json, the standard library parser), and offsets mapped back to the payload."""

from __future__ import annotations

import json
import re

import pytest

from utf8cert.harness import NotApplicable, Refusal, Refused, load_codec
from utf8cert.harness.codec.python_codec import PythonCodec
from utf8cert.harness.codec.wrappers import (
    CBOR_TEXT,
    JSON_STRING,
    MSGPACK_STR,
    XML_ELEMENT,
    YAML_SCALAR,
    in_document,
    line_and_column,
    wrapped_decoder,
)


def test_a_json_string_escapes_quote_backslash_and_controls_and_maps_offsets_back() -> None:
    wrapped = JSON_STRING.wrap(b'a"\\\x00\xff')
    assert wrapped.document == b'"a\\u0022\\u005c\\u0000\xff"'
    assert json.loads(wrapped.document[:-2] + b'"') == 'a"\\\x00'  # RFC 8259 §7 escapes
    assert [wrapped.payload_offset(i) for i in (0, 1, 2, 7, 8, 20, 21, 22)] == [
        None,
        0,
        1,
        1,
        2,
        4,
        5,
        None,
    ]  # the quote, 'a', the escapes stand for their character, FF, the end, past it


def test_msgpack_and_cbor_headers_follow_the_length() -> None:
    assert MSGPACK_STR.wrap(b"ab").document == b"\xd9\x02ab"  # str8
    assert MSGPACK_STR.wrap(bytes(256)).document[:3] == b"\xda\x01\x00"  # str16
    assert CBOR_TEXT.wrap(b"ab").document == b"\x62ab"  # RFC 8949: 0x60 + length
    assert CBOR_TEXT.wrap(bytes(24)).document[:2] == b"\x78\x18"
    assert CBOR_TEXT.wrap(bytes(70000)).document[:5] == b"\x7a\x00\x01\x11\x70"


def test_xml_escapes_markup_and_cr_and_refuses_what_xml_cannot_carry() -> None:
    assert XML_ELEMENT.wrap(b"<&>\r\t\n").document == b"<a>&lt;&amp;&gt;&#13;\t\n</a>"
    for payload, character in ((b"\x00", "U+0000"), (b"a\xef\xbf\xbf", "U+FFFF")):
        with pytest.raises(NotApplicable, match=re.escape(character)):
            XML_ELEMENT.wrap(payload)
    assert XML_ELEMENT.wrap(b"\xef\xbf\xbd\xff").document == b"<a>\xef\xbf\xbd\xff</a>"


def test_yaml_escapes_what_is_not_printable_or_breaks_a_line() -> None:
    document = YAML_SCALAR.wrap(b'"\x7f\xc2\x85\xe2\x80\xa8\xc3\xa9').document
    assert document == b'"\\u0022\\u007f\\u0085\\u2028\xc3\xa9"\n'


def test_a_line_and_a_column_in_characters_become_a_byte_offset() -> None:
    document = b"<a>\xe2\x82\xac\nx\xc3\xa9\xff</a>"
    assert line_and_column(document, 1, 4) == 3
    assert line_and_column(document, 2, 3) == 10  # x, é, then the FF
    assert line_and_column(document, 3, 1) is None


def test_a_wrapped_decoder_refuses_at_the_payload_offset_and_keeps_the_message() -> None:
    start = in_document(lambda error: getattr(error, "start", None))
    decode = wrapped_decoder(JSON_STRING, json.loads, (ValueError,), start)
    with pytest.raises(Refusal) as raised:
        decode(b'"\xff')
    assert raised.value.start == 1
    assert "can't decode byte 0xff in position 7" in str(raised.value)


class DeclaringCodec:
    """A codec object as a user writes one with the kit: its own exception, its own offsets."""

    class Bad(Exception):
        def __init__(self, where: int) -> None:
            super().__init__(f"bad byte at {where}")
            self.where = where

    refusals = (Bad,)

    @staticmethod
    def refusal_offset(error: BaseException) -> int | None:
        return getattr(error, "where", None)

    def decode(self, data: bytes) -> str:
        if b"\xef\xbf\xbe" in data:
            raise NotApplicable("this format cannot carry U+FFFE")
        if b"\xff" in data:
            raise self.Bad(data.index(b"\xff"))
        return data.decode("ascii")


def test_an_object_codec_declares_its_refusals_their_offset_and_inapplicable_requests() -> None:
    codec = load_codec("test_wrappers:DeclaringCodec")
    assert isinstance(codec, PythonCodec)
    assert codec.decode(b"ab\xff") == Refused("Bad: bad byte at 2", 2)
    assert codec.decode(b"\xef\xbf\xbe").__class__.__name__ == "Inapplicable"
    assert codec.decode(b"\x80") == Refused(  # a ValueError is still a refusal, at its start
        "UnicodeDecodeError: 'ascii' codec can't decode byte 0x80 in position 0: ordinal not in "
        "range(128)",
        0,
    )


def test_an_encoders_document_is_unwrapped_or_is_not_the_format() -> None:
    from utf8cert.harness.codec.unwrap import NotTheFormat, cbor_body, json_body, msgpack_body

    assert json_body(b'"a\\"\\\\\\/\\n\\u0000\xe2\x82\xac"') == b'a"\\/\n\x00\xe2\x82\xac'
    assert msgpack_body(b"\xa2ab") == b"ab" and msgpack_body(b"\xd9\x01a") == b"a"
    assert cbor_body(b"\x62ab") == b"ab" and cbor_body(b"\x78\x01a") == b"a"
    for body, document in (
        (json_body, b'"\\u20ac"'),  # an escaped non-ASCII character hides the UTF-8
        (json_body, b"1"),
        (msgpack_body, b"\xc4\x01a"),  # bin8, not str
        (cbor_body, b"\x62a"),  # one byte short
    ):
        with pytest.raises(NotTheFormat):
            body(document)
