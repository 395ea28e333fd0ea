"""The fuzzer's screen: is every answer of the codec on one input exactly the conformant one?

Nearly every fuzz execution finds nothing, and needs none of what `probe` builds to say what a
difference is (Difference objects, levels, descriptions, a record per maximal subpart). The
screen asks the reference once, as cheaply as the input allows and only what the codec's
capabilities need: for well-formed input `validate` and `decode`; for ill-formed input the first
error, the U+FFFD text from `decode_replace`, and only when the encoder must be offered a
sequence ill-formed for its value, a walk over every maximal subpart for its code points. It
then puts to the codec the questions `probe` puts (the same chunking, the same code points to
encode), with the codec's own calls where it has them, and checks each answer for equality with
the reference's.

The screen only passes an input when compare.py would find no difference in any answer, at any
level (tests/test_fuzz_screen.py proves it over the vectors, the broken codecs and random input).
Anything else, a wrong answer, an exception it did not expect, an answer it does not know, sends
the input to `probe`, which says what the difference is: compare.py stays the one definition.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from utf8cert.harness.check.modes import HeldMode, Mode
from utf8cert.harness.check.probe import VALUE_ONLY, chunking, code_points_of, encoding_expectation
from utf8cert.harness.check.reading import Reading
from utf8cert.harness.check.timeliness import late
from utf8cert.harness.codec.interface import (
    CAPABILITIES,
    Capability,
    Codec,
    Inapplicable,
    Outcome,
    Refused,
    Returned,
    Stream,
)
from utf8cert.harness.codec.python_codec import PythonCodec
from utf8cert.harness.codec.raised import LARGEST_CODE_POINT, end_of, start_of
from utf8cert.reference import (
    REPLACEMENT_CHARACTER,
    DecodeError,
    decode,
    decode_replace,
    encode,
    validate,
)
from utf8cert.reference.decoder import sequence_at
from utf8cert.reference.table import NOT_A_LEAD, ROWS, TAIL


@dataclass(frozen=True, slots=True)
class Answer:
    """What a conformant codec gives for one input, as the reference says.

    Only what the capabilities asked need is worked out: the U+FFFD text of ill-formed input for
    replace, incremental and encode; the encoder's values and their UTF-8 for encode. The rest is
    None (one reference `encode` of a 64 KiB input costs milliseconds: a decode-only codec must
    not pay for it on every execution).
    """

    text: str | None
    """The decoded text; None for ill-formed input."""
    first_error: int | None
    replaced: str | None
    """The text with one U+FFFD per maximal subpart (the text itself for well-formed input)."""
    to_encode: str | tuple[int, ...] | None
    """The code points offered to the encoder: a str when a str can hold them all."""
    encoded: bytes | None
    """Their UTF-8; None when the encoder must refuse them."""
    encode_error: int | None
    """The index of the first value the encoder must refuse."""
    reading: Reading
    """The reference's reading of the input (check/reading.py), walked only when asked: for the
    encoder's code points of a sequence ill-formed for its value, and for the timeliness points
    of an incremental decoder's calls."""


WALKED: Final[frozenset[Capability]] = frozenset({"replace", "incremental", "encode"})
"""The capabilities whose answer on ill-formed input needs every maximal subpart."""


def _value_only_start() -> re.Pattern[bytes]:
    """Return a pattern found in an input exactly when one of its maximal subparts is of a kind
    in VALUE_ONLY, read off the reference's table: a lead byte whose every use is such a kind,
    or a lead whose narrowed second byte leaves out such values (ED A0..BF, F4 90..BF).

    Such bytes never stand inside a character or a subpart (a lead byte is no UTF8-tail), so
    finding them anywhere means the subpart they start is of that kind.
    """
    alternatives = [
        re.escape(bytes([byte]))
        for byte_range, kind in NOT_A_LEAD
        if kind in VALUE_ONLY
        for byte in byte_range
    ]
    for row in ROWS:
        if row.narrowed_out in VALUE_ONLY:
            outside = [byte for byte in TAIL if byte not in row.second]
            alternatives += [
                re.escape(bytes([lead, byte])) for lead in row.lead for byte in outside
            ]
    return re.compile(b"|".join(alternatives))


