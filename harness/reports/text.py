"""A report on the terminal (rich): root causes first, on one screen.

By default each behaviour is shown once, by its simplest example explained in full, with how
many vectors and variants share it and their ids; flag notes are printed once, in a legend.
`verbose` explains every difference as well; `quiet` is the verdict line alone. The caller's
Console decides colour and wrapping (never hard-wrapped when the output is not a terminal).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.console import Console
from rich.table import Table
from rich.text import Text

from utf8cert.harness.check.behaviour import Group
from utf8cert.harness.reports.coverage import answer_lines, coverage_lines, profile_lines
from utf8cert.harness.reports.explain import explain, with_example_first
from utf8cert.harness.reports.view import (
    View,
    counted_differences,
    moved_line,
    plural,
    unplaced_fix,
)
from utf8cert.harness.vectors.adequacy import statement, whole_builtin
from utf8cert.harness.vectors.model import LEVELS, Level

STYLE: Final[dict[Level, str]] = {"must": "bold red", "should": "yellow", "may": "cyan"}
SHOWN_GROUPS: Final = 8
"""At most this many behaviours are explained by default; the others get one line each."""
SHOWN_IDS: Final = 12
"""At most this many vector ids are listed for a behaviour by default."""
SHOWN_FIXED: Final = 5
MARKED: Final = r"\[[^\]]*\]"


def summary_table(view: View) -> Table:
    """Return the table of vectors differing per capability and level, as 'vectors
    (differences)'."""
    table = Table(title="Vectors differing per capability and level (differences)")
    table.add_column("capability")
    table.add_column("vectors checked", justify="right")
    for level in LEVELS:
        table.add_column(level, justify="right")
    report = view.report
    for capability, counts in report.counts().items():
        cells = []
        for level in LEVELS:
            number, vectors = counts[level]
            cells.append(
                Text(f"{vectors} ({number})", STYLE[level]) if number else Text("0", "dim")
            )
        table.add_row(capability, str(report.checked[capability]), *cells)
    return table


def group_title(index: int, each: Group) -> str:
    """Return the title line of a behaviour: number, level, behaviour, how many share it."""
    capabilities = ", ".join(each.capabilities)
    return (
        f"[{index}] {each.level}: {each.behaviour} — {plural(len(each.vectors), 'vector')}, "
        f"{counted_differences(each)} ({capabilities})"
    )


def _ids(each: Group, verbose: bool) -> str:
    ids = each.vectors if verbose else each.vectors[:SHOWN_IDS]
    more = len(each.vectors) - len(ids)
    return "  vectors: " + " ".join(ids) + (f" … and {more} more" if more else "")


def _print_lines(console: Console, lines: Sequence[str], style: str) -> None:
    text = Text("\n".join(lines))
    text.stylize(style, 0, len(lines[0]))
    text.highlight_regex(MARKED, "reverse")
    console.print(text)


def render_group(view: View, console: Console, index: int, each: Group, verbose: bool) -> None:
    """Print one behaviour: its title, the vectors sharing it, its simplest example in full,
    and (verbose) every other difference of it; a behaviour of refusals placing the error
    nowhere is its title and its fix on one line."""
    console.print()
    fix = unplaced_fix(each)
    if fix is not None:
        console.print(Text(f"{group_title(index, each)}; fix: {fix}", STYLE[each.level]))
        return
    console.print(Text(group_title(index, each), STYLE[each.level]))
    console.print(_ids(each, verbose), markup=False, highlight=False)
    moved = moved_line(each)
    if moved is not None:
        console.print(moved, markup=False, highlight=False)
    note, rerun = view.report.vectors.note, view.rerun
    # The example's own other variants are named on it, not shown again as a block of their own.
    (example, also), *others = with_example_first(each)
    lines = explain(example, view.vectors.get(example.vector), note, rerun, also, notes=False)
    _print_lines(console, lines, STYLE[example.level])
    if not verbose:
        return
    for first, variants in others:
        lines = explain(first, view.vectors.get(first.vector), note, rerun, variants, False)
        console.print()
        _print_lines(console, lines, STYLE[first.level])


