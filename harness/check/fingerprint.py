"""Which dialect profile a non-conformant codec behaves like: the profiles whose allowances
explain every one of its `must` differences, or the closest one and what is left over.

Each `must` difference is rejudged, when it is found, against every profile's expectation for
the same input (judge.py: the answer is not asked again). A profile explains it when under that
profile the answer has no `must` difference. A profile fits when it explains them all; the
closest explains the most.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from utf8cert.harness.check.expected import Expected, ExpectedEncoding
from utf8cert.harness.check.judge import judge
from utf8cert.harness.check.profile import Profile
from utf8cert.harness.check.profiles import PROFILES
from utf8cert.harness.codec.interface import Capability, Failed, Outcome

DIALECTS: tuple[Profile, ...] = tuple(p for p in PROFILES.values() if not p.is_reference)
"""The profiles a codec is compared with: every one but RFC 3629 itself."""


def explaining(
    expected: Expected | ExpectedEncoding, outcome: Outcome, capability: Capability
) -> tuple[str, ...]:
    """Return the names of the profiles under which this answer has no `must` difference
    (() when none does: a crash or a hang is never a dialect)."""
    if isinstance(outcome, Failed):
        return ()
    names = []
    for profile in DIALECTS:
        judged = (
            profile.expect_encoding(expected)
            if isinstance(expected, ExpectedEncoding)
            else profile.expect(expected, capability)
        )
        if judged is expected:
            continue  # the profile reads this input as RFC 3629 does: it explains nothing here
        verdict = judge(judged, outcome, capability)
        if verdict is None or (not isinstance(verdict, Failed) and verdict[0] != "must"):
            names.append(profile.name)
    return tuple(names)


@dataclass(frozen=True)
class Fingerprint:
    """How a codec's `must` differences line up with the dialect profiles."""

    fitting: tuple[str, ...]
    """Profiles that explain every `must` difference."""
    closest: str | None
    """When none fits: the profile explaining the most (None when none explains any)."""
    explained: int
    """How many `must` differences the closest (or first fitting) profile explains."""
    left_over: Counter[str]
    """What the closest profile leaves unexplained: 'what' -> count."""
    total: int

    def sentence(self) -> str:
        """Return the fingerprint in words; '' when there is no `must` difference to explain."""
        if self.total == 0:
            return ""
        if self.fitting:
            likes = "; or ".join(
                f"{PROFILES[name].title} ({PROFILES[name].behaviour})" for name in self.fitting
            )
            return f"behaves like {likes}, otherwise strict (--profile {self.fitting[0]})"
        if self.closest is None:
            return "no dialect profile explains its must differences"
        left = ", ".join(f"{what} ({count})" for what, count in self.left_over.most_common(3))
        return (
            f"closest to {PROFILES[self.closest].title} ({self.explained} of {self.total} "
            f"must differences explained); left over: {left}"
        )


def fingerprint(explanations: Sequence[tuple[str, Iterable[str]]]) -> Fingerprint:
    """Return the fingerprint of the `must` differences given as (what, profiles explaining
    it); an empty one (total 0) for none."""
    total = len(explanations)
    counts: Counter[str] = Counter()
    for _, names in explanations:
        counts.update(set(names))
    fitting = tuple(p.name for p in DIALECTS if total and counts[p.name] == total)
    best = max(DIALECTS, key=lambda p: counts[p.name], default=None)
    closest = None if fitting or best is None or counts[best.name] == 0 else best.name
    chosen = fitting[0] if fitting else closest
    left = Counter(what for what, names in explanations if chosen not in set(names))
    return Fingerprint(fitting, closest, counts[chosen] if chosen else 0, left, total)
