"""The conformance matrix: many codecs' reports side by side, as Markdown, JSON or one HTML page.

Rows are behaviours (a theme of the vectors on one capability: "ill-formed-surrogates · decode")
and, expanded, vectors on one capability; columns are codecs with their versions; a cell is
`pass`, `n/a` (the codec does not offer the capability), or the kinds of difference found there
with their levels. A pruned view keeps only the rows on which the codecs do not all agree.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from utf8cert.harness.check.behaviour import behaviour_of
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.report import Report
from utf8cert.harness.check.reuse import REUSED
from utf8cert.harness.check.run import DECODING, capabilities_for, vector_index
from utf8cert.harness.vectors.model import LEVELS, Vector

PASS = "pass"
NOT_OFFERED = "n/a"
NOT_REUSED = "·"
"""The reuse cell of a codec whose incremental decoder was not asked again (none, or a program
without the `reuse=yes` handshake) and whose one-shot answers never depended on order."""


@dataclass(frozen=True)
class Cells:
    """What the matrix keeps of one codec's report: plain data, so that a worker process can
    send it back (a Report holds functions and is not sent between processes)."""

    verdict: str
    fingerprint: str
    behaviours: dict[str, list[str]]
    """The kinds of difference found on each behaviour row the codec offers (empty: pass)."""
    vectors: dict[str, list[str]]
    """The same for each vector row."""
    reuse: str = ""
    """The gravest level of the codec's answers as a decoder used before (check/reuse.py), or
    `pass`; NOT_REUSED when its incremental decoder was not asked again and nothing was found
    ('' for a matrix made before the column)."""


@dataclass(frozen=True)
class Column:
    """One codec of the matrix: what its report found, or the reason it was skipped."""

    name: str
    description: str
    version: str
    cells: Cells | None = None
    skipped: str | None = None


def spec_of(column: Column) -> str:
    """Return the spec that checks a column's codec again: `adapter:NAME` for a shipped
    adapter, the spec itself for any other codec (`mypkg.codec:Utf8`, `cmd:…`)."""
    return column.name if ":" in column.name else f"adapter:{column.name}"


def cells_of(report: Report) -> Cells:
    """Return the matrix's cells of one report: for each row the codec offers (a capability it
    was checked on), the kinds of difference found there ([] for a pass)."""
    index = vector_index(report.vectors)
    behaviours: dict[str, list[str]] = {}
    vectors: dict[str, list[str]] = {}
    for vector in report.vectors:
        for capability in capabilities_for(vector, ("encode", *DECODING)):
            if capability in report.checked:  # a cell not offered is n/a
                behaviours.setdefault(behaviour_row(vector, capability), [])
                vectors.setdefault(vector_row(vector, capability), [])
    for difference in report.differences:
        if difference.vector not in index:
            continue
        vector = index[difference.vector]
        kind = kind_of(difference)
        behaviours[behaviour_row(vector, difference.capability)].append(kind)
        vectors[vector_row(vector, difference.capability)].append(kind)
    return Cells(report.verdict(), fingerprint(report), behaviours, vectors, reuse_cell(report))


def reuse_cell(report: Report) -> str:
    """Return the reuse column's cell of one report: the gravest level of its reuse differences
    (the decoder used before, one-shot answers after other questions), else `pass` when its
    incremental decoder was asked again, NOT_REUSED when it was not."""
    levels = [d.level for d in report.differences if d.variant.startswith(REUSED)]
    if levels:
        return min(levels, key=LEVELS.index)
    return PASS if report.reuse.startswith("asked") else NOT_REUSED


def checked_column(name: str, description: str, version: str, report: Report) -> Column:
    """Return the column of a codec that was checked."""
    return Column(name, description, version, cells_of(report))


def theme_of(vector: Vector) -> str:
    """Return the vector's theme: the stem of the file it comes from ('ill-formed-surrogates')."""
    return PurePath(vector.origin.file).stem


def behaviour_row(vector: Vector, capability: str) -> str:
    """Return the behaviour row a vector on a capability belongs to."""
    return f"{theme_of(vector)} · {capability}"


def vector_row(vector: Vector, capability: str) -> str:
    """Return the expanded row of a vector on a capability."""
    return f"{vector.id} · {capability}"


