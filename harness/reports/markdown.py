"""A Report as a markdown certificate a project can publish (`utf8cert check --markdown FILE`)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

from utf8cert.harness.check.baseline import Key
from utf8cert.harness.check.run import Report, vector_index
from utf8cert.harness.check.variants import layouts
from utf8cert.harness.reports.coverage import answer_lines, coverage_lines, profile_lines
from utf8cert.harness.reports.explain import explain, grouped
from utf8cert.harness.vectors.model import LEVELS, Level

SHOWN_GROUPS: Final = 200


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def report_markdown(report: Report, fail_on: Level = "must", known: Collection[Key] = ()) -> str:
    """Return the certificate: codec, date, versions, verdict, summary table and differences."""
    verdict = report.verdict()
    failing = report.failing(fail_on, known)
    lines = [
        f"# UTF-8 conformance certificate: `{report.codec}`",
        "",
        f"**Verdict: {verdict}.**",
        "",
        "| | |",
        "|---|---|",
        f"| Codec | `{_cell(report.codec)}` {_cell(report.description)} |",
        f"| Capabilities checked | {', '.join(sorted(report.capabilities)) or 'none'} |",
        f"| Date | {report.date} |",
        f"| utf8cert | {report.version} |",
        f"| Vectors | {len(report.vectors)}, each in up to {len(layouts(2))} variants "
        "(as is, mid-stream, shifted by 1..15 bytes, across 64/4096/65536-byte boundaries) |",
        f"| Gate | fail on `{fail_on}`"
        + (f", {len(known)} known deviations in the baseline" if known else "")
        + f": {'FAIL' if failing else 'pass'} |",
        "",
        "`must`: required by RFC 3629. `should`: recommended practice (error offsets, one U+FFFD"
        " per maximal subpart, Unicode §3.9). `may`: left open by the RFC (a leading signature).",
        "",
        "## Summary",
        "",
        "Differences per capability and level, as count (vectors).",
        "",
        "| Capability | Vectors checked | " + " | ".join(LEVELS) + " |",
        "|---|--:|" + "--:|" * len(LEVELS),
    ]
    for capability, counts in report.counts().items():
        cells = [f"{counts[level][0]} ({counts[level][1]})" for level in LEVELS]
        lines.append(f"| {capability} | {report.checked[capability]} | " + " | ".join(cells) + " |")
    extra = profile_lines(report) + coverage_lines(report) + answer_lines(report)
    if extra:
        lines += ["", "## Profile, coverage and answers", "", "```text", *extra, "```"]
    groups = grouped(report.differences)
    lines += ["", "## Differences", ""]
    if not groups:
        lines.append("None: the codec agrees with every vector in every variant.")
    vectors = vector_index(report.vectors)
    seen: set[str] = set()
    for first, variants in groups[:SHOWN_GROUPS]:
        vector, notes = vectors.get(first.vector), first.vector not in seen
        seen.add(first.vector)
        explained = explain(first, vector, report.vectors.note, report.codec, notes=notes)
        known_mark = " (known)" if first.key in known else ""
        lines += [f"### {_cell(explained[0])}{known_mark}", "", "```text", *explained[1:]]
        if variants:
            lines.append(f"  and {len(variants)} more variants alike")
        lines += ["```", ""]
    if len(groups) > SHOWN_GROUPS:
        lines.append(f"… and {len(groups) - SHOWN_GROUPS} more groups (see the JSON report).")
    return "\n".join(lines).rstrip() + "\n"
