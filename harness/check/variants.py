"""The derived variants of a vector: the same bytes at other places in other inputs.

Real bugs hide where a vector alone never goes: after ASCII (fast paths that skip ASCII), at
every alignment of a machine word or SIMD register, and across the 64-, 4096- and 65536-byte
blocks that buffered and vectorised decoders work in. Each variant pads the vector with ASCII,
which never changes its meaning (RFC 3629 §1: bytes 00..7F are always characters of their own and
never part of a multi-byte sequence), so its expectation follows from the vector's hand-written
one by shifting offsets and padding the text, and the reference's reading of it from the
vector's (reading.py); the codec under test is never asked.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Final

from utf8cert.harness.check.expected import (
    Decoded,
    Expected,
    ExpectedEncoding,
    as_code_points,
    encoding_of,
    expected_of,
)
from utf8cert.harness.vectors.model import DEFAULT_DECODE_LEVELS as DEFAULT
from utf8cert.harness.vectors.model import DecodeVector, EncodeVector, ExpectedError
from utf8cert.reference import SIGNATURE, ErrorKind

PAD: Final = 0x61
"""The padding byte, "a": any ASCII byte would do (RFC 3629 §1)."""

MID_STREAM_PAD: Final = 5
SHIFTS: Final = range(1, 16)
"""Shifts by 1..15 bytes: with the unshifted vector, every alignment in a 16-byte register."""
BLOCKS: Final = (64, 4096, 65536)
"""Block sizes of buffered and vectorised decoders: cache line, page, a common buffer size."""
AFTER_BLOCK: Final = 64
"""ASCII after a straddling vector, so that the input does not end right after it."""


@dataclass(frozen=True)
class Layout:
    """Where a vector goes: `before` padding bytes in front of it, `after` behind it."""

    name: str
    before: int
    after: int


@dataclass(frozen=True)
class Plan:
    """Which of its variants one vector gets: the layouts by name (None: all of them), whether
    its as-is input is also cut in two at every point for an incremental decoder, and whether
    an incremental decoder is also fed it byte by byte."""

    layouts: frozenset[str] | None = None
    every_cut: bool = True
    bytewise: bool = True


FULL: Final = Plan()
"""Every layout and every cut: the full cross product (`--depth full`)."""


@dataclass(frozen=True)
class Variant:
    """One derived input of a vector: its name, its expectation, and how an incremental decoder
    is fed it besides whole: cut in two at `cuts`, and the vector byte by byte if `bytewise`."""

    name: str
    expected: Expected
    cuts: tuple[int, ...]
    bytewise: bool


def cuts_for(layout: Layout, length: int) -> tuple[int, ...]:
    """Return where to cut the input of `layout` for an incremental decoder.

    As is: at every point. Mid-stream: at each edge of the vector and one byte either side.
    Straddling: at the block boundary, where a reader with that buffer size cuts. Shifted: none
    (alignment is a matter of one-shot fast paths: the whole input is fed, and `bytewise`
    says no, since fed byte by byte the vector's alignment is lost anyway).
    """
    total = layout.before + length + layout.after
    if layout.name == "as-is":
        points = set(range(1, length))
    elif layout.name == "mid-stream":
        edges = (layout.before, layout.before + length)
        points = {edge + delta for edge in edges for delta in (-1, 0, 1)}
    elif layout.name.startswith("straddle-"):
        points = {int(layout.name.removeprefix("straddle-"))}
    else:
        points = set()
    return tuple(sorted(point for point in points if 0 < point < total))


@cache
def layouts(length: int) -> tuple[Layout, ...]:
    """Return the layouts for a vector of `length` bytes (only as-is for an empty vector; made
    once a length: every vector asks for its own each time it is planned).

    A straddling layout puts the boundary in the middle of the vector (after its first byte
    when it has two or three), or right after a one-byte vector; a vector longer than twice the
    block starts one byte in, and so still straddles it.
    """
    as_is = Layout("as-is", 0, 0)
    if length == 0:
        return (as_is,)
    cut = max(1, length // 2)
    return (
        as_is,
        Layout("mid-stream", MID_STREAM_PAD, MID_STREAM_PAD),
        *(Layout(f"shift-{shift}", shift, 0) for shift in SHIFTS),
        *(Layout(f"straddle-{block}", max(1, block - cut), AFTER_BLOCK) for block in BLOCKS),
    )


def _shift_error(error: ExpectedError, by: int, followed: bool) -> ExpectedError:
    """Return `error` moved by `by` bytes; a truncated tail followed by ASCII is cut short by it."""
    if followed and error.kind is ErrorKind.TRUNCATED:
        # Unicode §3.9 D93b: the maximal subpart is unchanged, but now a byte that is not a
        # UTF8-tail ends it rather than the end of input.
        return ExpectedError(error.offset + by, error.length, ErrorKind.MISSING_CONTINUATION)
    return ExpectedError(error.offset + by, error.length, error.kind, error.incomplete)


@cache
def _padding(length: int) -> tuple[bytes, str]:
    """Return `length` padding bytes and their text (cached: the long ones recur per vector)."""
    padding = bytes([PAD]) * length
    return padding, padding.decode("ascii")


def _padded(before: str, text: Decoded, after: str) -> Decoded:
    """Return `text` between two runs of padding text (as code points if `text` is)."""
    if isinstance(text, str):
        return before + text + after
    return as_code_points(before) + text + as_code_points(after)


def embed(expected: Expected, layout: Layout) -> Expected:
    """Return `expected` with `layout`'s ASCII padding around its bytes (itself for as-is)."""
    if layout.before == 0 and layout.after == 0:
        return expected
    (before, text_before), (after, text_after) = _padding(layout.before), _padding(layout.after)
    start, end = expected.span
    replaced = _padded(text_before, expected.replaced, text_after)
    levels = expected.levels
    if layout.before and expected.data.startswith(SIGNATURE):
        # RFC 3629 §6: only a leading EF BB BF may be taken for a signature; after padding it is
        # an ordinary U+FEFF, so a vector's relaxed levels for its signature no longer apply.
        levels = {**DEFAULT, "valid": levels["valid"]}
    data = before + expected.data + after
    return Expected(
        data=data,
        # For well-formed input the replaced output is the text itself: share it.
        text=(
            None
            if expected.text is None
            else replaced
            if expected.text == expected.replaced
            else _padded(text_before, expected.text, text_after)
        ),
        errors=tuple(
            _shift_error(error, layout.before, layout.after > 0) for error in expected.errors
        ),
        replaced=replaced,
        levels=levels,
        window=(start + layout.before, end + layout.before),
        # The vector's reading moved: the reference walks a vector once, not each variant.
        reading=expected.reading.padded(data, layout.before, layout.after),
    )


def embed_encoding(expected: ExpectedEncoding, layout: Layout) -> ExpectedEncoding:
    """Return `expected` with `layout`'s padding around its values (itself for as-is)."""
    if layout.before == 0 and layout.after == 0:
        return expected
    before, after = (PAD,) * layout.before, (PAD,) * layout.after
    start, end = expected.span
    return ExpectedEncoding(
        scalars=before + expected.scalars + after,
        encoded=(
            None if expected.encoded is None else bytes(before) + expected.encoded + bytes(after)
        ),
        error_index=None if expected.error_index is None else expected.error_index + layout.before,
        level=expected.level,
        window=(start + layout.before, end + layout.before),
    )


def planned(plan: Plan, length: int) -> Iterator[Layout]:
    """Yield the layouts of a vector of `length` items that `plan` keeps, as-is first."""
    for layout in layouts(length):
        if plan.layouts is None or layout.name in plan.layouts or layout.name == "as-is":
            yield layout


_last: list[tuple[DecodeVector, Plan, tuple[Variant, ...]]] = []
"""The last vector's variants: a run derives them twice, for the questions asked ahead
(prefetch.py) and for their judgement (run.py), one right after the other."""


def decode_variants(vector: DecodeVector, plan: Plan = FULL) -> Iterator[Variant]:
    """Yield each variant of a decoding vector that `plan` keeps, as-is first."""
    last = _last[0] if _last else None  # read once: a copy's thread may replace it (ahead.py)
    if last is not None and last[0] is vector and last[1] == plan:
        yield from last[2]
        return
    expected = expected_of(vector)
    variants = []
    for layout in planned(plan, len(vector.data)):
        whole = layout.name == "as-is" and not plan.every_cut
        cuts = () if whole else cuts_for(layout, len(vector.data))
        bytewise = plan.bytewise and not layout.name.startswith("shift-")
        variants.append(Variant(layout.name, embed(expected, layout), cuts, bytewise))
    _last[:] = [(vector, plan, tuple(variants))]
    yield from variants


def encode_variants(
    vector: EncodeVector, plan: Plan = FULL
) -> Iterator[tuple[str, ExpectedEncoding]]:
    """Yield (variant name, expectation) for each layout of an encoding vector that `plan`
    keeps, as-is first."""
    expected = encoding_of(vector)
    for layout in planned(plan, len(vector.scalars)):
        yield layout.name, embed_encoding(expected, layout)
