"""The verdict line, the behaviours' headlines, the gate's counts and the exit status agree in
every mode: the full report and --quiet, without and with a baseline (all known, some known, a
stale one under --strict-baseline), and at each --fail-on. Real codecs with real defects
(broken_codecs.py), on a few vectors chosen so that one behaviour mixes must and should
differences (the overlong forms of Markus Kuhn's test file, u39-2 and u39-7, which NaiveBitDecoder
decodes as characters and also counts wrong in U+FFFD), each run in process."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from support.cli_runs import Run, check

from utf8cert.harness.vectors.model import LEVELS

MIXED = "support.broken_codecs:NaiveBitDecoder"
"""Lets overlong forms and surrogates through (must), counts U+FFFD wrong (should)."""
SHOULD_ONLY = "support.broken_codecs:OneFffdPerByte"
"""Conformant, but writes one U+FFFD per ill-formed byte (should)."""
VECTORS = ["u39-2", "u39-7", "ovl-1", "sur-1", "edge-84"]
CHOSEN = [*(word for vector in VECTORS for word in ("--vector", vector)), "--in-process"]
"""The vectors, and the codec in this process: these codecs are the suite's own, and the verdict
line, the gate and the exit status do not depend on where the codec runs (a sandboxed child
for each of the 22 runs cost more than the runs)."""

LEVELS_TIERED = [
    pytest.param(level, marks=[pytest.mark.slow] if level == "may" else [], id=level)
    for level in LEVELS
]
"""Each level of --fail-on; at may the gate counts as at should for these codecs (no may
difference), so that one runs in the slow tier."""

HEADLINE = re.compile(
    r"^\[\d+\] (must|should|may): .* — \d+ vectors?, (\d+) differences?(?:: ([^(]*))? \(",
    re.MULTILINE,
)
GATE_FAIL = re.compile(r"^FAIL: (\d+) (?:new )?behaviours? at level (\w+) or above \((\d+) diff")


def headlines(out: str) -> list[tuple[str, dict[str, int]]]:
    """Return each new behaviour's (level, differences by level) as its headline says."""
    found = []
    for level, total, split in HEADLINE.findall(out):
        counts = {level: int(total)}
        if split:
            counts = {name: int(number) for number, name in (p.split() for p in split.split(", "))}
            assert sum(counts.values()) == int(total), split
        found.append((level, counts))
    return found


def verdict_line(out: str) -> str:
    """Return the verdict line of a full report (the one after the summary table)."""
    lines = [line for line in out.splitlines() if re.match(r"(NOT )?conformant to ", line)]
    assert len(lines) == 1, out
    return lines[0]


def run_both(*arguments: str) -> tuple[Run, Run]:
    """Return the full report's run and the --quiet one, each with the JSON on the side."""
    return check(*arguments), check(*arguments, "--quiet")


def assert_agreement(full: Run, quiet: Run, fail_on: str, report: dict[str, object]) -> None:
    """Assert that the verdict, headlines, gate, JSON and exit status agree with each other."""
    assert full.status == quiet.status and full.status in (0, 1), full.err
    line = quiet.out.rstrip("\n")
    assert "\n" not in line and line == verdict_line(full.out)
    gate = full.out.rstrip().splitlines()[-1]
    passed = full.status == 0
    assert gate.startswith("pass") == passed, gate
    # The line alone says what the exit status says: a pass never reads as NOT conformant or
    # FAIL without the gate's pass after it, a failure never reads as a plain conformant.
    if passed:
        assert ("NOT conformant" not in line and "FAIL" not in line) or "; pass" in line, line
    else:
        assert line.startswith("NOT conformant") or "; FAIL" in line, line
    summary = report["summary"]
    assert isinstance(summary, dict) and summary["passed"] is passed
    assert summary["verdict"] == line and summary["gate"] == gate
    failing = GATE_FAIL.match(gate)
    if failing is None:
        return
    behaviours, level, differences = failing.groups()
    assert level == fail_on
    binding = LEVELS[: LEVELS.index(fail_on) + 1]
    shown = headlines(full.out)
    at_gate = [counts for level, counts in shown if level in binding]
    assert int(behaviours) == len(at_gate)
    assert int(differences) == sum(n for c in at_gate for lvl, n in c.items() if lvl in binding)
    # And so the JSON: the new differences at the gate's levels, counted one by one.
    every = report["differences"]
    assert isinstance(every, list)
    new = [d for d in every if not d["known"] and d["level"] in binding]
    assert int(differences) == len(new)


def checked(tmp_path: Path, name: str, *arguments: str) -> tuple[Run, Run, dict[str, object]]:
    """Return the full run, the quiet run and the JSON report of `check ARGUMENTS`."""
    report = tmp_path / f"{name}.json"
    full, quiet = run_both(*arguments, "--json", str(report))
    return full, quiet, json.loads(report.read_text(encoding="utf-8"))


