"""A whole certification run: every vector, variant and capability of one codec, as a Report."""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import PackageNotFoundError, version

from utf8cert.harness.check.answers import InputAnswer, input_answers, short_hex
from utf8cert.harness.check.baseline import Key
from utf8cert.harness.check.behaviour import Group, group
from utf8cert.harness.check.breaker import Breaker, Guard, Note
from utf8cert.harness.check.compare import (
    Difference,
    chunkings,
    compare,
    compare_chunks,
    compare_encode,
)
from utf8cert.harness.check.coverage import Answer, Coverage
from utf8cert.harness.check.expected import Expected, expectation_for
from utf8cert.harness.check.fingerprint import Fingerprint, fingerprint
from utf8cert.harness.check.interrupt import Interrupted, Stop
from utf8cert.harness.check.layouts import LayoutTally
from utf8cert.harness.check.profile import Profile
from utf8cert.harness.check.profiles import RFC3629
from utf8cert.harness.check.schedule import Depth, schedule
from utf8cert.harness.check.variants import (
    FULL,
    Plan,
    Variant,
    decode_variants,
    encode_variants,
)
from utf8cert.harness.codec.interface import CAPABILITIES, Capability, Codec
from utf8cert.harness.vectors.model import LEVELS, EncodeVector, Level, Vector, VectorSet

DECODING: tuple[Capability, ...] = ("decode", "replace", "validate", "incremental")
"""The capabilities a decoding vector is run through; an encoding vector goes to `encode`."""

EVERY_CUT_UP_TO = 4096
"""An ad-hoc input up to this length is cut at every point for an incremental decoder."""

Progress = Callable[[int, int], None]
"""Called with (vectors done, vectors in all) as a run goes."""


@cache
def utf8cert_version() -> str:
    """Return the installed utf8cert version ('unknown' when not installed)."""
    try:
        return version("utf8cert")
    except PackageNotFoundError:
        return "unknown"


def capabilities_for(vector: Vector, offered: Iterable[Capability]) -> tuple[Capability, ...]:
    """Return the capabilities, among those offered, that a vector is checked on."""
    wanted = ("encode",) if isinstance(vector, EncodeVector) else DECODING
    offered = frozenset(offered)
    return tuple(capability for capability in wanted if capability in offered)


def check_vector(
    codec: Codec,
    vector: Vector,
    capabilities: Sequence[Capability],
    profile: Profile = RFC3629,
    coverage: Coverage | None = None,
    missing: Sequence[Capability] = (),
    plan: Plan = FULL,
    guard: Guard | None = None,
) -> list[Difference]:
    """Return the differences of every variant `plan` gives one vector (by default all of them)
    on the given capabilities.

    The variants are derived once and shared by the capabilities; [] means conformant. The
    questions the `missing` capabilities would have been asked are counted as not offered.
    Once the codec crashes or hangs on a capability, the vector's other questions on it are
    skipped (breaker.py); `guard` says what stops the check (Interrupted is raised then).
    """
    differences: list[Difference] = []
    asked = Breaker(codec, vector.id, coverage, guard)
    if isinstance(vector, EncodeVector):
        if "encode" in capabilities:
            tally = LayoutTally(coverage, ("encode",))
            for name, encoding in encode_variants(vector, plan):
                tally.start()
                differences += compare_encode(asked, encoding, (vector.id, name), profile)
                tally.end(name)
        elif "encode" in missing and coverage is not None:
            variants = len(list(encode_variants(vector, plan)))
            coverage.record("encode", Answer.NOT_OFFERED, count=variants)
        return asked.noted(differences)
    not_offered = dict.fromkeys(missing, 0)
    tally = LayoutTally(coverage, capabilities)
    for variant in decode_variants(vector, plan):
        label = (vector.id, variant.name)
        tally.start()
        for capability in capabilities:
            differences += compare(
                asked, capability, variant.expected, label, variant.cuts, variant.bytewise, profile
            )
        tally.end(variant.name)
        for capability in missing:
            not_offered[capability] += _questions(variant, capability)
    if coverage is not None:
        for capability, count in not_offered.items():
            coverage.record(capability, Answer.NOT_OFFERED, count=count)
    return asked.noted(differences)


