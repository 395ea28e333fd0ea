"""The utf8cert line protocol (harness/PROTOCOL.md): writing and reading its lines, both sides.

A line is words separated by single spaces. Byte strings travel as lowercase hex, text as the hex
of its UTF-32BE (eight digits per code point, so a lone surrogate a buggy decoder returns arrives
intact), and `-` stands for an empty field. The parsers raise `ProtocolError` for a line outside
the protocol; an answer that is well formed but carries the wrong kind of value becomes
`Failed('wrong-type')`, as a wrong return type does in process.

Version 2 numbers the requests: each request line starts with an id, and its answer must start
with the same id, so that no answer can be taken for another request's and several requests may
be in flight at once. A program chooses its version in its handshake; utf8cert speaks both.
"""

from __future__ import annotations

import dataclasses
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from utf8cert.harness.codec.answer_fields import (
    FIELD_PREFIXES,
    Feeds,
    FieldError,
    field_words,
    refused_with,
    returned_with,
    split_fields,
)
from utf8cert.harness.codec.interface import (
    Capability,
    Codec,
    Earlier,
    Failed,
    Inapplicable,
    Outcome,
    Refused,
    Returned,
)

VERSION = 2
"""The newest version; a program may speak any of VERSIONS."""
VERSIONS = (1, 2)
GREETING = "utf8cert-protocol"
EMPTY = "-"
LARGEST_SENDABLE = 0xFFFFFFFF
"""Code points travel as eight hex digits; values above U+10FFFF are sent, for int encoders."""

FAILURE_STATUSES = ("crash", "wrong-type", "memory")
BYTES_INPUT: tuple[Capability, ...] = ("decode", "replace", "validate")
"""The capabilities whose input is one byte string."""


class ProtocolError(ValueError):
    """A line that does not follow the protocol; the message quotes it."""


def quoted(line: str) -> str:
    """Return a line as an error message quotes it: its repr, cut to 80 characters."""
    return repr(line if len(line) <= 80 else line[:77] + "...")


def hex_of_bytes(data: bytes) -> str:
    """Return `data` in lowercase hex, or '-' for b''."""
    return data.hex() or EMPTY


def bytes_of_hex(field: str) -> bytes:
    """Return the bytes a hex field stands for (b'' for '-'); raise ValueError if it is not hex."""
    return b"" if field == EMPTY else bytes.fromhex(field)


def hex_of_text(text: str) -> str:
    """Return the code points of `text` as eight hex digits each (UTF-32BE), or '-' for ''."""
    # surrogatepass: a lone surrogate is a code point like any other here, and must be carried.
    return text.encode("utf-32-be", "surrogatepass").hex() or EMPTY


def text_of_hex(field: str) -> str:
    """Return the text a UTF-32BE hex field stands for ('' for '-').

    Raises ValueError for bad hex, a length not a multiple of 8 digits, or a value above U+10FFFF.
    """
    return bytes_of_hex(field).decode("utf-32-be", "surrogatepass")


def hex_of_scalars(scalars: Sequence[int]) -> str:
    """Return the values as eight hex digits each ('-' for none); ValueError outside 0..FFFFFFFF."""
    try:
        return struct.pack(f">{len(scalars)}I", *scalars).hex() or EMPTY
    except struct.error:
        raise ValueError("code points travel as 0..FFFFFFFF") from None


def scalars_of_hex(field: str) -> tuple[int, ...]:
    """Return the values of an eight-digits-each hex field (() for '-'); ValueError if malformed."""
    data = bytes_of_hex(field)
    if len(data) % 4:
        raise ValueError("code points take eight hex digits each")
    return struct.unpack(f">{len(data) // 4}I", data)


NEXT: Final = "next"
RESET: Final = "reset"
OPEN: Final = "-"
"""In a `reuse` request: an earlier stream left open (no call with final=True)."""


