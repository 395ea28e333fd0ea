"""The codec as the judge of a fuzz campaign asks it (judge.py): `RecordedCodec` answers the
judge's questions on one input from the frame the codec's process sent, and puts any other
question to the codec in a sandboxed child, through `Asker`'s one thread."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from utf8cert.harness.codec.interface import Capability, Codec, Outcome
from utf8cert.harness.fuzzing.answers import ChannelError, Record


class RecordedCodec:
    """The codec as one frame shows it: the frame's answers to the judge's questions on its
    input; every other question asked of `fallback`, the codec in a sandboxed child."""

    def __init__(self, fallback: Codec, asked: Sequence[Capability]) -> None:
        self.fallback = fallback
        self.spec = fallback.spec
        self.description = fallback.description
        self.capabilities = fallback.capabilities
        self.incremental_mode = getattr(fallback, "incremental_mode", None)
        self.boundary = getattr(fallback, "boundary", "")
        self.asked = list(asked)
        self.record: Record | None = None
        self._first: dict[Capability, object] = {}

    def load(self, record: Record) -> None:
        """Answer from `record` from now on; ChannelError if it answers another number of
        questions than the judge asks."""
        if len(record.outcomes) != len(self.asked):
            raise ChannelError(
                f"a frame holds {len(record.outcomes)} answers, not {len(self.asked)}"
                f" ({', '.join(self.asked)})"
            )
        self.record, self._first = record, {}

    def _recorded(self, capability: Capability, question: object) -> Outcome | None:
        """Return the frame's answer when `question` is the first the judge asked of this
        capability on the frame's input (the one the codec's process was asked), else None."""
        if self.record is None or capability not in self.asked:
            return None
        if self._first.setdefault(capability, question) != question:
            return None
        return self.record.outcomes[self.asked.index(capability)]

    def _on_input(self, capability: Capability, data: bytes) -> Outcome | None:
        if self.record is None or data != self.record.data:
            return None
        return self._recorded(capability, data)

    def decode(self, data: bytes) -> Outcome:
        """Return the recorded outcome of strict decoding, or the child's."""
        return self._on_input("decode", data) or self.fallback.decode(data)

    def decode_replace(self, data: bytes) -> Outcome:
        """Return the recorded outcome of U+FFFD decoding, or the child's."""
        return self._on_input("replace", data) or self.fallback.decode_replace(data)

    def validate(self, data: bytes) -> Outcome:
        """Return the recorded outcome of validation, or the child's."""
        return self._on_input("validate", data) or self.fallback.validate(data)

    def encode(self, scalars: Sequence[int]) -> Outcome:
        """Return the recorded outcome of encoding when the frame's encoder was offered these
        code points, else the child's."""
        record = self.record
        if record is not None and "encode" in self.asked and record.offered() == tuple(scalars):
            return record.outcomes[self.asked.index("encode")]
        return self.fallback.encode(scalars)

    def decode_chunks(self, chunks: Sequence[bytes], final_empty: bool) -> Outcome:
        """Return the recorded outcome of incremental decoding, or the child's."""
        joined = self.record is not None and b"".join(chunks) == self.record.data
        question = (tuple(chunks), final_empty)
        recorded = self._recorded("incremental", question) if joined else None
        return recorded or self.fallback.decode_chunks(chunks, final_empty)

    def close(self) -> None:
        """Close nothing: the fallback is the judge's to close."""


class Asker:
    """A codec whose every question is put, and whose child is (re)started, by one thread that
    lives as long as the campaign: a child's death signal is tied to the thread that started it
    (codec/children.py), and the judge's reading threads end with their process's pipe."""

    def __init__(self, codec: Codec) -> None:
        self.codec = codec
        self.spec, self.description = codec.spec, codec.description
        self.capabilities = codec.capabilities
        self.incremental_mode = getattr(codec, "incremental_mode", None)
        self.boundary = getattr(codec, "boundary", "")
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="utf8cert-judge-asks")

    def _ask(self, question: Callable[[], Outcome]) -> Outcome:
        return self._thread.submit(question).result()

    def decode(self, data: bytes) -> Outcome:
        """Return the child's outcome of strict decoding."""
        return self._ask(lambda: self.codec.decode(data))

    def decode_replace(self, data: bytes) -> Outcome:
        """Return the child's outcome of U+FFFD decoding."""
        return self._ask(lambda: self.codec.decode_replace(data))

    def validate(self, data: bytes) -> Outcome:
        """Return the child's outcome of validation."""
        return self._ask(lambda: self.codec.validate(data))

    def encode(self, scalars: Sequence[int]) -> Outcome:
        """Return the child's outcome of encoding."""
        return self._ask(lambda: self.codec.encode(scalars))

    def decode_chunks(self, chunks: Sequence[bytes], final_empty: bool) -> Outcome:
        """Return the child's outcome of incremental decoding."""
        return self._ask(lambda: self.codec.decode_chunks(chunks, final_empty))

    def close(self) -> None:
        """Close nothing but the asking thread: the codec is its owner's to close."""
        self._thread.shutdown(wait=False)
