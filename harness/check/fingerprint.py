"""Which dialect profile a non-conformant codec behaves like: the profiles whose allowances
explain every one of its `must` differences, or the closest one and what is left over.

Each answer is rejudged, when it comes, against every profile's expectation for the same input
(judge.py: the answer is not asked again). A profile explains a `must` difference when under
that profile the answer has none; it is contradicted by an answer RFC 3629 finds right that has
a `must` difference under it (a strict reading where the dialect reads a value, say). A profile
fits when it explains every `must` difference and no answer contradicts it: the codec then
passes `--profile` with it. The closest explains the most.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from utf8cert.harness.check.expected import Expected, ExpectedEncoding
from utf8cert.harness.check.judge import judge
from utf8cert.harness.check.modes import Mode
from utf8cert.harness.check.profile import Profile
from utf8cert.harness.check.profiles import PROFILES
from utf8cert.harness.codec.interface import Capability, Failed, Outcome

Contradictions = dict[str, str]
"""Profile name -> the first answer RFC 3629 finds right that contradicts it, as what the codec
did ('bnd-32, decode: refused at 0', where the dialect reads a value). One is enough to rule a
profile out, and a profile ruled out is not rejudged again: after the first vectors, most answers
cost no rejudging at all."""
EMPTY: Mapping[str, str] = {}

DIALECTS: tuple[Profile, ...] = tuple(p for p in PROFILES.values() if not p.is_reference)
"""The profiles a codec is compared with: every one but RFC 3629 itself."""


def _rejudged(
    expected: Expected | ExpectedEncoding,
    outcome: Outcome,
    capability: Capability,
    profiles: Iterable[Profile] = DIALECTS,
    mode: Mode | None = None,
) -> Iterator[tuple[str, str | None]]:
    """Yield (name, what the `must` difference is, None for none) for each of `profiles` that
    reads this input otherwise than RFC 3629 (the others have nothing to say about it)."""
    for profile in profiles:
        judged = (
            profile.expect_encoding(expected)
            if isinstance(expected, ExpectedEncoding)
            else profile.expect(expected, capability)
        )
        if judged is not expected:
            verdict = judge(judged, outcome, capability, mode)
            if verdict is None or (not isinstance(verdict, Failed) and verdict[0] != "must"):
                yield profile.name, None
            else:
                yield profile.name, verdict.kind if isinstance(verdict, Failed) else verdict[1]


def explaining(
    expected: Expected | ExpectedEncoding,
    outcome: Outcome,
    capability: Capability,
    mode: Mode | None = None,
) -> tuple[str, ...]:
    """Return the names of the profiles under which an answer with a `must` difference from
    RFC 3629 has none (() when none does: a crash or a hang is never a dialect)."""
    if isinstance(outcome, Failed):
        return ()
    rejudged = _rejudged(expected, outcome, capability, DIALECTS, mode)
    return tuple(name for name, what in rejudged if what is None)


def contradicting(
    expected: Expected | ExpectedEncoding,
    outcome: Outcome,
    capability: Capability,
    ruled_out: Collection[str] = (),
    mode: Mode | None = None,
) -> list[tuple[str, str]]:
    """Return (name, what) for each profile, but those `ruled_out`, under which an answer
    RFC 3629 finds right has a `must` difference: where the dialect reads or writes otherwise,
    the codec did as RFC 3629 ([] for most answers: no dialect rereads most inputs)."""
    profiles = [profile for profile in DIALECTS if profile.name not in ruled_out]
    return [
        (name, what)
        for name, what in _rejudged(expected, outcome, capability, profiles, mode)
        if what
    ]


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
    contradicted: str = ""
    """An answer where the closest profile reads or writes otherwise and the codec did as
    RFC 3629, as what the codec did ('bnd-32, decode: refused at 0')."""

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
            return "no dialect profile explains most of its must differences"
        title = PROFILES[self.closest].title
        left = [f"{what} ({count})" for what, count in self.left_over.most_common(3)]
        if self.contradicted:
            left.append(f"does as RFC 3629 where {title} differs ({self.contradicted})")
        return (
            f"closest to {title} ({self.explained} of {self.total} must differences "
            f"explained); left over: {'; '.join(left)}"
        )


def fingerprint(
    explanations: Sequence[tuple[str, Iterable[str]]],
    contradictions: Mapping[str, str] = EMPTY,
) -> Fingerprint:
    """Return the fingerprint of the `must` differences given as (what, profiles explaining
    it), with an answer that contradicts each profile ruled out; an empty one (total 0) when
    there is no `must` difference. The closest profile is one that explains most of them (None
    when none explains more than half)."""
    total = len(explanations)
    counts: Counter[str] = Counter()
    for _, names in explanations:
        counts.update(set(names))
    fitting = tuple(
        p.name
        for p in DIALECTS
        if total and counts[p.name] == total and p.name not in contradictions
    )
    best = max(DIALECTS, key=lambda p: counts[p.name], default=None)
    # A profile that explains half of them or fewer says nothing of what the codec is like.
    telling = best is not None and 2 * counts[best.name] > total
    closest = best.name if telling and not fitting and best is not None else None
    chosen = fitting[0] if fitting else closest
    left = Counter(what for what, names in explanations if chosen not in set(names))
    contradicted = contradictions.get(closest, "") if closest else ""
    return Fingerprint(fitting, closest, counts[chosen] if chosen else 0, left, total, contradicted)
