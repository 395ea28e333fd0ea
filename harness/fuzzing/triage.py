"""What a campaign left behind, turned into findings: minimized, saved, and written as vectors.

Two sources: inputs the target recorded under pending/ (a difference, named by its kind), and
the crash-, timeout- and oom- files libFuzzer wrote when the codec took the process down or hung.
The latter are replayed in a separate process (`load_codec(..., isolate=True)`), where a death is
a `crash` and a hang a `timeout`: the same differences compare.py reports for `check --isolate`.
An input that shows no difference on replay is reported, never dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from utf8cert.harness.check.behaviour import Behaviour, behaviour_of
from utf8cert.harness.check.interrupt import Stop
from utf8cert.harness.check.profiles import PROFILES
from utf8cert.harness.codec.interface import Capability, Codec
from utf8cert.harness.fuzzing.culprit import KIND_DETAILS, kind_detail, units
from utf8cert.harness.fuzzing.differential import PENDING, DifferentialTarget, pending_stem
from utf8cert.harness.fuzzing.finding import Finding, Reproduce
from utf8cert.harness.fuzzing.minimize import minimize
from utf8cert.harness.fuzzing.root_causes import root_causes
from utf8cert.harness.fuzzing.save import save
from utf8cert.harness.vectors.model import Level
from utf8cert.harness.world.spec import load_codec

LIBFUZZER_ARTIFACTS: Final = ("crash-", "timeout-", "oom-", "leak-")
TRIAGED: Final = "triaged"
"""Where libFuzzer's files go once they are findings (under the crash directory)."""
ISOLATED_TRIES: Final = 200
"""Probes allowed when minimizing in a separate process (each costs a round trip or more)."""

UNREPRODUCED = (
    "no longer shows the difference it showed while fuzzing: the codec gave this input another "
    "answer when asked again (it is not deterministic, or its answers depend on what it was "
    "asked before)"
)
"""Why a pending input became no finding: two answers to one question."""


@dataclass(frozen=True)
class Triaged:
    """One thing a campaign left: the finding made of it, or why none could be made."""

    source: Path
    finding: Finding | None = None
    vector_file: Path | None = None
    problem: str | None = None
    explained: tuple[Behaviour, ...] = ()
    """The root causes the input holds, when it is no finding of its own (root_causes.py)."""

    @property
    def fails(self) -> bool:
        """Return True for a finding, or an input that did not reproduce: not for an input that
        holds root causes found or known already."""
        return not self.explained


def _make_finding(
    spec: str,
    target: DifferentialTarget,
    data: bytes,
    stem: str | None,
    max_tries: int,
    reproduce: Reproduce,
) -> Finding | None:
    """Return the finding for `data`, minimized while it shows one behaviour: that of the
    difference named `stem` (the pending file's name), else of its first difference not known
    once localized (culprit.py); its name and behaviour are those of the minimized input, with
    its other differences there. None when `data` shows no such difference."""
    found = target.found(data)
    if stem is not None:
        found = [d for d in found if pending_stem(d) == stem] or found
    data, differences = target.localized(data, found, max_tries=max_tries)
    if stem is not None and any(pending_stem(d) == stem for d in differences):
        differences = [d for d in differences if pending_stem(d) == stem]
    if not differences:
        return None
    wanted = behaviour_of(differences[0])
    # Every ill-formed unit kept of the kind the behaviour names: else another unit ahead of
    # it could name the behaviour while the codec went wrong on a later one (culprit.py).
    alone = wanted.detail in KIND_DETAILS and _of_one_kind(data, wanted.detail)

    def keeps(candidate: bytes) -> bool:
        if alone and not _of_one_kind(candidate, wanted.detail):
            return False
        return any(behaviour_of(d) == wanted for d in target.found(candidate))

    small = minimize(data, keeps, max_tries=max_tries)
    found = target.found(small)
    difference = next((d for d in found if behaviour_of(d) == wanted), None)
    if difference is None:  # two answers to one question (UNREPRODUCED): keep it as found
        small, found, difference = data, differences, differences[0]
    others = tuple(d for d in found if d is not difference)
    return Finding(spec, small, difference, others, reproduce, pending_stem(difference))


def _shown_by(target: DifferentialTarget) -> Callable[[bytes], list[Behaviour]]:
    """Return what gives the behaviours `target` finds on an input (known ones included)."""

    def shown(data: bytes) -> list[Behaviour]:
        return list(dict.fromkeys(behaviour_of(d) for d in target.found(data)))

    return shown


