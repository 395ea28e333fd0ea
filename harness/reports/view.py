"""What every format of a report shows: the behaviours (new ones, and those known from a
baseline), the fixed deviations, the verdict in behaviours and vectors, and how to reproduce.

Text, Markdown, JSON, JUnit XML, GitHub annotations and HTML all render a `View`, so they
agree on what is new, what fails and what the verdict is. A section another part of the
harness adds to `Report` is rendered from the view's `report`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from utf8cert.harness.check.baseline import Baseline, Key
from utf8cert.harness.check.behaviour import Group, group
from utf8cert.harness.check.describe import plural as plural  # where the reports take it
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.extent import UNPLACED, UNPLACED_FIX
from utf8cert.harness.check.report import Report
from utf8cert.harness.check.run import vector_index
from utf8cert.harness.codec.interface import Capability
from utf8cert.harness.reports.explain import Rerun
from utf8cert.harness.vectors.model import LEVELS, Level, Vector

SHOWN_MOVED = 12
"""At most this many vectors are named as seen only when moved or cut."""


@dataclass
class View:
    """A report as the formats show it, for one gate (`fail_on`, a baseline)."""

    report: Report
    fail_on: Level = "must"
    baseline: Baseline | None = None
    rerun: Rerun | None = None
    strict_baseline: bool = False
    """Whether a fixed or changed deviation (a stale baseline) fails the run."""
    show_level: Level = "may"
    """The least binding level of the behaviours a report shows (--show-level): the verdict,
    the gate and the counts are the run's whole, whatever it is."""
    vectors: dict[str, Vector] = field(init=False)

    def __post_init__(self) -> None:
        self.vectors = vector_index(self.report.vectors)

    @property
    def known(self) -> frozenset[Key]:
        """Return the keys of the baseline's deviations (empty without a baseline)."""
        return self.baseline.keys if self.baseline is not None else frozenset()

    @cached_property
    def all_groups(self) -> list[Group]:
        """Return every difference of the run grouped by behaviour."""
        return group(self.report.differences, self.vectors)

    @cached_property
    def groups(self) -> list[Group]:
        """Return the behaviours to show in full: of the new differences (all, without a
        baseline), most binding first."""
        if not self.known:
            return self.all_groups
        return group([d for d in self.report.differences if d.key not in self.known], self.vectors)

    @cached_property
    def shown_groups(self) -> list[Group]:
        """Return the new behaviours at `show_level` or above, the ones a report shows."""
        bound = LEVELS.index(self.show_level)
        return [each for each in self.groups if LEVELS.index(each.level) <= bound]

    @property
    def unshown(self) -> str:
        """Return what `show_level` leaves out: '2 behaviours below should' ('' for none)."""
        left = len(self.groups) - len(self.shown_groups)
        return f"{plural(left, 'behaviour')} below {self.show_level}" if left else ""

    @cached_property
    def known_groups(self) -> list[Group]:
        """Return the behaviours of the differences known from the baseline ([] without one)."""
        if not self.known:
            return []
        return group([d for d in self.report.differences if d.key in self.known], self.vectors)

    def hidden(self) -> dict[Level, tuple[int, int]]:
        """Return, per level, (behaviours, differences) the baseline hides, most binding first
        ({} without a baseline or when it hides nothing)."""
        counted: dict[Level, tuple[int, int]] = {}
        for each in self.known_groups:
            behaviours, differences = counted.get(each.level, (0, 0))
            counted[each.level] = (behaviours + 1, differences + len(each.differences))
        return {level: counted[level] for level in LEVELS if level in counted}

    def hidden_words(self) -> str:
        """Return what the baseline hides, by level: 'must: 2 behaviours (770 differences)'
        ('' when it hides nothing)."""
        return "; ".join(
            f"{level}: {plural(behaviours, 'behaviour')} ({plural(differences, 'difference')})"
            for level, (behaviours, differences) in self.hidden().items()
        )

    @cached_property
    def fixed(self) -> list[Key]:
        """Return the baseline's deviations the run no longer shows ([] without a baseline)."""
        return [] if self.baseline is None else self.baseline.fixed(self.report.differences)

    @cached_property
    def changed(self) -> list[tuple[Key, Difference]]:
        """Return the baseline's deviations whose question now differs otherwise, each with the
        difference found instead ([] without a baseline)."""
        return [] if self.baseline is None else self.baseline.changed(self.report.differences)

    def changed_words(self) -> str:
        """Return how the changed deviations' levels moved: 'may → must: 85' ('' for none); a
        deviation recorded without a level counts as '?'."""
        if self.baseline is None:
            return ""
        moves = Counter(
            (self.baseline.levels.get(key, "?"), now.level) for key, now in self.changed
        )
        return ", ".join(f"{old} → {new}: {count}" for (old, new), count in sorted(moves.items()))

    @cached_property
    def failing(self) -> list[Difference]:
        """Return the differences that fail the run (new, at `fail_on` or above)."""
        return self.report.failing(self.fail_on, self.known)

    @cached_property
    def uncovered(self) -> list[Capability]:
        """Return the capabilities not certified, as the gate counts them: as the report says,
        less the questions skipped after a crash or hang the baseline knows (a known crash may
        pass the gate; the certificate still says the capability is not certified)."""
        report = self.report
        uncertified = report.coverage.uncertified()
        if not uncertified or not self.known:
            return uncertified
        excused: Counter[str] = Counter()
        for difference in report.differences:
            if difference.spared and difference.key in self.known:
                excused[difference.capability] += difference.spared
        return [
            capability
            for capability in uncertified
            if not replace(
                coverage := report.coverage.of(capability),
                skipped=coverage.skipped - excused[capability],
            ).certified
        ]

    @property
    def covered(self) -> bool:
        """Return True when the gate counts the run covered: the report is, or a baseline
        excuses what keeps it from being (`uncovered`) and some question was answered."""
        report = self.report
        return report.covered or (report.coverage.answered > 0 and not self.uncovered)

    @property
    def passed(self) -> bool:
        """Return True when the run passes its gate: complete, no failing difference, every
        capability covered (less what a known crash spared), and (under --strict-baseline) no
        fixed deviation."""
        stale = self.strict_baseline and bool(self.fixed or self.changed)
        complete = not self.report.incomplete
        return complete and not self.failing and self.covered and not stale

    def verdict(self) -> str:
        """Return the verdict line: the report's (`Report.verdict`: behaviours and vectors),
        followed by the gate (`gate`) whenever the gate is not the certificate's own (a
        baseline, which may know every must difference or be stale under --strict-baseline; a
        --fail-on below must), so that the line alone (--quiet) says what the exit status says."""
        line = self.report.verdict()
        plain = self.baseline is None and self.fail_on == "must"
        if plain and self.passed == self.report.certified:
            return line
        return f"{line}; {self.gate()}"

    def gate(self) -> str:
        """Return the line that says whether the run passes its gate, and why."""
        if self.report.incomplete:
            covered = "this report covers those alone" if self.report.coverage.asked else ""
            return f"INCOMPLETE: {self.report.incomplete}" + (f"; {covered}" if covered else "")
        if self.failing:
            keys = {difference.key for difference in self.failing}
            failing = sum(1 for each in self.groups if any(d.key in keys for d in each.differences))
            noun = "new behaviour" if self.known else "behaviour"
            return (
                f"FAIL: {plural(failing, noun)} at level {self.fail_on} or above "
                f"({plural(len(self.failing), 'difference')})"
            )
        if not self.covered:
            return "FAIL: a capability is not certified (too few questions answered)"
        if self.strict_baseline and (self.fixed or self.changed):
            stale = [
                plural(len(self.fixed), "fixed deviation") if self.fixed else "",
                plural(len(self.changed), "changed deviation") if self.changed else "",
            ]
            return f"FAIL: {', '.join(filter(None, stale))} (--strict-baseline)"
        if self.known and self.report.differences:
            if self.groups:  # new, but below --fail-on: the baseline does not hide them
                hides = self.hidden_words()
                return (
                    f"pass at level {self.fail_on}: {plural(len(self.groups), 'new behaviour')} "
                    "below it" + (f"; the baseline hides {hides}" if hides else "")
                )
            return (
                "pass: no new difference, every one is known from the baseline, which hides "
                f"{self.hidden_words()}"
            )
        return f"pass at level {self.fail_on}"

    def flags(self, groups: Sequence[Group]) -> list[str]:
        """Return the flags of the examples of `groups`, each once, in order of appearance."""
        found: dict[str, None] = {}
        for each in groups:
            vector = self.vectors.get(each.example.vector)
            found |= dict.fromkeys(vector.flags if vector is not None else ())
        return list(found)

    def reproduce(self, difference: Difference) -> str | None:
        """Return the command that shows a difference again (None if there is none)."""
        return None if self.rerun is None else self.rerun.command(difference)


def counted_differences(each: Group) -> str:
    """Return how many differences a behaviour has: '954 differences', and by level when they
    are of more than one ('954 differences: 933 must, 21 should'), so that the must ones add up
    to the count the gate fails on (the behaviour's level is its most binding difference's)."""
    levels = Counter(difference.level for difference in each.differences)
    total = plural(len(each.differences), "difference")
    if len(levels) < 2:
        return total
    return f"{total}: " + ", ".join(f"{levels[level]} {level}" for level in LEVELS if levels[level])


def unplaced_fix(each: Group) -> str | None:
    """Return the fix of a behaviour that is only refusals placing the error nowhere (None for
    any other): such a group is one line, since every difference of it has the one cause."""
    if each.behaviour.what != UNPLACED:
        return None
    return UNPLACED_FIX[each.behaviour.direction]


def moved_line(each: Group) -> str | None:
    """Return the line naming the vectors on which a behaviour shows only once moved or cut
    (None when there are none)."""
    if not each.moved:
        return None
    ids = each.moved[:SHOWN_MOVED]
    more = len(each.moved) - len(ids)
    tail = f" … and {more} more" if more else ""
    return "  also seen when moved or cut: " + " ".join(ids) + tail