@pytest.mark.parametrize("fail_on", LEVELS_TIERED)
@pytest.mark.slow
def test_without_a_baseline_the_counts_agree_at_every_level(fail_on: str, tmp_path: Path) -> None:
    full, quiet, report = checked(tmp_path, "r", MIXED, *CHOSEN, "--fail-on", fail_on)
    assert full.status == 1
    assert_agreement(full, quiet, fail_on, report)
    # A headline splits its differences by level exactly where the JSON shows its behaviour
    # with more than one level (the must part alone counted where the gate is at must).
    levels: dict[str, set[str]] = {}
    for difference in report["differences"]:  # type: ignore[attr-defined]
        levels.setdefault(difference["behaviour"], set()).add(difference["level"])
    overlong = next(line for line in full.out.splitlines() if "(overlong)" in line)
    mixed = next(len(found) > 1 for key, found in levels.items() if "overlong" in key)
    assert bool(re.search(r"differences: \d+ must, \d+ should \(", overlong)) == mixed, overlong


@pytest.mark.slow
def test_a_baseline_that_knows_every_difference_passes_and_the_quiet_line_says_so(
    tmp_path: Path,
) -> None:
    baseline = tmp_path / "known.json"
    assert check(MIXED, *CHOSEN, "--write-baseline", str(baseline), "-q").status == 0
    full, quiet, report = checked(tmp_path, "r", MIXED, *CHOSEN, "--baseline", str(baseline))
    assert full.status == 0
    assert_agreement(full, quiet, "must", report)
    # Still not conformant (a certificate does not forget), and the line says why it passes.
    assert quiet.out.startswith("NOT conformant to RFC 3629")
    assert "; pass: no new difference, every one is known from the baseline" in quiet.out


@pytest.mark.parametrize("fail_on", ["must", "should"])
@pytest.mark.slow
def test_a_baseline_that_knows_some_passes_or_fails_on_the_new_ones(
    fail_on: str, tmp_path: Path
) -> None:
    # Known: the must behaviours; new: edge-84's U+FFFD count, a should difference.
    baseline = tmp_path / "some.json"
    known = [*(w for vector in VECTORS[:-1] for w in ("--vector", vector)), "--in-process"]
    assert check(MIXED, *known, "--write-baseline", str(baseline), "-q").status == 0
    arguments = [MIXED, *CHOSEN, "--baseline", str(baseline), "--fail-on", fail_on]
    full, quiet, report = checked(tmp_path, "r", *arguments)
    assert full.status == (0 if fail_on == "must" else 1)
    assert_agreement(full, quiet, fail_on, report)
    gate = full.out.rstrip().splitlines()[-1]
    if fail_on == "must":  # the new should behaviour is shown, not said to be absent
        assert gate.startswith("pass at level must: 1 new behaviour below it"), gate
        assert "no new difference" not in full.out
    else:
        assert gate.startswith("FAIL: 1 new behaviour at level should or above"), gate


@pytest.mark.slow
def test_a_stale_baseline_under_strict_baseline_fails_and_the_line_says_so(
    tmp_path: Path,
) -> None:
    baseline = tmp_path / "mixed.json"
    assert check(MIXED, *CHOSEN, "--write-baseline", str(baseline), "-q").status == 0
    # A codec that no longer lets anything through: the baseline's must deviations are fixed.
    arguments = [SHOULD_ONLY, *CHOSEN, "--baseline", str(baseline), "--baseline-any-codec"]
    full, quiet, report = checked(tmp_path, "r", *arguments, "--strict-baseline")
    assert full.status == 1
    assert_agreement(full, quiet, "must", report)
    assert quiet.out.startswith("conformant to RFC 3629")
    # The must deviations whose questions now differ at should are changed, not fixed (#42).
    stale = r"; FAIL: \d+ fixed deviations, \d+ changed deviations \(--strict-baseline\)$"
    assert re.search(stale, quiet.out.strip())
    # Without --strict-baseline the same run passes, and the line says so.
    full, quiet, report = checked(tmp_path, "lenient", *arguments)
    assert full.status == 0
    assert_agreement(full, quiet, "must", report)


@pytest.mark.parametrize("fail_on", LEVELS_TIERED)
@pytest.mark.slow
def test_a_conformant_codec_with_should_departures_fails_only_from_should(
    fail_on: str, tmp_path: Path
) -> None:
    full, quiet, report = checked(tmp_path, "r", SHOULD_ONLY, *CHOSEN, "--fail-on", fail_on)
    assert full.status == (0 if fail_on == "must" else 1)
    assert_agreement(full, quiet, fail_on, report)
    assert quiet.out.startswith("conformant to RFC 3629; departs from recommended practice")
    assert ("; FAIL: 1 behaviour at level" in quiet.out) == (fail_on != "must")
