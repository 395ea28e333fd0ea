"""What utf8cert can ask of a codec under test, and the outcomes it can observe."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, Literal, Protocol

Capability = Literal["decode", "replace", "validate", "encode", "incremental"]
"""decode: strict decoding; replace: U+FFFD decoding; incremental: decoding fed in chunks."""

CAPABILITIES: tuple[Capability, ...] = ("decode", "replace", "validate", "encode", "incremental")

IncrementalMode = Literal["strict", "replace"]
"""How an incremental decoder meets ill-formed input: it refuses it, or replaces it with U+FFFD
(a codec declares it as its `incremental_mode`; check/modes.py holds it for a run)."""
INCREMENTAL_MODES: tuple[IncrementalMode, ...] = ("strict", "replace")


def declared_mode(codec: object) -> IncrementalMode | None:
    """Return the incremental mode `codec` declares (its `incremental_mode`), None for none."""
    declared = getattr(codec, "incremental_mode", None)
    return next((mode for mode in INCREMENTAL_MODES if mode == declared), None)


_MOVING = r"\t\n\r\x0b\x0c\x1c-\x1f\x85\u2028\u2029"
_BREAKS: Final = re.compile(f"[ {_MOVING}]*[{_MOVING}][ {_MOVING}]*")
"""A run of white space holding a character that breaks a line or moves the cursor."""


def printable(text: str) -> str:
    """Return `text` on one line, each run of white space that breaks or moves it (LF, CR, tab,
    the line and paragraph separators) one space, and every other character that is not
    printable (ESC and the other controls, bidirectional overrides) written as its Python
    escape, `\\x1b`, `\\u202e`: text a codec wrote is shown, never obeyed, by a terminal, a CI
    log or a page ('' stays '')."""
    if text.isprintable():  # the common case, checked in C
        return text
    text = " ".join(part for part in _BREAKS.split(text) if part)
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def _printable_field(outcome: object, name: str) -> None:
    """Make a frozen outcome's text field printable (see `printable`)."""
    text = getattr(outcome, name)
    if not text.isprintable():
        object.__setattr__(outcome, name, printable(text))


@dataclass(frozen=True)
class Stream:
    """When an incremental decoder gave what: after each call made to it, how many bytes it had
    been fed in all (`fed`), and after each call that returned, how many characters it had
    returned in all (`returned`: one fewer than `fed` when the last call refused)."""

    fed: tuple[int, ...]
    returned: tuple[int, ...]


@dataclass(frozen=True)
class Earlier:
    """A stream an incremental decoder is fed before the one asked of it, the same decoder object
    then reused (check/reuse.py): its chunks, fed with final=False, the last with final=True when
    the stream `ended` (else the stream is left open); then the decoder's `reset()` is called
    when `reset`. What the decoder answers to it, a refusal included, is not judged here."""

    chunks: tuple[bytes, ...]
    ended: bool = True
    reset: bool = False


@dataclass(frozen=True)
class Returned:
    """The codec returned a value: text (decode, replace, incremental), bytes (encode), a bool;
    or, for a decoder that returned values above U+10FFFF (which no str holds), its code
    points.

    `stream`: what an incremental decoder returned call by call, when the harness saw each call
    (a Python codec) or a program said (its answer's `returned=` field: codec/answer_fields.py).
    Left out of equality, as Refused's `end`: the judgement of timeliness (check/timeliness.py)
    reads it.
    """

    value: str | bytes | bool | tuple[int, ...]
    stream: Stream | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Refused:
    """The codec refused the input (raised `ValueError`, or said so over the protocol).

    `offset` is where it placed the error (`UnicodeDecodeError.start`, the encoder's index), when
    it said; `end` is where it said the error ends (`UnicodeError.end`, a program's `end=`), in
    the same count, when it said. `end` is left out of equality: two refusals at one offset
    are one answer to the determinism checks, and the judgement reads it on its own.
    """

    message: str
    offset: int | None = None
    end: int | None = field(default=None, compare=False)
    stream: Stream | None = field(default=None, compare=False)
    """An incremental decoder's calls up to the one that refused (see Returned)."""
    generic: bool = field(default=False, compare=False)
    """Raised as a plain `ValueError` (not UnicodeError, `Refusal` or a class the codec declared
    its refusals with): the failure of any operation, e.g. `chr(-1)`, which says nowhere where
    the error is (check/extent.py)."""

    def __post_init__(self) -> None:
        _printable_field(self, "message")


FailureKind = Literal["crash", "timeout", "wrong-type", "protocol", "memory"]
"""crash: raised or died; timeout: no answer in time; wrong-type: returned a value of the wrong
type; protocol: a program's output that answers no request (harness/PROTOCOL.md); memory: ran
out of memory (its limit in a child process, or MemoryError)."""

FAILURE_WHAT: dict[FailureKind, str] = {
    "crash": "crashed",
    "timeout": "timed out",
    "wrong-type": "returned the wrong type",
    "protocol": "broke the protocol",
    "memory": "ran out of memory",
}
"""Each kind of failure in the words of a report."""


@dataclass(frozen=True)
class Failed:
    """The codec misbehaved: raised something other than ValueError, hung, died, ran out of
    memory, returned the wrong type, or wrote what answers no request. Always a difference,
    never a crash of utf8cert, except a timeout `cut_short`."""

    kind: FailureKind
    message: str
    cut_short: bool = False
    """A question cut short, not asked for real, because the codec had already failed for real
    elsewhere: a timeout shorter than the user's `--timeout` after a hang on another request
    (codec/pace.py: a slow answer is not a hang), or a program that announced another
    handshake when restarted. The question is skipped, never failed."""

    def __post_init__(self) -> None:
        _printable_field(self, "message")


@dataclass(frozen=True)
class Inapplicable:
    """The codec cannot be asked this (e.g. a `str` encoder and a value above U+10FFFF)."""

    reason: str
    unholdable: bool = False
    """Set by the harness alone, for a question no string of the codec's kind can hold (a
    surrogate pair kept apart, for UTF-16 strings: codec/strings.py): such a question is not
    counted against the codec's coverage. A codec's own Inapplicable never sets it."""

    def __post_init__(self) -> None:
        _printable_field(self, "reason")


Outcome = Returned | Refused | Failed | Inapplicable


class Codec(Protocol):
    """A codec under test, with the capabilities it was found to offer."""

    spec: str
    """The spec string the user gave (MODULE:ATTR, codec:NAME[:ERRORS], cmd:COMMAND)."""
    description: str
    """What the codec is, in words (e.g. "Python's utf-8 codec (errors='strict')")."""
    capabilities: frozenset[Capability]

    def decode(self, data: bytes) -> Outcome:
        """Return the outcome of strict decoding."""
        ...

    def decode_replace(self, data: bytes) -> Outcome:
        """Return the outcome of decoding with U+FFFD replacement."""
        ...

    def validate(self, data: bytes) -> Outcome:
        """Return the outcome of validation (`Returned(bool)` when it answers)."""
        ...

    def encode(self, scalars: Sequence[int]) -> Outcome:
        """Return the outcome of strict encoding of these code points."""
        ...

    def decode_chunks(self, chunks: Sequence[bytes], final_empty: bool) -> Outcome:
        """Return the outcome of feeding `chunks` to a fresh incremental decoder.

        Every chunk but the last is fed with final=False; the last with final=True, unless
        `final_empty`, in which case all chunks are fed with final=False and then b'' with
        final=True. The outcome's text is everything the decoder returned, joined.
        """
        ...

    def close(self) -> None:
        """Release what the codec holds (a child process, for cmd: and --isolate)."""
        ...
