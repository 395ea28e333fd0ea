"""Decoders inside the libraries Python programs parse untrusted records with: protobuf (upb),
pydantic-core's JSON parser (jiter), ormsgpack, DuckDB's string functions and selectolax's HTML
parser (lexbor).

Codec objects as in json_text.py: made with no arguments, each imports its library (ImportError
when it is missing) and offers only what the library can be asked. None of these libraries says
where in a string its error lies, so every refusal is placed nowhere.
"""

from __future__ import annotations

from typing import Any

from utf8cert.harness.codec.wrappers import (
    JSON_STRING,
    MSGPACK_STR,
    Format,
    nowhere,
    wrapped_decoder,
)
from utf8cert.harness.world.adapters.parsers import HTML_PARAGRAPH


def varint(value: int) -> bytes:
    """Return `value` as a protobuf base-128 varint (protobuf.dev, "Encoding": Base 128)."""
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return bytes(out)


PROTOBUF_STRING = Format("protobuf string field 3", lambda n: b"\x1a" + varint(n), b"")
"""google.protobuf.Value's string_value (field 3, wire type 2: tag 0x1A, then the length)."""


class Protobuf:
    """google.protobuf's Value.FromString (struct_pb2, a proto3 message: its string field must
    be UTF-8, and the parser checks; upb in protobuf 4.21 and later): the string_value read back.
    A DecodeError is a refusal."""

    def __init__(self) -> None:
        from google.protobuf import message, struct_pb2

        def parse(document: bytes) -> object:
            value = struct_pb2.Value.FromString(document)
            return value.string_value

        self.decode = wrapped_decoder(PROTOBUF_STRING, parse, (message.DecodeError,), nowhere)


class PydanticJson:
    """pydantic_core.from_json on bytes (jiter, the parser pydantic's model_validate_json uses):
    a ValueError is a refusal."""

    def __init__(self) -> None:
        import pydantic_core

        self.decode = wrapped_decoder(JSON_STRING, pydantic_core.from_json, (ValueError,), nowhere)


class Ormsgpack:
    """ormsgpack.unpackb (Rust): a msgpack str; ormsgpack.MsgpackDecodeError is a refusal.
    ormsgpack.packb encodes a str; its MsgpackEncodeError (a lone surrogate) is a refusal."""

    def __init__(self) -> None:
        import ormsgpack

        from utf8cert.harness.codec.unwrap import msgpack_body, unwrapping_encoder

        errors = (ormsgpack.MsgpackDecodeError,)
        self.decode = wrapped_decoder(MSGPACK_STR, ormsgpack.unpackb, errors, nowhere)
        self.encode = unwrapping_encoder(ormsgpack.packb, msgpack_body)
        self.refusals = (ormsgpack.MsgpackEncodeError,)


class DuckdbDecode:
    """DuckDB's decode(BLOB) → VARCHAR, on an in-memory database: the bytes bound as a BLOB
    parameter, `SELECT decode(?::BLOB)`; a ConversionException is a refusal."""

    def __init__(self) -> None:
        import duckdb

        connection = duckdb.connect(":memory:")

        def decode(payload: bytes) -> object:
            try:
                row = connection.execute("SELECT decode(?::BLOB)", [payload]).fetchone()
            except duckdb.ConversionException as error:
                from utf8cert.harness.codec.raised import Refusal, describe_exception

                raise Refusal(describe_exception(error), None) from None
            return None if row is None else row[0]

        self.decode = decode


class SelectolaxHtml:
    """selectolax's LexborHTMLParser (lexbor) on the bytes of an HTML document that declares
    UTF-8, the text of its paragraph (`css_first("p").text()`): it never refuses, it replaces."""

    def __init__(self) -> None:
        from selectolax.lexbor import LexborHTMLParser

        def parse(document: bytes) -> object:
            paragraph: Any = LexborHTMLParser(document).css_first("p")
            return "" if paragraph is None else paragraph.text(deep=True)

        self.decode_replace = wrapped_decoder(HTML_PARAGRAPH, parse, (), nowhere)
