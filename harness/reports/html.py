"""A report as one self-contained HTML page (`utf8cert check --html FILE`): no script, no
external asset, and a Content-Security-Policy that lets the page fetch nothing.

It shows the verdict, the behaviours (each a <details> whose summary is the behaviour and whose
body explains its simplest example, the offending bytes of the hex dump marked, then every other
difference, each expandable too), a table per capability of the vectors that differ, the
baseline's known and fixed deviations, and the flags' notes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape
from typing import Final

from utf8cert.harness.check.behaviour import Group
from utf8cert.harness.check.compare import Difference
from utf8cert.harness.reports.explain import explain, grouped
from utf8cert.harness.reports.view import View, plural
from utf8cert.harness.vectors.model import LEVELS

POLICY: Final = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; form-action 'none'"
DUMP_ROW: Final = re.compile(r"^  [0-9A-F]{6}  ")
MARKED: Final = re.compile(r"\[([^\]]*)\]")
SHOWN_PER_GROUP: Final = 200
"""At most this many differences of one behaviour are explained (the JSON report has them all)."""
STYLE: Final = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222 }
pre { background: #f6f6f6; padding: .6em; overflow-x: auto }
mark { background: #ffb3b3; font-weight: bold }
details { margin: .4em 0 }
summary { cursor: pointer }
table { border-collapse: collapse; margin: .5em 0 }
td, th { border: 1px solid #ccc; padding: .2em .5em; text-align: left }
.must { color: #b00000 } .should { color: #8a6d00 } .may { color: #006b80 }
.verdict { font-size: 1.2em; font-weight: bold }
"""


def _pre(lines: Sequence[str]) -> str:
    """Return explanation lines as <pre>, the bracketed bytes of dump rows as <mark>."""
    shown = []
    for line in lines:
        text = escape(line)
        if DUMP_ROW.match(line):
            text = MARKED.sub(r"<mark>\1</mark>", text)
        shown.append(text)
    return "<pre>" + "\n".join(shown) + "</pre>"


def _explained(view: View, difference: Difference, also: Sequence[str] = ()) -> str:
    vector = view.vectors.get(difference.vector)
    lines = explain(difference, vector, view.report.vectors.note, view.rerun, also, notes=False)
    return _pre(lines)


def _group(view: View, index: int, each: Group, known: bool) -> str:
    """Return one behaviour as a <details>: the example, the vectors, every other difference."""
    title = (
        f"{index}. {each.level}: {each.behaviour} — {plural(len(each.vectors), 'vector')}, "
        f"{plural(len(each.differences), 'difference')} ({', '.join(each.capabilities)})"
        + (" (known)" if known else "")
    )
    others = grouped(each.differences[1:])
    parts = [
        f'<details class="behaviour" id="behaviour-{index}{"-known" if known else ""}">',
        f'<summary class="{each.level}">{escape(title)}</summary>',
        _explained(view, each.example),
        f"<p>Vectors: {escape(' '.join(each.vectors))}</p>",
    ]
    for first, also in others[:SHOWN_PER_GROUP]:
        summary = (
            f"{first.vector} [{first.capability}, {first.variant}] {first.level}: {first.what}"
        )
        parts.append(
            f'<details class="difference"><summary>{escape(summary)}</summary>'
            f"{_explained(view, first, also)}</details>"
        )
    if len(others) > SHOWN_PER_GROUP:
        parts.append(f"<p>… and {len(others) - SHOWN_PER_GROUP} more (see the JSON report)</p>")
    return "\n".join([*parts, "</details>"])


def _capability_tables(view: View) -> str:
    """Return a table per capability checked: each vector that differs, level, what, variants."""
    rows: dict[str, dict[tuple[str, str, str], int]] = {}
    for d in view.report.differences:
        table = rows.setdefault(d.capability, {})
        table[(d.vector, d.level, d.what)] = table.get((d.vector, d.level, d.what), 0) + 1
    parts = []
    for capability, checked in view.report.checked.items():
        found = rows.get(capability, {})
        parts.append(
            f'<h3 id="capability-{capability}">{escape(capability)}: '
            f"{plural(checked, 'vector')} checked, "
            f"{plural(len({vector for vector, _, _ in found}), 'vector')} differ</h3>"
        )
        if not found:
            continue
        parts.append("<table><tr><th>vector</th><th>level</th><th>what</th><th>variants</th></tr>")
        parts += [
            f'<tr class="{level}"><td>{escape(vector)}</td><td>{level}</td>'
            f"<td>{escape(what)}</td><td>{count}</td></tr>"
            for (vector, level, what), count in found.items()
        ]
        parts.append("</table>")
    return "\n".join(parts)


def _summary(view: View) -> str:
    counts = view.report.counts()
    head = "".join(f"<th>{level}</th>" for level in LEVELS)
    rows = [
        f"<tr><td>{capability}</td><td>{view.report.checked[capability]}</td>"
        + "".join(
            f"<td>{counts[capability][level][1]} ({counts[capability][level][0]})</td>"
            for level in LEVELS
        )
        + "</tr>"
        for capability in counts
    ]
    return (
        "<table><caption>Vectors differing per capability and level (differences)</caption>"
        f"<tr><th>capability</th><th>vectors checked</th>{head}</tr>" + "".join(rows) + "</table>"
    )


def _baseline(view: View) -> str:
    parts = []
    if view.fixed:
        parts.append(
            f'<h2 id="fixed">Fixed: {plural(len(view.fixed), "known deviation")} no longer '
            "occur (update the baseline)</h2><ul>"
        )
        parts += [
            f"<li>{escape(f'{v} [{c}, {variant}]: {w}')}</li>" for v, variant, c, w in view.fixed
        ]
        parts.append("</ul>")
    if view.known_groups:
        parts.append('<h2 id="known">Known from the baseline</h2>')
        parts += [_group(view, i, g, True) for i, g in enumerate(view.known_groups, start=1)]
    return "\n".join(parts)


def _legend(view: View) -> str:
    flags = view.flags(view.groups + view.known_groups)
    if not flags:
        return ""
    items = "".join(
        f"<dt>{escape(flag)}</dt><dd>{escape(view.report.vectors.note(flag))}</dd>"
        for flag in flags
    )
    return f'<h2 id="flags">Flags</h2><dl>{items}</dl>'


def report_html(view: View) -> str:
    """Return the whole page as one string."""
    report = view.report
    title = f"utf8cert: {report.codec}"
    behaviours = "\n".join(_group(view, i, g, False) for i, g in enumerate(view.groups, start=1))
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">',
            f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
            f"<h1>{escape(title)}</h1>",
            f"<p>{escape(report.description)}</p>",
            f"<p>utf8cert {escape(report.version)}, {escape(report.date)}; checked "
            f"{escape(', '.join(sorted(report.capabilities)) or 'none')} on "
            f"{plural(len(report.vectors), 'vector')} and their variants.</p>",
            f'<p id="suite">Suite: {escape(str(report.suite))}.</p>',
            f'<p class="verdict" id="verdict">{escape(view.verdict())}</p>',
            f'<p id="gate">{escape(view.gate())}</p>',
            _summary(view),
            '<h2 id="behaviours">Behaviours</h2>',
            behaviours or "<p>None new.</p>",
            _baseline(view),
            '<h2 id="capabilities">By capability</h2>',
            _capability_tables(view),
            _legend(view),
            "</body></html>",
            "",
        ]
    )
