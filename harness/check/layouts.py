"""Counting a vector's questions by layout as its variants are asked, for the rule that no
layout may be declined (coverage.py): a vector the codec answers as it is but declines once
moved or cut was declined for where it sat, not for what it is."""

from __future__ import annotations

from collections.abc import Sequence

from utf8cert.harness.check.coverage import Coverage
from utf8cert.harness.codec.interface import Capability


def layout_of(variant: str) -> str:
    """Return the layout a variant's name stands for: 'shift' for every 'shift-N', else the
    name itself ('as-is', 'mid-stream', 'straddle-4096')."""
    return "shift" if variant.startswith("shift-") else variant


class LayoutTally:
    """Counts, as one vector's variants are asked, the questions of each layout and how many
    were declined, on the capabilities that answered the vector as it is (see the module)."""

    def __init__(self, coverage: Coverage | None, capabilities: Sequence[Capability]) -> None:
        self.coverage = coverage
        self.capabilities = capabilities
        self.declined_as_is: set[Capability] = set()
        self.before: list[tuple[int, int]] = []

    def _now(self) -> list[tuple[int, int]]:
        assert self.coverage is not None
        return [
            (coverage.asked, sum(coverage.inapplicable.values()))
            for coverage in map(self.coverage.of, self.capabilities)
        ]

    def start(self) -> None:
        """Mark the start of one variant's questions."""
        if self.coverage is not None:
            self.before = self._now()

    def end(self, variant: str) -> None:
        """Count the questions asked since `start` under the variant's layout."""
        if self.coverage is None:
            return
        for capability, (asked, declined), (asked_before, declined_before) in zip(
            self.capabilities, self._now(), self.before, strict=True
        ):
            if variant == "as-is":
                if declined > declined_before:
                    self.declined_as_is.add(capability)
            elif capability not in self.declined_as_is:
                self.coverage.of(capability).count_layout(
                    layout_of(variant), asked - asked_before, declined - declined_before
                )
