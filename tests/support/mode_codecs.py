"""Codecs whose incremental decoder answers ill-formed input in one mode or the other, for the
mode a run holds it to (harness/check/modes.py). Each is CPython's own codec."""

from __future__ import annotations

import codecs
from typing import Any


class StrictButStreamReplaces:
    """A strict one-shot decoder whose streaming path replaces instead of refusing: a bug."""

    def decode(self, data: bytes) -> str:
        return data.decode("utf-8")

    def incremental_decoder(self) -> Any:
        return codecs.getincrementaldecoder("utf-8")("replace")


class DeclaredReplacing(StrictButStreamReplaces):
    """The same, declaring that its incremental decoder replaces: then it is right."""

    incremental_mode = "replace"


class ReplacingAlone:
    """A replacing decoder and a replacing incremental one, declaring nothing."""

    def decode_replace(self, data: bytes) -> str:
        return data.decode("utf-8", "replace")

    def incremental_decoder(self) -> Any:
        return codecs.getincrementaldecoder("utf-8")("replace")


class FlipFlop(ReplacingAlone):
    """An incremental decoder that replaces, except that it refuses input holding C0."""

    def incremental_decoder(self) -> Any:
        return _FlipFlopDecoder()


class _FlipFlopDecoder:
    def __init__(self) -> None:
        self.inner = codecs.getincrementaldecoder("utf-8")("replace")

    def decode(self, data: bytes, final: bool = False) -> str:
        if b"\xc0" in data:
            raise UnicodeDecodeError("utf-8", data, data.index(b"\xc0"), len(data), "C0")
        return str(self.inner.decode(data, final))


class BadDeclaration(ReplacingAlone):
    incremental_mode = "lenient"
