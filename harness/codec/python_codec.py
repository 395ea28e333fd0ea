"""A codec under test made of Python callables, called in this process, its behaviour as outcomes.

Each call costs one try/except around the codec's own function: `ValueError` (with
`UnicodeDecodeError` and `UnicodeEncodeError`) is a refusal, at the error's `start` when it has
one; `MemoryError` is a `memory` failure; any other exception is a crash, BaseExceptions such as
KeyboardInterrupt and SystemExit too (except the user's own Ctrl-C: interrupts.py); a value of
the wrong type is a `wrong-type` failure.
A codec that kills or hangs the interpreter needs `--isolate` (harness/codec/isolate.py).

The adapter kit: a codec may declare more exceptions that mean "refused" (`refusals`, e.g.
`lxml.etree.XMLSyntaxError`) and how to read an offset from them (`refusal_offset`); it may raise
`Refusal(message, offset)` to refuse at an offset it worked out itself, and `NotApplicable(reason)`
to answer that a request cannot be put to it (an XML document cannot carry U+FFFE). How each of
these becomes an outcome: raised.py.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from utf8cert.harness.codec import interrupts
from utf8cert.harness.codec.interface import (
    Capability,
    Earlier,
    Inapplicable,
    IncrementalMode,
    Outcome,
    Refused,
    Returned,
    Stream,
)
from utf8cert.harness.codec.raised import (
    LARGEST_CODE_POINT,
    NotApplicable,
    OffsetReader,
    Refusal,
    beyond_unicode,
    crash,
    decoded,
    describe_exception,
    end_of,
    exact,
    ord_or_value,
    refusal,
    start_of,
    wrong_type,
)
from utf8cert.harness.codec.strings import DEFAULT, StringModel, unholdable

BytesFunction = Callable[[bytes], object]
TextFunction = Callable[[str], object]
DecoderFactory = Callable[[], Any]
"""Returns an object with `decode(chunk: bytes, final: bool = False) -> str`."""


class Functions(NamedTuple):
    """A Python codec's own callables, one per capability (None: not offered)."""

    decode: BytesFunction | None
    decode_replace: BytesFunction | None
    validate: BytesFunction | None
    encode: TextFunction | None
    incremental_decoder: DecoderFactory | None


