"""One fuzz execution as the codec's process tells it to the judge: the input, and the codec's
answer to each question the judge puts to that input, as bytes on a pipe.

    frame(data, outcomes)    -> bytes          what the codec's process writes
    read_frame(stream, ...)  -> Record | None   what the judge reads (None: the pipe closed)
                                                (read_body, then parse_body)

The codec's process is hostile (it holds the codec): every frame is read with limits (the input
no longer than the campaign's -max_len, the answers no longer than ANSWERS_LIMIT) and every
field checked for its type, and anything else is a ChannelError naming what was wrong, never a
crash of the judge. The answers are JSON (never pickle or marshal, which would run or crash on
what a codec wrote): a list of the encoder's question (null: not asked; true: the input's U+FFFD
text, CPython's `data.decode("utf-8", "replace")`, which the judge makes itself; else a text or
a list of code points), then one answer per capability asked, in CAPABILITIES' order, each in
one of these forms:

    "text"                                      Returned(text), no calls seen
    true, false                                 Returned(bool), no calls seen
    N                                           the same answer as the Nth (a text sent once)
    ["returned", kind, value, stream]           any other Returned (kind: str, bytes, points)
    ["refused", message, offset, end, stream, generic]
    ["failed", kind, message, cut_short]
    ["inapplicable", reason, unholdable]

The first three are most answers (a text, a verdict of validate): a bare value costs the codec's
process and the judge less to write and read than a tagged list, and every execution pays both.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any, Final, get_args

from utf8cert.harness.codec.interface import (
    Failed,
    FailureKind,
    Inapplicable,
    Outcome,
    Refused,
    Returned,
    Stream,
)

HEADER: Final = struct.Struct("<4sII")
"""A frame's header: MAGIC, the input's length, the answers' length."""
MAGIC: Final = b"U8FJ"
SIZE: Final = struct.Struct("<I")
"""The input's length, in front of the input in a frame's body as read_body returns it."""
ANSWERS_LIMIT: Final = 64 << 20
"""The most bytes of answers one frame may carry (a 66 KiB input's five answers, each escaped
in JSON, take under 3 MiB)."""
_JSON: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
"""Made once (json.dumps makes an encoder on each call given an option). Not ASCII-escaped (a
character in six bytes): UTF-8, lone surrogates passed as they are."""
MESSAGE_KEPT: Final = 2000
"""Characters of a refusal's message or a failure's text that the codec's process sends."""


class ChannelError(Exception):
    """The codec's process wrote what is no frame of this format; str() says what, in a line."""


Question = str | tuple[int, ...]
"""The code points the encoder was offered: a str when a str holds them all."""


@dataclass(frozen=True)
class Record:
    """One execution: the input, the codec's outcome for each capability asked (in order), and
    the code points its encoder was offered (None when encode is not asked)."""

    data: bytes
    outcomes: tuple[Outcome, ...]
    question: Question | None = None

    def offered(self) -> tuple[int, ...] | None:
        """Return the code points the encoder was offered, None when it was not asked."""
        question = self.question
        return tuple(map(ord, question)) if isinstance(question, str) else question


def _stream(stream: Stream | None) -> list[tuple[int, ...]] | None:
    return None if stream is None else [stream.fed, stream.returned]  # tuples: JSON arrays


def _as_fields(outcome: Outcome) -> list[Any]:
    """Return `outcome` as JSON-ready fields (a tag, then the outcome's own)."""
    if isinstance(outcome, Returned):
        value = outcome.value
        if isinstance(value, bool):
            shown: list[Any] = ["bool", value]
        elif isinstance(value, str):
            shown = ["str", value]
        elif isinstance(value, bytes | bytearray):
            shown = ["bytes", bytes(value).decode("latin-1")]
        else:
            shown = ["points", list(value)]
        return ["returned", *shown, _stream(outcome.stream)]
    if isinstance(outcome, Refused):
        message = outcome.message[:MESSAGE_KEPT]
        stream = _stream(outcome.stream)
        return ["refused", message, outcome.offset, outcome.end, stream, outcome.generic]
    if isinstance(outcome, Failed):
        return ["failed", outcome.kind, outcome.message[:MESSAGE_KEPT], outcome.cut_short]
    return ["inapplicable", outcome.reason[:MESSAGE_KEPT], outcome.unholdable]


def frame(data: bytes, outcomes: Sequence[Outcome], question: Question | None = None) -> bytes:
    """Return the frame of one execution: header, input, answers (the encoder's `question`
    first)."""
    asked: Any = question
    if isinstance(question, str):
        # The usual question goes as `true`: the judge makes the same text from the input.
        asked = True if question == data.decode("utf-8", "replace") else question
    elif question is not None:
        asked = list(question)
    fields: list[Any] = [asked]
    texts: dict[str, int] = {}  # a text sent once: decode, replace and incremental often agree
    for index, outcome in enumerate(outcomes):
        if type(outcome) is Returned and outcome.stream is None:
            value = outcome.value
            if type(value) is str:
                same = texts.get(value)
                if same is None:
                    texts[value] = index
                fields.append(value if same is None else same)
                continue
            if type(value) is bool:
                fields.append(value)
                continue
        fields.append(_as_fields(outcome))
    answers = _JSON.encode(fields).encode("utf-8", "surrogatepass")
    return HEADER.pack(MAGIC, len(data), len(answers)) + data + answers


