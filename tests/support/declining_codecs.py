"""Codecs that decline some questions as inapplicable, around the correct hand-rolled codec:
the coverage a report shows, and the certification it gives, depend on how many."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from utf8cert.harness.codec.interface import Inapplicable, Outcome
from utf8cert.harness.codec.spec import load_codec


class Declining:
    """The hand-rolled codec, declining inputs `declines(data)` and values `refuses(values)`."""

    def __init__(
        self,
        declines: Callable[[bytes], bool] = lambda data: False,
        refuses: Callable[[Sequence[int]], bool] = lambda values: False,
    ) -> None:
        self.codec = load_codec("support.hand_rolled:HandRolled")
        self.spec = "support.declining_codecs"
        self.description = "the hand-rolled codec, declining some questions"
        self.capabilities = self.codec.capabilities
        self.declines, self.refuses = declines, refuses

    def decode(self, data: bytes) -> Outcome:
        """Return the codec's outcome, or Inapplicable for a declined input."""
        return Inapplicable("declined") if self.declines(data) else self.codec.decode(data)

    def decode_replace(self, data: bytes) -> Outcome:
        """Return the codec's outcome, or Inapplicable for a declined input."""
        if self.declines(data):
            return Inapplicable("declined")
        return self.codec.decode_replace(data)

    def validate(self, data: bytes) -> Outcome:
        """Return the codec's outcome, or Inapplicable for a declined input."""
        return Inapplicable("declined") if self.declines(data) else self.codec.validate(data)

    def encode(self, scalars: Sequence[int]) -> Outcome:
        """Return the codec's outcome, or Inapplicable for declined values."""
        if self.refuses(scalars):
            return Inapplicable("cannot carry a surrogate")
        return self.codec.encode(scalars)

    def decode_chunks(self, chunks: Sequence[bytes], final_empty: bool) -> Outcome:
        """Return the codec's outcome, or Inapplicable for a declined input."""
        if self.declines(b"".join(chunks)):
            return Inapplicable("declined")
        return self.codec.decode_chunks(chunks, final_empty)

    def close(self) -> None:
        """Close the codec."""
        self.codec.close()


def any_surrogate(values: Sequence[int]) -> bool:
    """Return True if any value is a surrogate."""
    return any(0xD800 <= value <= 0xDFFF for value in values)


def over_64_kib(data: bytes) -> bool:
    """Return True for an input longer than 64 KiB."""
    return len(data) > 65536
