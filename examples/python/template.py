#!/usr/bin/env python3
"""A utf8cert-protocol 2 program in Python (harness/PROTOCOL.md), to copy for your own codec:

    utf8cert check "cmd:python examples/python/template.py"

It wraps CPython's own utf-8 codec; put your codec's calls in the five functions marked YOUR
CODEC, and drop from CAPABILITIES what it does not offer. A refusal is a ValueError (at its
`start` when it has one, ending at its `end`: the optional `end=` field of PROTOCOL.md, which
utf8cert judges); anything else your codec raises is reported as a crash. The hex fields are
read and written by the adapter kit (utf8cert.harness.codec.kit).
"""

from __future__ import annotations

import codecs
import sys

from utf8cert.harness.codec.kit import bytes_of_hex, hex_of_bytes, hex_of_text, scalars_of_hex

CAPABILITIES = "decode replace validate encode incremental"
INCREMENTAL_MODE = "strict"  # the incremental decoder refuses ill-formed input, as decode does


def decode(data: bytes) -> str:  # YOUR CODEC: strict decoding; raise ValueError to refuse
    return data.decode("utf-8")


def replace(data: bytes) -> str:  # YOUR CODEC: U+FFFD for ill-formed input
    return data.decode("utf-8", "replace")


def validate(data: bytes) -> bool:  # YOUR CODEC: is it well-formed?
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def encode(text: str) -> bytes:  # YOUR CODEC: strict encoding; raise ValueError to refuse
    return text.encode("utf-8")


def incremental(chunks: list[bytes], final_empty: bool) -> str:  # YOUR CODEC: fed in chunks
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


def answer(operation: str, fields: list[str]) -> str:
    """Return the answer line (without its id) to one request."""
    try:
        if operation == "decode":
            return f"ok {hex_of_text(decode(bytes_of_hex(fields[0])))}"
        if operation == "replace":
            return f"ok {hex_of_text(replace(bytes_of_hex(fields[0])))}"
        if operation == "validate":
            return f"ok {'true' if validate(bytes_of_hex(fields[0])) else 'false'}"
        if operation == "encode":
            values = scalars_of_hex(fields[0])
            if any(value > 0x10FFFF for value in values):
                return "inapplicable a Python str cannot hold a value above U+10FFFF"
            return f"ok {hex_of_bytes(encode(''.join(map(chr, values))))}"
        if operation == "incremental":
            chunks = [bytes_of_hex(field) for field in fields[1:]]
            return f"ok {hex_of_text(incremental(chunks, fields[0] == '1'))}"
    except ValueError as error:  # a refusal; UnicodeError's `start` and `end` say where
        start, end = getattr(error, "start", None), getattr(error, "end", None)
        if not isinstance(start, int):
            return " ".join(f"refused - {error}".split())
        extent = f"end={end} " if isinstance(end, int) else ""
        return " ".join(f"refused {extent}{start} {error}".split())
    except Exception as error:
        return " ".join(f"crash {type(error).__name__}: {error}".split())
    return f"crash unknown request {operation}"


def main() -> None:
    """Write the handshake, then answer each request line, in order, until stdin closes."""
    out = sys.stdout
    out.write(f"utf8cert-protocol 2 {CAPABILITIES} incremental={INCREMENTAL_MODE}\n")
    out.flush()
    for line in iter(sys.stdin.buffer.readline, b""):
        identifier, operation, *fields = line.decode("ascii").split()
        out.write(f"{identifier} {answer(operation, fields)}\n")
        out.flush()


if __name__ == "__main__":
    main()
