"""How adequate the built-in vectors are: the share of the single-point defects of three
hand-written codecs of different designs that the check with them catches, as bench/mutants.py
last measured it, for each codec and overall.

    adequacy() -> Adequacy        the committed figure (vectors/adequacy.json)
    statement() -> str            'the built-in vectors kill N of M defective mutants ...'
    whole_builtin(vectors) -> bool   does a run use every built-in vector?

The figure is data, read from a small file shipped with the vectors, never measured at run
time (the analysis takes hours); tests/bench/test_mutation.py holds it to the results files of
bench/mutation/, so that it cannot drift from the analysis it quotes.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Final

from utf8cert.harness.vectors.load import BUILTIN_PACKAGE, builtin_files
from utf8cert.harness.vectors.model import VectorSet

FIGURE: Final = "adequacy.json"
_ID_LINE: Final = re.compile(r"^  - id: ", re.MULTILINE)


@dataclass(frozen=True)
class Parent:
    """The mutation analysis of one parent codec: its design, its mutants, equivalent, killed."""

    name: str
    design: str
    mutants: int
    """The mutants judged (all of the parent's but where a run was cut short: `total`)."""
    equivalent: int
    killed: int
    total: int
    """The parent's mutants, judged or not."""
    choice: int
    """Mutants that differ from the parent only in a choice the standard leaves to a codec
    (bench/mutation/equivalence.py): conformant codecs, which the check rightly passes."""

    @property
    def defective(self) -> int:
        """Return the mutants that depart from the standard: neither equivalent nor a choice."""
        return self.mutants - self.equivalent - self.choice


@dataclass(frozen=True)
class Adequacy:
    """The mutation analysis in four numbers (the sums over its parents), and each parent's."""

    mutants: int
    equivalent: int
    choice: int
    killed: int
    measured: str
    """When (a date, the latest parent's), so that a reader can tell a stale figure."""
    parents: tuple[Parent, ...] = ()

    @property
    def defective(self) -> int:
        """Return the mutants that depart from the standard: neither equivalent nor a choice."""
        return self.mutants - self.equivalent - self.choice


@cache
def adequacy() -> Adequacy:
    """Return the committed figure of the mutation analysis."""
    data = json.loads((files(BUILTIN_PACKAGE) / FIGURE).read_text(encoding="utf-8"))
    parents = tuple(
        Parent(
            p["parent"],
            p["design"],
            p["mutants"],
            p["equivalent"],
            p["killed"],
            p.get("total", p["mutants"]),
            p["choice"],
        )
        for p in data.get("parents", ())
    )
    return Adequacy(
        data["mutants"],
        data["equivalent"],
        data["choice"],
        data["killed"],
        data["measured"],
        parents,
    )


NUMBERS: Final = {1: "a", 2: "two", 3: "three", 4: "four"}


def statement() -> str:
    """Return the figure in words, for a certificate and `utf8cert vectors list`: overall, then
    each parent's by its design."""
    figure = adequacy()
    codecs = NUMBERS.get(len(figure.parents) or 1, str(len(figure.parents)))
    plural = "s" if len(figure.parents) > 1 else ""
    each = "".join(
        f"{p.design}: {p.killed} of {p.defective}"
        + (f" ({p.mutants} of its {p.total} mutants judged)" if p.total != p.mutants else "")
        + "; "
        for p in figure.parents
        if plural
    )
    choices = (
        f"{figure.choice} more differ from their codec only in a choice the standard leaves"
        " open, and pass; "
        if figure.choice
        else ""
    )
    return (
        f"the built-in vectors kill {figure.killed} of {figure.defective} defective mutants of"
        f" {codecs} hand-written codec{plural} ({each}{choices}mutation analysis,"
        f" docs/mutation.md, {figure.measured})"
    )


@cache
def _builtin_counts() -> dict[str, int]:
    """Return the number of vectors in each built-in file, by path, from its text (one
    `  - id:` line a vector, as every built-in file is written)."""
    return {
        str(entry): len(_ID_LINE.findall(entry.read_text("utf-8"))) for entry in builtin_files()
    }


def whole_builtin(vectors: VectorSet) -> bool:
    """Return True when `vectors` hold every built-in vector (none left out by --vector)."""
    counts = {vector_file.path: len(vector_file.vectors) for vector_file in vectors.files}
    return all(counts.get(path) == count for path, count in _builtin_counts().items())
