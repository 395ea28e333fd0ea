"""What a Report says beyond its differences, in plain lines and JSON: the profile checked
against, the coverage of every capability, the fingerprint, and one input's answers.

The terminal report, the JSON document and the Markdown certificate all take these, so the three
say the same thing.
"""

from __future__ import annotations

from typing import Any, Final

from utf8cert.harness.check.coverage import THRESHOLD, CapabilityCoverage, percent
from utf8cert.harness.check.recheck import SOAK, SOAK_SECONDS
from utf8cert.harness.check.report import Report
from utf8cert.harness.codec.interface import Capability

SHOWN_REASONS: Final = 5
"""At most this many reasons for inapplicable questions are listed per capability."""


def profile_lines(report: Report) -> list[str]:
    """Return the lines naming the profile and what it waives ([] for RFC 3629 itself)."""
    profile = report.profile
    if profile.is_reference:
        return []
    lines = [f"profile: {profile.name} = {profile.title} ({profile.source})"]
    lines += [f"  waives {waiver}" for waiver in profile.waives]
    if report.allowed:
        lines.append(f"  {len(report.allowed)} answers differ from RFC 3629 as the profile allows")
    return lines


def coverage_lines(report: Report) -> list[str]:
    """Return one line per capability (questions asked, answered, certified or not) and the
    reasons given for inapplicable questions; [] when nothing was asked."""
    if report.subject:
        return []
    lines = []
    for capability, coverage in report.coverage.ordered():
        if not coverage.offered:
            lines.append(f"  {capability}: {coverage.summary()}")
            continue
        status = (
            "certified" if coverage.certified else f"NOT certified ({coverage.why_not_certified()})"
        )
        share = f"{percent(coverage.share)} of those counted"
        if coverage.certified and coverage.over:
            status += f" over {coverage.over}: {coverage.restricted} questions it cannot be given"
        lines.append(f"  {capability}: {coverage.summary()} ({share}): {status}")
        if capability == "incremental" and report.incremental_mode is not None:
            lines.append(f"    judged in mode {report.incremental_mode.describe()}")
        if capability == "incremental" and report.reuse:
            lines.append(f"    reused (the same decoder after each event): {report.reuse}")
        if capability in report.asked_again_cut_short:
            lines.append(
                f"    asked {report.asked_again_cut_short[capability]:,} times in all: the"
                f" questions asked again stopped after {SOAK_SECONDS:.0f} s, short of"
                f" {SOAK:,} (answers that change later are not seen)"
            )
        reasons = coverage.inapplicable.most_common()
        for reason, count in reasons[:SHOWN_REASONS]:
            lines.append(f"    inapplicable {count}: {reason}")
        if len(reasons) > SHOWN_REASONS:
            lines.append(f"    … and {len(reasons) - SHOWN_REASONS} more reasons")
        for reason, count in coverage.skipped_for.most_common(SHOWN_REASONS):
            lines.append(f"    skipped {count}: {reason}")
        if coverage.beyond_code_space:
            lines.append(
                f"    ({coverage.beyond_code_space} of them hold a value above U+10FFFF, "
                "which no Unicode string holds: not counted against the share)"
            )
        if coverage.beyond_utf16:
            lines.append(
                f"    ({coverage.beyond_utf16} of them hold a surrogate pair, which a UTF-16 "
                "string holds as its character: not counted against the share)"
            )
        if coverage.beyond_api:
            lines.append(
                f"    ({coverage.beyond_api} of them hold a NUL, where the C string its API "
                "reads ends: its declared limit, not counted against the share)"
            )
    lines += [f"  {line}" for line in after_vectors_lines(report)]
    return ["coverage (questions per capability):", *lines] if lines else []


def after_vectors_lines(report: Report) -> list[str]:
    """Return what a whole run asked after the vectors: a line for the sweep (check/sweep.py)
    and one for the seeded pass with its seed (check/seeded.py); [] when it asked neither."""
    lines = []
    if report.sweep:
        lines.append(f"sweep (every scalar, every ill-formed byte pair alone): {report.sweep}")
    if report.seeded is not None:
        lines.append(f"seeded pass: {report.seeded.describe()}")
    return lines


