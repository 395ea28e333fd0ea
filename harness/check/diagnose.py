"""Names for what went wrong: the level and a few words for a mismatch, and the bytes to point
at (how values are written in the report: describe.py)."""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Sequence
from typing import Any, Final

from utf8cert.harness.check.difference import Marks
from utf8cert.harness.check.expected import Decoded, Expected, ExpectedEncoding, as_code_points
from utf8cert.harness.check.parting import decoded_in, replaced_run, run_at
from utf8cert.harness.check.reading import Reading
from utf8cert.harness.check.unencodable import DROPPED, JOINED, OTHER, fate
from utf8cert.harness.codec.interface import Outcome, Refused, Returned
from utf8cert.harness.vectors.model import LEVELS, Level
from utf8cert.reference import (
    REPLACEMENT_CHARACTER,
    SIGNATURE,
    DecodeError,
    decode_legacy,
    encode_legacy,
    validate,
)

Finding = tuple[Level, str, Marks]
"""(level, what, marks): how much a mismatch matters, a few words, the bytes to point at."""

SIGNATURE_LEVEL: Final[Level] = "may"
"""RFC 3629 §6: whether a leading EF BB BF is a signature to strip (or write) is the protocol's
choice, so stripping or writing one is only a departure from plain UTF-8, never an error."""

OFFSET_AFTER_SIGNATURE: Final = "error offset counted after the signature"
"""`may` only for a decoder that strips the signature (signature.py asks it)."""

REFUSED_LATE: Final = "let ill-formed input through, then refused"
"""A refusal at a later ill-formed sequence, or past well-formed text after the first: the
first was read as text (offset_mismatch)."""

REPLACEMENT_VALUE: Final = ord(REPLACEMENT_CHARACTER)
NORMAL_FORMS: Final = ("NFC", "NFD", "NFKC", "NFKD")


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


def _is_subsequence(small: Sequence[Any], big: Sequence[Any]) -> bool:
    remaining = iter(big)
    return all(character in remaining for character in small)


def _alike(expected: Decoded, actual: Decoded) -> tuple[Decoded, Decoded]:
    """Return both as str, or both as code points when one of them holds values no str holds."""
    if isinstance(expected, str) and isinstance(actual, str):
        return expected, actual
    return as_code_points(expected), as_code_points(actual)


def _byte_length(text: Decoded) -> int:
    """Return how many bytes `text` takes in UTF-8 (in RFC 2279's forms above U+10FFFF)."""
    # surrogatepass: a dialect's text may hold surrogates.
    if isinstance(text, str):
        return len(text.encode("utf-8", "surrogatepass"))
    # Up to U+10FFFF (what a str holds) the forms are RFC 3629's, encoded in C; encode_legacy,
    # value by value, only for the few above (on a long text's prefix it took seconds).
    within = "".join(chr(value) for value in text if value <= sys.maxunicode)
    return len(within.encode("utf-8", "surrogatepass")) + len(
        encode_legacy([value for value in text if value > sys.maxunicode])
    )


def text_mismatch(expected: Expected, actual: Decoded) -> Finding:
    """Return how wrong decoded text is for well-formed input, pointing at the first bad char."""
    assert expected.text is not None
    text, actual = _alike(expected.text, actual)
    same = common_prefix(text, actual)
    start = _byte_length(text[:same])
    marks = ((start, start + _byte_length(text[same : same + 1])),)
    level = expected.levels["scalars"]
    if isinstance(text, str) and isinstance(actual, str):
        if any(unicodedata.normalize(form, text) == actual for form in NORMAL_FORMS):
            return level, "normalized the text", marks  # RFC 3629 §10: no normalization
        if "\ufeff" in text and text.replace("\ufeff", "") == actual:
            return level, "dropped U+FEFF", marks  # RFC 3629 §6: U+FEFF is kept unless a signature
    if text[: len(actual)] == actual:
        return level, "lost the end of the text", marks
    return level, "wrong text", marks


def offset_mismatch(expected: Expected, offset: int) -> Finding:
    """Return how wrong a reported error offset is (the first error is marked).

    Before the first ill-formed sequence, inside it, or after it up to the end of the run of
    ill-formed bytes it begins, the offset is a way of counting: `should` (Unicode §3.9). At a
    later ill-formed sequence, or past well-formed text after the run, the decoder read the
    first sequence as text and refused only later: that is letting ill-formed input through
    (RFC 3629 §3, §10), graded as accepting it, the gravest of the two departures.
    """
    first = expected.errors[0]
    marks = ((first.offset, first.offset + first.length),)
    if expected.data.startswith(SIGNATURE) and offset + len(SIGNATURE) == first.offset:
        # A decoder that strips a leading signature counts from after it (RFC 3629 §6).
        return SIGNATURE_LEVEL, OFFSET_AFTER_SIGNATURE, marks
    if offset > marks[0][1]:
        starts, run_end = later_errors(expected.reading, marks[0][1])
        if offset in starts or offset > run_end:
            return expected.levels["valid"], REFUSED_LATE, marks
    return expected.levels["errors"], "wrong error offset", marks


