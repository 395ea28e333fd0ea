"""The reports a user of the README's codec contract reads (issue 42), in process: a codec that
refuses with a plain ValueError gets one line saying how to place its errors, not a difference a
vector; `--show-level` leaves out the lesser levels; a baseline whose deviations rose from `may`
to `must` says "changed level", never "fixed"."""

from __future__ import annotations

import io
import json
from functools import cache
from pathlib import Path

import jsonschema
from rich.console import Console

from utf8cert.harness.check.baseline import baseline_text, load_baseline
from utf8cert.harness.check.extent import UNPLACED
from utf8cert.harness.check.report import Report
from utf8cert.harness.check.run import only_these, run_check
from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.reports.html import report_html
from utf8cert.harness.reports.json_report import report_document, schema
from utf8cert.harness.reports.markdown import report_markdown
from utf8cert.harness.reports.text import render
from utf8cert.harness.reports.view import View
from utf8cert.harness.vectors.load import load_vectors

BUGGY = "support.user_codecs:Utf8Buggy"


@cache
def report(spec: str, *ids: str) -> Report:
    codec = load_codec(spec)
    vectors = load_vectors()
    try:
        return run_check(codec, only_these(vectors, ids) if ids else vectors)
    finally:
        codec.close()


def text(view: View, verbose: bool = False) -> list[str]:
    out = io.StringIO()
    render(view, Console(file=out, width=100, soft_wrap=True, no_color=True), verbose)
    return out.getvalue().splitlines()


def test_refusals_placing_the_error_nowhere_are_one_line_with_the_fix_even_verbose() -> None:
    lines = text(View(report(BUGGY)), verbose=True)
    unplaced = [line for line in lines if UNPLACED in line]
    assert len(unplaced) == 2  # decode and encode, each one line
    assert all(
        "fix: raise Unicode" in line and "Refusal(message, offset)" in line for line in unplaced
    )
    assert len(lines) < 1000  # 8,035 before issue 42: a line a difference of the may group
    assert not any(line.endswith(f"may: {UNPLACED}") for line in lines)  # no example explained


def test_show_level_leaves_the_lesser_behaviours_out_but_not_the_verdict() -> None:
    whole = View(report(BUGGY))
    must = View(report(BUGGY), show_level="must")
    assert [g.level for g in must.shown_groups] == ["must", "must"]
    assert must.unshown == "2 behaviours below must"
    lines = text(must, verbose=True)
    assert not any(UNPLACED in line for line in lines)
    assert must.verdict() == whole.verdict() and must.gate() == whole.gate()


def test_the_json_report_says_the_fix_and_where_a_bug_shows_only_moved() -> None:
    document = report_document(View(report("support.user_codecs:Utf8BuggyPlaced")))
    jsonschema.validate(document, schema())
    moved = {b["detail"]: b.get("moved", []) for b in document["behaviours"]}
    assert {"sur-19", "sur-20"} <= set(moved["surrogate"])
    fixes = [b["fix"] for b in document["behaviours"] if b["what"] == UNPLACED]
    assert fixes and all("UnicodeEncodeError" in fix for fix in fixes)  # its encoder's


def test_the_html_and_markdown_reports_say_the_fix_and_where_a_bug_shows_only_moved() -> None:
    whole = report(BUGGY)
    for document in (report_html(View(whole)), report_markdown(View(whole))):
        said = [line for line in document.splitlines() if UNPLACED in line]
        assert document.count("Fix: raise Unicode") == 2  # decode's and encode's
        # Their titles, and at most a row per capability in the HTML's tables: not one per
        # vector, and no example explained.
        assert 2 <= len(said) <= 2 + len(whole.checked), said
    placed = report_html(View(report("support.user_codecs:Utf8BuggyPlaced")))
    assert "Also seen when moved or cut: " in placed and "sur-19" in placed


def test_a_baseline_whose_deviations_rose_to_must_says_changed_level_never_fixed(
    tmp_path: Path,
) -> None:
    """bnd-36 is C0 80 (RFC 3629 §4: C0 never appears): Utf8Buggy refuses it with a plain
    ValueError (may); Utf8Buggier, its C0 and C1 bug added, decodes it (must)."""
    ids = ("bnd-36", "sur-1")
    path = tmp_path / "baseline.json"
    path.write_text(baseline_text(BUGGY, report(BUGGY, *ids).differences), encoding="utf-8")
    baseline = load_baseline(path)
    worse = View(report("support.user_codecs:Utf8Buggier", *ids), baseline=baseline)
    assert worse.fixed == []
    assert worse.changed and {now.level for _, now in worse.changed} == {"must"}
    assert {baseline.levels[key] for key, _ in worse.changed} == {"may"}
    assert all(key[0] == "bnd-36" for key, _ in worse.changed)
    lines = "\n".join(text(worse))
    assert "changed level:" in lines and "may → must" in lines
    assert "fixed" not in lines and not worse.passed
    jsonschema.validate(report_document(worse), schema())
    strict = View(worse.report, baseline=baseline, strict_baseline=True)
    assert "changed deviation" in strict.gate() or strict.failing


def test_a_deviation_whose_question_no_longer_differs_is_fixed(tmp_path: Path) -> None:
    path = tmp_path / "baseline.json"
    buggy = report(BUGGY, "sur-1")
    path.write_text(baseline_text(BUGGY, buggy.differences), encoding="utf-8")
    right = View(report("support.hand_rolled:HandRolled", "sur-1"), baseline=load_baseline(path))
    assert right.changed == [] and len(right.fixed) == len({d.key for d in buggy.differences})
    assert json.loads(json.dumps(report_document(right)))["baseline"]["changed"] == []


def test_one_vector_asked_is_one_vector() -> None:
    lines = text(View(report(BUGGY, "sur-1")))
    assert any(line.startswith("suite: 1 vector asked, SHA-256 ") for line in lines)
