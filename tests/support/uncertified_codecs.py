"""A codec that is right in all it answers but is never certified: its encoder cannot be asked
to encode a surrogate (as an encoder taking a string type that holds none could not), so too few
encoding questions are answered. For the verdict carried by every surface (exit status, JUnit,
GitHub annotations, pytest items)."""

from __future__ import annotations

from utf8cert.harness import NotApplicable


class NoSurrogateEncoder:
    """CPython's strict codec, whose encoder declines any text holding a surrogate."""

    def decode(self, data: bytes) -> str:
        return data.decode("utf-8")

    def encode(self, text: str) -> bytes:
        if any("\ud800" <= char <= "\udfff" for char in text):
            raise NotApplicable("this string type holds no surrogate")
        return text.encode("utf-8")
