"""The conformance suite under pytest: the codec, vectors, baseline and profile loaded once
(`load_suite`), the (vector, capability) cases, the check and explanation of one case, and the
coverage of a capability over every case (the pytest items that run them: items.py). Imported by
the plugin only when the suite is asked for."""

from __future__ import annotations

import dataclasses
import shlex
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from utf8cert.harness.check.baseline import Baseline, BaselineError, load_baseline
from utf8cert.harness.check.breaker import Guard, Note
from utf8cert.harness.check.coverage import CapabilityCoverage, Coverage
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.fatal import enabled_to_stderr
from utf8cert.harness.check.interrupt import Stop
from utf8cert.harness.check.prefetch import prefetched
from utf8cert.harness.check.profile import Profile
from utf8cert.harness.check.profiles import RFC3629, profile_named
from utf8cert.harness.check.recheck import Recheck
from utf8cert.harness.check.run import capabilities_for, check_vector, vector_index
from utf8cert.harness.check.schedule import DEPTHS, Depth, Schedule, schedule
from utf8cert.harness.codec.children import DEFAULT_MEMORY_MB
from utf8cert.harness.codec.interface import Capability, Codec
from utf8cert.harness.codec.isolate import ProcessCodec
from utf8cert.harness.codec.limits import MAX_MEMORY_MIB, MAX_SECONDS
from utf8cert.harness.codec.raised import describe_exception
from utf8cert.harness.codec.spec import CodecSpecError
from utf8cert.harness.reports.explain import Rerun, explain, grouped, user_vector_ids
from utf8cert.harness.vectors.load import VectorLoadError, load_vectors
from utf8cert.harness.vectors.model import LEVELS, Level, Vector, VectorSet
from utf8cert.harness.world.spec import load_codec

SUITE_NODE_ID = "utf8cert"
SHOWN_FAILURES = 2
"""At most this many ways an item fails are explained in its failure (each is one vector on
one capability: rarely more than two ways)."""


class SuiteError(Exception):
    """The suite cannot be set up (bad spec, vector file or baseline); str() is one line."""


@dataclass
class Suite:
    """A loaded codec, its vectors and what fails: everything an item needs to run."""

    codec: Codec
    vectors: VectorSet
    fail_on: Level = "must"
    baseline: Baseline | None = None
    rerun: Rerun | None = None
    profile: Profile = RFC3629
    depth: Depth = "default"
    note: Note | None = None
    """For an in-process codec: what a fatal error in it prints (check/fatal.py)."""
    stderr: int | None = None
    """For an in-process codec: where that goes, a copy of the file descriptor of stderr taken
    before pytest captured it (None: stderr)."""

    counted: dict[tuple[str, Capability], CapabilityCoverage] = dataclasses.field(
        default_factory=dict
    )
    """The questions of each case checked in this process, by how they ended (vector id,
    capability): what the coverage of a capability is made of."""
    recheck: Recheck = dataclasses.field(default_factory=Recheck)
    """The questions kept, as the cases ask them, to be asked again (check/recheck.py)."""

    @cached_property
    def schedule(self) -> Schedule:
        """Return the plan of every vector, worked out at the first check (an xdist controller
        checks nothing)."""
        return schedule(self.vectors, self.depth)

    @property
    def known(self) -> frozenset[tuple[str, str, str, str]]:
        """Return the keys of the baseline's deviations (empty without a baseline)."""
        return self.baseline.keys if self.baseline is not None else frozenset()

    @cached_property
    def known_cases(self) -> frozenset[tuple[str, str]]:
        """Return (vector id, capability) of every deviation in the baseline."""
        return frozenset((key[0], key[2]) for key in self.known)

    def known_on(self, vector: Vector, capability: Capability) -> bool:
        """Return True when the baseline lists a deviation of this vector on this capability."""
        return (vector.id, capability) in self.known_cases

    def themes(self) -> dict[str, str]:
        """Return the theme of each vector (the theme of its file), by id."""
        return {vector.id: file.theme for file in self.vectors.files for vector in file.vectors}

    def cases(self) -> list[tuple[Vector, Capability]]:
        """Return (vector, capability) for every check to run, in vector order."""
        return [
            (vector, capability)
            for vector in self.vectors
            for capability in capabilities_for(vector, self.codec.capabilities)
        ]

    def failing(self, differences: Sequence[Difference]) -> list[Difference]:
        """Return the differences that fail an item: at `fail_on` or above, not known."""
        levels = LEVELS[: LEVELS.index(self.fail_on) + 1]
        return [d for d in differences if d.level in levels and d.key not in self.known]

    def failure_text(self, failing: Sequence[Difference]) -> str:
        """Return the explanation of failing differences in a few lines each, as `utf8cert
        check` prints them less the vector's flag notes (the session's summary groups them by
        behaviour): the first SHOWN_FAILURES ways the item fails, and how many more."""
        vectors = vector_index(self.vectors)
        ways = grouped(failing)
        blocks = [
            "\n".join(
                explain(first, vectors.get(first.vector), rerun=self.rerun, also=also, notes=False)
            )
            for first, also in ways[:SHOWN_FAILURES]
        ]
        more = len(ways) - SHOWN_FAILURES
        if more > 0:
            blocks.append(f"… and {more} more ways this item fails (utf8cert check -v shows them)")
        return "\n\n".join(blocks)

    def check(
        self, vector: Vector, capability: Capability, stop: Stop | None = None
    ) -> list[Difference]:
        """Return every difference of one vector on one capability from the profile, in the
        variants its schedule gives it ([] passes; a departure from RFC 3629 the profile allows is
        none); Interrupted when `stop` is told to stop."""
        plan = self.schedule.plan(vector)
        guard = Guard(Stop() if stop is None else stop, self.note)
        asking = prefetched(self.codec, vector, (capability,), plan, guard.stop)  # pipelined
        asking = self.recheck.watch(asking, vector.id)
        counted = Coverage()  # kept only once the case is checked whole
        # In process, a codec that calls os._exit first leaves the note of the question.
        with enabled_to_stderr(self.stderr) if self.note is not None else nullcontext():
            found = check_vector(
                counted.watch(asking),
                vector,
                (capability,),
                self.profile,
                counted,
                plan=plan,
                guard=guard,
            )
        self.counted[vector.id, capability] = counted.of(capability)
        return [difference for difference in found if not difference.allowed_by]

    def stability(self, stop: Stop | None = None) -> list[Difference]:
        """Return the differences of the questions asked again, as `utf8cert check` asks them
        at the end of its run: a `must` difference for each answer that changed ([] when every
        answer stood); the cases not checked in this process are checked first. Interrupted
        when `stop` is told to stop."""
        for capability in sorted({capability for _, capability in self.cases()}):
            self.coverage(capability, stop)
        guard = Guard(Stop() if stop is None else stop, self.note)
        with enabled_to_stderr(self.stderr) if self.note is not None else nullcontext():
            return self.recheck.again(self.codec, guard)

    def coverage(self, capability: Capability, stop: Stop | None = None) -> CapabilityCoverage:
        """Return the questions of every case of `capability` by how they ended: those checked
        in this process already, the others checked now (under -k, xdist or --lf an item runs
        without the others); Interrupted when `stop` is told to stop."""
        total = Coverage()
        for vector, each in self.cases():
            if each == capability:
                if (vector.id, capability) not in self.counted:
                    self.check(vector, capability, stop)
                total.add(Coverage({capability: self.counted[vector.id, capability]}))
        return total.of(capability)


