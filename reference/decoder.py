"""Decoding and validation of UTF-8, driven by the RFC 3629 §4 table in `table.py`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from .kinds import DecodeError, ErrorKind
from .table import ROW_OF_BYTE, RUN_PATTERN, SUBPART_PATTERN, TAIL, Row
from .text import cut_before_leads, text_of

_RUN: Final = re.compile(RUN_PATTERN)
_RUN_OR_SUBPART: Final = re.compile(b"(" + RUN_PATTERN + b")|" + SUBPART_PATTERN)
_FFFD_BYTES: Final = b"\xef\xbf\xbd"  # U+FFFD, REPLACEMENT CHARACTER, in UTF-8

REPLACEMENT_CHARACTER: Final = "\ufffd"
SIGNATURE: Final = b"\xef\xbb\xbf"  # U+FEFF encoded, RFC 3629 §6

BytesLike = bytes | bytearray | memoryview


def sequence_at(data: bytes, start: int) -> tuple[int, ErrorKind | None]:
    """Return (length, None) for the character at `data[start]`, or (maximal subpart, why not).

    The maximal subpart (Unicode §3.9 D93b) is the longest prefix of a well-formed sequence found
    at `start`, or its first byte alone: the bytes one U+FFFD stands for. `start` must be an index
    into `data`.
    """
    meaning = ROW_OF_BYTE[data[start]]
    if not isinstance(meaning, Row):
        return 1, meaning
    for seen in range(1, meaning.length):
        if start + seen == len(data):
            return seen, ErrorKind.TRUNCATED
        byte = data[start + seen]
        allowed = meaning.second if seen == 1 else TAIL
        if byte not in allowed:
            if seen == 1 and byte in TAIL and meaning.narrowed_out is not None:
                # RFC 3629 §4 narrows the second byte after E0, ED, F0 and F4: a UTF8-tail byte
                # outside that range would make an overlong, a surrogate or a value past U+10FFFF.
                return 1, meaning.narrowed_out
            return seen, ErrorKind.MISSING_CONTINUATION
    return meaning.length, None


def pieces(data: bytes) -> Iterator[str | tuple[int, int, ErrorKind]]:
    """Yield, in order, runs of decoded text and each maximal subpart as (offset, length, kind).

    Yields nothing for empty input; the lengths of all pieces add up to `len(data)`.
    """
    position, end = 0, len(data)
    while position < end:
        run = _RUN.match(data, position)
        if run is not None:
            yield text_of(run.group())
            position = run.end()
            if position == end:
                return
        length, kind = sequence_at(data, position)
        if kind is None:
            raise AssertionError(f"table and pattern disagree at offset {position}")
        yield position, length, kind
        position += length


def _as_bytes(data: BytesLike, function: str) -> bytes:
    if isinstance(data, bytes):
        return data
    if isinstance(data, bytearray | memoryview):
        return bytes(data)
    raise TypeError(f"{function}() takes bytes, not {type(data).__name__}")


def decode(data: BytesLike) -> str:
    """Return the text of well-formed UTF-8 ('' for b''); raise `DecodeError` at the first error.

    Strict: nothing is replaced, skipped or normalized, and U+FEFF is kept wherever it stands.
    The error's `offset` is the number of leading bytes that are well-formed.
    """
    data = _as_bytes(data, "decode")
    if data.isascii():
        return data.decode("ascii")
    well_formed = _RUN.match(data)
    offset = 0 if well_formed is None else well_formed.end()
    if offset == len(data):
        return text_of(data)
    length, kind = sequence_at(data, offset)
    if kind is None:
        raise AssertionError(f"table and pattern disagree at offset {offset}")
    raise DecodeError(data, offset, length, kind)


def decode_replace(data: BytesLike) -> str:
    """Return the text of `data` with one U+FFFD per maximal subpart ('' for b'').

    This is the practice of the Unicode Standard §3.9 (after D93b) that WHATWG Encoding requires.
    """
    data = _as_bytes(data, "decode_replace")
    if data.isascii():
        return data.decode("ascii")
    if _RUN.fullmatch(data):
        return text_of(data)  # nothing to replace
    return "".join(map(_replaced_text, cut_before_leads(data)))


def _replaced_text(data: bytes) -> str:
    # `re` cuts the input into well-formed runs and maximal subparts (None in the run's place);
    # each subpart becomes EF BF BD, the UTF-8 of U+FFFD, and the whole is then well-formed.
    runs: list[bytes | None] = _RUN_OR_SUBPART.split(data)[1::2]
    return text_of(b"".join([_FFFD_BYTES if run is None else run for run in runs]))


def errors(data: BytesLike) -> list[DecodeError]:
    """Return every ill-formed maximal subpart of `data`, in order ([] for well-formed input)."""
    data = _as_bytes(data, "errors")
    return [DecodeError(data, *piece) for piece in pieces(data) if not isinstance(piece, str)]


def validate(data: BytesLike) -> bool:
    """Return True if `data` is well-formed UTF-8 per RFC 3629 §4 (True for b'')."""
    data = _as_bytes(data, "validate")
    return data.isascii() or _RUN.fullmatch(data) is not None


def strip_signature(data: BytesLike) -> bytes:
    """Return `data` without one leading EF BB BF (RFC 3629 §6); any other U+FEFF stays."""
    data = _as_bytes(data, "strip_signature")
    return data.removeprefix(SIGNATURE)