def read_frame(stream: IO[bytes], max_len: int) -> Record | None:
    """Return the next record of `stream`, None when the pipe ended between frames; raise
    ChannelError for anything that is not a well-formed frame of an input of at most `max_len`
    bytes."""
    body = read_body(stream, max_len)
    return None if body is None else parse_body(body)


def read_body(stream: IO[bytes], max_len: int) -> bytes | None:
    """Return the next frame of `stream`: its input's length (SIZE), input and answers, None
    when the pipe ended between frames; ChannelError for a header that is not a frame's or
    says more than the limits (`max_len`, ANSWERS_LIMIT), or a pipe ended inside a frame."""
    header = stream.read(HEADER.size)
    if not header:
        return None
    if len(header) != HEADER.size:
        raise ChannelError(f"the pipe ended inside a frame header ({len(header)} bytes)")
    magic, size, answers_size = HEADER.unpack(header)
    if magic != MAGIC:
        raise ChannelError(f"a frame does not start with {MAGIC!r} but {magic!r}")
    if size > max_len:
        raise ChannelError(f"a frame holds a {size}-byte input, above -max_len {max_len}")
    if answers_size > ANSWERS_LIMIT:
        raise ChannelError(
            f"a frame holds {answers_size} bytes of answers (at most {ANSWERS_LIMIT})"
        )
    body = stream.read(size + answers_size)
    if len(body) != size + answers_size:
        raise ChannelError(
            f"the pipe ended inside a frame ({len(body)} of {size + answers_size} bytes)"
        )
    return SIZE.pack(size) + body


def parse_body(body: bytes) -> Record:
    """Return the record a frame's `body` (read_body's) holds; ChannelError if its answers are
    not answers of this format."""
    (size,) = SIZE.unpack_from(body)
    data, raw = body[SIZE.size : SIZE.size + size], body[SIZE.size + size :]
    try:
        fields = json.loads(raw.decode("utf-8", "surrogatepass"))
    except (ValueError, RecursionError) as error:
        raise ChannelError(f"a frame's answers are not JSON: {error}") from None
    if not isinstance(fields, list) or not fields:
        raise ChannelError("a frame's answers are not a list")
    asked = fields[0]
    question: Question | None
    if asked is True:
        question = data.decode("utf-8", "replace")
    elif asked is None or isinstance(asked, str):
        question = asked
    else:
        question = _ints(asked, "the encoder's question")
    outcomes: list[Outcome] = []
    for each in fields[1:]:
        kind = type(each)
        if kind is str or kind is bool:
            outcomes.append(Returned(each))
        elif kind is int:
            if not 0 <= each < len(outcomes):
                raise ChannelError(f"an answer refers to answer {each!r}, not one before it")
            outcomes.append(outcomes[each])
        else:
            outcomes.append(_outcome(each))
    return Record(data, tuple(outcomes), question)


def _ints(value: object, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not set(map(type, value)) <= {int}:
        raise ChannelError(f"{what} is not a list of integers")
    return tuple(value)


def _optional_int(value: object, what: str) -> int | None:
    if value is not None and type(value) is not int:
        raise ChannelError(f"{what} is neither an integer nor null")
    return value


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise ChannelError(f"{what} is not a string")
    return value


def _flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise ChannelError(f"{what} is not true or false")
    return value


def _stream_of(value: object) -> Stream | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 2:
        raise ChannelError("a stream is not [fed, returned]")
    return Stream(_ints(value[0], "a stream's fed"), _ints(value[1], "a stream's returned"))


def _outcome(fields: object) -> Outcome:
    """Return the outcome `fields` (one answer of a frame) say; ChannelError if they say none."""
    if not isinstance(fields, list) or not fields:
        raise ChannelError("an answer is not a non-empty list")
    tag, rest = fields[0], fields[1:]
    if tag == "returned" and len(rest) == 3:
        kind, value, stream = rest
        shown: str | bytes | bool | tuple[int, ...]
        if kind == "bool":
            shown = _flag(value, "a returned bool")
        elif kind == "str":
            shown = _text(value, "a returned text")
        elif kind == "bytes":
            try:
                shown = _text(value, "returned bytes").encode("latin-1")
            except UnicodeEncodeError:
                raise ChannelError("returned bytes hold a character above U+00FF") from None
        elif kind == "points":
            shown = _ints(value, "returned code points")
        else:
            raise ChannelError(f"a returned value of unknown kind {kind!r}")
        return Returned(shown, _stream_of(stream))
    if tag == "refused" and len(rest) == 5:
        message, offset, end, stream, generic = rest
        return Refused(
            _text(message, "a refusal's message"),
            _optional_int(offset, "a refusal's offset"),
            _optional_int(end, "a refusal's end"),
            _stream_of(stream),
            _flag(generic, "a refusal's generic"),
        )
    if tag == "failed" and len(rest) == 3:
        kind, message, cut_short = rest
        if kind not in get_args(FailureKind):
            raise ChannelError(f"a failure of unknown kind {kind!r}")
        return Failed(kind, _text(message, "a failure's message"), _flag(cut_short, "cut_short"))
    if tag == "inapplicable" and len(rest) == 2:
        return Inapplicable(_text(rest[0], "a reason"), _flag(rest[1], "unholdable"))
    raise ChannelError(f"an answer of unknown form {str(fields)[:80]}")