def kind_of(difference: Difference) -> str:
    """Return the kind of a difference as a cell shows it: its level and the behaviour it shows,
    less the direction the row already names ('must: let ill-formed input through (overlong)'),
    in the words of the check report's groups (harness/check/behaviour.py)."""
    behaviour = behaviour_of(difference)
    detail = f" ({behaviour.detail})" if behaviour.detail else ""
    return f"{difference.level}: {behaviour.what}{detail}"


def fingerprint(report: Report) -> str:
    """Return the codec's fingerprint in a few words: the dialect profiles that explain all its
    `must` differences, the closest one, or 'strict' when it has none (Report.fingerprint)."""
    found = report.fingerprint()
    if found.total == 0:
        return "strict"
    if found.fitting:
        return " or ".join(found.fitting)
    if found.closest is None:
        return "no profile"
    return f"closest: {found.closest} ({found.explained}/{found.total})"


def cell_text(kinds: Iterable[str]) -> str:
    """Return a cell's text: `pass` for no kinds, else the kinds, most binding level first."""
    found = sorted(set(kinds), key=lambda kind: (LEVELS.index(kind.split(":")[0]), kind))
    return "; ".join(found) if found else PASS


@dataclass
class Matrix:
    """Rows by key, each a cell per codec column; the same for the behaviour and vector views."""

    columns: list[Column]
    behaviours: dict[str, dict[str, str]]
    vectors: dict[str, dict[str, str]]
    measured: str = ""
    """When the codecs were checked (UTC, set by the command that ran them; '' unsaid)."""

    @property
    def checked(self) -> list[Column]:
        """Return the columns that ran (not skipped)."""
        return [column for column in self.columns if column.cells is not None]


def build(columns: Sequence[Column]) -> Matrix:
    """Return the matrix of the columns that were checked (an empty one when none ran); a row
    no codec offers is left out."""
    checked = [column for column in columns if column.cells is not None]
    behaviours: dict[str, dict[str, list[str]]] = {}
    vectors: dict[str, dict[str, list[str]]] = {}
    for column in checked:
        assert column.cells is not None
        for rows, found in ((behaviours, column.cells.behaviours), (vectors, column.cells.vectors)):
            for key, kinds in found.items():
                rows.setdefault(key, {}).setdefault(column.name, []).extend(kinds)

    def as_cells(rows: dict[str, dict[str, list[str]]]) -> dict[str, dict[str, str]]:
        return {
            key: {
                column.name: cell_text(found[column.name]) if column.name in found else NOT_OFFERED
                for column in checked
            }
            for key, found in rows.items()
        }

    return Matrix(list(columns), as_cells(behaviours), as_cells(vectors))