def _questions(variant: Variant, capability: Capability) -> int:
    """Return how many questions a variant puts to a decoding capability (2 per chunking for
    an incremental decoder: with and without a final empty chunk)."""
    if capability != "incremental":
        return 1
    return 2 * sum(1 for _ in chunkings(variant.expected, variant.cuts, variant.bytewise))


def check_input(
    codec: Codec, data: bytes, profile: Profile = RFC3629, reference: Expected | None = None
) -> list[Difference]:
    """Return the differences of every capability on one ad-hoc byte string, judged by the
    reference; the encoder is offered the code points the fuzzer offers for the same bytes
    (`probe.encoder_request`), so that every fuzz finding reproduces here, encoding ones too.

    A long input is fed to an incremental decoder cut where the fuzzer cuts it (so that a fuzz
    finding reproduces), a short one at every point. The code points of a long input are offered
    to the encoder in pieces (`probe.encoder_requests`), so that memory stays a few times the
    input. `reference` is `expectation_for(data)` when the caller has it already.
    """
    expected = expectation_for(data) if reference is None else reference
    label = ("input", "as-is")
    differences: list[Difference] = []
    for capability in DECODING:
        if capability not in codec.capabilities:
            continue
        if capability == "incremental" and len(data) > EVERY_CUT_UP_TO:
            from utf8cert.harness.check.probe import chunks_at, cut_points

            chunks = chunks_at(data, cut_points(data))
            for final_empty in (False, True):
                differences += compare_chunks(codec, expected, chunks, final_empty, label, profile)
            del chunks  # a copy of the input
        else:
            differences += compare(codec, capability, expected, label, profile=profile)
    if "encode" in codec.capabilities:
        from utf8cert.harness.check.probe import encoder_requests

        for request, encode_label in encoder_requests(expected):
            differences += compare_encode(codec, request, encode_label, profile)
    return differences


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
    incomplete: str = ""
    """Why the run stopped before its end ('stopped by SIGTERM after 12 of 488 vectors'; ''
    when it checked everything): `vectors` then holds the vectors checked."""
    date: str = field(
        default_factory=lambda: datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    )
    version: str = field(default_factory=utf8cert_version)

    def add(self, differences: Iterable[Difference]) -> None:
        """Add differences, the departures the profile allows set apart in `allowed`."""
        for difference in differences:
            (self.allowed if difference.allowed_by else self.differences).append(difference)

    @property
    def conformant(self) -> bool:
        """Return True when no `must` difference was found and some question was answered
        (conformance to the profile: RFC 3629 unless another was chosen)."""
        answered = self.coverage.answered > 0 or self.coverage.asked == 0
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
            [(d.what, d.explained_by) for d in self.differences if d.level == "must"]
        )

    def _conformance(self, musts: str) -> str:
        """Return the first clause of the verdict: conformance to the profile, or not (`musts`
        counts the must behaviours, '' when there is none)."""
        name = "RFC 3629" if self.profile.is_reference else f"the {self.profile.name} profile"
        scope = f"on {self.subject}: " if self.subject else ""
        if self.coverage.asked and self.coverage.answered == 0:
            return f"{scope}NOT certified: the codec answered no question"
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
        elif "must" not in by_level:
            clauses.append("follows recommended practice throughout")
        return "; ".join(clauses)


def counted_behaviours(groups: Sequence[Group]) -> dict[Level, str]:
    """Return, per level that has any, '2 behaviours on 33 vectors': the groups of that level
    (their most binding) and the vectors they hold."""
    counted: dict[Level, str] = {}
    for level in LEVELS:
        chosen = [each for each in groups if each.level == level]
        if chosen:
            vectors = len({vector for each in chosen for vector in each.vectors})
            behaviours = "behaviour" if len(chosen) == 1 else "behaviours"
            counted[level] = f"{len(chosen)} {behaviours} on {vectors} vector" + (
                "" if vectors == 1 else "s"
            )
    return counted


