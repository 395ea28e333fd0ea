"""Whether a vector says what the reference says about its own input.

A vector is an expectation written by hand; a slip (E2 82 declared well-formed as U+20AC) would
otherwise blame every codec, the reference's own included, for the vector's mistake. So each
vector is put to the reference when it is loaded, and a contradiction is a load error naming
both answers. The shipped vectors agree (tests/vectors/test_vectors_agreement.py proves it
against two more readings of RFC 3629).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from utf8cert.harness.vectors.model import DecodeVector, EncodeVector, ExpectedError, Vector
from utf8cert.reference import (
    DecodeError,
    EncodeError,
    decode,
    decode_legacy,
    decode_replace,
    encode,
    encode_legacy,
    errors,
)

SHOWN: Final = 8
"""At most this many values, bytes or errors are named in a message; the rest are counted."""


def disagreement(vector: Vector) -> tuple[str, str] | None:
    """Return (the vector's field, the problem naming both answers) for the first of its
    expectations that the reference contradicts; None when the reference agrees throughout."""
    if isinstance(vector, EncodeVector):
        return _encode_disagreement(vector)
    return _decode_disagreement(vector)


def _decode_disagreement(vector: DecodeVector) -> tuple[str, str] | None:
    data = vector.data
    found = errors(data)
    if vector.valid and found:
        return "valid", _both(
            f"well-formed, {_values(vector.scalars or ())}", f"ill-formed: {_errors(found)}"
        )
    if not vector.valid and not found:
        return "valid", _both("ill-formed", f"well-formed, {_values(map(ord, decode(data)))}")
    if vector.valid:
        text = decode(data)
        if text != vector.text:
            return "scalars", _both(_values(vector.scalars or ()), _values(map(ord, text)))
    else:
        said = [(e.offset, e.length, e.kind, e.incomplete) for e in vector.errors]
        if said != [(e.offset, e.length, e.kind, e.incomplete) for e in found]:
            return "errors", _both(_errors(vector.errors), _errors(found))
        replaced = decode_replace(data)
        if replaced != vector.replaced:
            return "replaced", _both(
                _values(map(ord, vector.replaced)), _values(map(ord, replaced))
            )
    if vector.legacy is not None:
        try:
            legacy = _values(decode_legacy(data))
        except DecodeError as error:
            legacy = f"refused: {_errors([error])}"
        if legacy != _values(vector.legacy):
            return "legacy", _both(_values(vector.legacy), f"{legacy} (RFC 2279)")
    return None


def _encode_disagreement(vector: EncodeVector) -> tuple[str, str] | None:
    said_field = "bytes" if vector.error is None else "error"
    said = (
        _hex(vector.expected or b"")
        if vector.error is None
        else _refusal(vector.error.index, vector.error.kind)
    )
    try:
        answer = _hex(encode(vector.scalars))
    except EncodeError as error:
        answer = _refusal(error.index, error.kind)
    if said != answer:
        return said_field, _both(said, answer)
    if vector.legacy is not None:
        try:
            legacy = _hex(encode_legacy(vector.scalars))
        except EncodeError as error:
            legacy = _refusal(error.index, error.kind)
        if legacy != _hex(vector.legacy):
            return "legacy", _both(_hex(vector.legacy), f"{legacy} (RFC 2279)")
    return None


def _both(vector_says: str, reference_says: str) -> str:
    return f"the vector says {vector_says}; the reference says {reference_says}"


def _shown(items: Sequence[str]) -> str:
    """Return the first SHOWN items spaced, and how many there are in all beyond that."""
    more = f" … ({len(items)} in all)" if len(items) > SHOWN else ""
    return " ".join(items[:SHOWN]) + more


def _values(values: Iterable[int]) -> str:
    return _shown([f"U+{value:04X}" for value in values]) or "no characters"


def _hex(data: bytes) -> str:
    return _shown([f"{byte:02X}" for byte in data]) or "no bytes"


def _errors(found: Sequence[ExpectedError | DecodeError]) -> str:
    named = [f"{e.kind} at {e.offset} ({e.length} bytes)" for e in found]
    return ", ".join(named[:SHOWN]) + (f" … ({len(named)} in all)" if len(named) > SHOWN else "")


def _refusal(index: int, kind: str) -> str:
    return f"refused: {kind} at index {index}"
