"""Names for what went wrong: the level and a few words for a mismatch, and short descriptions of
values (text as code points, bytes as hex, runs of one value shortened as `61*4094`)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final

from utf8cert.harness.check.expected import Expected, ExpectedEncoding
from utf8cert.harness.check.unencodable import DROPPED, JOINED, fate
from utf8cert.harness.codec.interface import Failed, Inapplicable, Outcome, Refused, Returned
from utf8cert.harness.vectors.model import LEVELS, Level
from utf8cert.reference import (
    REPLACEMENT_CHARACTER,
    SIGNATURE,
    DecodeError,
    decode_legacy,
    validate,
)

Marks = tuple[tuple[int, int], ...]
Finding = tuple[Level, str, Marks]
"""(level, what, marks): how much a mismatch matters, a few words, the bytes to point at."""

SIGNATURE_LEVEL: Final[Level] = "may"
"""RFC 3629 §6: whether a leading EF BB BF is a signature to strip (or write) is the protocol's
choice, so stripping or writing one is only a departure from plain UTF-8, never an error."""

RUN: Final = 8
"""A value repeated this many times or more is written once with its count."""
LIMIT: Final = 200
"""At most this many items (values or runs) are written; the rest is counted."""

# The start of a run: one value and RUN - 1 copies. The run's end is found with lstrip, in C:
# a backreference repeated over a 64 KiB run of padding would be slow.
_CHAR_RUN_START: Final = re.compile(r"(.)\1{" + str(RUN - 1) + "}", re.DOTALL)
_BYTE_RUN_START: Final = re.compile(_CHAR_RUN_START.pattern.encode("ascii"), re.DOTALL)


def _runs(value: Any, start: re.Pattern[Any]) -> Iterator[tuple[int, int]]:
    """Yield (start, end) of each run of RUN or more equal values in a str or bytes that starts
    within LIMIT + 1 values of the end of the one before: `_items` names nothing farther, and a
    search to the end of a long input would read all of it for nothing."""
    position = 0
    while (found := start.search(value, position, position + LIMIT + 1 + RUN)) is not None:
        # One value repeated, matched in C (a slice of the rest of a long input would copy it).
        one = re.escape(value[found.start() : found.start() + 1])
        repeated = re.compile(one + (b"+" if isinstance(value, bytes) else "+"))
        run = repeated.match(value, found.start())
        position = found.end() if run is None else run.end()  # never None: the run starts here
        yield found.start(), position


def _items(size: int, runs: Iterator[tuple[int, int]], name: Callable[[int], str]) -> list[str]:
    """Return up to LIMIT + 1 names of the elements 0..size-1, each run of one value as one item."""
    items: list[str] = []
    position = 0
    for run_start, run_end in runs:
        items += map(name, range(position, min(run_start, position + LIMIT + 1)))
        items.append(f"{name(run_start)}*{run_end - run_start}")
        position = run_end
        if len(items) > LIMIT:
            return items
    items += map(name, range(position, min(size, position + LIMIT + 1)))
    return items


def _join(items: list[str], empty: str) -> str:
    if not items:
        return empty
    if len(items) > LIMIT:
        return " ".join(items[:LIMIT]) + " …"
    return " ".join(items)


def describe_text(text: str) -> str:
    """Return text as code points ('U+0061*4094 U+20AC'); '(empty text)' for ''."""
    items = _items(len(text), _runs(text, _CHAR_RUN_START), lambda i: f"U+{ord(text[i]):04X}")
    return _join(items, "(empty text)")


def describe_bytes(data: bytes) -> str:
    """Return bytes as spaced upper-case hex ('61*4094 E2 82 AC'); '(no bytes)' for b''."""
    items = _items(len(data), _runs(data, _BYTE_RUN_START), lambda i: f"{data[i]:02X}")
    return _join(items, "(no bytes)")


def _shorten(message: str, limit: int = 100) -> str:
    line = " ".join(message.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def describe_outcome(outcome: Outcome) -> str:
    """Return what the codec did, in a few words: its output, its refusal, its failure."""
    if isinstance(outcome, Returned):
        value = outcome.value
        if isinstance(value, bool):
            return str(value)
        if isinstance(value, tuple):
            return " ".join(f"U+{item:04X}" for item in value)
        return describe_text(value) if isinstance(value, str) else describe_bytes(value)
    if isinstance(outcome, Refused):
        where = "(no offset)" if outcome.offset is None else f"at {outcome.offset}"
        return f"refused {where}: {_shorten(outcome.message)}"
    if isinstance(outcome, Failed):
        return f"{outcome.kind}: {_shorten(outcome.message)}"
    assert isinstance(outcome, Inapplicable)
    return f"not asked: {outcome.reason}"


def common_prefix(a: Sequence[Any], b: Sequence[Any]) -> int:
    """Return the length of the longest common prefix (binary search: long inputs stay cheap)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_suffix(a: Sequence[Any], b: Sequence[Any], limit: int) -> int:
    low, high = 0, min(len(a), len(b), limit)
    while low < high:
        middle = (low + high + 1) // 2
        if a[len(a) - middle :] == b[len(b) - middle :]:
            low = middle
        else:
            high = middle - 1
    return low