VALUE_ONLY_START: Final = _value_only_start()


def reference_answer(
    data: bytes, wanted: Iterable[Capability] = CAPABILITIES, *, str_encoder: bool = False
) -> Answer:
    """Return what the reference says of `data` for the capabilities `wanted`: the values
    `expectation_for` and `encoder_request` give, without their per-error records.

    For a `str_encoder` (a Python codec, which cannot be offered values above U+10FFFF) the
    encoding of such values is not worked out: `encoded` and `encode_error` are then None.
    """
    wanted = frozenset(wanted)
    encodes = "encode" in wanted
    reading = Reading(data)
    if validate(data):
        text = decode(data)
        return Answer(text, None, text, text, encode(text) if encodes else None, None, reading)
    if not wanted & WALKED:
        return Answer(None, first_error_of(data), None, None, None, None, reading)
    if not encodes or VALUE_ONLY_START.search(data) is None:
        # The U+FFFD text is all that is asked (the encoder is offered it): `decode_replace`
        # makes it in C-sized steps, several times faster than the walk below.
        replaced = decode_replace(data)
        encoded = encode(replaced) if encodes else None
        return Answer(None, first_error_of(data), replaced, replaced, encoded, None, reading)
    walked = reading.pieces
    replaced = "".join(p if isinstance(p, str) else REPLACEMENT_CHARACTER for p in walked)
    first = next(piece[0] for piece in walked if not isinstance(piece, str))
    values = code_points_of(data, walked)
    to_encode = offered(values)
    if isinstance(to_encode, tuple):  # a value above U+10FFFF
        if str_encoder:  # not asked: the encoding of values above U+10FFFF is not worked out
            return Answer(None, first, replaced, values, None, None, reading)
        refused = encoding_expectation(values)
        return Answer(None, first, replaced, values, refused.encoded, refused.error_index, reading)
    request = encoding_expectation(values)
    return Answer(None, first, replaced, to_encode, request.encoded, request.error_index, reading)


def offered(values: tuple[int, ...]) -> str | tuple[int, ...]:
    """Return the code points `values` as the encoder is offered them (Answer.to_encode): a str
    when one can hold them all, else `values` itself (one is above U+10FFFF)."""
    return values if max(values, default=0) > LARGEST_CODE_POINT else "".join(map(chr, values))


def first_error_of(data: bytes) -> int:
    """Return the offset of the first ill-formed byte of `data`, which must be ill-formed."""
    try:
        decode(data)
    except DecodeError as error:
        return error.offset
    raise ValueError("well-formed input has no first error")


def _refusal_conforms(offset: object, due: int | None) -> bool:
    """Return True for a refusal where one is due (`due` not None), at `due` if it says where."""
    return due is not None and (not isinstance(offset, int) or offset == due)


def _python_conforms(
    codec: PythonCodec,
    data: bytes,
    answer: Answer,
    offered: frozenset[Capability],
    mode: Mode | None,
) -> bool:
    """Return True if each offered capability of a Python codec, called raw, answers as a
    conformant codec must; False at the first that does not or raises something unexpected."""
    functions = codec.functions
    text, first = answer.text, answer.first_error
    try:
        if "decode" in offered and functions.decode is not None:
            try:
                result = functions.decode(data)
                if text is None or not isinstance(result, str) or result != text:
                    return False
            except ValueError as error:
                if not _refusal_conforms(getattr(error, "start", None), first):
                    return False
                if not _end_conforms(error, start_of(error), data):
                    return False
        if "replace" in offered and functions.decode_replace is not None:
            result = functions.decode_replace(data)
            if not isinstance(result, str) or result != answer.replaced:
                return False
        if "validate" in offered and functions.validate is not None:
            try:
                if functions.validate(data) is not (text is not None):
                    return False
            except ValueError:
                if text is not None:
                    return False
        if "incremental" in offered and not _python_incremental_conforms(codec, data, answer, mode):
            return False
        if "encode" in offered and functions.encode is not None:
            to_encode = answer.to_encode
            if isinstance(to_encode, str):  # else no Python str can hold them: not asked
                try:
                    written = functions.encode(to_encode)
                    if not isinstance(written, bytes | bytearray) or written != answer.encoded:
                        return False
                except ValueError as error:
                    if not _refusal_conforms(getattr(error, "start", None), answer.encode_error):
                        return False
                    if not _encode_end_conforms(error, to_encode):
                        return False
    except (Exception, SystemExit):  # a crash: probe() asks again and reports it
        return False
    return True


