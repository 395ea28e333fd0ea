"""Decoding UTF-8 that arrives in chunks, with the same result wherever the input is cut."""

from __future__ import annotations

from .decoder import BytesLike, _as_bytes, decode, decode_replace, sequence_at
from .kinds import DecodeError, ErrorKind

MODES = ("strict", "replace")


def incomplete_tail(data: bytes) -> int:
    """Return how many bytes at the end of `data` begin a character that more bytes could finish.

    0 when `data` ends on a character boundary or with an error that no later byte can mend.
    Such a tail is at most 3 bytes, and it starts with its lead byte, never inside another
    sequence: RFC 3629 §1, a lead byte is never a UTF8-tail.
    """
    for size in (3, 2, 1):
        if len(data) >= size and sequence_at(data, len(data) - size) == (
            size,
            ErrorKind.TRUNCATED,
        ):
            return size
    return 0


class IncrementalDecoder:
    """A decoder fed by `decode(chunk, final=False)`, holding back an unfinished last character.

    `errors` is 'strict' (raise `DecodeError`, offsets relative to the bytes held plus the chunk,
    as CPython does; the decoder is reset) or 'replace' (one U+FFFD per maximal subpart).
    Its methods are those of `codecs.IncrementalDecoder`.
    """

    def __init__(self, errors: str = "strict") -> None:
        if errors not in MODES:
            raise ValueError(f"errors must be one of {', '.join(MODES)}, not {errors!r}")
        self.errors = errors
        self._held = b""

    def decode(self, input: BytesLike, final: bool = False) -> str:
        """Return the text of every character completed so far ('' while one is unfinished).

        With `final=True`, an unfinished last character is an error (kind `truncated`).
        """
        data = self._held + _as_bytes(input, "decode")
        keep = 0 if final else incomplete_tail(data)
        ready, self._held = data[: len(data) - keep], data[len(data) - keep :]
        if self.errors == "replace":
            return decode_replace(ready)
        try:
            return decode(ready)
        except DecodeError as error:
            self._held = b""
            # Classify the error with the held-back bytes in view, as one-shot decoding would:
            # a sequence that `ready` merely ends inside is cut short by the lead byte held
            # after it (missing-continuation), not by the end of input (truncated).
            length, kind = sequence_at(data, error.offset)
            if kind is None:
                raise AssertionError(f"no error at offset {error.offset} of the input") from None
            raise DecodeError(data, error.offset, length, kind) from None

    def reset(self) -> None:
        """Forget any unfinished character."""
        self._held = b""

    def getstate(self) -> tuple[bytes, int]:
        """Return (the bytes held back, 0), as `codecs.IncrementalDecoder` does."""
        return (self._held, 0)

    def setstate(self, state: tuple[bytes, int]) -> None:
        """Restore the bytes held back from `getstate()`."""
        self._held = state[0]