class PythonCodec:
    """A codec under test whose capabilities are Python callables (None: not offered).

    What a callable raises decides the outcome: NotApplicable is Inapplicable; ValueError or one
    of `refusals` is Refused; anything else is a crash. A result of the wrong type is wrong-type;
    a decoder that read values above U+10FFFF, which no str holds, returns them as a tuple of
    int code points.
    """

    def __init__(
        self,
        spec: str,
        description: str,
        *,
        decode: BytesFunction | None = None,
        decode_replace: BytesFunction | None = None,
        validate: BytesFunction | None = None,
        encode: TextFunction | None = None,
        incremental_decoder: DecoderFactory | None = None,
        refusals: tuple[type[BaseException], ...] = (),
        refusal_offset: OffsetReader | None = None,
        strings: StringModel = DEFAULT,
        incremental_mode: IncrementalMode | None = None,
    ) -> None:
        """`refusals`: exceptions besides ValueError that mean the input was refused;
        `refusal_offset`: reads the offset from one of those (default: its `start`);
        `strings`: what the encoder's strings hold (codec/strings.py: a question a UTF-16
        string cannot hold is not asked); `incremental_mode`: whether the incremental decoder
        refuses or replaces, when the codec says (check/modes.py)."""
        self.spec = spec
        self.description = description
        self.functions = Functions(decode, decode_replace, validate, encode, incremental_decoder)
        """The callables themselves, also for a caller that handles what they raise and return
        (the fuzzer's screen, harness/fuzzing/screen.py): an outcome object per call costs more
        than a C codec's call."""
        offered: dict[Capability, object] = {
            "decode": decode,
            "replace": decode_replace,
            "validate": validate,
            "encode": encode,
            "incremental": incremental_decoder,
        }
        self.capabilities = frozenset(c for c, function in offered.items() if function is not None)
        self.refusals: tuple[type[BaseException], ...] = (ValueError, *refusals)
        self.refusal_offset: OffsetReader = start_of if refusal_offset is None else refusal_offset
        self.strings = strings
        self.incremental_mode = incremental_mode
        self.restriction: str | None = None
        """The rule naming the inputs its API cannot carry, when it declares one
        (codec/restrictions.py)."""
        self.reuse = incremental_decoder is not None
        """Whether its incremental decoder can be asked again (`decode_after`): always."""
        interrupts.watch()  # so that a KeyboardInterrupt the codec raises is told from Ctrl-C

    def _absent(self, capability: Capability) -> Inapplicable:
        return Inapplicable(f"{self.spec} has no {capability} capability")

    def decode(self, data: bytes) -> Outcome:
        """Return Returned(text), Refused, Inapplicable or Failed (see the class)."""
        if self.functions.decode is None:
            return self._absent("decode")
        try:
            result = self.functions.decode(data)
        except NotApplicable as error:
            return Inapplicable(error.reason)
        except self.refusals as error:
            return refusal(error, self.refusal_offset)
        except BaseException as error:  # the codec's, whatever it is: see crash()
            return crash(error)
        return decoded("decode", result)

    def decode_replace(self, data: bytes) -> Outcome:
        """Return Returned(text), Refused, Inapplicable or Failed (see the class)."""
        if self.functions.decode_replace is None:
            return self._absent("replace")
        try:
            result = self.functions.decode_replace(data)
        except NotApplicable as error:
            return Inapplicable(error.reason)
        except self.refusals as error:
            return refusal(error, self.refusal_offset)
        except BaseException as error:  # the codec's, whatever it is: see crash()
            return crash(error)
        return decoded("decode_replace", result)

    def validate(self, data: bytes) -> Outcome:
        """Return Returned(bool), Refused, Inapplicable or Failed (see the class)."""
        if self.functions.validate is None:
            return self._absent("validate")
        try:
            result = self.functions.validate(data)
        except NotApplicable as error:
            return Inapplicable(error.reason)
        except self.refusals as error:
            return refusal(error, self.refusal_offset)
        except BaseException as error:  # the codec's, whatever it is: see crash()
            return crash(error)
        return (
            Returned(result) if isinstance(result, bool) else wrong_type("validate", result, "bool")
        )

    def encode(self, scalars: Sequence[int]) -> Outcome:
        """Return Returned(bytes), Refused, Failed, or Inapplicable (NotApplicable, and values that
        no Python str can hold: above U+10FFFF; lone surrogates can, and are offered)."""
        if self.functions.encode is None:
            return self._absent("encode")
        unaskable = unholdable(self.strings, scalars)
        if unaskable is not None:
            return unaskable
        try:
            text = "".join(map(chr, scalars))
        except (ValueError, OverflowError):
            value = next(v for v in scalars if not 0 <= v <= LARGEST_CODE_POINT)
            return Inapplicable(f"{value:#x} cannot be held in a Python str")
        try:
            result = self.functions.encode(text)
        except NotApplicable as error:
            return Inapplicable(error.reason)
        except self.refusals as error:
            return refusal(error, self.refusal_offset)
        except BaseException as error:  # the codec's, whatever it is: see crash()
            return crash(error)
        result = exact(result)  # a bytes subclass cannot lie about what it holds
        if isinstance(result, bytes):
            return Returned(result)
        return wrong_type("encode", result, "bytes")

    def decode_chunks(self, chunks: Sequence[bytes], final_empty: bool) -> Outcome:
        """Return Returned(all the text the decoder gave, joined), Refused, or Failed.

        A fresh decoder gets each chunk with final=False and the last with final=True (or, with
        `final_empty` or no chunks, b'' with final=True after them). A refusal's offset is its
        index in the whole input when the decoder reports `start` relative to the bytes it held
        plus the chunk and offers `getstate()`, as `codecs.IncrementalDecoder` does; else None.
        """
        decoder, outcome = self._new_decoder()
        if outcome is not None:
            return outcome
        return self._fed(decoder, chunks, final_empty)

    def decode_after(
        self, earlier: Sequence[Earlier], chunks: Sequence[bytes], final_empty: bool
    ) -> Outcome:
        """Return what one incremental decoder gives for `chunks` (fed as decode_chunks feeds
        them) after it was fed the `earlier` streams, each as its Earlier says: the decoder
        reused (check/reuse.py). What it answered to those, a refusal included, is dropped;
        Inapplicable when it has no `reset()` and one was asked, or failed otherwise than by a
        refusal on an earlier stream (the run judges that failure on a fresh decoder)."""
        decoder, outcome = self._new_decoder()
        if outcome is not None:
            return outcome
        for stream in earlier:
            last = len(stream.chunks) - 1
            try:
                for index, chunk in enumerate(stream.chunks):
                    decoder.decode(chunk, stream.ended and index == last)
            except NotApplicable as error:
                return Inapplicable(error.reason)
            except self.refusals:
                pass  # the error the earlier stream was chosen for: the reuse is what is asked
            except BaseException as error:  # the codec's, whatever it is: see crash()
                # The run judges that failure on a fresh decoder; no reuse can be asked after it.
                return Inapplicable(f"failed on the earlier stream: {crash(error).message}")
            if stream.reset:
                reset = getattr(decoder, "reset", None)
                if not callable(reset):
                    return Inapplicable(f"{self.spec}'s incremental decoder has no reset()")
                try:
                    reset()
                except BaseException as error:  # the codec's, whatever it is: see crash()
                    return crash(error)
        return self._fed(decoder, chunks, final_empty)

    def _new_decoder(self) -> tuple[Any, Outcome | None]:
        """Return (a fresh incremental decoder, None); (None, Inapplicable) without one, and
        (None, Failed) when making it raised."""
        if self.functions.incremental_decoder is None:
            return None, self._absent("incremental")
        try:
            return self.functions.incremental_decoder(), None
        except BaseException as error:  # the codec's, whatever it is: see crash()
            return None, crash(error)

    def _fed(self, decoder: Any, chunks: Sequence[bytes], final_empty: bool) -> Outcome:
        """Return the outcome of feeding `chunks` to `decoder` (see decode_chunks)."""
        feeds = [(chunk, False) for chunk in chunks]
        if final_empty or not feeds:
            feeds.append((b"", True))
        else:
            feeds[-1] = (feeds[-1][0], True)
        pieces: list[str | tuple[int, ...]] = []
        fed: list[int] = []  # bytes fed and characters returned in all, call by call: a Stream
        returned: list[int] = []
        for index, (chunk, final) in enumerate(feeds):
            fed.append((fed[-1] if fed else 0) + len(chunk))
            try:
                piece = decoder.decode(chunk, final)
            except NotApplicable as error:
                return Inapplicable(error.reason)
            except self.refusals as error:
                calls = Stream(tuple(fed), tuple(returned))
                return self.stream_refusal(error, [chunk for chunk, _ in feeds[:index]], calls)
            except BaseException as error:  # the codec's, whatever it is: see crash()
                return crash(error)
            piece = exact(piece)
            if not isinstance(piece, str) and not beyond_unicode(piece):
                return wrong_type("incremental decode", piece, "str")
            pieces.append(piece)
            returned.append((returned[-1] if returned else 0) + len(piece))
        # One call has no timeliness to judge (check/timeliness.py): no Stream, on the common path.
        stream = Stream(tuple(fed), tuple(returned)) if len(fed) > 1 else None
        texts = [piece for piece in pieces if isinstance(piece, str)]
        if len(texts) == len(pieces):
            return Returned("".join(texts), stream)
        values = tuple(value for piece in pieces for value in map(ord_or_value, piece))
        return Returned(values, stream)

    def stream_refusal(
        self, error: BaseException, fed: Sequence[bytes], stream: Stream | None = None
    ) -> Refused:
        """Return the refusal of an incremental decoder: a `Refusal` or a declared reader's
        offset counts from the start of the whole input; a plain `start`, see offset_in_stream.
        `stream`: the calls that came before (interface.Stream)."""
        if isinstance(error, Refusal) or self.refusal_offset is not start_of:
            return dataclasses.replace(refusal(error, self.refusal_offset), stream=stream)
        offset = self.offset_in_stream(error, fed)
        start = start_of(error)
        end = end_of(error, start)
        at_end = None if offset is None or start is None or end is None else offset + end - start
        generic = type(error) is ValueError
        return Refused(describe_exception(error), offset, at_end, stream, generic)

    def offset_in_stream(self, error: BaseException, fed: Sequence[bytes]) -> int | None:
        """Return the error's index in the whole input, or None if the decoder does not tell.

        Its `start` counts from the first byte the decoder held back before the failing chunk,
        so a fresh decoder is fed the earlier chunks again to learn how many it held.
        """
        start = start_of(error)
        if start is None or self.functions.incremental_decoder is None:
            return None
        try:
            decoder = self.functions.incremental_decoder()
            for chunk in fed:
                decoder.decode(chunk, False)
            held = decoder.getstate()[0]
        except BaseException as error:  # no getstate, or a decoder that does not replay
            crash(error)  # the offset is unknown; only the user's Ctrl-C goes on up
            return None
        if not isinstance(held, bytes):
            return None
        return sum(map(len, fed)) - len(held) + start

    def close(self) -> None:
        """Return at once: an in-process codec holds nothing."""
