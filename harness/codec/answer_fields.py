"""The optional fields of an answer (harness/PROTOCOL.md, "Optional fields"): what an `ok` or
`refused` answer may say beyond its value or offset, written and read.

Each is one word `NAME=VALUE` right after the status, before the value or offset: a word with
`=` is never hex, `-`, a decimal number or true/false, so it cannot be taken for either, and the
message, which comes after the offset, is never read for one. Only the names below are fields;
any other word is read as before (and is as wrong as before). None is written for an answer
that has nothing to say in it, so the common answer is as short as ever.

- `end=N`: where a refused error ends (`Refused.end`, judged by check/extent.py), in the count
  of its offset; only beside a decimal offset.
- `returned=N,N,...`: what an incremental decoder had returned in all after each call that
  returned (`Stream.returned`, judged by check/timeliness.py), `-` for none. The bytes fed by
  each call (`Stream.fed`) are the request's, never the program's word: they are worked out
  here from the request's chunks. Written only for more than one call (one call's answer is
  the whole answer).
- `generic=1`: the refusal is the failure of some operation on the input (a plain Python
  ValueError), not the codec's own refusal (`Refused.generic`, check/extent.py's UNPLACED).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import accumulate
from typing import Final

from utf8cert.harness.codec.interface import Failed, Outcome, Refused, Returned, Stream

END: Final = "end"
RETURNED: Final = "returned"
GENERIC: Final = "generic"
NAMES: Final = (END, RETURNED, GENERIC)
FIELD_PREFIXES: Final = tuple(f"{name}=" for name in NAMES)
"""How a field's word starts: an answer's rest that starts otherwise carries none."""

_INTEGER: Final = re.compile(r"-?[0-9]+")


class FieldError(ValueError):
    """A field that is malformed, repeated, or out of place; the message says which."""


def field_words(outcome: Outcome) -> str:
    """Return the fields `outcome` carries as words, each followed by a space ('' for none)."""
    words = ""
    if isinstance(outcome, Refused):
        if outcome.end is not None and outcome.offset is not None:
            words += f"{END}={outcome.end} "
        if outcome.generic:
            words += f"{GENERIC}=1 "
    stream = getattr(outcome, "stream", None)
    if isinstance(outcome, Returned | Refused) and stream is not None and len(stream.fed) > 1:
        words += f"{RETURNED}={','.join(map(str, stream.returned)) or '-'} "
    return words


def split_fields(rest: str) -> tuple[dict[str, str], str]:
    """Return the fields at the start of an answer's `rest` (after its status) by name, and what
    follows them; FieldError for a field named twice."""
    fields: dict[str, str] = {}
    while rest.startswith(FIELD_PREFIXES):
        word, _, rest = rest.partition(" ")
        name, _, value = word.partition("=")
        if name in fields:
            raise FieldError(f"the field {name}= is given twice")
        fields[name] = value
    return fields, rest


def fed_by(chunks: Sequence[bytes], final_empty: bool) -> tuple[int, ...]:
    """Return the bytes fed in all after each call of an incremental request: each chunk, and
    the empty final chunk when `final_empty` or there are none (interface.Codec.decode_chunks)."""
    lengths = [len(chunk) for chunk in chunks]
    if final_empty or not lengths:
        lengths.append(0)
    return tuple(accumulate(lengths))


Feeds = tuple[Sequence[bytes], bool]
"""An incremental request's chunks, and whether an empty final chunk follows them."""


def refused_with(
    message: str, offset: int | None, fields: dict[str, str], feeds: Feeds | None
) -> Refused:
    """Return the refusal at `offset` whose fields are `fields`; FieldError for a field it
    cannot carry or a value that is malformed or contradicts it. `feeds`: the request's, when it
    is an incremental one (None: it is not)."""
    end = _end(fields[END], offset) if END in fields else None
    generic = _generic(fields[GENERIC]) if GENERIC in fields else False
    stream = None
    if RETURNED in fields:
        if feeds is None:
            raise FieldError(f"{RETURNED}= only answers an incremental request")
        stream = _stream(fields[RETURNED], None, fed_by(*feeds))
    return Refused(message, offset, end, stream, generic)


def returned_with(
    outcome: Returned | Failed, fields: dict[str, str], feeds: Feeds | None
) -> Outcome:
    """Return the value of an `ok` answer (or the failure its value is) with what its fields
    say; FieldError as refused_with."""
    if END in fields or GENERIC in fields:
        named = "/".join(f"{name}=" for name in (END, GENERIC) if name in fields)
        raise FieldError(f"{named} only goes with refused")
    if feeds is None:
        raise FieldError(f"{RETURNED}= only answers an incremental request")
    if isinstance(outcome, Failed):
        return outcome  # an ok of the wrong type: it has no stream to carry
    return Returned(outcome.value, _stream(fields[RETURNED], outcome, fed_by(*feeds)))


def _generic(value: str) -> bool:
    if value != "1":
        raise FieldError(f"{GENERIC}= takes 1, not {value!r}")
    return True


def _end(value: str, offset: int | None) -> int:
    if offset is None:
        raise FieldError(f"{END}= needs a decimal offset, not '-'")
    if not (value.isascii() and _INTEGER.fullmatch(value)):
        raise FieldError(f"{END}= takes a decimal number, not {value!r}")
    return int(value)


def _stream(value: str, returned: Returned | None, fed: tuple[int, ...]) -> Stream:
    """Return the stream `returned=value` describes, checked against the calls the request made
    and the answer: what it returned, None for a refusal."""
    try:
        if value != "-" and not (value.isascii() and value.replace(",", "").isdigit()):
            raise ValueError(value)
        counts = () if value == "-" else tuple(map(int, value.split(",")))  # ",," fails here
    except ValueError:
        message = f"{RETURNED}= takes decimal counts separated by commas, not {value!r}"
        raise FieldError(message) from None
    if list(counts) != sorted(counts):
        raise FieldError(f"{RETURNED}= counts what was returned in all: they cannot go down")
    calls = len(fed)
    if returned is None:
        if len(counts) >= calls:
            raise FieldError(
                f"{RETURNED}= of a refusal counts the calls before the one that refused: "
                f"{len(counts)} counts for {calls} calls"
            )
        return Stream(fed[: len(counts) + 1], counts)
    if len(counts) != calls:
        raise FieldError(f"{RETURNED}= gives {len(counts)} counts for {calls} calls")
    value_length = len(returned.value) if isinstance(returned.value, (str, tuple)) else None
    if counts and counts[-1] != value_length:
        raise FieldError(
            f"{RETURNED}= ends at {counts[-1]} characters, the answer holds {value_length}"
        )
    return Stream(fed, counts)
