"""One input put to every capability of a codec: the questions the fuzzer and the property ask.

The expectation comes from the reference (`expectation_for`, `encoding_for`) and each answer is
judged by compare.py, the one definition of a difference shared with `utf8cert check`. What this
module adds is how one byte string becomes the questions: where to cut it for an incremental
decoder, and which code points to offer an encoder.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import zlib
from collections.abc import Iterable, Iterator, Sequence
from typing import Final

from utf8cert.harness.check.compare import (
    compare_chunks,
    compare_decode,
    compare_encode,
    compare_replace,
    compare_validate,
)
from utf8cert.harness.check.decided import Walked
from utf8cert.harness.check.difference import Difference, Label
from utf8cert.harness.check.expected import (
    Expected,
    ExpectedEncoding,
    encoding_for,
    expectation_for,
)
from utf8cert.harness.check.modes import HeldMode
from utf8cert.harness.check.profile import Profile
from utf8cert.harness.check.profiles import RFC3629
from utf8cert.harness.check.reading import Reading
from utf8cert.harness.codec.interface import Capability, Codec
from utf8cert.harness.vectors.model import LEVELS, Level
from utf8cert.reference import DecodeError, EncodeError, ErrorKind, decode_legacy, encode

LABEL: Final = ("input", "as-is")
"""What a difference found on a fuzz input is called: no vector, the input as it came."""
ENCODE_LABEL: Final = ("input", "code points read from it")
ENCODE_PIECE: Final = 1 << 18
"""An encoder is offered the code points of an ad-hoc input at most this many at a time."""

BYTEWISE: Final = 4
"""How many bytes of a non-ASCII run are fed to a decoder one at a time: a whole sequence."""
BLOCK_CUTS: Final = (64, 4096, 65536)
RANDOM_CUTS: Final = 2

_NON_ASCII_RUN: Final = re.compile(b"[\x80-\xff]+")
# RFC 2279 §2: a lead byte announces the length of its sequence in its high bits.
_LEGACY_SEQUENCE: Final = re.compile(
    b"[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf7][\x80-\xbf]{3}"
    b"|[\xf8-\xfb][\x80-\xbf]{4}|[\xfc-\xfd][\x80-\xbf]{5}"
)
VALUE_ONLY: Final = frozenset({ErrorKind.SURROGATE, ErrorKind.OUT_OF_RANGE, ErrorKind.LEGACY_FORM})
"""Kinds of sequences that are well-formed in shape, ill-formed only for the value they hold."""


def cut_points(data: bytes) -> list[int]:
    """Return where to cut `data` for an incremental decoder, sorted ([] for under 2 bytes).

    Byte by byte through the start of one non-ASCII run, picked by a checksum of the input (the
    cuts inside a sequence that a decoder's held-back state must survive); around each block
    boundary the input crosses; and at RANDOM_CUTS more offsets picked by the checksum. Every
    mutation of the input moves them.
    """
    size = len(data)
    if size < 2:
        return []
    checksum = zlib.crc32(data)
    cuts = [1 + (checksum >> (8 * shift)) % (size - 1) for shift in range(RANDOM_CUTS)]
    run = _NON_ASCII_RUN.search(data, checksum % size) or _NON_ASCII_RUN.search(data)
    if run is not None:
        cuts += range(run.start(), min(run.end(), run.start() + BYTEWISE) + 1)
    if size > BLOCK_CUTS[0]:
        cuts += (cut for block in BLOCK_CUTS for cut in range(block - 3, block + 1))
    return sorted({cut for cut in cuts if 0 < cut < size})


def chunks_at(data: bytes, cuts: Iterable[int]) -> list[bytes]:
    """Return `data` cut at `cuts` (sorted offsets inside it): one chunk when there are none."""
    edges = [0, *cuts, len(data)]
    return [data[start:end] for start, end in itertools.pairwise(edges)]


def ends_with_empty_chunk(data: bytes) -> bool:
    """Return True if a final b'' is fed after the chunks of `data` (a checksum bit says so)."""
    return zlib.adler32(data) & 1 == 1


def chunking(data: bytes) -> tuple[list[int], list[bytes], bool]:
    """Return how the fuzzer feeds `data` to an incremental decoder: (cuts, chunks, final_empty).

    The probe and the screen (screen.py) both ask this, so they put the same question.
    """
    cuts = cut_points(data)
    return cuts, chunks_at(data, cuts), ends_with_empty_chunk(data)


def code_points_of(data: bytes, walked: Iterable[Walked] | None = None) -> tuple[int, ...]:
    """Return the code points to offer an encoder for a byte string (() for b'').

    The well-formed characters as they are; and a sequence ill-formed only for its value read
    the RFC 2279 way, so that ED A0 80 gives U+D800 and F4 90 80 80 gives 0x110000: values an
    RFC 3629 encoder must refuse (§3). Other ill-formed bytes contribute nothing. `walked` is
    the reference's walk of `data` (an Expected's `reading.pieces`), when already made.

    Such a sequence starts with a lead byte and the rest of its RFC 2279 form are UTF8-tail
    bytes, which no run of text starts with: its bytes are all maximal subparts, and skipping
    those it covers skips no text.
    """
    values: list[int] = []
    position = 0
    for piece in Reading(data).pieces if walked is None else walked:
        if isinstance(piece, str):
            values += map(ord, piece)
            continue
        offset, length, kind = piece
        if offset < position:
            continue  # a tail of the sequence just read the RFC 2279 way
        position = offset + length
        reading = legacy_reading(data, offset) if kind in VALUE_ONLY else None
        if reading is not None:
            values += reading[0]
            position = reading[1]
    return tuple(values)


def legacy_reading(data: bytes, offset: int) -> tuple[list[int], int] | None:
    """Return the values of the sequence at `offset` read the RFC 2279 way and where it ends;
    None where no such sequence starts, or where it is an overlong five- or six-byte form (RFC
    2279 §6 refuses those too)."""
    sequence = _LEGACY_SEQUENCE.match(data, offset)
    if sequence is None:
        return None
    try:
        return decode_legacy(sequence.group()), sequence.end()
    except DecodeError:
        return None


def encoder_request(expected: Expected) -> ExpectedEncoding:
    """Return the code points the fuzzer offers an encoder for one input, and what the
    reference makes of them.

    They are the input's characters when it is well-formed; when it holds a sequence
    ill-formed only for its value, `code_points_of` it (surrogates and values above U+10FFFF
    included); otherwise the characters of its U+FFFD-replaced text.
    """
    if expected.text is None and any(error.kind in VALUE_ONLY for error in expected.errors):
        return encoding_expectation(code_points_of(expected.data, expected.reading.pieces))
    text = expected.replaced  # the text itself, for well-formed input
    if isinstance(text, tuple):  # values above U+10FFFF, read by a dialect
        return encoding_expectation(text)
    return ExpectedEncoding(tuple(map(ord, text)), encode(text), None)


def encoder_requests(expected: Expected) -> Iterator[tuple[ExpectedEncoding, Label]]:
    """Yield what the encoder is offered for one input, with its label: the fuzzer's
    `encoder_request` whole when it holds at most ENCODE_PIECE code points, else in pieces of
    ENCODE_PIECE (labelled by where each starts), each with what the reference makes of it.

    The code points of a 100 MB input as a tuple of ints take 8 bytes each and more, and the
    reference's encoder about 90 bytes each while it joins their bytes; a piece at a time, they
    take a few MB, and an encoder's answer is its answer to each piece in turn.
    """
    value_only = expected.text is None and any(e.kind in VALUE_ONLY for e in expected.errors)
    # The replaced output is the text itself for well-formed input (encoder_request).
    values: Sequence[int] | str = (
        code_points_of(expected.data, expected.reading.pieces) if value_only else expected.replaced
    )
    if len(values) <= ENCODE_PIECE:
        yield encoder_request(expected), ENCODE_LABEL
        return
    vector, variant = ENCODE_LABEL
    for start in range(0, len(values), ENCODE_PIECE):
        piece = values[start : start + ENCODE_PIECE]
        where = (vector, f"{variant}, {start}..{start + len(piece) - 1}")
        if isinstance(piece, str):  # decoded text: no surrogate, nothing to refuse
            yield ExpectedEncoding(tuple(map(ord, piece)), encode(piece), None), where
        else:
            yield encoding_expectation(piece), where


def encoding_expectation(values: Sequence[int]) -> ExpectedEncoding:
    """Return the reference's encoding of `values`, or the index of the first it must refuse."""
    if max(values, default=0) <= 0x10FFFF:
        try:  # the reference's str path: the same table, memoized per character
            return ExpectedEncoding(tuple(values), encode("".join(map(chr, values))), None)
        except EncodeError as error:
            return ExpectedEncoding(tuple(values), None, error.index)
    return encoding_for(values)


