"""Putting a UTF-8 payload inside a document (JSON, msgpack, CBOR, XML, YAML) so that a parser's
own UTF-8 decoding can be checked, and mapping its error offsets back to the payload.

Most UTF-8 decoding in the wild happens inside a parser. A `Format` wraps the payload as one
string of its document: the payload's bytes go in verbatim, except the well-formed characters the
format gives a meaning to or forbids. Those are escaped (JSON `\\u0022`, XML `&lt;`, YAML `\\x7f`)
so that the parser returns them unchanged, or, when the format has no way to carry them (XML 1.0
cannot hold U+0001 nor U+FFFE), the request is `NotApplicable` with the reason: a limit of the
format, never a UTF-8 finding. Ill-formed bytes always go in verbatim: they are what is checked.

    decode = wrapped_decoder(JSON_STRING, orjson.loads, (orjson.JSONDecodeError,), nowhere)
    decode(b"a\\xc0\\xaf")   # raises Refusal(message, offset in the payload or None)
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass

from utf8cert.harness.codec.raised import NotApplicable, Refusal, describe_exception


@dataclass(frozen=True)
class Piece:
    """Where one piece of the document came from: payload[payload_start:] verbatim, or (escape)
    the one payload character at payload_start written another way."""

    document_start: int
    payload_start: int
    verbatim: bool


@dataclass(frozen=True)
class Wrapped:
    """A document holding a payload, and where each of the payload's bytes went in it."""

    document: bytes
    payload_length: int
    body: tuple[int, int]
    """(start, end) of the document's bytes that stand for the payload."""
    pieces: tuple[Piece, ...]
    """In document order; the body is covered by them from body[0] on."""

    def payload_offset(self, document_offset: int | None) -> int | None:
        """Return the payload index a document offset points at: a verbatim byte's own index,
        an escape's character, the end of the payload for the first byte after the body; None for
        the rest of the wrapping (or None given)."""
        if document_offset is None:
            return None
        start, end = self.body
        if document_offset == end:
            return self.payload_length
        if not start <= document_offset < end:
            return None
        starts = [piece.document_start for piece in self.pieces]
        piece = self.pieces[bisect_right(starts, document_offset) - 1]
        if not piece.verbatim:
            return piece.payload_start
        return piece.payload_start + document_offset - piece.document_start


Escape = Callable[[bytes], bytes]
"""Returns how the format writes one special character (its UTF-8 bytes); raises
NotApplicable when the format cannot carry it."""


@dataclass(frozen=True)
class Format:
    """A way to hold a payload as one string of a document."""

    name: str
    header: Callable[[int], bytes]
    """The bytes before the body, given the payload's length."""
    footer: bytes
    special: re.Pattern[bytes] | None = None
    """The well-formed characters to escape or refuse (None: every byte goes in verbatim)."""
    escape: Escape | None = None

    def wrap(self, payload: bytes) -> Wrapped:
        """Return the document holding `payload`; raise NotApplicable naming the first character
        the format cannot carry."""
        head = self.header(len(payload))
        if self.special is None or self.escape is None:
            pieces = (Piece(len(head), 0, True),) if payload else ()
            return Wrapped(
                head + payload + self.footer,
                len(payload),
                (len(head), len(head) + len(payload)),
                pieces,
            )
        parts = [head]
        built: list[Piece] = []
        at, written = 0, len(head)
        for match in self.special.finditer(payload):
            if match.start() > at:
                built.append(Piece(written, at, True))
                parts.append(payload[at : match.start()])
                written += match.start() - at
            escaped = self.escape(match.group())
            built.append(Piece(written, match.start(), False))
            parts.append(escaped)
            written += len(escaped)
            at = match.end()
        if at < len(payload):
            built.append(Piece(written, at, True))
            parts.append(payload[at:])
            written += len(payload) - at
        parts.append(self.footer)
        return Wrapped(b"".join(parts), len(payload), (len(head), written), tuple(built))


def scalar(character: bytes) -> int:
    """Return the code point of one well-formed UTF-8 character (RFC 3629 §3 bit layout)."""
    if len(character) == 1:
        return character[0]
    value = character[0] & (0x7F >> len(character))
    for byte in character[1:]:
        value = value << 6 | byte & 0x3F
    return value


def backslash_u(character: bytes) -> bytes:
    """Return `\\uXXXX` for one character: how JSON (RFC 8259 §7) writes `"`, `\\` and C0
    controls, and YAML (1.1 §5.7) what is not printable or breaks a line in a quoted scalar."""
    return b"\\u%04x" % scalar(character)


XML_ESCAPES = {b"<": b"&lt;", b"&": b"&amp;", b">": b"&gt;", b"\r": b"&#13;"}
"""`\\r` is written as a reference because XML normalizes a raw one to `\\n` (XML 1.0 §2.11)."""


