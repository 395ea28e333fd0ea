"""A report as one self-contained HTML page (`utf8cert check --html FILE`): no script, no
external asset, and a Content-Security-Policy that lets the page fetch nothing.

It shows the verdict, the behaviours (each a <details> whose summary is the behaviour and whose
body explains its simplest example, the offending bytes of the hex dump marked, then every other
difference, each expandable too; a behaviour that fails the run is open from the start), a table
per capability of the vectors that differ, the baseline's known and fixed deviations, the flags'
notes, and an index of the vectors that differ. Every vector id shown links to its entry in the
index (`#vector-ID`), which links back to the behaviours it shows; long lines wrap, never cut.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape
from typing import Final

from utf8cert.harness.check.behaviour import Group
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.extent import UNPLACED
from utf8cert.harness.reports.coverage import after_vectors_lines
from utf8cert.harness.reports.explain import explain, with_example_first
from utf8cert.harness.reports.view import (
    View,
    counted_differences,
    moved_line,
    plural,
    unplaced_fix,
)
from utf8cert.harness.vectors.model import LEVELS

POLICY: Final = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; form-action 'none'"
DUMP_ROW: Final = re.compile(r"^  ([0-9A-F]{6}  |input, [^:]*: )")
"""A dump row, or the input line of a short input (its values after the colon)."""
MARKED: Final = re.compile(r"\[([^\]]*)\]")
SHOWN_PER_GROUP: Final = 200
"""At most this many differences of one behaviour are explained (the JSON report has them all)."""
# A long input's lines (a 64 KiB vector's text, a list of ids) wrap anywhere rather than run off.
STYLE: Final = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222;
  overflow-wrap: anywhere }
pre { background: #f6f6f6; padding: .6em; white-space: pre-wrap; overflow-wrap: anywhere;
  word-break: break-all }
:target { background: #fff3b0 }
mark { background: #ffb3b3; font-weight: bold }
details { margin: .4em 0 }
summary { cursor: pointer }
table { border-collapse: collapse; margin: .5em 0 }
td, th { border: 1px solid #ccc; padding: .2em .5em; text-align: left }
.must { color: #b00000 } .should { color: #8a6d00 } .may { color: #006b80 }
.verdict { font-size: 1.2em; font-weight: bold }
"""


def _pre(lines: Sequence[str]) -> str:
    """Return explanation lines as <pre>, the bracketed values of dump rows (and of a short
    input's one line) as <mark>."""
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


def vector_anchor(vector_id: str) -> str:
    """Return the id of a vector's entry in the index: 'vector-ovl-1'."""
    return f"vector-{vector_id}"


def _vector_link(vector_id: str) -> str:
    """Return a vector id as a link to its entry in the index."""
    return f'<a href="#{escape(vector_anchor(vector_id))}">{escape(vector_id)}</a>'


