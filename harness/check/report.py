"""What a run found, as a Report: the differences, what was checked and answered, and the
verdict in one sentence."""

from __future__ import annotations

import datetime
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import PackageNotFoundError, version

from utf8cert.harness.check.answers import InputAnswer
from utf8cert.harness.check.baseline import Key
from utf8cert.harness.check.behaviour import Group, group
from utf8cert.harness.check.coverage import Coverage
from utf8cert.harness.check.describe import plural
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.fingerprint import Contradictions, Fingerprint, fingerprint
from utf8cert.harness.check.modes import HeldMode
from utf8cert.harness.check.profile import Profile
from utf8cert.harness.check.profiles import RFC3629
from utf8cert.harness.check.schedule import Depth
from utf8cert.harness.check.seeded import SeededPass
from utf8cert.harness.codec.interface import CAPABILITIES, Capability
from utf8cert.harness.codec.sandbox import verdict_clause
from utf8cert.harness.vectors.identity import Suite, suite_of
from utf8cert.harness.vectors.model import LEVELS, Level, VectorSet


@cache
def utf8cert_version() -> str:
    """Return the installed utf8cert version ('unknown' when not installed)."""
    try:
        return version("utf8cert")
    except PackageNotFoundError:
        return "unknown"


@dataclass
class Report:
    """What a run found: the differences, what was checked and answered, and the verdict."""

    codec: str
    capabilities: frozenset[Capability]
    vectors: VectorSet
    description: str = ""
    """What the codec is, in words, as its adapter describes it."""
    differences: list[Difference] = field(default_factory=list)
    checked: dict[Capability, int] = field(default_factory=dict)
    """How many vectors each capability was checked on."""
    coverage: Coverage = field(default_factory=Coverage)
    """Every question asked, per capability, by how it ended (coverage.py)."""
    profile: Profile = RFC3629
    """The dialect the codec was checked against (RFC 3629 unless `--profile`)."""
    allowed: list[Difference] = field(default_factory=list)
    """Departures from RFC 3629 that the profile allows (none under RFC 3629 itself)."""
    subject: str = ""
    """What the verdict is about when not the vectors: 'input e0 80 af' for `--input`."""
    depth: Depth = "default"
    """How the variants were given to the vectors (check/schedule.py)."""
    answers: list[InputAnswer] = field(default_factory=list)
    """For one input: each capability's answer beside the expected one."""
    contradicted: Contradictions = field(default_factory=dict)
    """The dialect profiles that answers RFC 3629 finds right rule out (fingerprint.py)."""
    incremental_mode: HeldMode | None = None
    """The mode the incremental decoder was judged in, and how it was settled (modes.py)."""
    asked_again_cut_short: dict[Capability, int] = field(default_factory=dict)
    """The capabilities whose questions asked again stopped short of recheck.SOAK (a codec slow
    on them), each with the questions asked of it in all."""
    reuse: str = ""
    """Whether the decoders were asked again as used before (check/reuse.py): 'asked (N
    questions)', or why the incremental decoder was not ('' when the run did not get there)."""
    sweep: str = ""
    """Whether the sweep of what the vectors do not enumerate was asked (check/sweep.py): 'asked
    (N questions)'; '' when the run did not ask it (a check of some vectors, or stopped)."""
    sweep_questions: int = 0
    """How many questions the sweep asked (0 when it was not asked)."""
    seeded: SeededPass | None = None
    """What the seeded pass asked (check/seeded.py): its seed and inputs; None when the run
    did not ask it (a check of some vectors, or stopped)."""
    incomplete: str = ""
    """Why the run stopped before its end ('stopped by SIGTERM after 12 of 488 vectors'; ''
    when it checked everything): `vectors` then holds the vectors checked."""
    boundary: str = ""
    """What kept the codec from the judge: sandbox.BUBBLEWRAP, PROCESS_ONLY and why, or
    IN_PROCESS (codec/sandbox.py); '' when not told."""
    date: str = field(
        default_factory=lambda: datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    )
    version: str = field(default_factory=utf8cert_version)
    suite: Suite = field(init=False)
    """The identity of the vectors asked (identity.py): those the report was made with, kept
    when a stopped run keeps only the vectors it checked in `vectors`."""

    def __post_init__(self) -> None:
        self.suite = suite_of(self.vectors)

    def add(self, differences: Iterable[Difference]) -> None:
        """Add differences, the departures the profile allows set apart in `allowed`."""
        for difference in differences:
            (self.allowed if difference.allowed_by else self.differences).append(difference)

    @property
    def conformant(self) -> bool:
        """Return True when no `must` difference was found and some question was answered
        (conformance to the profile: RFC 3629 unless another was chosen)."""
        # A run stopped before its first question answered nothing: it shows no conformance.
        asked_none = self.coverage.asked == 0 and not self.incomplete
        answered = self.coverage.answered > 0 or asked_none
        return answered and not any(d.level == "must" for d in self.differences)

    @property
    def covered(self) -> bool:
        """Return True when some question was answered and every offered capability reached
        the coverage THRESHOLD (a one-input check: when anything was answered). The run exits
        1 otherwise, whatever its differences."""
        if self.coverage.asked and self.coverage.answered == 0:
            return False
        return bool(self.subject) or not self.coverage.uncertified()

    @property
    def certified(self) -> bool:
        """Return True when conformant, covered and complete: the verdict a certificate can
        carry."""
        return self.conformant and self.covered and not self.incomplete

    def counts(self) -> dict[Capability, dict[Level, tuple[int, int]]]:
        """Return, per capability checked and level, (differences, distinct vectors)."""
        found: dict[tuple[Capability, Level], set[str]] = {}
        number: dict[tuple[Capability, Level], int] = {}
        for difference in self.differences:
            key = (difference.capability, difference.level)
            found.setdefault(key, set()).add(difference.vector)
            number[key] = number.get(key, 0) + 1
        return {
            capability: {
                level: (number.get((capability, level), 0), len(found.get((capability, level), ())))
                for level in LEVELS
            }
            for capability in CAPABILITIES
            if capability in self.checked
        }

    def failing(self, fail_on: Level = "must", known: Collection[Key] = ()) -> list[Difference]:
        """Return the differences that fail the run: at level `fail_on` or more binding, and not
        known from a baseline ([] for a passing run)."""
        levels = LEVELS[: LEVELS.index(fail_on) + 1]
        return [d for d in self.differences if d.level in levels and d.key not in known]

    def fingerprint(self) -> Fingerprint:
        """Return which dialect profiles explain the `must` differences (total 0 when there
        are none, or when the run was against another profile)."""
        if not self.profile.is_reference:
            return fingerprint([])
        return fingerprint(
            [(d.what, d.explained_by) for d in self.differences if d.level == "must"],
            self.contradicted,
        )

    def _conformance(self, musts: str) -> str:
        """Return the first clause of the verdict: conformance to the profile, or not (`musts`
        counts the must behaviours, '' when there is none)."""
        name = "RFC 3629" if self.profile.is_reference else f"the {self.profile.name} profile"
        scope = f"on {self.subject}: " if self.subject else ""
        if self.coverage.asked and self.coverage.answered == 0:
            return f"{scope}NOT certified: the codec answered no question"
        if self.incomplete and not self.coverage.asked:
            return f"{scope}NOT certified: no question was asked"
        if musts:
            return f"{scope}NOT conformant to {name}: {musts}"
        if self.profile.is_reference:
            return f"{scope}conformant to {name}"
        if not self.allowed:
            return f"{scope}conformant to {name}; does not differ from RFC 3629 at all"
        return (
            f"{scope}conformant to {name}; differs from RFC 3629 only in the ways that profile "
            f"allows ({len(self.allowed)} answers)"
        )

    def verdict(self) -> str:
        """Return the verdict in one sentence: conformance (and coverage), the fingerprint of
        a non-conformant codec, then distance from recommended practice; differences are
        counted as behaviours (one a bug, see behaviour.py) and the vectors that show them."""
        by_level = counted_behaviours(group(self.differences))
        clauses = [self._conformance(by_level.get("must", ""))]
        if self.incomplete:
            clauses[0] = f"INCOMPLETE ({self.incomplete}): {clauses[0]}"
        if not self.subject:
            clauses += [
                f"not certified for {capability} ({coverage.why_not_certified()})"
                for capability, coverage in self.coverage.ordered()
                if capability in self.coverage.uncertified()
            ]
        if likeness := self.fingerprint().sentence():
            clauses.append(likeness)
        departures = [f"{by_level[level]} ({level})" for level in LEVELS[1:] if level in by_level]
        if departures:
            clauses.append(f"departs from recommended practice: {', '.join(departures)}")
        elif "must" not in by_level and self.coverage.answered:
            # Of what it answered: a capability not certified was not asked enough to say more.
            throughout = "throughout" if self.covered else "in what it answered"
            clauses.append(f"follows recommended practice {throughout}")
        if clause := verdict_clause(self.boundary):
            # A certificate made without a sandbox, or by Landlock's weaker one, says so where
            # it is read: a codec could have forged it (docs/sandbox.md, "Where there is no
            # sandbox").
            clauses.append(clause)
        return "; ".join(clauses)


def counted_behaviours(groups: Sequence[Group]) -> dict[Level, str]:
    """Return, per level that has any, '2 behaviours on 33 vectors': the groups of that level
    (their most binding) and the vectors they hold."""
    counted: dict[Level, str] = {}
    for level in LEVELS:
        chosen = [each for each in groups if each.level == level]
        if chosen:
            vectors = len({vector for each in chosen for vector in each.vectors})
            counted[level] = f"{plural(len(chosen), 'behaviour')} on {plural(vectors, 'vector')}"
    return counted