def _is_subsequence(small: str, big: str) -> bool:
    remaining = iter(big)
    return all(character in remaining for character in small)


def text_mismatch(expected: Expected, actual: str) -> Finding:
    """Return how wrong decoded text is for well-formed input, pointing at the first bad char."""
    assert expected.text is not None
    text = expected.text
    same = common_prefix(text, actual)
    # Byte offsets by UTF-8 lengths (surrogatepass: a dialect's text may hold surrogates).
    start = len(text[:same].encode("utf-8", "surrogatepass"))
    marks = ((start, start + len(text[same : same + 1].encode("utf-8", "surrogatepass"))),)
    level = expected.levels["scalars"]
    if any(unicodedata.normalize(form, text) == actual for form in ("NFC", "NFD", "NFKC", "NFKD")):
        return level, "normalized the text", marks  # RFC 3629 §10: no normalization by the codec
    if "\ufeff" in text and text.replace("\ufeff", "") == actual:
        return level, "dropped U+FEFF", marks  # RFC 3629 §6: U+FEFF is kept unless a signature
    if text.startswith(actual):
        return level, "lost the end of the text", marks
    return level, "wrong text", marks


def offset_mismatch(expected: Expected, offset: int) -> Finding:
    """Return how wrong a reported error offset is (the first error is marked)."""
    first = expected.errors[0]
    marks = ((first.offset, first.offset + first.length),)
    if expected.data.startswith(SIGNATURE) and offset + len(SIGNATURE) == first.offset:
        # A decoder that strips a leading signature counts from after it (RFC 3629 §6).
        return SIGNATURE_LEVEL, "error offset counted after the signature", marks
    return expected.levels["errors"], "wrong error offset", marks


def replaced_mismatch(expected: Expected, actual: str) -> Finding:
    """Return how wrong U+FFFD-replaced output is for ill-formed input.

    Characters made out of ill-formed bytes, or ill-formed bytes dropped without a trace, are
    accepting ill-formed input (RFC 3629 §3: decoders MUST protect against decoding invalid
    sequences); losing well-formed characters is wrong text; only the number and place of the
    U+FFFDs is a matter of recommended practice (Unicode §3.9, WHATWG).
    """
    marks = tuple((error.offset, error.offset + error.length) for error in expected.errors)
    want = expected.replaced.replace(REPLACEMENT_CHARACTER, "")
    got = actual.replace(REPLACEMENT_CHARACTER, "")
    if want == got:
        due, found = (
            expected.replaced.count(REPLACEMENT_CHARACTER),
            actual.count(REPLACEMENT_CHARACTER),
        )
        if found == due - len(expected.errors):
            if expected.data and SIGNATURE.startswith(expected.data):
                # A stream of EF or EF BB alone is no signature (RFC 3629 §6), only cut short.
                return expected.levels["valid"], "dropped a truncated signature silently", marks
            return expected.levels["valid"], "dropped ill-formed input silently", marks
        if found != due:
            return expected.levels["replaced"], "wrong U+FFFD count", marks
        return expected.levels["replaced"], "U+FFFD misplaced", marks
    head = common_prefix(want, got)
    tail = _common_suffix(want, got, min(len(want), len(got)) - head)
    if _is_subsequence(want[head : len(want) - tail], got[head : len(got) - tail]):
        return expected.levels["valid"], "decoded ill-formed bytes as characters", marks
    return expected.levels["scalars"], "lost well-formed characters", marks