def xml_escape(character: bytes) -> bytes:
    """Return the XML reference of `<`, `&`, `>`, CR; raise NotApplicable for a character
    XML 1.0 cannot hold in any form (§2.2 Char: C0 controls but tab/LF/CR, U+FFFE, U+FFFF)."""
    if character in XML_ESCAPES:
        return XML_ESCAPES[character]
    raise NotApplicable(f"XML 1.0 cannot carry U+{scalar(character):04X} (§2.2 Char)")


def sized(small: int, widths: tuple[tuple[int, int], ...]) -> Callable[[int], bytes]:
    """Return a header writer: one byte `small + length` for lengths up to 23 (small > 0), else
    the first (marker, bytes) whose big-endian length field holds the length."""

    def header(length: int) -> bytes:
        if small and length <= 23:
            return bytes([small + length])
        for marker, size in widths:
            if length < 1 << 8 * size:
                return bytes([marker]) + length.to_bytes(size, "big")
        raise NotApplicable(f"a payload of {length} bytes is too long for the format")

    return header


JSON_STRING = Format(
    "JSON string", lambda _: b'"', b'"', re.compile(rb'["\\\x00-\x1f]'), backslash_u
)
"""RFC 8259 §7: a string; quotation mark, reverse solidus and controls escaped as \\uXXXX."""

MSGPACK_STR = Format("msgpack str", sized(0, ((0xD9, 1), (0xDA, 2), (0xDB, 4))), b"")
"""msgpack's str family: str8 (D9) up to 255 bytes, then str16 and str32; no escaping."""

CBOR_TEXT = Format("CBOR text string", sized(0x60, ((0x78, 1), (0x79, 2), (0x7A, 4))), b"")
"""RFC 8949 §3.1, major type 3 with a definite length; no escaping."""

XML_ELEMENT = Format(
    "XML element text",
    lambda _: b"<a>",
    b"</a>",
    re.compile(rb"[<&>\r\x00-\x08\x0b\x0c\x0e-\x1f]|\xef\xbf[\xbe\xbf]"),
    xml_escape,
)
"""XML 1.0: the text of a root element, no declaration (so UTF-8, §4.3.3)."""

YAML_SCALAR = Format(
    "YAML double-quoted scalar",
    lambda _: b'"',
    b'"\n',
    # YAML 1.1 §5.1 printable characters, and the line breaks (§5.4: NEL, LS, PS) that a quoted
    # scalar would fold; all are escaped.
    re.compile(rb'["\\\x00-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xa8\xa9]|\xef\xbf[\xbe\xbf]'),
    backslash_u,
)
"""A document that is one double-quoted scalar."""


Locate = Callable[[BaseException, Wrapped], "int | None"]
"""Returns the payload offset of a parser's error, or None when it does not say."""

Read = Callable[[BaseException], object]
"""Reads a number from a parser's exception (an attribute, a parsed message)."""


def as_int(value: object) -> int | None:
    """Return `value` when it is an int (not a bool), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def in_document(read: Read) -> Locate:
    """Return a locator for an offset counted in the document's bytes."""
    return lambda error, wrapped: wrapped.payload_offset(as_int(read(error)))


def in_body(read: Read) -> Locate:
    """Return a locator for an offset counted from the first byte of the string's body."""

    def locate(error: BaseException, wrapped: Wrapped) -> int | None:
        offset = as_int(read(error))
        return None if offset is None else wrapped.payload_offset(wrapped.body[0] + offset)

    return locate


def nowhere(error: BaseException, wrapped: Wrapped) -> None:
    """Return None: the parser does not say where the error is."""
    return None


def character_length(lead: int) -> int:
    """Return the length of the well-formed UTF-8 character a lead byte starts (RFC 3629 §4)."""
    return 1 if lead < 0xC0 else 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4


def line_and_column(document: bytes, line: int, column: int) -> int | None:
    """Return the document offset of a 1-based line and a 1-based column counted in characters
    (None if outside the document). The text before a first error is well-formed, so the
    characters before the column are stepped over by the length their lead bytes give."""
    start = 0
    for _ in range(line - 1):
        start = document.find(b"\n", start) + 1
        if start == 0:
            return None
    index = start
    for _ in range(column - 1):
        if index >= len(document):
            return None
        index += character_length(document[index])
    return index if index <= len(document) else None


def in_payload(read: Read) -> Locate:
    """Return a locator for an offset counted in the payload itself (a parser that unescapes
    the string first: escapes stand for one ASCII byte each, so that is the payload)."""
    return lambda error, wrapped: as_int(read(error))


def wrapped_decoder(
    form: Format,
    parse: Callable[[bytes], object],
    refusals: tuple[type[BaseException], ...],
    locate: Locate,
) -> Callable[[bytes], object]:
    """Return a decoder of payloads: wrap, parse, return what `parse` returns (the string,
    unwrapped); one of `refusals` becomes a `Refusal` at the payload offset `locate` finds."""

    def decode(payload: bytes) -> object:
        wrapped = form.wrap(payload)
        try:
            return parse(wrapped.document)
        except refusals as error:
            raise Refusal(describe_exception(error), locate(error, wrapped)) from None

    return decode