def later_errors(reading: Reading | None, end: int) -> tuple[set[int], int]:
    """Return where the ill-formed sequences of an input start, as the reference's `reading`
    of it says, and where the run of them that goes on at `end` ends (`end` itself when
    well-formed input, or the end of input, follows; (set(), end) for None: code points, which
    hold no ill-formed bytes)."""
    if reading is None:
        return set(), end
    ends = {offset: offset + length for offset, length, _ in reading.errors}
    while end in ends:
        end = ends[end]
    return set(ends), end


def replaced_mismatch(expected: Expected, actual: Decoded) -> Finding:
    """Return how wrong U+FFFD-replaced output is for ill-formed input.

    Characters made out of ill-formed bytes, or ill-formed bytes dropped without a trace, are
    accepting ill-formed input (RFC 3629 §3: decoders MUST protect against decoding invalid
    sequences); losing well-formed characters is wrong text; only the number and place of the
    U+FFFDs is a matter of recommended practice (Unicode §3.9, WHATWG), as long as every run of
    ill-formed bytes leaves one of its own: fewer U+FFFD than the literal ones plus one a run is
    a run dropped, whatever U+FFFD stands beside it.
    """
    replaced, actual = _alike(expected.replaced, actual)
    want, got = _without_replacements(replaced), _without_replacements(actual)
    if want == got:
        due, found = _replacements(replaced), _replacements(actual)
        literal = due - len(expected.errors)  # U+FFFD well-formed in the input (EF BF BD)
        dropped = found < literal + _runs(expected)
        marks = replaced_run(expected, actual, dropped)
        if found == literal:
            if expected.data and SIGNATURE.startswith(expected.data):
                # A stream of EF or EF BB alone is no signature (RFC 3629 §6), only cut short.
                return expected.levels["valid"], "dropped a truncated signature silently", marks
            return expected.levels["valid"], "dropped ill-formed input silently", marks
        if dropped:
            # A run merged into a literal U+FFFD beside it, or dropped: the error vanished.
            return expected.levels["valid"], "dropped ill-formed input silently", marks
        if found != due:
            return expected.levels["replaced"], "wrong U+FFFD count", marks
        return expected.levels["replaced"], "U+FFFD misplaced", marks
    same = common_prefix(replaced, actual)
    head = common_prefix(want, got)
    tail = _common_suffix(want, got, min(len(want), len(got)) - head)
    if _is_subsequence(want[head : len(want) - tail], got[head : len(got) - tail]):
        ends = (same, _common_suffix(replaced, actual, min(len(replaced), len(actual)) - same))
        marks = decoded_in(expected, replaced, actual, ends)
        return expected.levels["valid"], "decoded ill-formed bytes as characters", marks
    marks = run_at(expected, replaced, same)
    return expected.levels["scalars"], "lost well-formed characters", marks


def _runs(expected: Expected) -> int:
    """Return how many runs of ill-formed bytes the input holds: maximal subparts that touch
    make one run (0 for well-formed input)."""
    runs, end = 0, -1
    for error in expected.errors:
        runs += error.offset != end
        end = error.offset + error.length
    return runs


def _without_replacements(text: Decoded) -> Decoded:
    if isinstance(text, str):
        return text.replace(REPLACEMENT_CHARACTER, "")
    return tuple(value for value in text if value != REPLACEMENT_VALUE)


def _replacements(text: Decoded) -> int:
    return (
        text.count(REPLACEMENT_CHARACTER)
        if isinstance(text, str)
        else text.count(REPLACEMENT_VALUE)
    )


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
    if OTHER in explanation:
        return expected.level, "wrote a different character for an unencodable value", marks
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
        if outcome.offset is not None and expected.error_index is not None:
            if outcome.offset < expected.error_index:
                # Every value before the first unencodable one has a UTF-8 form (RFC 3629 §3):
                # a refusal there refuses one of them, whatever else the input holds.
                return expected.level, "refused an encodable value", at
            if outcome.offset != expected.error_index:
                return _weaker(expected.level, "should"), "wrong error index", at
        return None
    if not isinstance(outcome, Returned) or not isinstance(outcome.value, bytes):
        return None
    written = outcome.value
    finding = _written_mismatch(expected, written)
    if finding is None or not written.startswith(SIGNATURE):
        return finding
    # RFC 3629 §6: a signature written first is graded `may` alone; what else is wrong in the
    # rest keeps its own level. Of the two readings (a signature then the rest, or no
    # signature at all: U+FEFF substituted, say), the milder is taken.
    rest = _written_mismatch(expected, written[len(SIGNATURE) :])
    if rest is None:
        return SIGNATURE_LEVEL, "signature written", ()
    return rest if LEVELS.index(rest[0]) > LEVELS.index(finding[0]) else finding


def _written_mismatch(expected: ExpectedEncoding, written: bytes) -> Finding | None:
    """Return how wrong `written` is as the encoding of `expected` (no signature rule)."""
    if expected.encoded is None:
        return _unencoded(expected, written)
    if written == expected.encoded:
        return None
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
