"""The body of every fuzz execution: one input to every capability, and what to do on a difference.

A difference at or above the chosen level is either recorded for the campaign driver (the raw
input under `pending/`, named after the kind of difference, which the driver minimizes and turns
into a vector) or raised, as OSS-Fuzz and ClusterFuzzLite expect of a target.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Final, NoReturn

from utf8cert.harness.check.compare import Difference
from utf8cert.harness.check.probe import at_or_above, probe
from utf8cert.harness.codec.interface import Capability, Codec
from utf8cert.harness.fuzzing.finding import slug, write_atomically
from utf8cert.harness.fuzzing.screen import conforms
from utf8cert.harness.vectors.model import Level

FINDING_EXIT: Final = 79
"""The exit status of a target that stopped at its first finding (recorded under pending/).

Not one of libFuzzer's own (70 timeout, 71 out of memory, 72 interrupted, 77 crash): in -fork
mode any other status is a crash, which stops the campaign as a first finding should."""
PENDING: Final = "pending"


class CodecDiffers(AssertionError):
    """Raised by a target without a findings directory: the codec and the reference differ."""


def describe(difference: Difference, data: bytes) -> str:
    """Return a difference in a few lines: what, where, expected, actual, and the input."""
    return (
        f"{difference.capability}: {difference.what} ({difference.level})\n"
        f"  input:    {data.hex(' ').upper() if len(data) <= 256 else f'{len(data)} bytes'}\n"
        f"  variant:  {difference.variant}\n"
        f"  expected: {difference.expected}\n"
        f"  actual:   {difference.actual}"
    )


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
    ) -> None:
        self.codec = codec
        wanted = codec.capabilities if capabilities is None else frozenset(capabilities)
        self.capabilities = wanted & codec.capabilities
        self.binding = at_or_above(fail_on)
        self.pending = None if findings is None else findings / PENDING
        self.keep_going = keep_going
        self.recorded: set[str] = set()

    def already_found(self) -> bool:
        """Return True if a finding is recorded (by another worker of a -fork campaign)."""
        return self.pending is not None and any(self.pending.glob("*.bin"))

    def stop(self) -> NoReturn:
        """End the process at once with FINDING_EXIT, its output flushed."""
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(FINDING_EXIT)  # libFuzzer's own crash handling would keep a second copy

    def differences(self, data: bytes) -> list[Difference]:
        """Return the differences on `data` at or above the level that fails ([] if none)."""
        found = probe(self.codec, data, capabilities=self.capabilities)
        return [difference for difference in found if difference.level in self.binding]

    def __call__(self, data: bytes) -> None:
        # The screen costs a fraction of a probe and passes nearly every input; only what it
        # does not pass is probed, and only a difference the probe finds counts.
        if conforms(self.codec, data, self.capabilities):
            return
        differences = self.differences(data)
        if not differences:
            return
        if self.pending is None:
            raise CodecDiffers(describe(differences[0], data))
        self.record(data, differences)

    def record(self, data: bytes, differences: Sequence[Difference]) -> None:
        """Save `data` under pending/ for each new kind of difference; exit unless keep_going.

        A kind already saved (by this process or another worker of a fork-mode campaign) is
        not saved again: `--keep-going` collects kinds of difference, not inputs.
        """
        assert self.pending is not None
        for difference in differences:
            stem = slug(difference)
            if stem in self.recorded:
                continue
            self.recorded.add(stem)
            path = self.pending / f"{stem}.bin"
            if path.exists():
                continue
            self.pending.mkdir(parents=True, exist_ok=True)
            write_atomically(path, data)
        if not self.keep_going:
            self.stop()
