"""What a conformant codec gives for one input, from a vector's own values or the reference.

The comparison engine reads only these objects, so vectors (and their derived variants) and
arbitrary fuzz inputs are judged by one and the same comparison.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from utf8cert.harness.check.reading import Reading
from utf8cert.harness.vectors.model import (
    DEFAULT_DECODE_LEVELS,
    DecodeExpectation,
    DecodeVector,
    EncodeVector,
    ExpectedError,
    Level,
)
from utf8cert.reference import REPLACEMENT_CHARACTER, EncodeError, ErrorKind, encode

Decoded = str | tuple[int, ...]
"""Decoded text: a str, or its code points when some lie above U+10FFFF (no str holds them; a
dialect profile such as RFC 2279 reads such values, and a codec answers them so: interface.py)."""

UNREAD: Final = Reading(b"")
"""What an Expected is given when its maker has no reading of its bytes: it then makes its own,
walked only if a judge asks."""


@dataclass(frozen=True)
class Expected:
    """The bytes to decode and everything a conformant decoder must (or should) make of them.

    The values compared (text, errors, replaced) are a vector's own, or a dialect profile's, or
    the reference's; `reading` is always the reference's reading of `data` (reading.py), walked
    at most once for the input and its variants and shared by every judge and profile: none
    walks the input again.
    """

    data: bytes
    text: Decoded | None
    """The decoded text of well-formed input; None for ill-formed input."""
    errors: tuple[ExpectedError, ...]
    """Every maximal subpart, in order; empty for well-formed input."""
    replaced: Decoded
    """The output with one U+FFFD per maximal subpart (the text itself for well-formed input)."""
    levels: Mapping[DecodeExpectation, Level] = field(
        default_factory=lambda: dict(DEFAULT_DECODE_LEVELS)
    )
    window: tuple[int, int] | None = None
    """Where the bytes under test lie in `data` (the vector inside its padding); None: all."""
    reading: Reading = field(default=UNREAD, compare=False, repr=False)
    """The reference's reading of `data` (UNREAD: a reading of its own, made here)."""

    def __post_init__(self) -> None:
        # Frozen, and a field's default cannot see `data`: the reading is set once, here.
        if self.reading is UNREAD:
            object.__setattr__(self, "reading", Reading(self.data))
        elif self.reading.data is not self.data and self.reading.data != self.data:
            raise ValueError("an Expected's reading is of other bytes than its own")

    @property
    def valid(self) -> bool:
        """Return True for well-formed input."""
        return self.text is not None

    @property
    def first_error(self) -> int | None:
        """Return the offset of the first ill-formed byte, None for well-formed input."""
        return self.errors[0].offset if self.errors else None

    @property
    def span(self) -> tuple[int, int]:
        """Return (start, end) of the bytes under test: the window, or the whole input."""
        return self.window if self.window is not None else (0, len(self.data))


@dataclass(frozen=True)
class ExpectedEncoding:
    """The code points to encode, and their UTF-8 or the refusal due."""

    scalars: tuple[int, ...]
    encoded: bytes | None
    """The UTF-8 bytes; None when the encoder must refuse."""
    error_index: int | None
    """Index of the first value that cannot be encoded; None when the encoder must not refuse."""
    level: Level = "must"
    window: tuple[int, int] | None = None
    """Where the values under test lie in `scalars`; None: all of them."""

    @property
    def span(self) -> tuple[int, int]:
        """Return (start, end) of the values under test: the window, or all of them."""
        return self.window if self.window is not None else (0, len(self.scalars))


def expected_of(vector: DecodeVector) -> Expected:
    """Return the expectation written by hand in a decoding vector (never computed)."""
    return Expected(
        data=vector.data,
        text=vector.text,
        errors=vector.errors,
        replaced=vector.replaced,
        levels=vector.levels,
    )


def encoding_of(vector: EncodeVector) -> ExpectedEncoding:
    """Return the expectation written by hand in an encoding vector (never computed)."""
    return ExpectedEncoding(
        scalars=vector.scalars,
        encoded=vector.expected,
        error_index=None if vector.error is None else vector.error.index,
        level=vector.level,
    )


def expectation_for(
    data: bytes, levels: Mapping[DecodeExpectation, Level] = DEFAULT_DECODE_LEVELS
) -> Expected:
    """Return the expectation for any byte string, computed by the reference (b'' is valid).

    This is how fuzz inputs and `utf8cert check --input HEX` are judged: the same structure a
    vector gives, so the same comparison applies. The reference walks `data` here, once: the
    expectation carries that reading to every judge.
    """
    reading = Reading(data)
    return expected_from_pieces(data, reading.pieces, levels, reading)


@dataclass(frozen=True)
class CodePoints:
    """Code points a dialect reads, some above U+10FFFF: a piece no str holds."""

    values: tuple[int, ...]


Piece = str | tuple[int, int, ErrorKind] | CodePoints
"""A run of text, or a maximal subpart (offset, length, kind): what `pieces` yields; or, from a
dialect that reads values above U+10FFFF, their code points."""


def expected_from_pieces(
    data: bytes,
    walked: Iterable[Piece],
    levels: Mapping[DecodeExpectation, Level] = DEFAULT_DECODE_LEVELS,
    reading: Reading = UNREAD,
) -> Expected:
    """Return the expectation for `data` read as `walked` says (the reference's walk, or a
    dialect profile's): its text when no piece is ill-formed, one U+FFFD per maximal subpart.
    `reading` is the reference's reading of `data`, when the caller has it."""
    replaced: list[str] = []
    beyond: dict[int, CodePoints] = {}
    """Where in `replaced` code points no str holds stand (a dialect's reading, seldom)."""
    errors: list[ExpectedError] = []
    for piece in walked:
        if isinstance(piece, str):
            replaced.append(piece)
        elif isinstance(piece, CodePoints):
            beyond[len(replaced)] = piece
            replaced.append("")
        else:
            offset, length, kind = piece
            errors.append(ExpectedError(offset, length, kind, kind is ErrorKind.TRUNCATED))
            replaced.append(REPLACEMENT_CHARACTER)
    output = _code_points(replaced, beyond) if beyond else "".join(replaced)
    # Well-formed input: the text and the replaced output are one string, held once.
    return Expected(data, None if errors else output, tuple(errors), output, levels, None, reading)


def _code_points(texts: list[str], beyond: dict[int, CodePoints]) -> tuple[int, ...]:
    """Return the code points of `texts` with those of `beyond` in their places."""
    values: list[int] = []
    for index, text in enumerate(texts):
        values += beyond[index].values if index in beyond else map(ord, text)
    return tuple(values)


def as_code_points(text: Decoded) -> tuple[int, ...]:
    """Return the code points of decoded text (() for '')."""
    return text if isinstance(text, tuple) else tuple(map(ord, text))


def encoding_for(scalars: Sequence[int], level: Level = "must") -> ExpectedEncoding:
    """Return the expectation for encoding any code points, computed by the reference."""
    try:
        return ExpectedEncoding(tuple(scalars), encode(scalars), None, level)
    except EncodeError as error:
        return ExpectedEncoding(tuple(scalars), None, error.index, level)