def run_check(
    codec: Codec,
    vectors: VectorSet,
    progress: Progress | None = None,
    only: Iterable[Capability] | None = None,
    profile: Profile = RFC3629,
    depth: Depth = "default",
    stop: Stop | None = None,
    note: Note | None = None,
) -> Report:
    """Return the Report of checking every vector, in the variants `depth` gives it
    (check/schedule.py), on every capability of `codec` (or only those in `only`) against
    `profile`; every question is counted in its coverage. An empty vector set gives an empty,
    conformant report.

    When `stop` is told to stop (interrupt.py), the report holds the vectors checked until then
    and says why it is `incomplete`. `note` names, for an in-process codec, the question a
    fatal error interrupted (fatal.py)."""
    wanted = frozenset(CAPABILITIES if only is None else only)
    offered = codec.capabilities & wanted
    report = Report(codec.spec, frozenset(offered), vectors, codec.description, profile=profile)
    report.checked = {capability: 0 for capability in CAPABILITIES if capability in offered}
    report.depth = depth
    guard = Guard(Stop() if stop is None else stop, note)
    not_offered = wanted - offered
    total, plans = len(vectors), schedule(vectors, depth)
    done: set[str] = set()
    try:
        for vector in vectors:
            capabilities = capabilities_for(vector, offered)
            missing = capabilities_for(vector, not_offered) if not_offered else ()
            plan = plans.plan(vector)
            # Counted apart until the vector is done, so that a stopped run counts whole vectors.
            counted = Coverage()
            found = check_vector(
                counted.watch(codec), vector, capabilities, profile, counted, missing, plan, guard
            )
            report.add(found)
            report.coverage.add(counted)
            for capability in capabilities:
                report.checked[capability] += 1
            done.add(vector.id)
            if progress is not None:
                progress(len(done), total)
    except Interrupted as stopped:
        report.incomplete = f"stopped by {stopped} after {len(done)} of {total} vectors"
        report.vectors = only_these(vectors, done)
    return report


def only_these(vectors: VectorSet, ids: Collection[str]) -> VectorSet:
    """Return the vectors whose ids are in `ids`, in their files (files left empty kept)."""
    return VectorSet(
        tuple(
            dataclasses.replace(file, vectors=tuple(v for v in file.vectors if v.id in ids))
            for file in vectors.files
        )
    )


def check_one_input(
    codec: Codec,
    data: bytes,
    profile: Profile = RFC3629,
    source: str | None = None,
    stop: Stop | None = None,
) -> Report:
    """Return the Report of one byte string put to every capability (check_input), with each
    capability's answer to it beside the expected one; its verdict is about that input only.
    `source` names where the bytes came from (a file, '-' for standard input; None: given as
    hex), for the report's subject. A capability the codec crashed or hung on is not asked
    again (breaker.py); a run told to `stop` says it is incomplete."""
    subject = f"input {short_hex(data)}"
    if source is not None:
        where = "from standard input" if source == "-" else source
        subject = f"input {where} ({len(data):,} bytes)"
    report = Report(
        codec.spec,
        codec.capabilities,
        VectorSet(()),
        codec.description,
        profile=profile,
        subject=subject,
    )
    reference = expectation_for(data)
    guard = Guard(Stop() if stop is None else stop)
    asked = Breaker(report.coverage.watch(codec), "input", report.coverage, guard)
    try:
        report.add(asked.noted(check_input(asked, data, profile, reference)))
        report.answers = input_answers(asked.again(codec), data, profile, reference)
    except Interrupted as stopped:
        report.incomplete = f"stopped by {stopped} before every capability answered"
    report.checked = {
        capability: 1 for capability in CAPABILITIES if capability in codec.capabilities
    }
    return report


def vector_index(vectors: VectorSet) -> dict[str, Vector]:
    """Return the vectors by id."""
    return {vector.id: vector for vector in vectors}