def numbered(identifier: int, line: str) -> str:
    """Return a request or answer line of version 2: `line` after its id."""
    return f"{identifier} {line}"


def split_id(line: str) -> tuple[int | None, str]:
    """Return (id, the rest) of a version 2 line; (None, line) when it starts with no id (a
    decimal number of at most 18 digits)."""
    first, _, rest = line.partition(" ")
    if first.isascii() and first.isdigit() and len(first) <= 18:
        return int(first), rest
    return None, line


@dataclass(frozen=True)
class Request:
    """One request: the capability asked, and its input."""

    capability: Capability
    data: bytes = b""
    """The input of decode, replace and validate."""
    scalars: tuple[int, ...] = ()
    """The input of encode."""
    chunks: tuple[bytes, ...] = ()
    """The input of incremental."""
    final_empty: bool = False
    """For incremental: feed b'' with final=True after the chunks, instead of the last chunk."""
    before: tuple[Earlier, ...] = ()
    """For incremental: the streams the same decoder is fed first (a `reuse` request)."""


def outcome_of(codec: Codec, request: Request) -> Outcome:
    """Return what `codec` does with `request`."""
    if request.before:
        return decoded_after(codec, request.before, request.chunks, request.final_empty)
    if request.capability == "decode":
        return codec.decode(request.data)
    if request.capability == "replace":
        return codec.decode_replace(request.data)
    if request.capability == "validate":
        return codec.validate(request.data)
    if request.capability == "encode":
        return codec.encode(request.scalars)
    return codec.decode_chunks(request.chunks, request.final_empty)


class AskingCodec:
    """A codec whose every question is one `ask(request)`: the methods of `Codec` as requests
    (the inverse of `outcome_of`), for a program and for whatever stands in front of one."""

    spec: str
    description: str
    capabilities: frozenset[Capability]

    def ask(self, request: Request) -> Outcome:
        """Return the answer to `request` (each subclass says how it gets it)."""
        raise NotImplementedError

    def decode(self, data: bytes) -> Outcome:
        """Return the answer to a strict decode of `data`."""
        return self.ask(Request("decode", data=data))

    def decode_replace(self, data: bytes) -> Outcome:
        """Return the answer to a U+FFFD-replacing decode of `data`."""
        return self.ask(Request("replace", data=data))

    def validate(self, data: bytes) -> Outcome:
        """Return the verdict on `data`."""
        return self.ask(Request("validate", data=data))

    def encode(self, scalars: Sequence[int]) -> Outcome:
        """Return the answer to encoding `scalars`."""
        return self.ask(Request("encode", scalars=tuple(scalars)))

    def decode_chunks(self, chunks: Sequence[bytes], final_empty: bool) -> Outcome:
        """Return the answer to an incremental decode of `chunks`."""
        return self.ask(Request("incremental", chunks=tuple(chunks), final_empty=final_empty))

    def decode_after(
        self, earlier: Sequence[Earlier], chunks: Sequence[bytes], final_empty: bool
    ) -> Outcome:
        """Return the answer to an incremental decode of `chunks` by a decoder fed `earlier`."""
        request = Request("incremental", chunks=tuple(chunks), final_empty=final_empty)
        return self.ask(dataclasses.replace(request, before=tuple(earlier)))


def decoded_after(
    codec: object, earlier: Sequence[Earlier], chunks: Sequence[bytes], final_empty: bool
) -> Outcome:
    """Return what `codec`'s incremental decoder gives for `chunks` after `earlier` (its
    `decode_after`); Inapplicable for a codec that cannot be asked so."""
    ask = getattr(codec, "decode_after", None)
    if not callable(ask):
        return Inapplicable("its incremental decoder cannot be asked again (no decode_after)")
    outcome: Outcome = ask(earlier, chunks, final_empty)
    return outcome


