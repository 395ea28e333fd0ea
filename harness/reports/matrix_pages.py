"""The conformance matrix as pages people can read: a summary, a page per library, and who
differs on each vector.

    summary(matrix, pages="matrix")  -> str         docs/matrix.md: codecs x themes, a level a cell
    pages(matrix)                    -> {name: str}  docs/matrix/<codec>.md, vectors-<theme>.md

The summary stays small enough to render (well under GitHub's limit on a rendered file) however
many vectors there are: a row per codec and a column per theme of the vectors, each cell the
gravest level found there over every capability (`must`, `should`, `may`), `pass`, or `·` where
the codec offers no capability the theme is asked on. A codec's page has the full cells: the
kinds of difference per theme and capability, and every vector it departs on. A theme's vector
page lists, for each vector on which the codecs disagree, the codecs that depart, grouped by
what they did. The full data is the JSON (matrix.py's to_json).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import PurePath

from utf8cert.harness.reports.matrix import (
    NOT_OFFERED,
    NOT_REUSED,
    PASS,
    Column,
    Matrix,
    departures_table,
    pruned,
    spec_of,
    verdict_of,
)
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import LEVELS

ABSENT = "·"
"""A summary cell where the codec offers none of the capabilities the theme is asked on."""
VECTOR_PAGE = "vectors-{theme}.md"


def page_name(codec: str) -> str:
    """Return the file name of a codec's page ('orjson.md'; anything but [a-z0-9.-] is '-')."""
    return re.sub(r"[^a-z0-9.-]+", "-", codec.lower()) + ".md"


def gravest(cells: Iterable[str]) -> str:
    """Return the gravest level among matrix cells ('must: ...; should: ...'), `pass` when
    every offered one passed, ABSENT when none was offered."""
    cells = list(cells)
    levels = [cell.split(":")[0] for cell in cells if cell not in (PASS, NOT_OFFERED)]
    if levels:
        return min(levels, key=LEVELS.index)
    offered = [cell for cell in cells if cell != NOT_OFFERED]
    return PASS if offered else ABSENT


def _split(row: str) -> tuple[str, str]:
    """Return (theme or vector id, capability) of a row key ('ill-formed-surrogates · decode')."""
    head, _, capability = row.rpartition(" · ")
    return head, capability


def themes(matrix: Matrix) -> list[str]:
    """Return the themes of the matrix's behaviour rows, in their order."""
    return list(dict.fromkeys(_split(row)[0] for row in matrix.behaviours))


def _escape(text: str) -> str:
    """Return text safe in a Markdown table cell (a codec's words may hold '|')."""
    return text.replace("|", "\\|").replace("\n", " ")


