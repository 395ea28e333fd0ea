#!/usr/bin/env python3
"""A utf8cert-protocol 2 program in Python (harness/PROTOCOL.md), to copy for your own codec:

    utf8cert check "cmd:python examples/python/template.py"

It wraps CPython's own utf-8 codec; put your codec's calls in the five functions marked YOUR
CODEC, and drop from CAPABILITIES what it does not offer (any of them, in any subset: the
handshake names only what is left). Refuse with UnicodeDecodeError or UnicodeEncodeError, whose
`start` and `end` say where the error is (the optional `end=` field of PROTOCOL.md, which
utf8cert judges), or Refusal(message, offset); a plain ValueError refuses too, but places the
error nowhere, a `may` difference on every ill-formed vector (docs/adapters.md). Anything else
your codec raises is reported as a crash.

Decoders return text as a str, or as code points (a list of int): a decoder whose values go above
U+10FFFF, which no str holds, returns them as they are, and is judged as what it is (RFC 2279's
reading, say) instead of failing in chr(). A library that returns ill-formed UTF-8 as its text
(some parsers do) returns `code_points_of_bits(its_bytes)`: each sequence read by its bits, so
that an overlong form or a surrogate it let through is classified as such. encode gets code
points too, any 0..FFFFFFFF. The hex fields are read and written by the adapter kit
(utf8cert.harness.codec.kit).
"""

from __future__ import annotations

import codecs
import sys

from utf8cert.harness.codec.kit import (
    Refusal,
    bytes_of_hex,
    hex_of_bytes,
    hex_of_scalars,
    scalars_of_hex,
)

CAPABILITIES = "decode replace validate encode incremental"
INCREMENTAL_MODE = "strict"  # the incremental decoder refuses ill-formed input, as decode does
Text = str | list[int]
"""What a decoder returns: a str, or code points (any 0..FFFFFFFF)."""


def decode(data: bytes) -> Text:  # YOUR CODEC: strict decoding; raise UnicodeDecodeError
    return data.decode("utf-8")


def replace(data: bytes) -> Text:  # YOUR CODEC: U+FFFD for ill-formed input
    return data.decode("utf-8", "replace")


def validate(data: bytes) -> bool:  # YOUR CODEC: is it well-formed?
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def encode(values: list[int]) -> bytes:  # YOUR CODEC: strict encoding; UnicodeEncodeError
    # No str holds a value above U+10FFFF: CPython's codec is not asked, the template refuses
    # it, where it comes first among the values UTF-8 cannot encode (a surrogate is the other).
    unencodable = (i for i, v in enumerate(values) if v > 0x10FFFF or 0xD800 <= v <= 0xDFFF)
    first = next(unencodable, len(values))
    if first < len(values) and values[first] > 0x10FFFF:
        raise Refusal("not a Unicode scalar value (above U+10FFFF)", first)
    if first < len(values):  # a surrogate: CPython refuses it, at its start and end
        values = values[: first + 1]
    return "".join(map(chr, values)).encode("utf-8")


def incremental(chunks: list[bytes], final_empty: bool) -> Text:  # YOUR CODEC: fed in chunks
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    feeds = [*chunks, b""] if final_empty or not chunks else chunks
    text, fed = [], 0
    for index, chunk in enumerate(feeds):
        held = len(decoder.getstate()[0])  # bytes of a character begun in an earlier chunk
        try:
            text.append(decoder.decode(chunk, index == len(feeds) - 1))
        except UnicodeDecodeError as error:
            error.start += fed - held  # the offset counts from the start of all the chunks
            error.end += fed - held
            raise
        fed += len(chunk)
    return "".join(text)


def code_points_of_bits(data: bytes) -> list[int]:
    """Return the code points of UTF-8 bytes read by their bits alone, as a lax reader would:
    a lead byte (C0..FD) and the 80..BF bytes after it give a value, overlong, surrogate or
    above U+10FFFF as it may be; any other byte is U+FFFD ([] for b''). For a library that
    returns ill-formed UTF-8 as its text: its answer keeps what it let through."""
    values, position = [], 0
    while position < len(data):
        lead = data[position]
        length = next((n for n, top in ((2, 0xE0), (3, 0xF0), (4, 0xF8), (5, 0xFC), (6, 0xFE))
                       if 0xC0 <= lead < top), 1)  # fmt: skip
        tail = data[position + 1 : position + length]
        if lead < 0x80 or len(tail) < length - 1 or any(b >> 6 != 2 for b in tail):
            values.append(lead if lead < 0x80 else 0xFFFD)
            position += 1
            continue
        value = lead & (0x7F >> length)
        for byte in tail:
            value = value << 6 | byte & 0x3F
        values.append(value)
        position += length
    return values


def hex_of(text: Text) -> str:
    """Return a decoder's answer as the protocol's code points (eight hex digits each)."""
    return hex_of_scalars(list(map(ord, text)) if isinstance(text, str) else text)


def answer(operation: str, fields: list[str]) -> str:
    """Return the answer line (without its id) to one request."""
    try:
        if operation == "decode":
            return f"ok {hex_of(decode(bytes_of_hex(fields[0])))}"
        if operation == "replace":
            return f"ok {hex_of(replace(bytes_of_hex(fields[0])))}"
        if operation == "validate":
            return f"ok {'true' if validate(bytes_of_hex(fields[0])) else 'false'}"
        if operation == "encode":
            return f"ok {hex_of_bytes(encode(list(scalars_of_hex(fields[0]))))}"
        if operation == "incremental":
            chunks = [bytes_of_hex(field) for field in fields[1:]]
            return f"ok {hex_of(incremental(chunks, fields[0] == '1'))}"
    except Refusal as refusal:  # refused where the codec says, or (no offset) it cannot tell
        at = "-" if refusal.start is None else refusal.start
        return " ".join(f"refused {at} {refusal}".split())
    except ValueError as error:  # a refusal; UnicodeError's `start` and `end` say where
        start, end = getattr(error, "start", None), getattr(error, "end", None)
        if not isinstance(start, int):  # a plain ValueError: the error placed nowhere
            return " ".join(f"refused generic=1 - {error}".split())
        extent = f"end={end} " if isinstance(end, int) else ""
        return " ".join(f"refused {extent}{start} {error}".split())
    except Exception as error:
        return " ".join(f"crash {type(error).__name__}: {error}".split())
    return f"crash unknown request {operation}"


def main() -> None:
    """Write the handshake, then answer each request line, in order, until stdin closes."""
    out = sys.stdout
    offered = CAPABILITIES.split()
    mode = [f"incremental={INCREMENTAL_MODE}"] if "incremental" in offered else []
    out.write(" ".join(["utf8cert-protocol 2", *offered, *mode]) + "\n")
    out.flush()
    for line in iter(sys.stdin.buffer.readline, b""):
        identifier, operation, *fields = line.decode("ascii").split()
        out.write(f"{identifier} {answer(operation, fields)}\n")
        out.flush()


if __name__ == "__main__":
    main()