def _of_one_kind(data: bytes, detail: str) -> bool:
    """Return True if every ill-formed unit of `data` (culprit.py) is of the kind `detail`."""
    return all(kind_detail(kind) == detail for _, _, kind in units(data))


def _duplicate(finding: Finding, saved: set[Behaviour]) -> bool:
    """Return True if a finding of the same behaviour was saved by this triage (noting it if
    not): one behaviour, one finding, whichever inputs showed it."""
    behaviour = behaviour_of(finding.difference)
    if behaviour in saved:
        return True
    saved.add(behaviour)
    return False


def triage_pending(
    spec: str,
    codec: Codec,
    artifacts: Path,
    *,
    capabilities: Iterable[Capability] | None,
    fail_on: Level,
    known: frozenset[Behaviour] = frozenset(),
    profile: str = "rfc3629",
    saved: set[Behaviour] | None = None,
    stop: Stop | None = None,
    boundary: str = "",
) -> Iterator[Triaged]:
    """Yield a finding for each input under pending/, removing the inputs that became one (or
    showed once minimized a behaviour in `saved`, which gets each new one)."""
    saved = set() if saved is None else saved
    target = DifferentialTarget(
        codec,
        capabilities=capabilities,
        fail_on=fail_on,
        known=known,
        profile=PROFILES[profile],
        stop=stop,  # Interrupted (after the probe) once a stop is asked for
    )
    reproduce = Reproduce(fail_on, profile=profile)
    for source in sorted((artifacts / PENDING).glob("*.bin")):
        data = source.read_bytes()
        finding = _make_finding(spec, target, data, source.stem, 2000, reproduce)
        if finding is None:
            kept = source.rename(source.with_suffix(".unreproduced"))  # not pending any more
            yield Triaged(kept, problem=UNREPRODUCED)
            continue
        held = root_causes(finding.data, behaviour_of(finding.difference), _shown_by(target))
        if not held.alone:
            # Each root cause it holds is a finding of its own part (unless known or saved).
            for behaviour, part in held.causes.items():
                if behaviour in known:
                    continue
                made = _make_finding(spec, target, part, None, 2000, reproduce)
                if made is not None and not _duplicate(made, saved):
                    yield Triaged(source, made, save(made, artifacts, boundary))
            source.unlink()
            yield Triaged(source, explained=tuple(held.causes))
            continue
        if _duplicate(finding, saved):
            source.unlink()
            continue
        vector_file = save(finding, artifacts, boundary)
        source.unlink()
        yield Triaged(source, finding, vector_file)


def triage_crashes(
    spec: str,
    artifacts: Path,
    crashes: Path,
    *,
    capabilities: Iterable[Capability] | None,
    fail_on: Level,
    timeout: float,
    known: frozenset[Behaviour] = frozenset(),
    profile: str = "rfc3629",
    saved: set[Behaviour] | None = None,
    stop: Stop | None = None,
    boundary: str = "",
) -> Iterator[Triaged]:
    """Yield a finding for each libFuzzer crash, timeout or oom file, replayed in isolation,
    unless its behaviour is in `saved` (which gets each new one)."""
    saved = set() if saved is None else saved
    sources = sorted(
        path
        for path in crashes.glob("*")
        if path.is_file() and path.name.startswith(LIBFUZZER_ARTIFACTS)
    )
    if not sources:
        return
    codec = load_codec(spec, isolate=True, timeout=timeout)
    try:
        target = DifferentialTarget(
            codec,
            capabilities=capabilities,
            fail_on=fail_on,
            known=known,
            profile=PROFILES[profile],
            stop=stop,
        )
        for source in sources:
            hung = source.name.startswith("timeout-")
            reproduce = Reproduce(fail_on, True, timeout if hung else None, profile)
            tries = 0 if hung else ISOLATED_TRIES
            finding = _make_finding(spec, target, source.read_bytes(), None, tries, reproduce)
            if finding is None:
                problem = "shows no difference when replayed in a separate process"
                yield Triaged(source, problem=f"{problem}: see libfuzzer.log")
                continue
            duplicate = _duplicate(finding, saved)
            vector_file = None if duplicate else save(finding, artifacts, boundary)
            # Kept, but out of the way of the next campaign's triage.
            (crashes / TRIAGED).mkdir(exist_ok=True)
            source = source.rename(crashes / TRIAGED / source.name)
            if not duplicate:
                yield Triaged(source, finding, vector_file)
    finally:
        codec.close()