def _python_incremental_conforms(
    codec: PythonCodec, data: bytes, answer: Answer, mode: Mode | None
) -> bool:
    """Return True if a fresh incremental decoder fed `data` as `probe` feeds it (PythonCodec's
    `decode_chunks`, without its outcome objects) gives the conformant text or refusal of its
    `mode` (False for ill-formed input while the mode is not settled: the probe settles it)."""
    factory = codec.functions.incremental_decoder
    if factory is None:
        return True
    if answer.text is None and mode is None:
        return False
    _, chunks, final_empty = chunking(data)
    last = len(chunks) - 1
    feeds = [(chunk, index == last and not final_empty) for index, chunk in enumerate(chunks)]
    if final_empty or not chunks:
        feeds.append((b"", True))
    decoder = factory()
    texts: list[str] = []
    fed: list[int] = []
    returned: list[int] = []
    for index, (chunk, final) in enumerate(feeds):
        fed.append((fed[-1] if fed else 0) + len(chunk))
        try:
            piece = decoder.decode(chunk, final)
        except ValueError as error:
            offset = codec.offset_in_stream(error, chunks[:index])
            return (
                mode != "replace"
                and _refusal_conforms(offset, answer.first_error)
                and _end_conforms(error, offset, data)
                and late(answer.reading.schedule, Stream(tuple(fed), tuple(returned)), True) is None
            )
        if not isinstance(piece, str):
            return False
        texts.append(piece)
        returned.append((returned[-1] if returned else 0) + len(piece))
    if late(answer.reading.schedule, Stream(tuple(fed), tuple(returned)), False) is not None:
        return False
    if answer.text is None:  # text for ill-formed input: right in replace mode only
        return mode == "replace" and "".join(texts) == answer.replaced
    return "".join(texts) == answer.text


def _encode_end_conforms(error: BaseException, text: str) -> bool:
    """Return True unless an encoder's refusal ends at or before its start, past the run of
    surrogates it starts, or is a plain ValueError that places the error nowhere."""
    start = start_of(error)
    end = end_of(error, start)
    if start is None or end is None:
        return not (type(error) is ValueError and start is None)
    run_end = start
    while run_end < len(text) and 0xD800 <= ord(text[run_end]) <= 0xDFFF:
        run_end += 1
    return start < end <= run_end


def _end_conforms(error: BaseException, offset: int | None, data: bytes) -> bool:
    """Return True unless a decoder's refusal ends elsewhere than the first maximal subpart, or
    is a plain ValueError that places the error nowhere (check/extent.py)."""
    start = start_of(error)
    end = end_of(error, start)
    if end is None or start is None or offset is None:
        return not (type(error) is ValueError and offset is None)
    return offset + end - start == offset + sequence_at(data, offset)[0]  # else the probe judges


def _text_conforms(outcome: Outcome, wanted: str | None, answer: Answer, data: bytes) -> bool:
    """Return True for the text `wanted`, or (None) a refusal at the first error if it says."""
    if isinstance(outcome, Refused):
        if not _outcome_extent_conforms(outcome, answer, data):
            return False
        return wanted is None and _refusal_conforms(outcome.offset, answer.first_error)
    return (
        wanted is not None
        and isinstance(outcome, Returned)
        and isinstance(outcome.value, str)
        and outcome.value == wanted
    )