def _weaker(level: Level, other: Level) -> Level:
    return max(level, other, key=LEVELS.index)


def _encoded_length(value: int) -> int:
    # RFC 3629 §3: 1 to 4 octets by range of the value.
    return 1 if value < 0x80 else 2 if value < 0x800 else 3 if value < 0x10000 else 4


def _unencoded(expected: ExpectedEncoding, written: bytes) -> Finding:
    """Return what an encoder did by writing `written` where a refusal was due.

    RFC 3629 §3: surrogates and values above U+10FFFF have no UTF-8 form. Writing one anyway
    gives ill-formed bytes; writing well-formed bytes instead substitutes, joins or drops
    (unencodable.py says which).
    """
    assert expected.error_index is not None
    index = expected.error_index
    marks = ((index, index + 1),)
    if not validate(written):
        if 0xD800 <= expected.scalars[index] <= 0xDFFF:
            return expected.level, "encoded a surrogate", marks
        return expected.level, "encoded a value above U+10FFFF", marks
    values, output = expected.scalars, tuple(map(ord, written.decode("utf-8")))
    head = common_prefix(values, output)
    tail = _common_suffix(values, output, min(len(values), len(output)) - head)
    explanation = fate(values[head : len(values) - tail], output[head : len(output) - tail])
    if explanation is None:
        return expected.level, "wrote other text for an unencodable value", marks
    if DROPPED in explanation:
        return expected.level, "dropped an unencodable value", marks
    if JOINED in explanation:
        return expected.level, "joined a surrogate pair", marks
    return (
        _weaker(expected.level, "should"),
        "substituted a character for an unencodable value",
        marks,
    )


def _overlong_null(expected: bytes, written: bytes) -> bool:
    """Return True if `written` is `expected` with its 00 bytes written C0 80 (Java's way)."""
    return b"\xc0\x80" in written and written.replace(b"\xc0\x80", b"\x00") == expected


def _surrogate_pairs(expected: bytes, written: bytes) -> bool:
    """Return True if `written` is `expected` with its 4-byte forms written as the 3-byte forms
    of their UTF-16 surrogates (CESU-8's way); both read by the reference's RFC 2279 reader, as
    `expected` may be a dialect's (surrogates, under a profile)."""
    head = common_prefix(expected, written)
    while head and any(
        0x80 <= data[head] <= 0xBF for data in (expected, written) if head < len(data)
    ):
        head -= 1  # start the comparison at a lead byte of both
    try:
        values, wanted = decode_legacy(written[head:]), decode_legacy(expected[head:])
    except DecodeError:
        return False
    joined: list[int] = []
    for value in values:
        if joined and 0xDC00 <= value <= 0xDFFF and 0xD800 <= joined[-1] <= 0xDBFF:
            value = 0x10000 + ((joined.pop() - 0xD800) << 10) + (value - 0xDC00)
        joined.append(value)
    return joined != values and joined == wanted


def encode_mismatch(expected: ExpectedEncoding, outcome: Outcome) -> Finding | None:
    """Return how wrong an encoder's outcome is (marks index code points); None if right."""
    if isinstance(outcome, Refused):
        at = () if outcome.offset is None else ((outcome.offset, outcome.offset + 1),)
        if expected.encoded is not None:
            return expected.level, "refused an encodable value", at
        if outcome.offset is not None and outcome.offset != expected.error_index:
            return _weaker(expected.level, "should"), "wrong error index", at
        return None
    if not isinstance(outcome, Returned) or not isinstance(outcome.value, bytes):
        return None
    written = outcome.value
    if expected.encoded is None:
        return _unencoded(expected, written)
    if written == expected.encoded:
        return None
    if written == SIGNATURE + expected.encoded:
        return SIGNATURE_LEVEL, "signature written", ()
    what = "wrong bytes"
    if not validate(written):
        what = "wrote ill-formed bytes"
        if _overlong_null(expected.encoded, written):
            what = "wrote U+0000 as the overlong C0 80"
        elif _surrogate_pairs(expected.encoded, written):
            what = "encoded a supplementary character as a surrogate pair"
    same, index, position = common_prefix(expected.encoded, written), 0, 0
    while (
        index < len(expected.scalars) - 1
        and position + _encoded_length(expected.scalars[index]) <= same
    ):
        position += _encoded_length(expected.scalars[index])
        index += 1
    return expected.level, what, ((index, index + 1),)
