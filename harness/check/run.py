"""A whole certification run: every vector, variant and capability of one codec, as a Report."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import PackageNotFoundError, version

from utf8cert.harness.check.baseline import Key
from utf8cert.harness.check.compare import Difference, compare, compare_chunks, compare_encode
from utf8cert.harness.check.expected import expectation_for
from utf8cert.harness.check.schedule import Depth, schedule
from utf8cert.harness.check.variants import FULL, Plan, decode_variants, encode_variants
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
    codec: Codec, vector: Vector, capabilities: Sequence[Capability], plan: Plan = FULL
) -> list[Difference]:
    """Return the differences of every variant `plan` gives one vector (by default all of them)
    on the given capabilities.

    The variants are derived once and shared by the capabilities; [] means conformant.
    """
    differences: list[Difference] = []
    if isinstance(vector, EncodeVector):
        if "encode" in capabilities:
            for name, encoding in encode_variants(vector, plan):
                differences += compare_encode(codec, encoding, (vector.id, name))
        return differences
    for variant in decode_variants(vector, plan):
        label = (vector.id, variant.name)
        for capability in capabilities:
            differences += compare(
                codec, capability, variant.expected, label, variant.cuts, variant.bytewise
            )
    return differences


def check_input(codec: Codec, data: bytes) -> list[Difference]:
    """Return the differences of every capability on one ad-hoc byte string, judged by the
    reference; the encoder is offered the code points the fuzzer offers for the same bytes
    (`probe.encoder_request`), so that every fuzz finding reproduces here, encoding ones too.

    A long input is fed to an incremental decoder cut where the fuzzer cuts it (so that a fuzz
    finding reproduces), a short one at every point.
    """
    expected = expectation_for(data)
    label = ("input", "as-is")
    differences: list[Difference] = []
    for capability in DECODING:
        if capability not in codec.capabilities:
            continue
        if capability == "incremental" and len(data) > EVERY_CUT_UP_TO:
            from utf8cert.harness.check.probe import chunks_at, cut_points

            chunks = chunks_at(data, cut_points(data))
            for final_empty in (False, True):
                differences += compare_chunks(codec, expected, chunks, final_empty, label)
        else:
            differences += compare(codec, capability, expected, label)
    if "encode" in codec.capabilities:
        from utf8cert.harness.check.probe import ENCODE_LABEL, encoder_request

        differences += compare_encode(codec, encoder_request(expected), ENCODE_LABEL)
    return differences


@dataclass
class Report:
    """What a run found: the differences, what was checked, and the verdict they give."""

    codec: str
    capabilities: frozenset[Capability]
    vectors: VectorSet
    description: str = ""
    """What the codec is, in words, as its adapter describes it."""
    differences: list[Difference] = field(default_factory=list)
    checked: dict[Capability, int] = field(default_factory=dict)
    """How many vectors each capability was checked on."""
    date: str = field(
        default_factory=lambda: datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    )
    version: str = field(default_factory=utf8cert_version)

    @property
    def conformant(self) -> bool:
        """Return True when no `must` difference was found (RFC 3629 conformance)."""
        return not any(difference.level == "must" for difference in self.differences)

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

    def verdict(self) -> str:
        """Return the verdict in one sentence: conformance, then distance from recommended
        practice."""
        totals = {level: 0 for level in LEVELS}
        for difference in self.differences:
            totals[difference.level] += 1
        head = (
            "conformant to RFC 3629"
            if self.conformant
            else f"NOT conformant to RFC 3629 ({totals['must']} must differences)"
        )
        if totals["should"] == totals["may"] == 0:
            return f"{head}; follows recommended practice throughout"
        return (
            f"{head}; departs from recommended practice in {totals['should']} should and "
            f"{totals['may']} may differences"
        )


def run_check(
    codec: Codec,
    vectors: VectorSet,
    progress: Progress | None = None,
    only: Iterable[Capability] | None = None,
    depth: Depth = "default",
) -> Report:
    """Return the Report of checking every vector, in the variants `depth` gives it
    (check/schedule.py), on every capability of `codec` (or only those in `only`); an empty
    vector set gives an empty, conformant report."""
    offered = codec.capabilities if only is None else codec.capabilities & frozenset(only)
    report = Report(codec.spec, frozenset(offered), vectors, codec.description)
    report.checked = {capability: 0 for capability in CAPABILITIES if capability in offered}
    total, plans = len(vectors), schedule(vectors, depth)
    for done, vector in enumerate(vectors, start=1):
        capabilities = capabilities_for(vector, offered)
        report.differences += check_vector(codec, vector, capabilities, plans.plan(vector))
        for capability in capabilities:
            report.checked[capability] += 1
        if progress is not None:
            progress(done, total)
    return report


def vector_index(vectors: VectorSet) -> dict[str, Vector]:
    """Return the vectors by id."""
    return {vector.id: vector for vector in vectors}