def answer_lines(report: Report) -> list[str]:
    """Return, for a one-input check, each capability's answer beside the expected one."""
    expected_by = "reference" if report.profile.is_reference else report.profile.name
    lines = []
    for answer in report.answers:
        lines += [
            f"{answer.capability} of {answer.question}:",
            f"  {expected_by}: {answer.expected}",
            f"  codec:     {answer.actual}",
        ]
    return lines


def _mode_json(report: Report, capability: Capability) -> dict[str, Any]:
    """Return the JSON fields of the mode a capability was judged in: decode is strict, replace
    replaces, incremental as held (check/modes.py; its mode None until settled); validate and
    encode have none ({})."""
    if capability == "incremental":
        held = report.incremental_mode
        if held is None:
            return {}
        reuse = {"reuse": report.reuse} if report.reuse else {}
        return {"mode": held.mode, "mode_source": held.source, **reuse}
    fixed = {"decode": "strict", "replace": "replace"}
    return {"mode": fixed[capability]} if capability in fixed else {}


def _restriction_json(coverage: CapabilityCoverage) -> dict[str, Any]:
    """Return the JSON fields of a declared restriction (codec/restrictions.py): what the
    certificate holds over, the questions it excluded and those answered against it ({} for a
    capability with none)."""
    if not (coverage.over or coverage.contradicted):
        return {}
    return {
        "over": coverage.over,
        "restricted": coverage.restricted,
        "contradicted": coverage.contradicted,
    }


def _cut_short_json(report: Report, capability: Capability) -> dict[str, Any]:
    """Return, for a capability whose questions asked again stopped short of recheck.SOAK, the
    questions asked of it in all ({} otherwise)."""
    cut = report.asked_again_cut_short
    return {"asked_in_all_cut_short": cut[capability]} if capability in cut else {}


def after_vectors_json(report: Report) -> dict[str, Any]:
    """Return the JSON fields of what a whole run asks after the vectors: the sweep (check/
    sweep.py) and the seeded pass (check/seeded.py), each null when the run did not ask it."""
    seeded = report.seeded
    return {
        "sweep": {"questions": report.sweep_questions} if report.sweep else None,
        "seeded": None
        if seeded is None
        else {"seed": seeded.seed, "inputs": seeded.inputs, "questions": seeded.questions},
    }


def extra_json(report: Report) -> dict[str, Any]:
    """Return the JSON fields of the profile, coverage, what was asked after the vectors, the
    fingerprint and the answers."""
    fingerprint = report.fingerprint()
    return {
        "profile": {
            "name": report.profile.name,
            "source": report.profile.source,
            "waives": list(report.profile.waives),
            "allowed": len(report.allowed),
        },
        "certified": report.certified,
        "coverage": {
            capability: {
                "asked": coverage.asked,
                "answered": coverage.answered,
                "inapplicable": dict(coverage.inapplicable),
                "beyond_code_space": coverage.beyond_code_space,
                "beyond_utf16": coverage.beyond_utf16,
                "beyond_api": coverage.beyond_api,
                "not_offered": coverage.not_offered,
                "skipped": coverage.skipped,
                "skipped_for": dict(coverage.skipped_for),
                "share": round(coverage.share, 6),
                "declined_layouts": {
                    layout: {
                        "declined": coverage.layout_declined[layout],
                        "asked": coverage.layout_asked[layout],
                    }
                    for layout in coverage.declined_layouts
                },
                "certified": coverage.certified,
                **_restriction_json(coverage),
                **_mode_json(report, capability),
                **_cut_short_json(report, capability),
            }
            for capability, coverage in report.coverage.ordered()
        },
        "coverage_threshold": THRESHOLD,
        **after_vectors_json(report),
        "fingerprint": {
            "fitting": list(fingerprint.fitting),
            "closest": fingerprint.closest,
            "explained": fingerprint.explained,
            "must_differences": fingerprint.total,
            "left_over": dict(fingerprint.left_over),
            "sentence": fingerprint.sentence(),
        },
        "answers": [
            {
                "capability": answer.capability,
                "question": answer.question,
                "expected": answer.expected,
                "actual": answer.actual,
            }
            for answer in report.answers
        ],
    }
