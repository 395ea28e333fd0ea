"""A report as a markdown certificate a project can publish (`utf8cert check --markdown FILE`):
the verdict, a summary, then each behaviour by its simplest example, and a legend of flags."""

from __future__ import annotations

from typing import Final

from utf8cert.harness.check.variants import layouts
from utf8cert.harness.reports.coverage import answer_lines, coverage_lines, profile_lines
from utf8cert.harness.reports.explain import explain
from utf8cert.harness.reports.view import (
    View,
    counted_differences,
    moved_line,
    plural,
    unplaced_fix,
)
from utf8cert.harness.vectors.model import LEVELS

SHOWN_GROUPS: Final = 100
SHOWN_IDS: Final = 40


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _header(view: View) -> list[str]:
    report = view.report
    known = len(view.known)
    profile = None if report.profile.is_reference else report.profile.name
    return [
        f"# UTF-8 conformance certificate: `{report.codec}`",
        "",
        f"**Verdict: {view.verdict()}.**",
        "",
        "| | |",
        "|---|---|",
        f"| Codec | `{_cell(report.codec)}` {_cell(report.description)} |",
        *([f"| Profile | `{_cell(profile)}` |"] if profile else []),
        f"| Capabilities checked | {', '.join(sorted(report.capabilities)) or 'none'} |",
        f"| Date | {report.date} |",
        f"| utf8cert | {report.version} |",
        f"| Boundary | {_cell(report.boundary)} |",
        f"| Suite | {report.suite} |",
        f"| Vectors | {len(report.vectors)}, each in up to {len(layouts(2))} variants "
        "(as is, mid-stream, shifted by 1..15 bytes, across 64/4096/65536-byte boundaries; "
        + ("all of them" if report.depth == "full" else "spread over the vectors")
        + f": `--depth {report.depth}`) |",
        f"| Gate | fail on `{view.fail_on}`"
        + (f", {known} known deviations in the baseline" if known else "")
        + f": {_cell(view.gate())} |",
        "",
        "`must`: required by RFC 3629. `should`: recommended practice (error offsets, one U+FFFD"
        " per maximal subpart, Unicode §3.9). `may`: left open by the RFC (a leading signature).",
    ]


def _summary(view: View) -> list[str]:
    lines = [
        "",
        "## Summary",
        "",
        "Vectors with a difference, per capability and level (differences in brackets).",
        "",
        "| Capability | Vectors checked | " + " | ".join(LEVELS) + " |",
        "|---|--:|" + "--:|" * len(LEVELS),
    ]
    report = view.report
    for capability, counts in report.counts().items():
        cells = [f"{counts[level][1]} ({counts[level][0]})" for level in LEVELS]
        lines.append(f"| {capability} | {report.checked[capability]} | " + " | ".join(cells) + " |")
    extra = profile_lines(report) + coverage_lines(report) + answer_lines(report)
    if extra:
        lines += ["", "## Profile, coverage and answers", "", "```text", *extra, "```"]
    return lines


def _behaviours(view: View) -> list[str]:
    lines = ["", "## Behaviours", ""]
    groups = view.shown_groups
    if not groups and not view.unshown:
        if view.known_groups:
            lines.append("None new.")
        elif view.report.coverage.asked:
            lines.append("None: the codec agrees with every vector in every variant.")
        else:
            lines.append("None: no question was asked.")
    for index, each in enumerate(groups[:SHOWN_GROUPS], start=1):
        fix = unplaced_fix(each)
        if fix is not None:  # one cause, one line: what makes it vanish
            title = f"{index}. {each.level}: {_cell(str(each.behaviour))}"
            counted = f"{plural(len(each.vectors), 'vector')}, {counted_differences(each)}"
            lines += [f"### {title}", "", f"{counted}. Fix: {_cell(fix)}.", ""]
            continue
        example = each.example
        explained = explain(
            example,
            view.vectors.get(example.vector),
            view.report.vectors.note,
            view.rerun,
            notes=False,
        )
        ids = " ".join(each.vectors[:SHOWN_IDS])
        more = len(each.vectors) - SHOWN_IDS
        lines += [
            f"### {index}. {each.level}: {_cell(str(each.behaviour))}",
            "",
            f"{plural(len(each.vectors), 'vector')}, {counted_differences(each)}"
            f" ({', '.join(each.capabilities)}): {ids}"
            + (f" … and {more} more" if more > 0 else ""),
            "",
            *([f"{moved.strip().capitalize()}.", ""] if (moved := moved_line(each)) else []),
            "```text",
            *explained,
            "```",
            "",
        ]
    if len(groups) > SHOWN_GROUPS:
        lines.append(f"… and {len(groups) - SHOWN_GROUPS} more behaviours (see the JSON report).")
    if view.unshown:
        lines.append(f"Not shown: {view.unshown} (see the JSON report).")
    return lines


def _baseline(view: View) -> list[str]:
    lines: list[str] = []
    if view.known_groups:
        known = ", ".join(f"{each.behaviour} ({len(each.vectors)})" for each in view.known_groups)
        lines += ["", f"Known from the baseline: {_cell(known)}."]
    if view.fixed:
        lines += [
            "",
            f"**Fixed: {plural(len(view.fixed), 'known deviation')} no longer occur "
            "(update the baseline):**",
            "",
        ]
        lines += [f"- `{v}` [{c}, {_cell(variant)}]: {w}" for v, variant, c, w in view.fixed]
    return lines


def _legend(view: View) -> list[str]:
    flags = view.flags(view.shown_groups[:SHOWN_GROUPS])
    if not flags:
        return []
    notes = [f"- **{flag}**: {_cell(view.report.vectors.note(flag))}" for flag in flags]
    return ["", "## Flags", "", *notes]


def report_markdown(view: View) -> str:
    """Return the certificate: codec, date, versions, verdict, summary table, behaviours,
    baseline, legend."""
    lines = _header(view) + _summary(view) + _behaviours(view) + _baseline(view) + _legend(view)
    return "\n".join(lines).rstrip() + "\n"