def outcomes_of(codec: Codec, requests: Sequence[Request]) -> list[Outcome]:
    """Return what `codec` does with each request, in order: all asked at once of a codec that
    has `ask_all` (isolate.ProcessCodec: a program speaking version 2 gets them pipelined),
    ahead in runs up to each failure from one that has `ask_until_failure`, else one by one."""
    ask_all = getattr(codec, "ask_all", None)
    if callable(ask_all):
        return list(ask_all(requests))
    answers: list[Outcome] = []
    ask_ahead = getattr(codec, "ask_until_failure", None)
    while callable(ask_ahead) and len(answers) < len(requests):
        answered = list(ask_ahead(requests[len(answers) :]))
        if not answered:
            break
        answers += answered
    return answers + [outcome_of(codec, request) for request in requests[len(answers) :]]


def request_line(request: Request) -> str:
    """Return the line that asks `request` (ValueError for encode values above 0xFFFFFFFF)."""
    if request.capability == "encode":
        return f"encode {hex_of_scalars(request.scalars)}"
    if request.capability == "incremental":
        flag = "1" if request.final_empty else "0"
        asked = [flag, *map(hex_of_bytes, request.chunks)]
        if not request.before:
            return " ".join(["incremental", *asked])
        words = ["reuse"]
        for stream in request.before:
            words += ["0" if stream.ended else OPEN, *map(hex_of_bytes, stream.chunks)]
            words.append(RESET if stream.reset else NEXT)
        return " ".join([*words, *asked])
    return f"{request.capability} {hex_of_bytes(request.data)}"


def _reuse_request(fields: list[str]) -> Request:
    """Return the request of a `reuse` line's fields: groups `F BYTES...` parted by `next` or
    `reset`, the last group the stream asked (ValueError when they are not so)."""
    groups: list[list[str]] = [[]]
    partings: list[str] = []
    for field in fields:
        if field in (NEXT, RESET):
            groups.append([])
            partings.append(field)
        else:
            groups[-1].append(field)
    *earlier, asked = groups
    if not earlier or not asked or asked[0] not in ("0", "1"):
        raise ValueError("expected 'reuse F BYTES... next|reset ... F BYTES...'")
    before: list[Earlier] = []
    for group, parting in zip(earlier, partings, strict=True):
        if not group or group[0] not in ("0", OPEN):
            raise ValueError(f"an earlier stream starts with 0 or {OPEN}")
        chunks = tuple(map(bytes_of_hex, group[1:]))
        before.append(Earlier(chunks, group[0] == "0", parting == RESET))
    chunks = tuple(map(bytes_of_hex, asked[1:]))
    return Request("incremental", chunks=chunks, final_empty=asked[0] == "1", before=tuple(before))


def parse_request(line: str) -> Request:
    """Return the request a line asks; ProtocolError if the line is not one."""
    operation, *fields = line.split() or [""]
    try:
        if operation == "encode" and len(fields) == 1:
            return Request("encode", scalars=scalars_of_hex(fields[0]))
        if operation == "incremental" and fields and fields[0] in ("0", "1"):
            chunks = tuple(map(bytes_of_hex, fields[1:]))
            return Request("incremental", chunks=chunks, final_empty=fields[0] == "1")
        if operation == "reuse":
            return _reuse_request(fields)
        capability = next((c for c in BYTES_INPUT if c == operation), None)
        if capability is not None and len(fields) == 1:
            return Request(capability, data=bytes_of_hex(fields[0]))
    except ValueError as error:
        raise ProtocolError(f"malformed request {quoted(line)}: {error}") from None
    raise ProtocolError(f"malformed request {quoted(line)}")


