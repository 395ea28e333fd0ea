"""The body of every fuzz execution: one input to every capability, and what to do on a difference.

A difference at or above the chosen level is either recorded for the campaign driver (the raw
input under `pending/`, named after the kind of difference, which the driver minimizes and turns
into a vector) or raised, as OSS-Fuzz and ClusterFuzzLite expect of a target.
"""

from __future__ import annotations

import hashlib
import os
import signal
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Final, NoReturn

from utf8cert.harness.check.behaviour import Behaviour, behaviour_of
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.interrupt import Stop
from utf8cert.harness.check.modes import HeldMode
from utf8cert.harness.check.probe import at_or_above, probe
from utf8cert.harness.check.profile import Profile
from utf8cert.harness.check.profiles import RFC3629
from utf8cert.harness.codec.interface import Capability, Codec
from utf8cert.harness.fuzzing.culprit import MAX_TRIES, culprit
from utf8cert.harness.fuzzing.finding import slug
from utf8cert.harness.fuzzing.inflight import CRASHES, InFlight
from utf8cert.harness.fuzzing.known import detail_stem, unknown
from utf8cert.harness.fuzzing.save import write_atomically
from utf8cert.harness.fuzzing.screen import conforms
from utf8cert.harness.fuzzing.signatures import CodecDiffers, raise_difference
from utf8cert.harness.vectors.model import LEVELS, Level

FINDING_EXIT: Final = 79
"""The exit status of a target that stopped at its first finding (recorded under pending/).

Not one of libFuzzer's own (70 timeout, 71 out of memory, 72 interrupted, 77 crash): in -fork
mode any other status is a crash, which stops the campaign as a first finding should."""
PENDING: Final = "pending"


class _UserInterrupt:
    """Whether this process was sent SIGINT: only then is a KeyboardInterrupt the user's."""

    received = False


def _interrupted(signum: int, frame: object) -> None:
    _UserInterrupt.received = True
    raise KeyboardInterrupt


def watch_interrupts() -> None:
    """Note SIGINT as it arrives (then raise KeyboardInterrupt, as Python does), so that a
    KeyboardInterrupt a codec raises itself is told apart from the user's."""
    signal.signal(signal.SIGINT, _interrupted)


