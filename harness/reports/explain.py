"""A difference explained in plain lines: what was expected, what came, and the bytes at fault.

The terminal report, the markdown certificate and the pytest plugin all print these lines, so a
difference reads the same wherever it is shown. Marked bytes are bracketed: `61 61 [C0 AF] 61`.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from utf8cert.harness.check.behaviour import Group
from utf8cert.harness.check.describe import plural
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.recheck import VARIANT as ASKED_AGAIN
from utf8cert.harness.check.seeded import SEEDED
from utf8cert.harness.check.sweep import SWEEP
from utf8cert.harness.reports.places import shown_origin
from utf8cert.harness.vectors.model import LEVELS, Vector, VectorSet

ROW: Final = 16
"""Bytes per hex dump row."""
CONTEXT: Final = 8
"""Bytes of context shown on each side of the vector's bytes in a long input."""
DUMP_LIMIT: Final = 32 * ROW
"""At most this many values are dumped whole (more than any vector with its context needs)."""
FOCUS: Final = 8 * ROW
"""How many values of a longer dump (a long ad-hoc input) are shown, around the first mark."""
REPRODUCIBLE: Final = 96
"""Inputs up to this length are reproduced with `utf8cert check --input HEX`; longer ones, and
the vectors of the user's files, with `--vector ID`."""


def user_vector_ids(vectors: VectorSet) -> frozenset[str]:
    """Return the ids of the vectors that come from the user's files, not the built-in ones."""
    from utf8cert.harness.vectors.load import builtin_files

    builtin = {str(entry) for entry in builtin_files()}
    return frozenset(
        v.id for file in vectors.files if file.path not in builtin for v in file.vectors
    )


@dataclass(frozen=True)
class Rerun:
    """The options of a run that matter to reproduce one of its differences."""

    spec: str
    isolate: bool = False
    """Whether the codec ran in a child process (isolated, the CLI's default, or a program);
    False: in utf8cert's own process, which a reproducer asks for with --in-process."""
    timeout: float | None = None
    """Seconds per call; it matters only in a child process (isolated, or a cmd: codec)."""
    profile: str | None = None
    vectors: tuple[str, ...] = ()
    """The user's --vectors paths."""
    user_vectors: frozenset[str] = frozenset()
    """The ids of the vectors read from those paths."""
    input_file: str | None = None
    """The file the one input of `--input-file` was read from."""
    memory: int | None = None
    """MiB a child process may allocate, when not the default (a `memory` finding needs it)."""
    only: tuple[str, ...] = ()
    """The run's --vector ids: the vectors it was restricted to (none: every vector)."""
    depth: str = "default"
    """The run's --depth."""
    writable: tuple[str, ...] = ()
    """The run's --sandbox-writable paths: what its codec's child could write."""
    environment: tuple[str, ...] = ()
    """The run's --sandbox-env names: the variables its codec's child got besides the few."""
    seed: int | None = None
    """The run's --seed, when not the default: the seeded pass's inputs (check/seeded.py)."""

    def options(self) -> list[str]:
        """Return the options that make a codec behave as in this run (in process or not,
        timeout, memory, profile), as words: isolated is the CLI's default, so only a codec that
        ran in process needs one (--in-process; a cmd: program always runs in a child)."""
        program = self.isolate or self.spec.startswith("cmd:")
        words = [] if program else ["--in-process"]
        if program:
            if self.timeout is not None:
                words += ["--timeout", f"{self.timeout:g}"]
            if self.memory is not None:
                words += ["--memory", str(self.memory)]
            words += [word for path in self.writable for word in ("--sandbox-writable", path)]
            words += [word for name in self.environment for word in ("--sandbox-env", name)]
        return words + (["--profile", self.profile] if self.profile else [])

    def command(self, difference: Difference) -> str | None:
        """Return the `utf8cert check` command, quoted for a POSIX shell, that shows the
        difference again; None for an ad-hoc input that is no byte string. A question asked
        again at the end of a run (check/recheck.py) is answered another way only after the
        run's other questions (a codec that wears out after thousands of calls): the whole run
        again, with its vectors and depth, shows it."""
        words = ["utf8cert", "check", self.spec, *self.options()]
        data = difference.input
        builtin = difference.vector not in self.user_vectors
        files = [word for path in self.vectors for word in ("--vectors", path)]
        if difference.variant == ASKED_AGAIN and difference.vector != "input":
            words += files + [word for vector in self.only for word in ("--vector", vector)]
            words += [] if self.depth == "default" else ["--depth", self.depth]
        elif difference.vector == "input" and self.input_file is not None:
            words += ["--input-file", self.input_file]  # the encoder's code points come from it
        elif isinstance(data, bytes) and len(data) <= REPRODUCIBLE and builtin:
            words += ["--input", data.hex()]
        elif difference.vector in (SWEEP, SEEDED):  # after the vectors of a whole run
            words += files + ([] if self.depth == "default" else ["--depth", self.depth])
            words += [] if self.seed is None else ["--seed", str(self.seed)]
        elif difference.vector != "input":
            words += [*files, "--vector", difference.vector]
        else:
            return None
        return shlex.join(words)


