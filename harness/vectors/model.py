"""The test vectors as typed, immutable objects: what a conformant codec must do with each input."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Literal

from utf8cert.reference import ErrorKind

Level = Literal["must", "should", "may"]
"""How binding an expectation is: RFC 3629 requires it, recommended practice, or left open."""

LEVELS: tuple[Level, ...] = ("must", "should", "may")

DecodeExpectation = Literal["valid", "scalars", "errors", "replaced"]
"""The parts of a decoding vector that carry a level of their own."""

DEFAULT_DECODE_LEVELS: Mapping[DecodeExpectation, Level] = {
    "valid": "must",  # RFC 3629 §3/§10: accept exactly the well-formed input
    "scalars": "must",  # RFC 3629 §3: the decoded characters, U+FEFF kept (§6)
    "errors": "should",  # Unicode §3.9: where the first error is reported
    "replaced": "should",  # Unicode §3.9 / WHATWG: one U+FFFD per maximal subpart
}


@dataclass(frozen=True)
class Origin:
    """Where a vector is written: its file and the line of its `id`."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class ExpectedError:
    """One ill-formed maximal subpart a decoder should find."""

    offset: int
    length: int
    kind: ErrorKind
    incomplete: bool = False


@dataclass(frozen=True)
class DecodeVector:
    """A byte string and what decoding it must give: its scalars, or its errors and U+FFFDs."""

    id: str
    description: str
    source: str
    flags: tuple[str, ...]
    origin: Origin
    data: bytes
    valid: bool
    scalars: tuple[int, ...] | None
    """The decoded scalar values, for well-formed input; None for ill-formed input."""
    errors: tuple[ExpectedError, ...]
    """Every maximal subpart, in order; empty for well-formed input."""
    replaced: str
    """The output with one U+FFFD per maximal subpart (the plain text for well-formed input)."""
    legacy: tuple[int, ...] | None = None
    """How an RFC 2279 decoder reads the bytes, where the vector says so."""
    levels: Mapping[DecodeExpectation, Level] = field(
        default_factory=lambda: dict(DEFAULT_DECODE_LEVELS)
    )

    @property
    def text(self) -> str | None:
        """Return the decoded text for well-formed input, None for ill-formed input."""
        return None if self.scalars is None else "".join(map(chr, self.scalars))

    def level(self, expectation: DecodeExpectation) -> Level:
        """Return the level of one expectation of this vector."""
        return self.levels[expectation]

    def has_flag(self, flag: str) -> bool:
        """Return True if the vector carries `flag`."""
        return flag in self.flags


@dataclass(frozen=True)
class EncodeFailure:
    """Why, and at which input index, an encoder must refuse."""

    index: int
    kind: ErrorKind


@dataclass(frozen=True)
class EncodeVector:
    """Scalar values (ints, so values above U+10FFFF fit) and their UTF-8, or the refusal due."""

    id: str
    description: str
    source: str
    flags: tuple[str, ...]
    origin: Origin
    scalars: tuple[int, ...]
    expected: bytes | None
    """The encoding; None when the encoder must refuse."""
    error: EncodeFailure | None
    level: Level = "must"
    legacy: bytes | None = None
    """How an RFC 2279 encoder writes the values that RFC 3629 refuses, where the vector says so."""

    def has_flag(self, flag: str) -> bool:
        """Return True if the vector carries `flag`."""
        return flag in self.flags


Vector = DecodeVector | EncodeVector


@dataclass(frozen=True)
class Note:
    """What a flag means: the defect its vectors catch and, where relevant, the attack it allows."""

    defect: str
    attack: str | None = None

    def __str__(self) -> str:
        """Return the defect, followed by "Attack: ..." when the note names one."""
        return self.defect if self.attack is None else f"{self.defect} Attack: {self.attack}"


@dataclass(frozen=True)
class VectorFile:
    """One YAML file of vectors on one theme, with the flags its vectors may carry."""

    path: str
    schema_version: str
    theme: str
    description: str
    sources: tuple[str, ...]
    notes: Mapping[str, str]
    """Each flag, and the defect a vector with that flag catches."""
    vectors: tuple[Vector, ...]
    retired: tuple[str, ...] = ()
    """Ids once used in this file and never to be used again."""
    flag_notes: Mapping[str, Note] = field(default_factory=dict)
    """Each flag's note in its parts; `notes` holds the same as one text (`str(note)`)."""


@dataclass(frozen=True)
class VectorSet:
    """All vector files loaded together; ids are unique across them."""

    files: tuple[VectorFile, ...]

    def __iter__(self) -> Iterator[Vector]:
        for vector_file in self.files:
            yield from vector_file.vectors

    def __len__(self) -> int:
        return sum(len(vector_file.vectors) for vector_file in self.files)

    def note(self, flag: str) -> str:
        """Return what `flag` means, from the first file that defines it ('' if none does)."""
        for vector_file in self.files:
            if flag in vector_file.notes:
                return vector_file.notes[flag]
        return ""