def load_suite(
    codec: str | Codec | None,
    *,
    vectors: Sequence[str | Path] = (),
    fail_on: str = "must",
    baseline: str | Path | None = None,
    profile: str | None = None,
    isolate: bool = False,
    timeout: float = 10.0,
    depth: str = "default",
    memory_mb: int = DEFAULT_MEMORY_MB,
) -> Suite:
    """Return the suite for a codec (spec or Codec); SuiteError (one line) if it cannot load.
    `memory_mb` is the MiB a codec in a child process may allocate (--utf8-isolate, cmd:)."""
    if fail_on not in LEVELS:
        raise SuiteError(f"fail_on must be one of {', '.join(LEVELS)}, not {fail_on!r}")
    try:
        dialect = profile_named(profile or RFC3629.name)
    except KeyError as error:
        raise SuiteError(str(error.args[0])) from None
    level = LEVELS[LEVELS.index(fail_on)]
    if depth not in DEPTHS:
        raise SuiteError(f"depth must be one of {', '.join(DEPTHS)}, not {depth!r}")
    how_deep = DEPTHS[DEPTHS.index(depth)]
    if memory_mb < 1:
        raise SuiteError(f"the memory limit must be at least 1 MiB, not {memory_mb}")
    if memory_mb > MAX_MEMORY_MIB:  # setrlimit takes the bytes in 64 bits (codec/limits.py)
        raise SuiteError(f"the memory limit must be at most {MAX_MEMORY_MIB} MiB, not {memory_mb}")
    if not 0 < timeout <= MAX_SECONDS:  # NaN too; select takes no infinity (codec/limits.py)
        raise SuiteError(
            f"the timeout must be more than 0 and at most {MAX_SECONDS} seconds, not {timeout}"
        )
    try:
        vector_set = load_vectors(vectors)
        known = load_baseline(baseline) if baseline is not None else None
        if codec is None or isinstance(codec, str):
            codec = load_codec(codec, isolate=isolate, timeout=timeout, memory_mb=memory_mb)
        if known is not None:
            known = known.matching(codec.spec, None if dialect.is_reference else dialect.name)
    except (VectorLoadError, CodecSpecError, BaselineError) as error:
        raise SuiteError(str(error)) from None
    except OSError as error:
        raise SuiteError(f"{error.filename or ''}: {error.strerror or error}") from None
    except Exception as error:  # a loader tripping on a hostile file: still a usage error
        raise SuiteError(f"cannot load the suite: {describe_exception(error)}") from None
    paths = tuple(str(path) for path in vectors)
    named = None if dialect.is_reference else dialect.name
    isolated = isinstance(codec, ProcessCodec)  # a reproducer says --in-process otherwise
    rerun = Rerun(codec.spec, isolated, timeout, named, paths, user_vector_ids(vector_set))
    if memory_mb != DEFAULT_MEMORY_MB:  # a memory failure reproduces under the same limit only
        rerun = dataclasses.replace(rerun, memory=memory_mb)
    return Suite(codec, vector_set, level, known, rerun, dialect, how_deep)


def fatal_note(words: Sequence[str]) -> Note:
    """Return the note an in-process codec that kills pytest leaves on stderr (check/fatal.py):
    the vector and capability asked, and the pytest command that asks them in a child process
    (`words`: the command that reproduces this run)."""

    def note(vector: str, capability: str) -> str:
        again = shlex.join([*words, "--utf8-isolate", "-k", f"{vector}[{capability}]"])
        return (
            f"utf8cert: the codec was asked vector {vector} on {capability} in this process and "
            f"took it down; in a child process that is a failure: {again}"
        )

    return note