def _skipped(values: Sequence[int], start: int, end: int, name: Callable[[int], str]) -> str:
    """Return a line standing for values[start:end], left out of a dump."""
    count = end - start
    if isinstance(values, bytes):  # counted in place: a slice of a long input is a copy
        alike = values.count(values[start : start + 1], start, end) == count
    else:
        alike = len(set(values[start:end])) == 1
    if alike:
        return f"  … {count} times {name(values[start])} …"
    return f"  … {count} more …"


def _plain_row(values: Sequence[int], start: int, stop: int, marked: set[int]) -> bool:
    """Return whether values[start:stop] is one value repeated, none of it marked."""
    row = values[start:stop]
    return not marked.intersection(range(start, stop)) and len(set(row)) == 1


def _in_plain_run(plain: Sequence[bool], place: int) -> bool:
    """Return whether row `place` of a dump is left out: plain, its neighbours plain too (so a
    marked row keeps a row of context on each side), in a run of at least two such rows."""

    def inner(at: int) -> bool:
        return 0 < at < len(plain) - 1 and plain[at - 1] and plain[at] and plain[at + 1]

    if not 0 <= place < len(plain) or not inner(place):
        return False
    return inner(place - 1) or inner(place + 1)


def focus(window: tuple[int, int], marks: Sequence[tuple[int, int]], limit: int) -> tuple[int, int]:
    """Return the part of `window` worth showing when it holds more than `limit` values (a
    long ad-hoc input): `limit` of them, from a quarter of that before its first mark (or its
    start); the window itself when it is short enough."""
    start, end = window
    if end - start <= limit:
        return window
    first = min((mark for mark, _ in marks if start <= mark < end), default=start)
    start = max(start, min(first - limit // 4, end - limit))
    return start, start + limit


def _shown_range(size: int, window: tuple[int, int], marks: Sequence[tuple[int, int]]) -> range:
    """Return the indices worth showing: the window and the marks near it, with some context;
    of more than DUMP_LIMIT (a long ad-hoc input), FOCUS of them around the first mark."""
    start, end = window
    for mark_start, mark_end in marks:
        if start - 4 * ROW <= mark_start <= end + 4 * ROW:
            start, end = min(start, mark_start), max(end, mark_end)
    start, end = max(0, start - CONTEXT), min(size, end + CONTEXT)
    if end - start > DUMP_LIMIT:
        start, end = focus((start, end), marks, FOCUS)
    return range(start, end)


def _cells(
    values: Sequence[int], start: int, stop: int, marked: set[int], name: Callable[[int], str]
) -> str:
    """Return values[start:stop] named and spaced, each run of marked indices bracketed."""
    cells = []
    for index in range(start, stop):
        cell = name(values[index])
        if index in marked and (index == 0 or index - 1 not in marked):
            cell = "[" + cell
        if index in marked and (index + 1 == len(values) or index + 1 not in marked):
            cell += "]"
        cells.append(cell)
    return " ".join(cells)


def dump(
    values: Sequence[int],
    window: tuple[int, int],
    marks: Sequence[tuple[int, int]],
    name: Callable[[int], str],
    per_row: int = ROW,
) -> list[str]:
    """Return dump lines of `values` (bytes or code points), marked ranges bracketed, the far
    padding of a long input (or all but FOCUS values around the first mark) left out, and so
    are runs of rows of one repeated value away from every mark (a line says how many);
    ['  (empty)'] for no values."""
    if not values:
        return ["  (empty)"]
    shown = _shown_range(len(values), window, marks)
    first = shown.start // per_row * per_row
    marked = {
        index
        for mark_start, mark_end in marks
        for index in range(max(mark_start, first), min(mark_end, shown.stop))
    }
    lines = [_skipped(values, 0, first, name)] if first else []
    rows = range(first, shown.stop, per_row)
    plain = [_plain_row(values, row, min(row + per_row, shown.stop), marked) for row in rows]
    for place, row in enumerate(rows):
        if plain[place] and _in_plain_run(plain, place):
            if not _in_plain_run(plain, place - 1):  # the first row of a run stands for it
                run_end = place
                while run_end + 1 < len(plain) and _in_plain_run(plain, run_end + 1):
                    run_end += 1
                stop = min(rows[run_end] + per_row, shown.stop)
                lines.append(_skipped(values, row, stop, name))
            continue
        cells = _cells(values, row, min(row + per_row, shown.stop), marked, name)
        lines.append(f"  {row:06X}  {cells}")
    if shown.stop < len(values):
        lines.append(_skipped(values, shown.stop, len(values), name))
    return lines


def _hex(value: int) -> str:
    return f"{value:02X}"


def _code_point(value: int) -> str:
    return f"U+{value:04X}"


def input_lines(difference: Difference) -> list[str]:
    """Return the lines that show a difference's input: its length, where the vector sits in
    it, and its dump with the bytes at fault bracketed; an input of one dump row at most is one
    line, its values after the colon ('  input, 3 bytes (the vector's at 0): [E1 80] 7F'; an
    empty one '(empty)')."""
    data = difference.input
    if isinstance(data, bytes):
        title = f"  input, {plural(len(data), 'byte')} (the vector's at {difference.window[0]})"
        name, per_row = _hex, ROW
    else:
        title = f"  input, {plural(len(data), 'code point')}"
        name, per_row = _code_point, 8
    if len(data) > per_row:
        return [f"{title}:", *dump(data, difference.window, difference.marks, name, per_row)]
    marked = {at for start, end in difference.marks for at in range(start, min(end, len(data)))}
    return [f"{title}: {_cells(data, 0, len(data), marked, name) if data else '(empty)'}"]


def headline(difference: Difference) -> str:
    """Return the one-line title of a difference: vector, capability, variant, level, what."""
    return (
        f"{difference.vector} [{difference.capability}, {difference.variant}] "
        f"{difference.level}: {difference.what}"
    )


def explain(
    difference: Difference,
    vector: Vector | None = None,
    note: Callable[[str], str] = lambda flag: "",
    rerun: Rerun | None = None,
    also: Sequence[str] = (),
    notes: bool = True,
) -> list[str]:
    """Return the lines that explain one difference: headline (with the vector's flags by name
    unless `notes`: a legend has their notes), the vector (and each flag's note if `notes`), the
    input with the bytes at fault marked, expected and actual, other variants alike (`also`),
    and the command that reproduces it."""
    lines = [headline(difference)]
    if vector is not None:
        if vector.flags and not notes:  # tags to scan the headlines by; the legend explains them
            lines[0] += f" (flags: {', '.join(vector.flags)})"
        where = shown_origin(vector.origin)
        lines.append(f"  vector: {vector.description} ({vector.source}; {where})")
        if notes:
            lines += [f"  flag {flag}: {note(flag)}".rstrip(": ") for flag in vector.flags]
    lines += input_lines(difference)
    lines.append(f"  expected: {difference.expected}")
    lines.append(f"  actual:   {difference.actual}")
    if also:
        # Variant names have commas of their own ("as-is, cut at 2"): semicolons between them.
        hidden = len(also) - 8  # the variants beyond those named
        shown = "; ".join(also[:8]) + (f"; … ({hidden} more)" if hidden > 0 else "")
        lines.append(f"  also in: {shown}")
    command = None if rerun is None else rerun.command(difference)
    if command is not None:
        lines.append(f"  reproduce: {command}")
    return lines


def grouped(differences: Sequence[Difference]) -> list[tuple[Difference, list[str]]]:
    """Return the differences grouped by vector, capability, level and what: (the first of each
    group, the variants of the others), `must` groups first, otherwise in order found."""
    groups: dict[tuple[str, str, str, str], tuple[Difference, list[str]]] = {}
    for difference in differences:
        key = (difference.vector, difference.capability, difference.level, difference.what)
        if key in groups:
            groups[key][1].append(difference.variant)
        else:
            groups[key] = (difference, [])
    return sorted(groups.values(), key=lambda group: LEVELS.index(group[0].level))


def with_example_first(each: Group) -> list[tuple[Difference, list[str]]]:
    """Return a behaviour's differences grouped as by `grouped`, the group of its example
    first, led by the example itself: (the example, the variants of its other differences
    alike), then the others."""
    example = each.example
    groups = grouped(each.differences)
    mine = next(at for at, (first, _) in enumerate(groups) if first is example)
    return [groups[mine], *groups[:mine], *groups[mine + 1 :]]
