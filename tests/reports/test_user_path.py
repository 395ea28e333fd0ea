"""The reports a user of the README's codec contract reads (issue 42), in process: a codec that
refuses with a plain ValueError gets one line saying how to place its errors, not a difference a
vector; `--show-level` leaves out the lesser levels; a baseline whose deviations rose from `may`
to `must` says "changed level", never "fixed"."""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from functools import cache
from pathlib import Path

import jsonschema
import pytest
from rich.console import Console

from utf8cert.harness.check.baseline import baseline_text, load_baseline
from utf8cert.harness.check.extent import UNPLACED
from utf8cert.harness.check.report import Report
from utf8cert.harness.check.run import only_these, run_check
from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.reports.explain import Rerun
from utf8cert.harness.reports.html import report_html
from utf8cert.harness.reports.json_report import report_document, schema
from utf8cert.harness.reports.markdown import report_markdown
from utf8cert.harness.reports.text import render
from utf8cert.harness.reports.view import View
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import DecodeVector

BUGGY = "support.user_codecs:Utf8Buggy"
DUMP_ROW = re.compile(r"  ([0-9A-F]{6})  (.*)")
HEADLINE = re.compile(
    r"(?P<vector>[\w-]+) \[decode, (?P<variant>[^\]]+)\] must: [^(]*(\(flags: (?P<flags>.*)\))?$"
)


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


@pytest.mark.slow
def test_refusals_placing_the_error_nowhere_are_one_line_with_the_fix_even_verbose() -> None:
    lines = text(View(report(BUGGY)), verbose=True)
    unplaced = [line for line in lines if UNPLACED in line]
    assert len(unplaced) == 2  # decode and encode, each one line
    assert all(
        "fix: raise Unicode" in line and "Refusal(message, offset)" in line for line in unplaced
    )
    assert len(lines) < 1000  # 8,035 before issue 42: a line a difference of the may group
    assert not any(f"] may: {UNPLACED}" in line for line in lines)  # no example explained


def blocks(lines: list[str]) -> dict[tuple[str, str], list[str]]:
    """Return the explained differences of a text report by (vector, variant): its lines from
    the headline to the blank line."""
    found: dict[tuple[str, str], list[str]] = {}
    for block in "\n".join(lines).split("\n\n"):
        for at, line in enumerate(block.splitlines()):
            if match := HEADLINE.match(line):
                found[match["vector"], match["variant"]] = block.splitlines()[at:]
    return found


def test_verbose_explains_every_must_vector_byte_by_byte_as_cpython_places_it() -> None:
    """Issue 42: -v under 1,000 lines still explains each differing vector: its flags (as in
    its vector file), its input (the vector's bytes where it says), the first bytes at fault
    bracketed where CPython's strict decoder stops, the offset CPython gives, a reproducer."""
    whole = report(BUGGY)
    vectors = {vector.id: vector for vector in load_vectors()}
    explained = blocks(text(View(whole, rerun=Rerun(BUGGY)), verbose=True))
    musts = {(d.vector, d.variant): d for d in whole.differences if d.level == "must"}
    standing: dict[str, int] = {}  # per vector: the differences its blocks stand for
    for (vector_id, variant), shown in explained.items():
        also = next((line for line in shown if line.startswith("  also in: ")), "  also in: ")
        named = [v for v in also.removeprefix("  also in: ").split("; ") if v and v[0] != "…"]
        more = re.search(r"… \((\d+) more\)", also)
        assert all((vector_id, other) in musts for other in [variant, *named])
        standing[vector_id] = (
            standing.get(vector_id, 0) + 1 + len(named) + int(more[1] if more else 0)
        )
    assert standing == dict(Counter(vector for vector, _ in musts))  # every one of them
    for key, shown in explained.items():
        difference = musts[key]
        vector, data = vectors[difference.vector], difference.input
        assert isinstance(vector, DecodeVector) and isinstance(data, bytes)
        flags = HEADLINE.match(shown[0])["flags"]  # type: ignore[index]
        assert (flags or "").split(", ") == (list(vector.flags) or [""])
        inside = re.search(r"input, (\d+) bytes? \(the vector's at (\d+)\):(.*)", shown[2])
        assert inside is not None, shown
        length, at, values = int(inside[1]), int(inside[2]), inside[3].split()
        assert length == len(data) and data[at : at + len(vector.data)] == vector.data
        with pytest.raises(UnicodeDecodeError) as cpython:
            data.decode("utf-8")
        assert f"  expected: refusal at offset {cpython.value.start}" in shown
        asked = f"--input {data.hex()}" if length <= 96 else f"--vector {vector.id}"
        assert shown[-1] == f"  reproduce: utf8cert check {BUGGY} --in-process {asked}"
        start = cpython.value.start
        if length <= 16:  # one line: the bytes themselves, the first bracket where CPython stops
            assert bytes.fromhex("".join(values).replace("[", "").replace("]", "")) == data
            assert values[start].startswith("["), shown
        else:  # dump rows of 16 after the input line: the row holding CPython's offset among them
            assert values == []
            rows = {int(m[1], 16): m[2].split() for m in map(DUMP_ROW.match, shown) if m}
            assert rows[start // 16 * 16][start % 16].startswith("["), shown


def test_show_level_leaves_the_lesser_behaviours_out_but_not_the_verdict() -> None:
    whole = View(report(BUGGY))
    must = View(report(BUGGY), show_level="must")
    assert [g.level for g in must.shown_groups] == ["must", "must"]
    assert must.unshown == "2 behaviours below must"
    lines = text(must, verbose=True)
    assert not any(UNPLACED in line for line in lines)
    assert must.verdict() == whole.verdict() and must.gate() == whole.gate()


@pytest.mark.slow
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


@pytest.mark.slow
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