def answer_line(capability: Capability, outcome: Outcome) -> str:
    """Return the line that reports `outcome`, with the optional fields it has (answer_fields:
    an error's end, an incremental decoder's calls); messages are kept to one line."""
    if isinstance(outcome, Returned):
        value = outcome.value
        if isinstance(value, bool):
            return f"ok {'true' if value else 'false'}"
        ok = "ok " if outcome.stream is None else f"ok {field_words(outcome)}"
        if isinstance(value, str):
            return f"{ok}{hex_of_text(value)}"
        if isinstance(value, tuple):
            return f"{ok}{hex_of_scalars(value)}"
        return f"{ok}{hex_of_bytes(value)}"
    if isinstance(outcome, Refused):
        offset = EMPTY if outcome.offset is None else str(outcome.offset)
        fields = field_words(outcome)
        return f"refused {fields}{offset} {' '.join(outcome.message.split())}".rstrip()
    if isinstance(outcome, Failed):
        # A timeout or a protocol failure is the harness's finding, never the program's: a
        # program reports either as a crash.
        status = outcome.kind if outcome.kind in FAILURE_STATUSES else "crash"
        return f"{status} {' '.join(outcome.message.split())}".rstrip()
    return f"inapplicable {' '.join(outcome.reason.split())}".rstrip()


def parse_answer(asked: Capability | Request, line: str) -> Outcome:
    """Return the outcome an answer line reports to `asked` (a request, or only its capability).

    An `ok` whose value is not the kind the capability returns is `Failed('wrong-type')`; a line
    that is no answer at all raises ProtocolError (the program is out of step: restart it), as
    does a malformed optional field (answer_fields), or a stream (`returned=`) given with only
    a capability, whose calls it cannot be read against.
    """
    request = asked if isinstance(asked, Request) else None
    capability = asked.capability if isinstance(asked, Request) else asked
    status, _, rest = line.partition(" ")
    if status == "ok" or status == "refused":
        fields: dict[str, str] = {}
        try:
            if rest.startswith(FIELD_PREFIXES):
                fields, rest = split_fields(rest)
            if status == "ok":
                returned = _returned(capability, rest)
                return returned_with(returned, fields, _feeds(request)) if fields else returned
            offset, message = _refusal(rest, line)
            if not fields:
                return Refused(message, offset)
            return refused_with(message, offset, fields, _feeds(request))
        except FieldError as error:
            raise ProtocolError(f"answer {quoted(line)}: {error}") from None
    if status == "inapplicable":
        return Inapplicable(rest)
    if status == "crash":
        return Failed("crash", rest)
    if status == "wrong-type":
        return Failed("wrong-type", rest)
    if status == "memory":
        return Failed("memory", rest)
    raise ProtocolError(f"not an answer: {quoted(line)}")


def _feeds(request: Request | None) -> Feeds | None:
    """Return what an incremental request feeds its decoder (None for any other, or none)."""
    if request is None or request.capability != "incremental":
        return None
    return request.chunks, request.final_empty


def _refusal(rest: str, line: str) -> tuple[int | None, str]:
    """Return the offset and message of a `refused` answer's rest (after its fields)."""
    offset, _, message = rest.partition(" ")
    if offset == EMPTY:
        return None, message
    if offset.isdigit() and offset.isascii():
        return int(offset), message
    raise ProtocolError(f"answer {quoted(line)}: the offset must be a decimal number or '-'")


def _returned(capability: Capability, field: str) -> Returned | Failed:
    try:
        if capability == "validate":
            if field in ("true", "false"):
                return Returned(field == "true")
            raise ValueError("validate answers 'ok true' or 'ok false'")
        if capability == "encode":
            return Returned(bytes_of_hex(field))
        data = bytes_of_hex(field)
        try:  # the usual answer: text, read once (its values are within U+10FFFF)
            return Returned(data.decode("utf-32-be", "surrogatepass"))
        except UnicodeDecodeError:
            pass  # a value past U+10FFFF, or a ragged length: told apart below
        values = scalars_of_hex(field)
        if values and max(values) > 0x10FFFF:
            return Returned(values)  # no str holds these: the judge says what the codec did
        return Returned(text_of_hex(field))
    except ValueError as error:
        return Failed("wrong-type", f"{capability} answered ok {quoted(field)}: {error}")
