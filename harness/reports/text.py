"""A Report shown: the terminal report (rich) and the JSON document of `--json FILE`."""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any, Final

from rich.console import Console
from rich.table import Table
from rich.text import Text

from utf8cert.harness.check.baseline import Key
from utf8cert.harness.check.compare import Difference
from utf8cert.harness.check.run import Report, vector_index
from utf8cert.harness.reports.coverage import (
    answer_lines,
    coverage_lines,
    extra_json,
    profile_lines,
)
from utf8cert.harness.reports.explain import explain, grouped
from utf8cert.harness.vectors.model import LEVELS, Level

STYLE: Final[dict[Level, str]] = {"must": "bold red", "should": "yellow", "may": "cyan"}
SHOWN_GROUPS: Final = 100
"""At most this many groups of differences are explained on the terminal (all go to --json)."""
WHOLE_INPUT_UP_TO: Final = 1024
"""Inputs up to this length appear whole in JSON; of longer ones only the vector's part."""
MARKED: Final = r"\[[^\]]*\]"


def summary_table(report: Report) -> Table:
    """Return the table of differences per capability and level, as 'differences (vectors)'."""
    table = Table(title="Differences per capability and level: count (vectors)")
    table.add_column("capability")
    table.add_column("vectors checked", justify="right")
    for level in LEVELS:
        table.add_column(level, justify="right")
    for capability, counts in report.counts().items():
        cells = []
        for level in LEVELS:
            number, vectors = counts[level]
            cells.append(
                Text(f"{number} ({vectors})", STYLE[level]) if number else Text("0", "dim")
            )
        table.add_row(capability, str(report.checked[capability]), *cells)
    return table


def render(
    report: Report,
    console: Console,
    fail_on: Level = "must",
    known: Collection[Key] = (),
) -> None:
    """Print the report: what was checked, the summary table, the verdict, then each group of
    differences explained (known ones marked), failing ones first."""
    capabilities = ", ".join(sorted(report.capabilities)) or "none"
    described = f" = {report.description}" if report.description else ""
    console.print(
        f"utf8cert {report.version}: {report.codec}{described}\n"
        f"checked: {capabilities}, on "
        + (report.subject or f"{len(report.vectors)} vectors and their variants"),
        markup=False,
        highlight=False,
    )
    extra = profile_lines(report) + coverage_lines(report) + answer_lines(report)
    if extra:
        console.print("\n".join(extra), markup=False, highlight=False)
    console.print(summary_table(report))
    failing = report.failing(fail_on, known)
    verdict = Text(report.verdict(), "bold green" if report.certified else "bold red")
    console.print(verdict)
    vectors = vector_index(report.vectors)
    groups = grouped(report.differences)
    explained: set[str] = set()
    for first, variants in groups[:SHOWN_GROUPS]:
        vector = vectors.get(first.vector)
        notes = first.vector not in explained  # a vector's flag notes once is enough
        explained.add(first.vector)
        lines = explain(first, vector, report.vectors.note, report.codec, variants, notes)
        if first.key in known:
            lines[0] += " (known, in the baseline)"
        text = Text("\n".join(lines))
        text.stylize(STYLE[first.level], 0, len(lines[0]))
        text.highlight_regex(MARKED, "reverse")
        console.print()
        console.print(text)
    if len(groups) > SHOWN_GROUPS:
        console.print(f"\n… and {len(groups) - SHOWN_GROUPS} more groups (all in --json).")
    if failing:
        console.print(
            Text(f"\n{len(failing)} differences at level {fail_on} or above fail the run.", "bold")
        )
    elif known and report.differences:
        console.print(Text("\nNo new difference: every one is known from the baseline.", "bold"))


def _input_fields(difference: Difference) -> dict[str, Any]:
    """Return the JSON fields of a difference's input: hex (or U+ code points for encoding);
    of a long input only the vector's part, with its offset and the whole length."""
    data = difference.input
    start, end = (0, len(data)) if len(data) <= WHOLE_INPUT_UP_TO else difference.window
    part = data[start:end]
    shown = part.hex() if isinstance(part, bytes) else " ".join(f"U+{v:04X}" for v in part)
    fields: dict[str, Any] = {"input": shown}
    if (start, end) != (0, len(data)):
        padding = data[0] if start else data[-1]
        fields |= {"input_offset": start, "input_length": len(data), "padding": padding}
    return fields


def difference_json(difference: Difference, known: Collection[Key] = ()) -> dict[str, Any]:
    """Return one difference as a JSON object."""
    return {
        "vector": difference.vector,
        "variant": difference.variant,
        "capability": difference.capability,
        "level": difference.level,
        "what": difference.what,
        **_input_fields(difference),
        "expected": difference.expected,
        "actual": difference.actual,
        "marks": [list(mark) for mark in difference.marks],
        "known": difference.key in known,
    }


def report_json(report: Report, fail_on: Level = "must", known: Collection[Key] = ()) -> str:
    """Return the JSON document of a report: what was checked, the summary, every difference."""
    failing = report.failing(fail_on, known)
    document = {
        "utf8cert": report.version,
        "codec": report.codec,
        "description": report.description,
        "date": report.date,
        "vectors": len(report.vectors),
        "capabilities": sorted(report.capabilities),
        "summary": {
            "conformant": report.conformant,
            "verdict": report.verdict(),
            "fail_on": fail_on,
            "failing": len(failing),
            "checked": report.checked,
            "differences": {
                capability: {level: counts[level][0] for level in LEVELS}
                for capability, counts in report.counts().items()
            },
        },
        "differences": [difference_json(difference, known) for difference in report.differences],
        **extra_json(report),
    }
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"