def pruned(rows: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    """Return the rows on which the codecs that were asked do not all give the same cell."""
    return {
        key: cells
        for key, cells in rows.items()
        if len({cell for cell in cells.values() if cell != NOT_OFFERED}) > 1
    }


def verdict_of(column: Column) -> str:
    """Return a column's verdict line, or that it was skipped and why."""
    if column.cells is None:
        return f"skipped: {column.skipped}"
    return column.cells.verdict


def to_json(matrix: Matrix) -> dict[str, Any]:
    """Return the matrix as JSON-ready data: columns (with verdict and fingerprint) and rows."""
    return {
        "measured": matrix.measured,
        "columns": [
            {
                "name": column.name,
                "description": column.description,
                "version": column.version,
                "skipped": column.skipped,
                "verdict": None if column.cells is None else column.cells.verdict,
                "fingerprint": None if column.cells is None else column.cells.fingerprint,
                "reuse": None if column.cells is None else column.cells.reuse,
            }
            for column in matrix.columns
        ],
        "behaviours": matrix.behaviours,
        "vectors": matrix.vectors,
    }


def markdown_table(rows: dict[str, dict[str, str]], names: Sequence[str], head: str) -> list[str]:
    """Return the lines of a Markdown table: a row per key, a column per codec name."""
    lines = [f"| {head} | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for key, cells in rows.items():
        lines.append(f"| {key} | " + " | ".join(cells[name] for name in names) + " |")
    return lines


def departures_table(rows: dict[str, dict[str, str]], names: Sequence[str]) -> list[str]:
    """Return the lines of a Markdown table with a row per key: the codecs whose cell is neither
    `pass` nor `n/a`, grouped by their cell (a table of every codec would be mostly those two,
    and too large to read)."""
    lines = ["| vector | departures (every other codec asked passes) |", "|---|---|"]
    for key, cells in rows.items():
        groups: dict[str, list[str]] = {}
        for name in names:
            if cells[name] not in (PASS, NOT_OFFERED):
                groups.setdefault(cells[name], []).append(name)
        text = "<br>".join(f"**{cell}**: {', '.join(found)}" for cell, found in groups.items())
        lines.append(f"| {key} | {text} |")
    return lines


def to_markdown(matrix: Matrix, title: str = "UTF-8 conformance matrix") -> str:
    """Return the matrix as Markdown: the codecs, then every behaviour, then the pruned vectors."""
    names = [column.name for column in matrix.checked]
    head = "| codec | version | verdict | fingerprint | reuse |"
    lines = [f"# {title}", "", "## Codecs", "", head, "|---|---|---|---|---|"]
    for column in matrix.columns:
        mark = "" if column.cells is None else column.cells.fingerprint
        reuse = "" if column.cells is None else column.cells.reuse
        lines.append(
            f"| `{spec_of(column)}` | {column.version} | {verdict_of(column)} | {mark} | {reuse} |"
        )
    lines += ["", "## Behaviours", ""]
    lines += ["Each cell: `pass`, `n/a` (not offered), or the kinds of difference found.", ""]
    lines += markdown_table(matrix.behaviours, names, "behaviour")
    lines += ["", "## Vectors on which the codecs disagree (pruned)", ""]
    lines += departures_table(pruned(matrix.vectors), names)
    return "\n".join(lines) + "\n"


STYLE = """body{font-family:sans-serif;margin:1em}table{border-collapse:collapse;font-size:12px}
td,th{border:1px solid #ccc;padding:2px 4px;vertical-align:top}.pass{background:#dfd}
.must{background:#fbb}.should{background:#fe9}.may{background:#ddf}.na{color:#999}"""


def _cell_html(cell: str) -> str:
    if cell == PASS:
        kind = "pass"
    elif cell == NOT_OFFERED:
        kind = "na"
    else:
        kind = cell.split(":")[0]
    return f'<td class="{kind}">{html.escape(cell)}</td>'


def _table_html(rows: dict[str, dict[str, str]], names: Sequence[str], head: str) -> str:
    header = "".join(f"<th>{html.escape(name)}</th>" for name in names)
    body = "".join(
        f"<tr><th>{html.escape(key)}</th>" + "".join(_cell_html(cells[n]) for n in names) + "</tr>"
        for key, cells in rows.items()
    )
    return f"<table><tr><th>{html.escape(head)}</th>{header}</tr>{body}</table>"


def to_html(matrix: Matrix, title: str = "UTF-8 conformance matrix") -> str:
    """Return the matrix as one self-contained HTML page (no scripts, no external resources)."""
    names = [column.name for column in matrix.checked]
    codecs = "".join(
        f"<tr><td>{html.escape(c.name)}</td><td>{html.escape(c.version)}</td>"
        f"<td>{html.escape(verdict_of(c))}</td>"
        f"<td>{'' if c.cells is None else html.escape(c.cells.fingerprint)}</td>"
        f"<td>{'' if c.cells is None else html.escape(c.cells.reuse)}</td></tr>"
        for c in matrix.columns
    )
    sections = [
        f"<h1>{html.escape(title)}</h1>",
        "<h2>Codecs</h2><table><tr><th>codec</th><th>version</th><th>verdict</th>"
        f"<th>fingerprint</th><th>reuse</th></tr>{codecs}</table>",
        "<h2>Behaviours (pruned: rows on which the codecs disagree)</h2>",
        _table_html(pruned(matrix.behaviours), names, "behaviour"),
        "<details><summary>Every behaviour</summary>",
        _table_html(matrix.behaviours, names, "behaviour"),
        "</details><details><summary>Vectors on which the codecs disagree</summary>",
        _table_html(pruned(matrix.vectors), names, "vector"),
        "</details>",
    ]
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{STYLE}</style></head><body>{''.join(sections)}</body></html>\n"
    )