def describe_chunks(cuts: Sequence[int], final_empty: bool) -> str:
    """Return how an input was cut, for a difference's variant ('cut at 3,4,5, then final b'')."""
    shown = ",".join(map(str, cuts[:12])) + (f",… ({len(cuts)} cuts)" if len(cuts) > 12 else "")
    return f"cut at {shown or 'no point'}" + (", then final b''" if final_empty else "")


def at_or_above(level: Level) -> frozenset[Level]:
    """Return the levels as binding as `level` or more ('should': must and should)."""
    return frozenset(LEVELS[: LEVELS.index(level) + 1])


def probe(
    codec: Codec,
    data: bytes,
    *,
    capabilities: Iterable[Capability] | None = None,
    chunks: Sequence[bytes] | None = None,
    final_empty: bool | None = None,
    code_points: Sequence[int] | None = None,
    profile: Profile = RFC3629,
    held: HeldMode | None = None,
    reference: Expected | None = None,
) -> list[Difference]:
    """Return the differences of the codec from the reference on one input ([] if none).

    Every capability in `capabilities` (default: all the codec offers) is asked once: decode,
    replace and validate on `data`; incremental on `chunks` (default: `data` cut at
    `cut_points`, with a final b'' when a checksum bit says so); encode on `code_points`
    (default: `encoder_request`). Each answer is judged against the reference's expectation as
    `profile` rereads it (default: RFC 3629 itself), an incremental answer in the mode `held`
    (modes.py; None: either mode). `reference` is `expectation_for(data)` when the caller has
    it already (its reading of `data` is then not made again).
    """
    wanted = codec.capabilities if capabilities is None else frozenset(capabilities)
    offered = wanted & codec.capabilities
    expected = expectation_for(data) if reference is None else reference
    differences: list[Difference] = []
    if "decode" in offered:
        differences += compare_decode(codec, expected, LABEL, profile)
    if "replace" in offered:
        differences += compare_replace(codec, expected, LABEL, profile)
    if "validate" in offered:
        differences += compare_validate(codec, expected, LABEL, profile)
    if "incremental" in offered:
        if chunks is None:
            cuts, chunks, _ = chunking(data)
        elif b"".join(chunks) != data:
            raise ValueError("the chunks do not make up the input")
        else:
            cuts = list(itertools.accumulate(map(len, chunks[:-1])))
        if final_empty is None:
            final_empty = ends_with_empty_chunk(data)
        found = compare_chunks(codec, expected, chunks, final_empty, LABEL, profile, None, held)
        if found:  # named only now: the description costs more than the comparison
            variant = describe_chunks(cuts, final_empty)
            differences += [dataclasses.replace(d, variant=variant) for d in found]
    if "encode" in offered:
        if code_points is None:
            encoding = encoder_request(expected)
        else:
            encoding = encoding_expectation(code_points)
        differences += compare_encode(codec, encoding, ENCODE_LABEL, profile)
    return differences
