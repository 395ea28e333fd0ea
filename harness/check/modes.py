"""The mode an incremental decoder is judged in, strict or replace, and holding it for a run.

An incremental decoder fed ill-formed input may refuse it (a strict decoder) or replace it with
U+FFFD (a replacing one); RFC 3629 and the Unicode Standard allow either, but not both from one
decoder: a strict streaming decoder whose streaming path replaces instead of refusing (or the
reverse) has a bug. So the mode is settled once per run and then held, and an answer in the
other mode is a `must` difference:

- declared by the codec (`incremental_mode`: an adapter, a `codec:NAME:ERRORS` spec, a
  program's handshake), or else
- strict, when the codec offers a strict one-shot decoder (`decode`) and declares nothing: the
  incremental decoder of a strict codec is taken to be strict too, or else
- taken from the codec's first answer to an ill-formed input (a refusal: strict; text: replace).
"""

from __future__ import annotations

from utf8cert.harness.codec.interface import (
    Codec,
    IncrementalMode,
    Outcome,
    Refused,
    Returned,
    declared_mode,
)

Mode = IncrementalMode


class HeldMode:
    """The incremental mode of one run's codec: known from the start, or learnt from its first
    answer to ill-formed input, then held."""

    def __init__(self, mode: Mode | None, source: str) -> None:
        self.mode = mode
        """The mode, once known (None: not yet: the first answer to ill-formed input sets it)."""
        self.source = source
        """How the mode was settled, in words ('declared by the codec')."""

    @classmethod
    def of(cls, codec: Codec) -> HeldMode:
        """Return the mode `codec` is judged in: declared, strict for a codec whose one-shot
        decoder is strict, or not known yet (learnt from its first answer)."""
        declared = declared_mode(codec)
        if declared is not None:
            return cls(declared, "declared by the codec")
        if "decode" in codec.capabilities:
            return cls("strict", "its one-shot decoder is strict")
        return cls(None, "taken from its first answer to ill-formed input")

    def judging(self, valid: bool, outcome: Outcome, where: str) -> Mode | None:
        """Return the mode an incremental answer is judged in (None: either mode is right, as
        it is for well-formed input); the first answer to ill-formed input (`valid` False) that
        refuses or returns text settles a mode not known yet (`where` names the question)."""
        if valid:
            return None
        if self.mode is None:
            if type(outcome) is Refused:
                self.mode = "strict"
            elif type(outcome) is Returned:
                self.mode = "replace"
            else:
                return None
            self.source = f"taken from its first answer to ill-formed input ({where})"
        return self.mode

    def describe(self) -> str:
        """Return 'strict (declared by the codec)', or 'not settled (…)' before any answer."""
        return f"{self.mode or 'not settled'} ({self.source})"