def _outcome_extent_conforms(outcome: Refused, answer: Answer, data: bytes) -> bool:
    """Return True unless a refusal ends elsewhere than the first maximal subpart, or is a plain
    ValueError with no offset (check/extent.py)."""
    if outcome.generic and outcome.offset is None:
        return False
    if outcome.end is None or outcome.offset is None or answer.first_error is None:
        return True
    first = answer.first_error
    return first < len(data) and outcome.end == first + sequence_at(data, first)[0]


def _on_time(outcome: Outcome, answer: Answer) -> bool:
    """Return True unless an in-process incremental decoder held something back (timeliness.py)."""
    if not isinstance(outcome, Returned | Refused) or outcome.stream is None:
        return True
    return late(answer.reading.schedule, outcome.stream, isinstance(outcome, Refused)) is None


def _outcomes_conform(
    codec: Codec,
    data: bytes,
    answer: Answer,
    offered: frozenset[Capability],
    mode: Mode | None,
) -> bool:
    """Return True if each offered capability's outcome is what a conformant codec gives (an
    incremental decoder's, in its `mode`): the screen for codecs that only answer with
    outcomes (cmd: programs, --isolate)."""
    text = answer.text
    if "decode" in offered and not _text_conforms(codec.decode(data), text, answer, data):
        return False
    if "replace" in offered and not _text_conforms(
        codec.decode_replace(data), answer.replaced, answer, data
    ):
        return False
    if "validate" in offered:
        verdict = codec.validate(data)
        said_no = isinstance(verdict, Refused) or (
            isinstance(verdict, Returned) and verdict.value is False
        )
        said_yes = isinstance(verdict, Returned) and verdict.value is True
        if not (said_yes if text is not None else said_no):
            return False
    if "incremental" in offered:
        if text is None and mode is None:  # the probe settles the mode
            return False
        _, chunks, final_empty = chunking(data)
        outcome = codec.decode_chunks(chunks, final_empty)
        if not _on_time(outcome, answer):
            return False
        # Ill-formed input: a strict decoder refuses it, a replacing one gives the U+FFFD text.
        replacing = text is None and mode == "replace"
        if not _text_conforms(outcome, answer.replaced if replacing else text, answer, data):
            return False
    if "encode" in offered:
        to_encode = answer.to_encode
        if to_encode is None:  # not worked out: cannot happen when encode is offered
            return False
        values = tuple(map(ord, to_encode)) if isinstance(to_encode, str) else to_encode
        written = codec.encode(values)
        if isinstance(written, Refused):
            return answer.encoded is None and _refusal_conforms(written.offset, answer.encode_error)
        if isinstance(written, Returned):
            value = written.value
            return (
                isinstance(value, bytes) and answer.encoded is not None and value == answer.encoded
            )
        return isinstance(written, Inapplicable)  # nothing was asked; Failed is a difference
    return True


def conforms(
    codec: Codec,
    data: bytes,
    capabilities: Iterable[Capability] | None = None,
    mode: Mode | None = None,
    answer: Answer | None = None,
) -> bool:
    """Return True if the codec answers `data` exactly as a conformant codec does on every
    capability in `capabilities` (default: all it offers), its incremental decoder in `mode`
    (check/modes.py; None: the mode the codec is known to have, if any): then `probe` would
    find nothing. `answer`: `reference_answer(data, <the capabilities offered>)` when the
    caller has it already (for a codec that is no PythonCodec, which needs another).

    False means only that `probe` must look: it may still find nothing.
    """
    wanted = codec.capabilities if capabilities is None else frozenset(capabilities)
    offered = wanted & codec.capabilities
    if mode is None:
        mode = HeldMode.of(codec).mode
    if isinstance(codec, PythonCodec):
        answer = reference_answer(data, offered, str_encoder=True)
        return _python_conforms(codec, data, answer, offered, mode)
    if answer is None:
        answer = reference_answer(data, offered)
    return _outcomes_conform(codec, data, answer, offered, mode)
