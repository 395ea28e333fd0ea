"""Reading back the UTF-8 an encoder wrote inside a document (a JSON string, a msgpack str, a
CBOR text string), so that a serializer's own UTF-8 encoding can be checked.

    encode = unwrapping_encoder(orjson.dumps, json_body)
    encode("a\u20ac")   # b"a\xe2\x82\xac": the bytes inside the quotes, escapes undone
"""

from __future__ import annotations

import re
from collections.abc import Callable


class NotTheFormat(Exception):
    """An encoder's output is not one string of the format: a crash of the encoder, not a
    refusal (it returned something, just not the document asked for)."""


def json_body(document: bytes) -> bytes:
    """Return the UTF-8 of a JSON string document, its escapes undone (RFC 8259 §7);
    NotTheFormat when it is not one JSON string."""
    if len(document) < 2 or document[:1] != b'"' or document[-1:] != b'"':
        raise NotTheFormat(f"not a JSON string: {document[:20]!r}")
    return JSON_ESCAPE.sub(_unescaped, document[1:-1])


JSON_ESCAPE = re.compile(rb'\\(["\\/bfnrt]|u[0-9a-fA-F]{4})')
JSON_SHORT = {
    b'"': b'"',
    b"\\": b"\\",
    b"/": b"/",
    b"b": b"\b",
    b"f": b"\f",
    b"n": b"\n",
    b"r": b"\r",
    b"t": b"\t",
}


def _unescaped(match: re.Match[bytes]) -> bytes:
    escape = match.group(1)
    if escape in JSON_SHORT:
        return JSON_SHORT[escape]
    value = int(escape[1:], 16)
    if value >= 0x80:  # an encoder that escapes non-ASCII hides its UTF-8: not what is asked
        raise NotTheFormat(f"the encoder escaped U+{value:04X} instead of writing its UTF-8")
    return bytes([value])


def length_prefixed_body(
    document: bytes, small: tuple[int, int] | None, widths: dict[int, int], format_name: str
) -> bytes:
    """Return the body of a length-prefixed string: a first byte in `small` (first, last) holds
    the length itself (minus first), else a marker byte from `widths` says how many big-endian
    length bytes follow; NotTheFormat when the document is not one such string."""
    if not document:
        raise NotTheFormat(f"not a {format_name}: empty")
    marker = document[0]
    if small is not None and small[0] <= marker <= small[1]:
        start, length = 1, marker - small[0]
    elif marker in widths:
        start = 1 + widths[marker]
        length = int.from_bytes(document[1:start], "big")
    else:
        raise NotTheFormat(f"not a {format_name}: starts with {marker:#04x}")
    if len(document) != start + length:
        raise NotTheFormat(f"not a {format_name}: {len(document)} bytes for a length of {length}")
    return document[start:]


def msgpack_body(document: bytes) -> bytes:
    """Return the bytes of a msgpack str (fixstr A0..BF, str8/16/32 D9/DA/DB)."""
    return length_prefixed_body(document, (0xA0, 0xBF), {0xD9: 1, 0xDA: 2, 0xDB: 4}, "msgpack str")


def cbor_body(document: bytes) -> bytes:
    """Return the bytes of a definite-length CBOR text string (RFC 8949 §3.1: 60..77, 78..7B)."""
    widths = {0x78: 1, 0x79: 2, 0x7A: 4, 0x7B: 8}
    return length_prefixed_body(document, (0x60, 0x77), widths, "CBOR text string")


def unwrapping_encoder(
    serialize: Callable[[str], object], body: Callable[[bytes], bytes]
) -> Callable[[str], object]:
    """Return an encoder of text: serialize it as one string of a format, return the UTF-8 the
    document holds (`body` undoes the wrapping; a non-bytes result is returned as it is)."""

    def encode(text: str) -> object:
        document = serialize(text)
        return body(bytes(document)) if isinstance(document, bytes | bytearray) else document

    return encode