def _group(view: View, index: int, each: Group, known: bool, failing: bool = False) -> str:
    """Return one behaviour as a <details>, open when it fails the run: the example, the
    vectors (each a link to the index), those on which it shows only once moved or cut, every
    other difference; a behaviour of refusals placing the error nowhere is its title and fix."""
    title = (
        f"{index}. {each.level}: {each.behaviour} — {plural(len(each.vectors), 'vector')}, "
        f"{counted_differences(each)} ({', '.join(each.capabilities)})"
        + (" (known)" if known else "")
    )
    anchor = f'id="{_behaviour_anchor(index, known)}"'
    fix = unplaced_fix(each)
    if fix is not None:  # one cause, one line: what makes it vanish (as the text report)
        return (
            f'<p class="behaviour {each.level}" {anchor}>{escape(title)}. Fix: {escape(fix)}.</p>'
        )
    (example, also), *others = with_example_first(each)  # the example names its variants
    moved = moved_line(each)
    parts = [
        f'<details class="behaviour" {anchor}' + (" open>" if failing else ">"),
        f'<summary class="{each.level}">{escape(title)}</summary>',
        _explained(view, example, also),
        f"<p>Vectors: {' '.join(map(_vector_link, each.vectors))}</p>",
        *([f"<p>{escape(moved.strip().capitalize())}.</p>"] if moved is not None else []),
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
    """Return a table per capability checked: each vector that differs, level, what, variants;
    the refusals placing the error nowhere are one row (their behaviour says the fix)."""
    rows: dict[str, dict[tuple[str, str, str], int]] = {}
    unplaced: dict[str, dict[str, int]] = {}
    for d in view.report.differences:
        if d.what == UNPLACED:
            counts = unplaced.setdefault(d.capability, {})
            counts[d.vector] = counts.get(d.vector, 0) + 1
            continue
        table = rows.setdefault(d.capability, {})
        table[(d.vector, d.level, d.what)] = table.get((d.vector, d.level, d.what), 0) + 1
    parts = []
    for capability, checked in view.report.checked.items():
        found, plain = rows.get(capability, {}), unplaced.get(capability, {})
        differing = {vector for vector, _, _ in found} | set(plain)
        parts.append(
            f'<h3 id="capability-{capability}">{escape(capability)}: '
            f"{plural(checked, 'vector')} checked, {plural(len(differing), 'vector')} differ</h3>"
        )
        if not differing:
            continue
        parts.append("<table><tr><th>vector</th><th>level</th><th>what</th><th>variants</th></tr>")
        parts += [
            f'<tr class="{level}"><td>{_vector_link(vector)}</td><td>{level}</td>'
            f"<td>{escape(what)}</td><td>{count}</td></tr>"
            for (vector, level, what), count in found.items()
        ]
        if plain:
            parts.append(
                f'<tr class="may"><td>{plural(len(plain), "vector")}</td><td>may</td>'
                f"<td>{escape(UNPLACED)}</td><td>{sum(plain.values())}</td></tr>"
            )
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


def _behaviour_anchor(index: int, known: bool) -> str:
    """Return the id of a behaviour's <details>: 'behaviour-2', 'behaviour-1-known'."""
    return f"behaviour-{index}{'-known' if known else ''}"


def _index(view: View) -> str:
    """Return the vectors that differ, each once with its anchor (`vector_anchor`): what it is,
    where it is written, and links to the behaviours it shows ('' when none differs)."""
    shown: dict[str, list[tuple[int, bool]]] = {}
    for known, groups in ((False, view.shown_groups), (True, view.known_groups)):
        for index, each in enumerate(groups, start=1):
            for vector_id in each.vectors:
                shown.setdefault(vector_id, []).append((index, known))
    if not shown:
        return ""
    items = []
    for vector_id, behaviours in shown.items():
        vector = view.vectors.get(vector_id)
        about = "" if vector is None else f" — {vector.description} ({vector.source})"
        links = " ".join(
            f'<a href="#{_behaviour_anchor(index, known)}">[{index}{" known" if known else ""}]</a>'
            for index, known in behaviours
        )
        items.append(
            f'<li id="{escape(vector_anchor(vector_id))}">{_vector_link(vector_id)}'
            f"{escape(about)}: {links}</li>"
        )
    return '<h2 id="vectors">Vectors that differ</h2><ul>' + "".join(items) + "</ul>"


def _after_vectors(view: View) -> str:
    """Return the paragraph of what the run asked after the vectors: the sweep, the seeded
    pass and its seed ('' when it asked neither)."""
    lines = after_vectors_lines(view.report)
    if not lines:
        return ""
    return f'<p id="after-vectors">After the vectors: {escape("; ".join(lines))}.</p>'


def report_html(view: View) -> str:
    """Return the whole page as one string."""
    report = view.report
    title = f"utf8cert: {report.codec}"
    keys = {difference.key for difference in view.failing}
    behaviours = "\n".join(
        _group(view, i, g, False, any(d.key in keys for d in g.differences))
        for i, g in enumerate(view.shown_groups, start=1)
    )
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
            f'<p id="boundary">Boundary: {escape(report.boundary)}.</p>',
            f'<p id="suite">Suite: {escape(str(report.suite))}.</p>',
            _after_vectors(view),
            f'<p class="verdict" id="verdict">{escape(view.verdict())}</p>',
            f'<p id="gate">{escape(view.gate())}</p>',
            _summary(view),
            '<h2 id="behaviours">Behaviours</h2>',
            behaviours or "<p>None new.</p>",
            _baseline(view),
            '<h2 id="capabilities">By capability</h2>',
            _capability_tables(view),
            _legend(view),
            _index(view),
            "</body></html>",
            "",
        ]
    )
