"""How many questions a run asked each capability, and how each one ended: coverage is part of
the verdict, so that "checked and fine" is never confused with "never asked".

A question is one call of the codec: a vector's variant put to one capability (and, for an
incremental decoder, one chunking of it). It ends as one `Answer`:

- answered: the codec returned, refused or failed; the comparison judged it;
- inapplicable: the codec said it cannot be asked this (with its reason);
- not offered: the codec has no such capability at all;
- skipped: the run chose not to ask: the codec had crashed or hung on the same vector and
  capability already (breaker.py).

A capability is certified when at least `THRESHOLD` of its questions were answered. Skipped
questions count against that share, as unanswered: a codec is certified for what it answered,
never for questions it was spared by crashing (each crash is also a `must` difference). Encoding
questions that hold a value above U+10FFFF, declined as inapplicable, are left out of that share:
such a value is not a code point (Unicode §3.4 D9, D10), no Unicode string type can hold it, and
an encoder that cannot be given it cannot encode it either. They are still counted and shown.
So are the questions a codec whose strings are UTF-16 cannot be asked (a high surrogate followed
by a low one, which its string holds as the character they encode: codec/strings.py), which the
harness answers inapplicable itself, and the decoding questions an API that reads a C string
cannot be given whole (a NUL in the input, where its string ends: codec/reading.py): that is the
API's declared limit, reported once as such, not a difference and not a question declined.

And no layout may be declined: a vector the codec answers as it is but declines once moved
(mid-stream, shifted, across a 64-, 4096- or 65536-byte boundary) was declined for where it
sat, not for what it is. At the default depth the longest layouts are a small part of the
questions (declining every input over 64 KiB is under 1% of them), so the overall share alone
would let a codec that declines a whole class of sizes pass: each layout's questions, of the
vectors answered as they are, must be answered to THRESHOLD too.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from utf8cert.harness.check.describe import plural
from utf8cert.harness.codec.interface import (
    CAPABILITIES,
    Capability,
    Codec,
    Failed,
    Inapplicable,
    Outcome,
)
from utf8cert.harness.codec.reading import C_STRING_LIMIT
from utf8cert.harness.codec.restrictions import Restriction, declared_restriction, excluded

THRESHOLD: Final = 0.99
"""The answered share a capability needs to be certified. Declining every input over 64 KiB
leaves about 95% of the decoding questions answered, declining every surrogate about 96% of
the decoding and 75% of the encoding ones: neither passes. A codec that declines a few vectors
(a wrapper that cannot carry U+FFFE, say) still does."""

LARGEST_CODE_POINT: Final = 0x10FFFF


def percent(share: float) -> str:
    """Return a share as the reports write it, rounded down: '98.9%' for 0.98996 (rounded up,
    it would read '99.0% ..., below 99%')."""
    return f"{math.floor(share * 1000) / 10:.1f}%"


class Answer(StrEnum):
    """How one question ended."""

    ANSWERED = "answered"
    INAPPLICABLE = "inapplicable"
    NOT_OFFERED = "not offered"
    SKIPPED = "skipped"


@dataclass
class CapabilityCoverage:
    """The questions one capability was asked, by how they ended."""

    answered: int = 0
    inapplicable: Counter[str] = field(default_factory=Counter)
    """Reason -> how many questions were declined with it."""
    beyond_code_space: int = 0
    """Inapplicable encoding questions holding a value above U+10FFFF (see the module doc)."""
    beyond_utf16: int = 0
    """Encoding questions a UTF-16 string cannot hold, a surrogate pair kept apart from its
    character, answered inapplicable by the harness for a codec whose strings are UTF-16."""
    beyond_api: int = 0
    """Questions whose input the codec's API cannot be given whole (a NUL, for an
    API that reads a C string: codec/reading.py), answered inapplicable by the harness."""
    restricted: int = 0
    """Questions declined that the codec's declared restriction excludes (codec/restrictions.py):
    not counted against its coverage."""
    contradicted: int = 0
    """Questions answered that the declared restriction says the API cannot be given: the
    restriction is one the codec does not have, and the capability is not certified."""
    over: str = ""
    """What the restriction leaves, as a certificate says it ('the inputs XML text can carry';
    '' without one)."""
    not_offered: int = 0
    skipped: int = 0
    skipped_for: Counter[str] = field(default_factory=Counter)
    """Reason -> how many questions were skipped for it (they add up to `skipped`)."""
    layout_asked: Counter[str] = field(default_factory=Counter)
    """Layout (a variant's name, shifts as one) -> questions asked of vectors answered as is."""
    layout_declined: Counter[str] = field(default_factory=Counter)
    """Layout -> of those, how many were declined as inapplicable."""

    @property
    def asked(self) -> int:
        """Return how many questions there were, however they ended."""
        return self.answered + sum(self.inapplicable.values()) + self.not_offered + self.skipped

    @property
    def offered(self) -> bool:
        """Return False when the capability was not offered (no question could be put)."""
        return self.not_offered == 0

    @property
    def share(self) -> float:
        """Return the answered share of the questions that count (1.0 when none count)."""
        counted = self.asked - self.beyond_code_space - self.beyond_utf16 - self.beyond_api
        counted -= self.restricted
        return 1.0 if counted == 0 else self.answered / counted

    @property
    def declined_layouts(self) -> list[str]:
        """Return the layouts declined beyond 1 - THRESHOLD of their questions ([] if none)."""
        return sorted(
            layout
            for layout, asked in self.layout_asked.items()
            if self.layout_declined[layout] > (1 - THRESHOLD) * asked
        )

    @property
    def certified(self) -> bool:
        """Return True when offered, answered at all, at least THRESHOLD of it answered, and no
        layout declined (see the module)."""
        return (
            self.offered
            and self.answered > 0
            and self.share >= THRESHOLD
            and not self.declined_layouts
            and not self.contradicted
        )

    def why_not_certified(self) -> str:
        """Return why the capability is not certified, every reason ('' when it is)."""
        if self.certified:
            return ""
        reasons = []
        if self.share < THRESHOLD or not self.offered or self.answered == 0:
            shown = percent(self.share)
            reasons.append(f"{shown} of its questions answered, below {THRESHOLD:.0%}")
        if self.declined_layouts:
            layouts = ", ".join(
                f"{layout} ({self.layout_declined[layout]} of {self.layout_asked[layout]})"
                for layout in self.declined_layouts
            )
            reasons.append(f"declines inputs it answers as they are, once laid out as {layouts}")
        if self.contradicted:
            reasons.append(
                f"answered {self.contradicted} questions its declared restriction says it cannot "
                "be given: a restriction it does not have"
            )
        return "; ".join(reasons)

    def count_layout(self, layout: str, asked: int, declined: int) -> None:
        """Count `asked` questions in `layout` of a vector answered as is, `declined` of them."""
        self.layout_asked[layout] += asked
        self.layout_declined[layout] += declined

    def count(self, outcome: Outcome, scalars: Sequence[int] = ()) -> None:
        """Count one question by its outcome; `scalars`: the values an encoder was offered. A
        timeout cut short after a real hang (codec/pace.py) is a question skipped."""
        if type(outcome) is Failed and outcome.cut_short:
            self.skip(outcome.message.removeprefix("skipped: "))
            return
        if type(outcome) is not Inapplicable:
            self.answered += 1
            return
        self.inapplicable[outcome.reason] += 1
        if scalars and max(scalars) > LARGEST_CODE_POINT:
            self.beyond_code_space += 1
        elif outcome.unholdable and outcome.reason == C_STRING_LIMIT:
            self.beyond_api += 1
        elif outcome.unholdable:
            self.beyond_utf16 += 1

    def skip(self, reason: str, count: int = 1) -> None:
        """Count `count` questions skipped for `reason`."""
        self.skipped += count
        self.skipped_for[reason] += count

    def summary(self) -> str:
        """Return '8601 of 8601 answered' or '881 of 1121 answered; 240 inapplicable'."""
        if not self.offered:
            return f"not offered ({plural(self.not_offered, 'question')})"
        parts = [f"{self.answered} of {self.asked} answered"]
        declined = sum(self.inapplicable.values())
        if declined:
            parts.append(f"{declined} inapplicable")
        if self.skipped:
            parts.append(f"{self.skipped} skipped")
        return "; ".join(parts)


@dataclass
class Coverage:
    """Every question of a run, per capability, by how it ended."""

    capabilities: dict[Capability, CapabilityCoverage] = field(default_factory=dict)

    def of(self, capability: Capability) -> CapabilityCoverage:
        """Return the coverage of one capability (empty until a question is recorded)."""
        coverage = self.capabilities.get(capability)
        if coverage is None:
            coverage = self.capabilities[capability] = CapabilityCoverage()
        return coverage

    def record(
        self, capability: Capability, answer: Answer, reason: str = "", count: int = 1
    ) -> None:
        """Count `count` questions of `capability` that ended as `answer` (`reason`: why it
        was inapplicable)."""
        coverage = self.of(capability)
        if answer is Answer.ANSWERED:
            coverage.answered += count
        elif answer is Answer.INAPPLICABLE:
            coverage.inapplicable[reason] += count
        elif answer is Answer.NOT_OFFERED:
            coverage.not_offered += count
        else:
            coverage.skip(reason, count)

    def add(self, other: Coverage) -> None:
        """Count every question of `other` here too."""
        for capability, counted in other.capabilities.items():
            mine = self.of(capability)
            mine.answered += counted.answered
            # Most of a vector's counters are empty: Counter.update costs a call even then.
            if counted.inapplicable:
                mine.inapplicable.update(counted.inapplicable)
            mine.beyond_code_space += counted.beyond_code_space
            mine.beyond_utf16 += counted.beyond_utf16
            mine.beyond_api += counted.beyond_api
            mine.restricted += counted.restricted
            mine.contradicted += counted.contradicted
            mine.over = mine.over or counted.over
            mine.not_offered += counted.not_offered
            mine.skipped += counted.skipped
            if counted.skipped_for:
                mine.skipped_for.update(counted.skipped_for)
            if counted.layout_asked:
                mine.layout_asked.update(counted.layout_asked)
            if counted.layout_declined:
                mine.layout_declined.update(counted.layout_declined)

    def record_outcome(
        self, capability: Capability, outcome: Outcome, scalars: Sequence[int] = ()
    ) -> None:
        """Count one question by its outcome; `scalars`: the values an encoder was offered."""
        self.of(capability).count(outcome, scalars)

    @property
    def answered(self) -> int:
        """Return how many questions were answered in all."""
        return sum(coverage.answered for coverage in self.capabilities.values())

    @property
    def asked(self) -> int:
        """Return how many questions there were in all, however they ended."""
        return sum(coverage.asked for coverage in self.capabilities.values())

    def ordered(self) -> list[tuple[Capability, CapabilityCoverage]]:
        """Return (capability, coverage) of the capabilities asked anything, in the usual
        order."""
        return [
            (c, self.capabilities[c])
            for c in CAPABILITIES
            if c in self.capabilities and self.capabilities[c].asked
        ]

    def uncertified(self) -> list[Capability]:
        """Return the offered capabilities whose answered share is below THRESHOLD ([] if
        none)."""
        return [c for c, coverage in self.ordered() if coverage.offered and not coverage.certified]

    def watch(self, codec: Codec, restriction: Restriction | None = None) -> Codec:
        """Return `codec` with every answer it gives counted here (and, for a codec that
        declares a restriction, or given `restriction`, held to it: codec/restrictions.py)."""
        restriction = restriction or declared_restriction(codec)
        if restriction is not None:
            return Restricted(codec, self, restriction)
        return Watched(codec, self)


class Watched:
    """A codec under test whose every answer is counted in a Coverage (otherwise the codec).

    This is on the path of every question: the codec's methods and the coverage of each
    capability are looked up once, and an answered question costs one type test and an add.
    """

    def __init__(self, codec: Codec, coverage: Coverage) -> None:
        self.codec = codec
        self.spec = codec.spec
        self.description = codec.description
        self.capabilities = codec.capabilities
        self._decode, self._replace = coverage.of("decode"), coverage.of("replace")
        self._validate, self._encode = coverage.of("validate"), coverage.of("encode")
        self._incremental = coverage.of("incremental")

    def decode(self, data: bytes) -> Outcome:
        """Return the codec's outcome, counted under decode."""
        outcome = self.codec.decode(data)
        if type(outcome) is Inapplicable or type(outcome) is Failed:
            self._decode.count(outcome)
        else:
            self._decode.answered += 1
        return outcome

    def decode_replace(self, data: bytes) -> Outcome:
        """Return the codec's outcome, counted under replace."""
        outcome = self.codec.decode_replace(data)
        if type(outcome) is Inapplicable or type(outcome) is Failed:
            self._replace.count(outcome)
        else:
            self._replace.answered += 1
        return outcome

    def validate(self, data: bytes) -> Outcome:
        """Return the codec's outcome, counted under validate."""
        outcome = self.codec.validate(data)
        if type(outcome) is Inapplicable or type(outcome) is Failed:
            self._validate.count(outcome)
        else:
            self._validate.answered += 1
        return outcome

    def encode(self, scalars: Sequence[int]) -> Outcome:
        """Return the codec's outcome, counted under encode."""
        outcome = self.codec.encode(scalars)
        self._encode.count(outcome, scalars)
        return outcome

    def decode_chunks(self, chunks: Sequence[bytes], final_empty: bool) -> Outcome:
        """Return the codec's outcome, counted under incremental."""
        outcome = self.codec.decode_chunks(chunks, final_empty)
        if type(outcome) is Inapplicable or type(outcome) is Failed:
            self._incremental.count(outcome)
        else:
            self._incremental.answered += 1
        return outcome

    def close(self) -> None:
        """Close the codec."""
        self.codec.close()


class Restricted(Watched):
    """A watched codec that declares a restriction: each decoding question is also weighed
    against the rule (a declined question it excludes is `restricted`, an answered one
    `contradicted`)."""

    def __init__(self, codec: Codec, coverage: Coverage, restriction: Restriction) -> None:
        super().__init__(codec, coverage)
        self.restriction = restriction

    def _weighed(self, coverage: CapabilityCoverage, data: bytes, outcome: Outcome) -> Outcome:
        if type(outcome) is Failed or not excluded(self.restriction, data):
            return outcome
        if type(outcome) is Inapplicable:
            coverage.restricted += 1
            coverage.over = f"{self.restriction.over} ({self.restriction.source})"
        else:
            coverage.contradicted += 1
        return outcome

    def decode(self, data: bytes) -> Outcome:
        """Return the codec's outcome, counted under decode."""
        return self._weighed(self._decode, data, super().decode(data))

    def decode_replace(self, data: bytes) -> Outcome:
        """Return the codec's outcome, counted under replace."""
        return self._weighed(self._replace, data, super().decode_replace(data))

    def validate(self, data: bytes) -> Outcome:
        """Return the codec's outcome, counted under validate."""
        return self._weighed(self._validate, data, super().validate(data))

    def decode_chunks(self, chunks: Sequence[bytes], final_empty: bool) -> Outcome:
        """Return the codec's outcome, counted under incremental."""
        outcome = super().decode_chunks(chunks, final_empty)
        return self._weighed(self._incremental, b"".join(chunks), outcome)