def render_baseline(view: View, console: Console, verbose: bool) -> None:
    """Print the known behaviours as one line (in full when verbose), the fixed deviations and
    the changed ones."""
    if view.known_groups:
        console.print(
            f"\nknown from the baseline: {view.hidden_words()}"
            + ("" if verbose else " (--verbose shows them)"),
            markup=False,
            highlight=False,
        )
        if verbose:
            for index, each in enumerate(view.known_groups, start=1):
                render_group(view, console, index, each, verbose)
    if view.fixed:
        console.print(
            Text(
                f"\nfixed: {plural(len(view.fixed), 'known deviation')} no longer "
                f"{'occurs' if len(view.fixed) == 1 else 'occur'}: update the baseline",
                "bold green",
            )
        )
        shown = view.fixed if verbose else view.fixed[:SHOWN_FIXED]
        for vector, variant, capability, what in shown:
            console.print(f"  {vector} [{capability}, {variant}]: {what}", markup=False)
        if len(view.fixed) > len(shown):
            console.print(f"  … and {len(view.fixed) - len(shown)} more", markup=False)
    render_changed(view, console, verbose)


def render_changed(view: View, console: Console, verbose: bool) -> None:
    """Print the known deviations whose question now differs otherwise (a level that rose or
    fell): 'changed level', each with what it was and what it is now."""
    if not view.changed:
        return
    console.print(
        Text(
            f"\nchanged level: {plural(len(view.changed), 'known deviation')} now "
            f"{'differs' if len(view.changed) == 1 else 'differ'} otherwise on the same "
            f"questions ({view.changed_words()}): update the baseline",
            "bold yellow",
        )
    )
    shown = view.changed if verbose else view.changed[:SHOWN_FIXED]
    levels = view.baseline.levels if view.baseline is not None else {}
    for (vector, variant, capability, what), now in shown:
        was = levels.get((vector, variant, capability, what), "?")
        console.print(
            f"  {vector} [{capability}, {variant}]: {was} {what} → {now.level} {now.what}",
            markup=False,
        )
    if len(view.changed) > len(shown):
        console.print(f"  … and {len(view.changed) - len(shown)} more", markup=False)


def render_legend(view: View, console: Console, groups: Sequence[Group]) -> None:
    """Print what each flag of the examples shown means, once."""
    flags = view.flags(groups)
    if not flags:
        return
    console.print("\nflags:", highlight=False)
    for flag in flags:
        note = view.report.vectors.note(flag)
        console.print(f"  {flag}: {note}".rstrip(": "), markup=False, highlight=False)


def render(view: View, console: Console, verbose: bool = False) -> None:
    """Print the report: what was checked, the summary table, the verdict, each new behaviour
    (its simplest example in full), the known and fixed ones, the flag legend, the gate."""
    report = view.report
    capabilities = ", ".join(sorted(report.capabilities)) or "none"
    described = f" = {report.description}" if report.description else ""
    console.print(
        f"utf8cert {report.version}: {report.codec}{described}\n"
        f"checked: {capabilities}, on "
        + (report.subject or f"{plural(len(report.vectors), 'vector')} and their variants")
        + f"\nsuite: {report.suite}",
        markup=False,
        highlight=False,
    )
    console.print(f"boundary: {report.boundary}", markup=False, highlight=False)
    if not report.subject and whole_builtin(report.vectors):
        console.print(f"adequacy: {statement()}", markup=False, highlight=False)
    extra = profile_lines(report) + coverage_lines(report) + answer_lines(report)
    if extra:
        console.print("\n".join(extra), markup=False, highlight=False)
    if report.checked:
        console.print(summary_table(view))
    console.print(Text(view.verdict(), "bold green" if view.passed else "bold red"))
    groups = view.shown_groups
    shown = groups if verbose else groups[:SHOWN_GROUPS]
    for index, each in enumerate(shown, start=1):
        render_group(view, console, index, each, verbose)
    if len(groups) > len(shown):
        console.print(f"\n{len(groups) - len(shown)} more behaviours (--verbose explains them):")
        for index, each in enumerate(groups[len(shown) :], start=len(shown) + 1):
            console.print(Text(group_title(index, each), STYLE[each.level]))
    if view.unshown:
        console.print(f"\nnot shown: {view.unshown} (--show-level)", markup=False)
    render_baseline(view, console, verbose)
    render_legend(view, console, [each for each in shown if unplaced_fix(each) is None])
    console.print(Text("\n" + view.gate(), "bold"))


def render_quiet(view: View, console: Console) -> None:
    """Print the verdict line alone."""
    console.print(view.verdict(), markup=False, highlight=False)
