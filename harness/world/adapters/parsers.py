"""More decoders and encoders in Python's reach: ftfy's utf-8-variants codec, expat, lxml's HTML
parser, pysimdjson, the stdlib's sqlite3, ujson's encoder, and the replacing modes of msgpack and
cbor2.

Codec objects as in json_text.py: made with no arguments, each imports its library (ImportError
when it is missing) and offers only what the library can be asked. Where a library's error
offset counts from was found by hand for each, as its locator says.
"""

from __future__ import annotations

import codecs
import re
from operator import attrgetter
from typing import Any

from utf8cert.harness.codec.raised import NotApplicable
from utf8cert.harness.codec.unwrap import json_body, unwrapping_encoder
from utf8cert.harness.codec.wrappers import (
    CBOR_TEXT,
    JSON_STRING,
    MSGPACK_STR,
    XML_ELEMENT,
    Format,
    Wrapped,
    in_payload,
    line_and_column,
    nowhere,
    scalar,
    wrapped_decoder,
)
from utf8cert.harness.world.adapters.markup import element_text

START = attrgetter("start")


class FtfyVariants:
    """ftfy's `utf-8-variants` codec (ftfy.bad_codecs): UTF-8 that also reads CESU-8 surrogate
    pairs and Java's C0 80 for U+0000; strict, replacing and incremental, as any Python codec."""

    def __init__(self) -> None:
        import ftfy.bad_codecs  # noqa: F401 - registers the codec

        self.decode = lambda data: data.decode("utf-8-variants")
        self.decode_replace = lambda data: data.decode("utf-8-variants", "replace")
        self.incremental_mode = "strict"

    def incremental_decoder(self) -> Any:
        """Return a fresh strict incremental decoder of `utf-8-variants`."""
        return codecs.getincrementaldecoder("utf-8-variants")("strict")


def expat_parse(document: bytes) -> object:
    """Return the character data of the root element expat reads from `document`."""
    from xml.parsers import expat

    parser = expat.ParserCreate()
    pieces: list[str] = []
    parser.CharacterDataHandler = pieces.append
    parser.Parse(document, True)
    return "".join(pieces)


def at_expat_position(error: BaseException, wrapped: Wrapped) -> int | None:
    """Return the payload offset of an ExpatError's line (1-based) and offset (its column,
    0-based, counted in characters)."""
    line, column = getattr(error, "lineno", None), getattr(error, "offset", None)
    if not isinstance(line, int) or not isinstance(column, int):
        return None
    return wrapped.payload_offset(line_and_column(wrapped.document, line, column + 1))


class Expat:
    """The stdlib's xml.parsers.expat (the expat C library): the text of an XML element."""

    restriction = "xml-1.0-char"  # XML text cannot carry U+0001 nor U+FFFE (codec/restrictions.py)

    def __init__(self) -> None:
        from xml.parsers import expat

        errors = (expat.ExpatError,)
        self.decode = wrapped_decoder(XML_ELEMENT, expat_parse, errors, at_expat_position)


HTML_ESCAPES = {b"<": b"&lt;", b"&": b"&amp;", b">": b"&gt;", b"\r": b"&#13;"}


def html_escape(character: bytes) -> bytes:
    """Return the HTML reference of `<`, `&`, `>`, CR; NotApplicable for U+0000, which an HTML
    parser reads as U+FFFD in text (WHATWG HTML §13.2.5.1) and no reference can carry."""
    if character in HTML_ESCAPES:
        return HTML_ESCAPES[character]
    raise NotApplicable(f"HTML text cannot carry U+{scalar(character):04X}")


HTML_PARAGRAPH = Format(
    "HTML paragraph text",
    lambda _: b'<html><head><meta charset="utf-8"></head><body><p>',
    b"</p></body></html>",
    re.compile(rb"[<&>\r\x00]"),
    html_escape,
)
"""The text of a paragraph of an HTML document that declares UTF-8."""


class LxmlHtml:
    """lxml's HTML parser (libxml2's, encoding='utf-8'): it never refuses, it replaces."""

    def __init__(self) -> None:
        from lxml import etree

        parser = etree.HTMLParser(encoding="utf-8")

        def parse(document: bytes) -> object:
            paragraph = etree.fromstring(document, parser).find(".//p")
            return "" if paragraph is None else element_text(paragraph)

        errors = (etree.ParserError, etree.XMLSyntaxError)
        self.decode_replace = wrapped_decoder(HTML_PARAGRAPH, parse, errors, nowhere)


class Pysimdjson:
    """pysimdjson's Parser.parse: simdjson validates the whole document's UTF-8 first and
    raises UnicodeDecodeError whose `start` is 0 wherever the error is; read as an offset in the
    string (in the document, 0 is the opening quote, no byte of the string at all)."""

    def __init__(self) -> None:
        import simdjson

        parser = simdjson.Parser()

        # A JSON string document parses to a str (the payload's text).
        self.decode = wrapped_decoder(JSON_STRING, parser.parse, (ValueError,), in_payload(START))


class Sqlite3Text:
    """The stdlib's sqlite3 on a UTF-8 database, text_factory=str: the bytes are stored as TEXT
    (CAST) and read back; SQLite passes them through and CPython's sqlite3 module decodes them
    strictly, refusing with OperationalError (a DatabaseError) and no position."""

    def __init__(self) -> None:
        import sqlite3

        connection = sqlite3.connect(":memory:", check_same_thread=False)
        connection.text_factory = str

        def decode(data: bytes) -> object:
            return connection.execute("SELECT CAST(? AS TEXT)", (data,)).fetchone()[0]

        self.decode = decode
        self.refusals = (sqlite3.DatabaseError,)


class UjsonDumps:
    """ujson.dumps(text, ensure_ascii=False): ujson writes the string's UTF-8 itself and hands
    it back as a str; that str's bytes (lone surrogates kept) are what it wrote."""

    def __init__(self) -> None:
        import ujson

        def dumps(text: str) -> bytes:
            written = ujson.dumps(text, ensure_ascii=False, escape_forward_slashes=False)
            return str(written).encode("utf-8", "surrogatepass")

        self.encode = unwrapping_encoder(dumps, json_body)


class MsgpackReplace:
    """msgpack.unpackb (the C extension) with unicode_errors='replace'."""

    def __init__(self) -> None:
        import msgpack

        def unpack(document: bytes) -> object:
            return msgpack.unpackb(document, raw=False, unicode_errors="replace")

        self.decode_replace = wrapped_decoder(MSGPACK_STR, unpack, (ValueError,), nowhere)


class Cbor2Replace:
    """cbor2.loads with str_errors='replace'."""

    def __init__(self) -> None:
        import cbor2

        def load(document: bytes) -> object:
            return cbor2.loads(document, str_errors="replace")

        errors = (ValueError, cbor2.CBORDecodeError)
        self.decode_replace = wrapped_decoder(CBOR_TEXT, load, errors, nowhere)
