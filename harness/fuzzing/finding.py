"""A fuzzing finding: the differences on one minimized input, and how it is told — a one-line
`utf8cert check` reproducer and an explanation of what each capability did.

It is minimized by minimize.py, written as a vector by finding_vector.py and saved by save.py.
"""

from __future__ import annotations

import hashlib
import re
import shlex
from dataclasses import dataclass
from typing import Final

from utf8cert.harness.check.difference import Difference
from utf8cert.harness.fuzzing.kinds import error_spans
from utf8cert.harness.vectors.model import Level


def slug(difference: Difference) -> str:
    """Return the kind of a difference as a file-name stem: capability and what, hyphenated."""
    words = re.sub(r"[^a-z0-9]+", "-", difference.what.lower()).strip("-")
    return f"{difference.capability}-{words}"


@dataclass(frozen=True)
class Reproduce:
    """What `utf8cert check` must be told, beyond the codec and the input, to fail as the
    campaign did."""

    fail_on: Level = "must"
    """The campaign's --fail-on: a `should` finding passes `check` at the default level."""
    isolate: bool = False
    """The finding was replayed in a separate process (a crash or a hang): in-process, `check`
    would die with the codec."""
    timeout: float | None = None
    """Seconds one call may take (with isolate), for a hang."""
    profile: str = "rfc3629"
    """The dialect the codec was judged by."""

    def options(self) -> list[str]:
        """Return the `utf8cert check` options, as separate arguments."""
        options = [] if self.fail_on == "must" else ["--fail-on", self.fail_on]
        if self.profile != "rfc3629":
            options += ["--profile", self.profile]
        if self.isolate:
            options.append("--isolate")
            if self.timeout is not None:
                options += ["--timeout", f"{self.timeout:g}"]
        return options


@dataclass(frozen=True)
class Finding:
    """The differences on one (minimized) input, and the codec they were found on: one bug,
    every capability it shows on."""

    spec: str
    data: bytes
    difference: Difference
    """The difference the input was minimized for (the first capability that shows it)."""
    others: tuple[Difference, ...] = ()
    """The input's other differences at the failing level (other capabilities, mostly)."""
    reproduce: Reproduce = Reproduce()
    name: str = ""
    """The file-name stem, when not the kind of difference alone (a second input of that kind
    of difference showing another behaviour)."""

    @property
    def differences(self) -> tuple[Difference, ...]:
        """Return every difference of the finding, the one it was minimized for first."""
        return (self.difference, *self.others)

    @property
    def capabilities(self) -> list[str]:
        """Return the capabilities the finding shows on, in the order they were asked."""
        return list(dict.fromkeys(d.capability for d in self.differences))

    @property
    def stem(self) -> str:
        """Return the file-name stem of the finding: its name, else its kind of difference."""
        return self.name or slug(self.difference)

    @property
    def digest(self) -> str:
        """Return the first 12 hex digits of the SHA-1 of the input (the vector id's tail)."""
        return hashlib.sha1(self.data).hexdigest()[:12]


def reproducer(finding: Finding) -> str:
    """Return the one shell line that shows the finding again with `utf8cert check`: the one
    input on every capability (`--input HEX`: the encoder is offered the code points the fuzzer
    offered), with the options that make it fail as the campaign did."""
    options = finding.reproduce.options()
    return shlex.join(
        ["utf8cert", "check", finding.spec, *options, "--input", finding.data.hex().upper()]
    )


def spaced_hex(data: bytes) -> str:
    """Return the bytes as upper-case hex pairs separated by spaces ('' for none)."""
    return data.hex(" ").upper()


SHOWN_WHOLE: Final = 256
"""Longer inputs are shown as a window around where the answers part (the .bin has them all)."""
WINDOW: Final = (16, 32)
"""Bytes shown before and after that offset."""


def _shown_input(finding: Finding) -> str:
    """Return the input in hex: whole up to SHOWN_WHOLE bytes, else its length and a window
    around the first byte a decoding difference points at (or the first error), with that
    offset, the bytes pointed at in brackets."""
    data = finding.data
    if len(data) <= SHOWN_WHOLE:
        return spaced_hex(data) or "(no bytes)"
    decoding = [d for d in finding.differences if isinstance(d.input, bytes) and d.marks]
    marks = decoding[0].marks if decoding else ()
    spans = error_spans(data)
    at = marks[0][0] if marks else spans[0][0] if spans else 0
    start, end = max(0, at - WINDOW[0]), min(len(data), at + WINDOW[1])
    pointed = {index for mark_start, mark_end in marks for index in range(mark_start, mark_end)}
    shown = " ".join(
        f"[{data[index]:02X}]" if index in pointed else f"{data[index]:02X}"
        for index in range(start, end)
    )
    before = "… " if start else ""
    after = " …" if end < len(data) else ""
    return f"{len(data)} bytes; at offset {at}: {before}{shown}{after} (offsets {start}..{end - 1})"


def explanation(finding: Finding) -> str:
    """Return what the finding is, in lines: the codec, the input, and for each capability that
    differs what it did against what it should have."""
    d = finding.difference
    lines = [
        f"{d.capability}: {d.what} ({d.level}), on {', '.join(finding.capabilities)}",
        f"codec:    {finding.spec}",
        f"input:    {_shown_input(finding)}",
    ]
    for other in finding.differences:
        lines += [
            f"{other.capability}: {other.what} ({other.level})",
            f"  variant:  {other.variant}",
            f"  expected: {other.expected}",
            f"  actual:   {other.actual}",
        ]
    return "\n".join(lines) + "\n"