def summary(
    matrix: Matrix, pages: str | None = None, title: str = "UTF-8 conformance matrix"
) -> str:
    """Return the summary in Markdown: the codecs (a link to each one's page under `pages`, a
    path relative to the summary, when given) with version, verdict and fingerprint, then the
    codecs x themes table of levels."""
    link = (lambda name: f"[{name}]({pages}/{page_name(name)})") if pages else (lambda n: n)
    lines = [f"# {title}", ""]
    if matrix.measured:
        lines += [f"Measured {matrix.measured}, with the versions shown.", ""]
    lines += [
        "Each codec's verdict against RFC 3629; `must` is what the RFC requires, `should` the "
        "Unicode Standard's recommended practice (§3.9), `may` what it leaves open. `reuse`: "
        "the gravest level of its answers as a decoder used before (the same incremental "
        "decoder after an error, the end of a stream, a BOM, reset(); one-shot answers after "
        f"other questions: docs/guide.md), `pass`, or `{NOT_REUSED}` when its incremental "
        "decoder could not be asked again (none, or a program without `reuse=yes`).",
    ]
    if pages:
        lines += [
            f"Each codec's page ({pages}/) has every difference by theme and vector; "
            f"who differs on each vector: [{pages}/vectors-*.md]({pages}/). The full data: "
            "matrix.json.",
        ]
    lines += [
        "",
        "## Codecs",
        "",
        "| codec | version | verdict | fingerprint | reuse |",
        "|---|---|---|---|---|",
    ]
    for column in matrix.columns:
        mark = "" if column.cells is None else column.cells.fingerprint
        reuse = "" if column.cells is None else column.cells.reuse
        name = spec_of(column)
        shown = (
            f"[{name}]({pages}/{page_name(column.name)})" if pages and column.cells else f"`{name}`"
        )
        lines.append(
            f"| {shown} | {_escape(column.version)} | {_escape(verdict_of(column))} | "
            f"{_escape(mark)} | {reuse} |"
        )
    names = themes(matrix)
    lines += ["", "## Levels by theme", ""]
    lines += [
        f"The gravest level found on each theme over every capability; `pass`; `{ABSENT}`: "
        "not asked (no capability the theme is asked on).",
        "",
        "| codec | " + " | ".join(names) + " |",
        "|---" * (len(names) + 1) + "|",
    ]
    for column in matrix.checked:
        row = [
            gravest(
                cells[column.name]
                for key, cells in matrix.behaviours.items()
                if _split(key)[0] == theme
            )
            for theme in names
        ]
        lines.append(f"| {link(column.name)} | " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


def codec_page(matrix: Matrix, column: Column) -> str:
    """Return a codec's page: what it is, its verdict, its cells by theme and capability, and
    every vector it departs on."""
    lines = [f"# {spec_of(column)}", "", _escape(column.description), ""]
    lines += [f"- version: {column.version}", f"- verdict: {verdict_of(column)}"]
    if column.cells is not None:
        lines.append(f"- fingerprint: {column.cells.fingerprint}")
        lines.append(f"- reuse: {column.cells.reuse or NOT_REUSED}")
    if matrix.measured:
        lines.append(f"- measured: {matrix.measured}")
    lines += ["", "## By theme and capability", "", "| theme · capability | found |", "|---|---|"]
    for key, cells in matrix.behaviours.items():
        if cells.get(column.name, NOT_OFFERED) != NOT_OFFERED:
            lines.append(f"| {key} | {_escape(cells[column.name])} |")
    departed = [
        (key, cells[column.name])
        for key, cells in matrix.vectors.items()
        if cells.get(column.name, NOT_OFFERED) not in (PASS, NOT_OFFERED)
    ]
    lines += ["", f"## Vectors it departs on ({len(departed)})", ""]
    if departed:
        lines += ["| vector · capability | found |", "|---|---|"]
        lines += [f"| {key} | {_escape(cell)} |" for key, cell in departed]
    else:
        lines.append("None.")
    return "\n".join(lines) + "\n"


def vector_page(matrix: Matrix, theme: str, vector_ids: set[str]) -> str:
    """Return the page of one theme's vectors on which the codecs disagree: for each, the
    codecs that depart, grouped by what they did (every other codec asked passes)."""
    rows = {
        key: cells for key, cells in pruned(matrix.vectors).items() if _split(key)[0] in vector_ids
    }
    names = [column.name for column in matrix.checked]
    lines = [f"# Who differs: {theme}", ""]
    if not rows:
        return "\n".join([*lines, "The codecs asked agree on every vector of this theme.", ""])
    table = departures_table(
        {key: {n: _escape(c) for n, c in cells.items()} for key, cells in rows.items()}, names
    )
    return "\n".join([*lines, *table]) + "\n"


def vector_themes() -> Mapping[str, set[str]]:
    """Return the built-in vectors' ids by theme (the stem of their file)."""
    found: dict[str, set[str]] = {}
    for vector in load_vectors():
        found.setdefault(PurePath(vector.origin.file).stem, set()).add(vector.id)
    return found


def pages(matrix: Matrix) -> dict[str, str]:
    """Return every page by file name: one per codec checked, one per theme of vectors."""
    written = {page_name(column.name): codec_page(matrix, column) for column in matrix.checked}
    for theme, ids in vector_themes().items():
        written[VECTOR_PAGE.format(theme=theme)] = vector_page(matrix, theme, ids)
    return written
