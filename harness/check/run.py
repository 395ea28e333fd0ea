"""A whole certification run: every vector, variant and capability of one codec, as a Report
(report.py)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Iterable, Sequence

from utf8cert.harness.check.ahead import Ahead
from utf8cert.harness.check.answers import input_answers, short_hex
from utf8cert.harness.check.breaker import Breaker, Guard, Note
from utf8cert.harness.check.compare import chunkings, compare, compare_chunks, compare_encode
from utf8cert.harness.check.coverage import Answer, Coverage
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.expected import Expected, expectation_for
from utf8cert.harness.check.fingerprint import Contradictions
from utf8cert.harness.check.interrupt import Interrupted, Stop
from utf8cert.harness.check.layouts import LayoutTally
from utf8cert.harness.check.modes import HeldMode
from utf8cert.harness.check.profile import Profile
from utf8cert.harness.check.profiles import RFC3629
from utf8cert.harness.check.recheck import Recheck
from utf8cert.harness.check.report import Report
from utf8cert.harness.check.reuse import reuse_differences
from utf8cert.harness.check.schedule import Depth, schedule
from utf8cert.harness.check.seeded import seeded_differences
from utf8cert.harness.check.sweep import sweep_differences
from utf8cert.harness.check.variants import (
    FULL,
    Plan,
    Variant,
    decode_variants,
    encode_variants,
)
from utf8cert.harness.codec.interface import CAPABILITIES, FAILURE_WHAT, Capability, Codec
from utf8cert.harness.codec.restrictions import declared_restriction
from utf8cert.harness.codec.sandbox import held_by
from utf8cert.harness.vectors.model import EncodeVector, Vector, VectorSet

DECODING: tuple[Capability, ...] = ("decode", "replace", "validate", "incremental")
"""The capabilities a decoding vector is run through; an encoding vector goes to `encode`."""

EVERY_CUT_UP_TO = 4096
"""An ad-hoc input up to this length is cut at every point for an incremental decoder."""

Progress = Callable[[int, int], None]
"""Called with (vectors done, vectors in all) as a run goes."""


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
    contradicted: Contradictions | None = None,
) -> list[Difference]:
    """Return the differences of every variant `plan` gives one vector (by default all of them)
    on the given capabilities; `contradicted` notes the dialect profiles right answers rule out
    (fingerprint.py).

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
                label = (vector.id, name)
                differences += compare_encode(asked, encoding, label, profile, contradicted)
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
                asked,
                capability,
                variant.expected,
                label,
                variant.cuts,
                variant.bytewise,
                profile,
                contradicted,
                asked.held,
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
    codec: Codec,
    data: bytes,
    profile: Profile = RFC3629,
    reference: Expected | None = None,
    held: HeldMode | None = None,
) -> list[Difference]:
    """Return the differences of every capability on one ad-hoc byte string, judged by the
    reference; the encoder is offered the code points the fuzzer offers for the same bytes
    (`probe.encoder_request`), so that every fuzz finding reproduces here, encoding ones too.

    A long input is fed to an incremental decoder cut where the fuzzer cuts it (so that a fuzz
    finding reproduces), a short one at every point. The code points of a long input are offered
    to the encoder in pieces (`probe.encoder_requests`), so that memory stays a few times the
    input. `reference` is `expectation_for(data)` when the caller has it already; `held`, the
    incremental mode the codec is held to (modes.py).
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
                differences += compare_chunks(
                    codec, expected, chunks, final_empty, label, profile, None, held
                )
            del chunks  # a copy of the input
        else:
            differences += compare(codec, capability, expected, label, profile=profile, held=held)
    if "encode" in codec.capabilities:
        from utf8cert.harness.check.probe import encoder_requests

        for request, encode_label in encoder_requests(expected):
            differences += compare_encode(codec, request, encode_label, profile)
    return differences


def run_check(
    codec: Codec,
    vectors: VectorSet,
    progress: Progress | None = None,
    only: Iterable[Capability] | None = None,
    profile: Profile = RFC3629,
    depth: Depth = "default",
    stop: Stop | None = None,
    note: Note | None = None,
    sweep: bool = False,
    seed: int | None = None,
) -> Report:
    """Return the Report of checking every vector, in the variants `depth` gives it
    (check/schedule.py), on every capability of `codec` (or only those in `only`) against
    `profile`; every question is counted in its coverage. An empty vector set gives an empty,
    conformant report.

    A program's answers are asked a vector at a time, and once it crashed or hung, by copies of
    it at once (ahead.py); a sample of the questions is asked again at the end (recheck.py).
    When `stop` is told to stop (interrupt.py), the report holds the vectors checked until then
    and says why it is `incomplete`. `note` names, for an in-process codec, the question a fatal
    error interrupted (fatal.py). `sweep` asks, after the vectors, what they do not enumerate
    (sweep.py: every scalar value, every byte pair that starts ill-formed input alone), as a
    check of the built-in vectors whole does; `seed`, a seeded pass of generated combinations
    after them (seeded.py; None: no pass)."""
    wanted = frozenset(CAPABILITIES if only is None else only)
    offered = codec.capabilities & wanted
    report = Report(codec.spec, frozenset(offered), vectors, codec.description, profile=profile)
    report.boundary = held_by(codec)
    report.checked = {capability: 0 for capability in CAPABILITIES if capability in offered}
    report.depth = depth
    held = HeldMode.of(codec)
    report.incremental_mode = held
    guard = Guard(Stop() if stop is None else stop, note, held)
    not_offered = wanted - offered
    total, plans = len(vectors), schedule(vectors, depth)
    jobs = [(vector, capabilities_for(vector, offered), plans.plan(vector)) for vector in vectors]
    restriction = declared_restriction(codec)  # codec/restrictions.py: held, not trusted
    done: set[str] = set()
    recheck = Recheck()
    try:
        with Ahead(codec, jobs, guard.stop) as ahead:  # pipelined; overlapping waits for hangs
            for index, (vector, capabilities, plan) in enumerate(jobs):
                missing = capabilities_for(vector, not_offered) if not_offered else ()
                # Counted apart until the vector is done: a stopped run counts whole vectors.
                counted = Coverage()
                found = check_vector(
                    counted.watch(recheck.watch(ahead.asking(index), vector.id), restriction),
                    vector,
                    capabilities,
                    profile,
                    counted,
                    missing,
                    plan,
                    guard,
                    report.contradicted,
                )
                report.add(found)
                report.coverage.add(counted)
                for capability in capabilities:
                    report.checked[capability] += 1
                done.add(vector.id)
                if progress is not None:
                    progress(len(done), total)
        # A decoder used before, and one-shot answers after other questions: reuse.py.
        # Not a capability that crashed or hung: asked again, it would only do so again.
        failed = {d.capability for d in report.differences if d.what in FAILURE_WHAT.values()}
        checked = [c for c in DECODING if report.checked.get(c) and c not in failed]
        reused = reuse_differences(codec, profile, held, checked, guard.stop)
        report.add(reused.differences)
        report.reuse = reused.not_asked or f"asked ({reused.questions} questions)"
        if sweep:  # what the vectors do not enumerate: sweep.py
            working = [c for c in report.checked if c not in failed]
            swept = sweep_differences(codec, working, profile, guard.stop)
            report.add(swept.differences)
            report.sweep = f"asked ({swept.questions:,} questions)"
            report.sweep_questions = swept.questions
        if seed is not None:  # combinations the vectors do not enumerate: seeded.py
            working = [c for c in report.checked if c not in failed]
            report.seeded, found = seeded_differences(
                codec, working, profile, held, seed, guard.stop
            )
            report.add(found)
        report.add(recheck.again(codec, guard))  # a codec whose answers change: recheck.py
        report.asked_again_cut_short = recheck.cut_short
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
        boundary=held_by(codec),
    )
    reference = expectation_for(data)
    held = report.incremental_mode = HeldMode.of(codec)
    guard = Guard(Stop() if stop is None else stop, None, held)
    asked = Breaker(report.coverage.watch(codec), "input", report.coverage, guard)
    try:
        report.add(asked.noted(check_input(asked, data, profile, reference, held)))
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
