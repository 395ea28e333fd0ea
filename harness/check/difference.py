"""A difference: the one finding type, one way a codec departs from the expectation for one
input, as every judge, report, baseline and fuzzer passes it on.

The comparison that makes differences is compare.py; this module holds only the types, so that
a module that reads differences imports nothing of the judging.
"""

from __future__ import annotations

from dataclasses import dataclass

from utf8cert.harness.codec.interface import Capability
from utf8cert.harness.vectors.model import Level

Marks = tuple[tuple[int, int], ...]
"""(start, end) of each run of bytes to point at in a hex dump; () when there is none."""

Label = tuple[str, str]
"""(vector id, variant name) of the input being compared."""


@dataclass(frozen=True)
class Difference:
    """One way a codec departs from the expectation for one input, and how much it matters."""

    vector: str
    """The vector's id ('input' for an ad-hoc byte string)."""
    variant: str
    """Which variant of the vector (as-is, mid-stream, shift-N, straddle-N), and for
    incremental decoding how it was cut."""
    capability: Capability
    level: Level
    what: str
    """A few words: 'accepted ill-formed input', 'wrong error offset', 'wrong U+FFFD count'."""
    input: bytes | tuple[int, ...]
    """The bytes decoded, or the code points encoded."""
    expected: str
    actual: str
    window: tuple[int, int]
    """Where the vector's bytes (or code points) lie in `input`."""
    marks: Marks = ()
    """(start, end) of the bytes to point at in a hex dump: the ill-formed or mis-decoded ones."""
    explained_by: tuple[str, ...] = ()
    """For a `must` difference from RFC 3629: the dialect profiles under which the answer has
    none (fingerprint.py)."""
    allowed_by: str = ""
    """Set when the answer differs from RFC 3629 only as the profile of that name allows: a
    departure the run counts, never a difference that fails it."""
    spared: int = 0
    """For a crash or a hang: how many questions of its vector and capability were skipped
    after it (breaker.py), which a baseline that knows this difference excuses from the gate's
    coverage (reports/view.py)."""

    @property
    def key(self) -> tuple[str, str, str, str]:
        """Return what identifies this difference across runs (for a baseline)."""
        return (self.vector, self.variant, self.capability, self.what)