class DifferentialTarget:
    """`TestOneInput(data)`: compares the codec with the reference on `data`."""

    def __init__(
        self,
        codec: Codec,
        *,
        capabilities: Iterable[Capability] | None = None,
        fail_on: Level = "must",
        findings: Path | None = None,
        keep_going: bool = False,
        max_len: int | None = None,
        known: frozenset[Behaviour] = frozenset(),
        profile: Profile = RFC3629,
        stop: Stop | None = None,
    ) -> None:
        self.codec = codec
        self.stopping = stop
        """Asked after each probe (triage): a signal that came while the codec was called is
        caught with the codec's own exceptions, as a crash; the stop it asked for is not."""
        wanted = codec.capabilities if capabilities is None else frozenset(capabilities)
        self.capabilities = wanted & codec.capabilities
        self.binding = at_or_above(fail_on)
        weaker = LEVELS[LEVELS.index(fail_on) + 1 :]
        self.next_level = weaker[0] if weaker else None
        self.pending = None if findings is None else findings / PENDING
        self.keep_going = keep_going
        self.known = known
        self.profile = profile
        self.held = HeldMode.of(codec)
        """The incremental mode held for the campaign (check/modes.py), as `check` holds it."""
        # The screen passes only what RFC 3629 itself expects: a dialect's inputs all go to the
        # probe, which judges them against the profile's reading.
        self.screened = profile is RFC3629
        self.recorded: set[Behaviour] = set()
        self.lesser = 0
        """Inputs that differed only at the level below the failing one."""
        self.crashes = None if findings is None else findings / CRASHES
        self.inflight = (
            None if self.crashes is None or max_len is None else InFlight(self.crashes, max_len)
        )

    def already_found(self) -> bool:
        """Return True if a finding is recorded (by another worker of a -fork campaign)."""
        return self.pending is not None and any(self.pending.glob("*.bin"))

    def stop(self) -> NoReturn:
        """End the process at once with FINDING_EXIT, its output flushed."""
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(FINDING_EXIT)  # libFuzzer's own crash handling would keep a second copy

    def found(self, data: bytes) -> list[Difference]:
        """Return the differences on `data` at or above the level that fails, known behaviours
        included ([] if none), each keyed on `data` as it is."""
        asked = probe(
            self.codec, data, capabilities=self.capabilities, profile=self.profile, held=self.held
        )
        if self.stopping is not None:
            self.stopping.check()
        # A difference from RFC 3629 that the profile allows is no difference from the profile.
        found = [d for d in asked if not d.allowed_by]
        binding = [difference for difference in found if difference.level in self.binding]
        if not binding:
            # Counted for the hint at the end: "rerun with --fail-on <the next level>".
            lesser = any(d.level == self.next_level for d in unknown(found, self.known))
            self.lesser += lesser
            if self.inflight is not None:
                self.inflight.lesser += lesser
        return binding

    def localized(
        self, data: bytes, found: Sequence[Difference] | None = None, *, max_tries: int = MAX_TRIES
    ) -> tuple[bytes, list[Difference]]:
        """Return the input the differences on `data` are keyed on (`data`, its ill-formed
        sequences but the one the codec got wrong overwritten with ASCII: culprit.py) and its
        differences at the failing level whose behaviour is not known ([] if none)."""
        found = self.found(data) if found is None else list(found)
        if not found:
            return data, []
        # The kinds seen are tried first: a known bug seen through another input, one probe.
        likely = sorted({b.detail for b in self.known | self.recorded if b.detail})
        data, found = culprit(data, found, self._unscreened, likely=likely, max_tries=max_tries)
        return data, unknown(found, self.known)

    def _unscreened(self, data: bytes) -> list[Difference]:
        """Return `found(data)`, [] at once for an input the screen passes."""
        if self.passes_screen(data):
            return []
        return self.found(data)

    def passes_screen(self, data: bytes) -> bool:
        """Return True if the screen (screen.py) passes `data`: the codec answers it exactly as a
        conformant codec does, so that `probe` would find nothing."""
        return self.screened and conforms(self.codec, data, self.capabilities, self.held.mode)

    def differences(self, data: bytes) -> list[Difference]:
        """Return the differences on `data` at or above the level that fails whose behaviour,
        taken on the sequence the codec got wrong, is not known ([] if none)."""
        return self.localized(data)[1]

    def __call__(self, data: bytes) -> None:
        if self.inflight is not None:
            self.inflight.start(data)
        try:
            self.judge(data)
        except KeyboardInterrupt:
            if _UserInterrupt.received:
                raise
            self.fault(data)
        if self.inflight is not None:
            self.inflight.done()

    def fault(self, data: bytes) -> None:
        """Save `data`, on which the codec raised KeyboardInterrupt, as a crash file for triage
        (replayed in a separate process) and stop; raise CodecDiffers without a findings
        directory."""
        if self.crashes is None:
            raise CodecDiffers(f"the codec raised KeyboardInterrupt\n  input: {data.hex()}")
        self.crashes.mkdir(parents=True, exist_ok=True)
        write_atomically(self.crashes / f"crash-{hashlib.sha1(data).hexdigest()}", data)
        if self.inflight is not None:
            self.inflight.done()
        if not self.keep_going:
            self.stop()

    def judge(self, data: bytes) -> None:
        """Return None when the codec agrees with the reference on `data`; else record the
        differences (or, without a findings directory, raise the first one's behaviour's
        exception: signatures.py)."""
        # The screen costs a fraction of a probe and passes nearly every input; only what it
        # does not pass is probed, and only a difference the probe finds counts.
        if self.passes_screen(data):
            return
        found = self.found(data)
        # Only an input that might show a behaviour not seen yet is localized (a few probes):
        # its first ill-formed sequence may not be the one the codec got wrong (culprit.py).
        if all(behaviour_of(d) in self.known or behaviour_of(d) in self.recorded for d in found):
            return
        data, differences = self.localized(data, found)
        if not differences:
            return
        if self.pending is None:
            raise_difference(differences[0], data)
        self.record(data, differences)

    def record(self, data: bytes, differences: Sequence[Difference]) -> None:
        """Save `data` (the input localized on the sequence the codec got wrong) under pending/
        if it shows a behaviour not recorded before, named after the first such difference and
        its behaviour (`pending_stem`); exit unless keep_going.

        One input is one finding, whatever number of capabilities it differs on; a behaviour
        already saved (by this process or, under the same name, by another worker of a
        fork-mode campaign) is not saved again: `--keep-going` collects behaviours, not inputs.
        """
        assert self.pending is not None
        new = [
            difference
            for difference in differences
            if behaviour_of(difference) not in self.recorded
        ]
        self.recorded.update(behaviour_of(difference) for difference in differences)
        if new:
            path = self.pending / f"{pending_stem(new[0])}.bin"
            if not path.exists():
                self.pending.mkdir(parents=True, exist_ok=True)
                write_atomically(path, data)
        if not self.keep_going:
            if self.inflight is not None:
                self.inflight.done()
            self.stop()


def pending_stem(difference: Difference) -> str:
    """Return the file-name stem of a difference's finding: the kind of difference, and the
    detail of its behaviour when it has one ('decode-accepted-ill-formed-input-overlong'), so
    that two behaviours are two names and one behaviour one."""
    detail = detail_stem(difference)
    return f"{slug(difference)}-{detail}" if detail else slug(difference)
