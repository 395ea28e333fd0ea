"""`utf8cert check` output options and baselines: report paths checked before the run,
--write-baseline says where and how many, a baseline of another codec is refused, known
behaviours are one line, fixed deviations are named (and fail under --strict-baseline), and a
bad baseline file is one line and exit 2."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from support.cli_runs import check
from support.samples import few_of_each_kind, options
from support.user_vectors import EXTRA_VECTOR

SURROGATEPASS = "codec:utf-8:surrogatepass"
FEW = tuple(options(few_of_each_kind()))
"""The vectors of the runs that check: a few of each kind (surrogatepass shows its two
behaviours there, the crash on C0 leaves decoding uncertified there), a twentieth of the suite."""


@pytest.mark.parametrize("option", ["--json", "--markdown", "--junit-xml", "--html"])
def test_an_output_path_that_cannot_be_written_stops_the_run_before_it_starts(
    option: str, tmp_path: Path
) -> None:
    # The spec cannot be loaded either: the output path is what is reported, so it was checked
    # before anything was loaded or run.
    missing = tmp_path / "no" / "such" / "report"
    run = check("no_such_module_xyz:decode", option, str(missing))
    assert run.status == 2 and run.out == ""
    assert run.err == f"utf8cert: error: {option} {missing}: no directory {missing.parent}\n"
    run = check("no_such_module_xyz:decode", option, str(tmp_path))
    assert run.err == f"utf8cert: error: {option} {tmp_path}: is a directory\n"


def test_json_and_annotations_cannot_share_standard_output() -> None:
    run = check("codec:utf-8", "--json", "-", "--github")
    assert run.status == 2 and run.out == ""
    assert run.err == (
        "utf8cert: error: --json - and --github both write to standard output: choose one\n"
    )


def write_baseline(tmp_path: Path, *arguments: str) -> tuple[Path, str]:
    baseline = tmp_path / "baseline.json"
    run = check(SURROGATEPASS, *FEW, "--write-baseline", str(baseline), *arguments)
    assert run.status == 0
    return baseline, run.err


@pytest.mark.slow
def test_write_baseline_says_where_and_how_many(tmp_path: Path) -> None:
    baseline, said = write_baseline(tmp_path)
    document = json.loads(baseline.read_text(encoding="utf-8"))
    assert document["codec"] == SURROGATEPASS and document["profile"] is None
    count = len(document["deviations"])
    assert said == f"utf8cert: wrote {baseline}: {count} known deviations (2 behaviours)\n"


@pytest.mark.slow
def test_a_baseline_prints_new_behaviours_in_full_and_known_ones_in_one_line(
    tmp_path: Path,
) -> None:
    baseline, _ = write_baseline(tmp_path)
    extra = tmp_path / "extra.yaml"
    extra.write_text(EXTRA_VECTOR, encoding="utf-8")
    chosen = (*FEW, "--vector", "extra-1")
    run = check(SURROGATEPASS, *chosen, "--baseline", str(baseline), "--vectors", str(extra))
    assert run.status == 1
    assert re.search(r"known from the baseline: must: 2 behaviours \(\d+ differences\)", run.out)
    # The extra vector's behaviour is new; a vector added may also move a known vector into
    # another variant (check/schedule.py spreads them over the vector set), which is new too.
    groups = re.findall(r"\[\d+\] must: .* — \d+ vectors?, (\d+) differences? \(", run.out)
    # Known vectors moved into a new variant show the same surrogate bug: one behaviour with the
    # extra vector's (issue 42: not a bug of their position).
    assert re.search(
        r"\[\d+\] must: decode: let ill-formed input through \(surrogate\) — \d+ vectors?, ",
        run.out,
    ), run.out
    assert "extra-1 [decode, as-is] must: accepted ill-formed input" in run.out
    assert "sur-1 [decode, as-is]" not in run.out  # a known one is not explained again
    # The verdict counts the new behaviours' differences, not the known ones.
    new = sum(map(int, groups))
    assert run.out.rstrip().endswith(
        f"FAIL: {len(groups)} new behaviour{'s' * (len(groups) > 1)} at level must or above "
        f"({new} differences)"
    )


@pytest.mark.slow
def test_a_passing_gate_still_says_what_the_baseline_hides_by_level(tmp_path: Path) -> None:
    baseline, _ = write_baseline(tmp_path)
    report = tmp_path / "r.json"
    run = check(SURROGATEPASS, *FEW, "--baseline", str(baseline), "--json", str(report))
    assert run.status == 0  # every difference is known: the gate passes
    hidden = json.loads(report.read_text(encoding="utf-8"))["baseline"]["hidden"]
    assert list(hidden) == ["must"]
    assert hidden["must"]["behaviours"] == 2
    words = f"must: 2 behaviours ({hidden['must']['differences']} differences)"
    assert run.out.rstrip().endswith(
        f"pass: no new difference, every one is known from the baseline, which hides {words}"
    )
    assert "NOT conformant to RFC 3629" in run.out  # the verdict is not the gate's


@pytest.mark.slow
def test_a_baseline_of_another_codec_is_refused_unless_asked(tmp_path: Path) -> None:
    baseline, _ = write_baseline(tmp_path)
    run = check("codec:utf-8", *FEW, "--baseline", str(baseline))
    assert run.status == 2
    assert run.err == (
        f"utf8cert: error: --baseline {baseline}: recorded for {SURROGATEPASS}, not codec:utf-8 "
        "(--baseline-any-codec to use it anyway)\n"
    )
    # Asked, it is used: CPython's strict codec has fixed every deviation it lists.
    run = check("codec:utf-8", *FEW, "--baseline", str(baseline), "--baseline-any-codec")
    assert run.status == 0
    assert (
        "fixed: " in run.out and " known deviations no longer occur: update the baseline" in run.out
    )
    strict = check(
        "codec:utf-8",
        *FEW,
        "--baseline",
        str(baseline),
        "--baseline-any-codec",
        "--strict-baseline",
    )
    assert strict.status == 1
    assert strict.out.rstrip().endswith("(--strict-baseline)")


def test_a_baseline_that_records_no_codec_is_used_only_when_asked(tmp_path: Path) -> None:
    baseline, _ = write_baseline(tmp_path)
    document = json.loads(baseline.read_text(encoding="utf-8"))
    document["codec"] = None
    baseline.write_text(json.dumps(document), encoding="utf-8")
    run = check(SURROGATEPASS, *FEW, "--baseline", str(baseline))
    assert run.status == 2
    assert run.err == (
        f"utf8cert: error: --baseline {baseline}: records no codec, so not {SURROGATEPASS} "
        "(--baseline-any-codec to use it anyway)\n"
    )
    lenient = check(SURROGATEPASS, *FEW, "--baseline", str(baseline), "--baseline-any-codec")
    assert lenient.status == 0


BAD_BASELINES = {
    "not UTF-8": (
        b'{"utf8cert-baseline": 2,\n "codec": "\xff"}',
        ":2: not UTF-8 (byte 36: invalid start byte)",
    ),
    "nested 100,000 deep": (
        b"[" * 100_000 + b"]" * 100_000,
        ":1: nested deeper than 16: not a baseline",
    ),
    "a list": (b"[]", ': not a utf8cert baseline (no "utf8cert-baseline": 2)'),
    "codec not a string": (
        b'{"utf8cert-baseline": 2, "codec": 5, "deviations": []}',
        ": 'codec' must be a string",
    ),
    "deviations not a list": (
        b'{"utf8cert-baseline": 2, "deviations": {}}',
        ": 'deviations' must be a list",
    ),
}


@pytest.mark.parametrize("case", BAD_BASELINES, ids=list(BAD_BASELINES))
def test_a_bad_baseline_is_one_line_and_exit_2(case: str, tmp_path: Path) -> None:
    content, problem = BAD_BASELINES[case]
    path = tmp_path / "baseline.json"
    path.write_bytes(content)
    run = check("--baseline", str(path))
    assert run.status == 2 and "Traceback" not in run.err
    assert run.err == f"utf8cert: error: --baseline {path}{problem}\n"


@pytest.mark.slow
def test_a_known_crash_passes_the_gate_but_the_certificate_still_says_not_certified(
    tmp_path: Path,
) -> None:
    # The crash on C0 spares the rest of each C0 vector's questions, which leaves decoding
    # below the coverage threshold; the baseline knows the crash, so the gate excuses them.
    crashing = "support.hostile_codecs:CrashOnC0"
    baseline = tmp_path / "crash.json"
    assert check(crashing, *FEW, "--write-baseline", str(baseline)).status == 0
    junit = tmp_path / "j.xml"
    run = check(crashing, *FEW, "--baseline", str(baseline), "--junit-xml", str(junit))
    assert run.status == 0, run.out
    assert "not certified for decode" in run.out  # the verdict, for a certificate
    assert "<failure" not in junit.read_text(encoding="utf-8")  # the gate, for CI
    without = check(crashing, *FEW, "--json", str(tmp_path / "r.json"))
    assert without.status == 1
    assert "FAIL" in without.out.splitlines()[-1]
