"""The suite collected as any plugin's tests are: counts, node ids, -k, --collect-only, --lf,
--sw (on the pytest installed: the node ids end in `[CAPABILITY]`), naming one item, an ini-only
codec beside named test files; and the same verdict as the CLI's for a capability not certified
(node's TextDecoder/TextEncoder, a real runtime), in the exit status, the failing items, JUnit
(valid against the published xunit2 schema) and GitHub."""

from __future__ import annotations

import contextlib
import io
import re
import shutil
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
import xmlschema
from support.cli_runs import cached_load, check

from utf8cert.harness.cli.main import main
from utf8cert.harness.plugin import suite as pytest_suite

pytest_plugins = ["pytester"]

TESTS = Path(__file__).resolve().parents[1]
UNCERTIFIED = "support.uncertified_codecs:NoSurrogateEncoder"
"""A codec whose encoder declines every surrogate: encode is not certified, nothing else fails."""
JUNIT_10 = xmlschema.XMLSchema(str(TESTS / "reports" / "junit-10.xsd"))
"""The published schema of pytest's default JUnit family, xunit2 (its header says where from)."""
NO_CACHE = ("-p", "no:cacheprovider")
node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


@pytest.fixture(autouse=True)
def builtin_vectors_parsed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Parse the built-in vector files once for every in-process pytest run of this module."""
    monkeypatch.setattr(pytest_suite, "load_vectors", cached_load)


def listed(result: pytest.RunResult) -> list[str]:
    """Return the node ids `--collect-only -q` lists."""
    return [line for line in result.outlines if line.startswith("utf8cert::")]


@pytest.mark.slow
def test_k_and_collect_only_count_the_items_that_run(pytester: pytest.Pytester) -> None:
    arguments = ("--utf8-codec", "codec:utf-8", "-k", "sec-1", *NO_CACHE)
    shown = listed(pytester.runpytest(*arguments, "--collect-only", "-q"))
    assert shown and all("sec-1" in nodeid for nodeid in shown)
    result = pytester.runpytest(*arguments)
    result.assert_outcomes(passed=len(shown))
    everything = len(listed(pytester.runpytest("--utf8-codec", "codec:utf-8", "--co", "-q")))
    result.stdout.fnmatch_lines(
        [f"collected {everything} items / {everything - len(shown)} deselected / "
         f"{len(shown)} selected"]
    )  # fmt: skip


def test_an_item_named_on_the_command_line_runs_alone(pytester: pytest.Pytester) -> None:
    one = pytester.runpytest(
        "--utf8-codec", "codec:utf-8", "utf8cert::security/sec-1[decode]", "-v", *NO_CACHE
    )
    one.assert_outcomes(passed=1)
    one.stdout.fnmatch_lines(["utf8cert::security/sec-1[[]decode[]] PASSED*"])
    # Without a capability: the vector on each of CPython's decoding capabilities.
    every = pytester.runpytest("--utf8-codec", "codec:utf-8", "utf8cert::security/sec-1", *NO_CACHE)
    every.assert_outcomes(passed=3)


def test_with_the_codec_in_the_ini_file_a_named_test_file_runs_alone(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyprojecttoml('[tool.pytest.ini_options]\nutf8_codec = "codec:utf-8"\n')
    pytester.makepyfile(test_x="def test_y():\n    pass\n")
    pytester.runpytest("test_x.py::test_y", *NO_CACHE).assert_outcomes(passed=1)
    # With no path, the suite is collected beside the project's tests.
    result = pytester.runpytest("-k", "test_y or sec-1", "-v", *NO_CACHE)
    result.stdout.fnmatch_lines(["test_x.py::test_y PASSED*"])
    result.stdout.fnmatch_lines(["utf8cert::security/sec-1[[]decode[]] PASSED*"])


def ran(result: pytest.RunResult) -> list[str]:
    """Return the node ids of the items `-v` shows run, in order."""
    return [line.split()[0] for line in result.outlines if line.startswith("utf8cert::")]


def failed(result: pytest.RunResult) -> set[str]:
    """Return the node ids of the failed items, as the short summary (-rf) names them."""
    return {line.split()[1] for line in result.outlines if line.startswith("FAILED utf8cert::")}


SURROGATES = ("--utf8-codec", "codec:utf-8:surrogatepass", "-k", "sec-1", "-rf")
"""CPython's UTF-8 codec letting surrogates through: of the sec-1* vectors, sec-10 (a surrogate
pair) fails on decode and incremental, and the others pass (the node ids end in `[CAPABILITY]`,
which pytest 9.2+ parses as parameters)."""


@pytest.mark.parametrize(
    ("workers", "header"),
    [
        (("-p", "no:xdist"), "run-last-failure: rerun previous 2 failures*"),
        (("-n", "2"), "2 workers [[]2 items[]]"),  # xdist: the workers' header is not shown
    ],
    ids=["alone", "xdist"],
)
@pytest.mark.slow
def test_lf_reruns_the_failing_items_alone(
    pytester: pytest.Pytester, workers: tuple[str, ...], header: str
) -> None:
    first = pytester.runpytest(*SURROGATES, *workers)
    outcomes = first.parseoutcomes()
    assert outcomes["failed"] == 2 and outcomes["passed"] > 0
    again = pytester.runpytest(*SURROGATES, *workers, "--lf")
    again.assert_outcomes(failed=2)
    again.stdout.fnmatch_lines([header])
    assert failed(again) == failed(first) == {
        "utf8cert::security/sec-10[decode]", "utf8cert::security/sec-10[incremental]"
    }  # fmt: skip


def test_sw_goes_on_from_the_failing_item(pytester: pytest.Pytester) -> None:
    first = pytester.runpytest(*SURROGATES, "-p", "no:xdist", "--sw", "-v")
    first.assert_outcomes(failed=1, passed=len(ran(first)) - 1)
    stopped = ran(first)[-1]
    assert failed(first) == {stopped}
    again = pytester.runpytest(*SURROGATES, "-p", "no:xdist", "--sw", "-v")
    again.stdout.fnmatch_lines(["stepwise: skipping * already passed items*"])
    assert ran(again)[0] == stopped  # not "previously failed test not found, not skipping"
    assert failed(again) == {stopped}


@pytest.mark.slow
def test_k_selects_an_item_by_its_whole_name(pytester: pytest.Pytester) -> None:
    chosen = "sec-12[decode] or coverage[encode] or stability"
    result = pytester.runpytest("--utf8-codec", "codec:utf-8", "-k", chosen, "-v", *NO_CACHE)
    result.assert_outcomes(passed=3)
    assert ran(result) == [
        "utf8cert::security/sec-12[decode]", "utf8cert::coverage[encode]", "utf8cert::stability"
    ]  # fmt: skip


def cli(*arguments: str) -> tuple[int, str]:
    """Return the exit status and standard output of `utf8cert check ARGUMENTS`."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = main(["check", *arguments])
    return status, out.getvalue()


@pytest.mark.slow
def test_a_capability_not_certified_fails_alike_in_the_cli_its_reports_and_pytest(
    pytester: pytest.Pytester, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(TESTS))
    cli_junit, pytest_junit = tmp_path / "cli.xml", tmp_path / "pytest.xml"
    status, out = cli(UNCERTIFIED, "--junit-xml", str(cli_junit), "--github", "--quiet")
    result = pytester.runpytest("--utf8-codec", UNCERTIFIED, f"--junitxml={pytest_junit}")
    # The encoder declines every surrogate: encode is not certified, and that alone fails.
    assert status == 1 and "not certified for encode" in out
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert result.parseoutcomes()["failed"] == 1
    result.stdout.fnmatch_lines(["FAILED utf8cert::coverage[[]encode[]]*"])
    errors = [line for line in out.splitlines() if line.startswith("::error")]
    assert len(errors) == 1 and "not certified for encode" in errors[0]
    for junit in (cli_junit, pytest_junit):
        JUNIT_10.validate(str(junit))
        root = ElementTree.parse(junit).getroot()
        failed = [case for case in root.iter("testcase") if case.find("failure") is not None]
        assert [case.get("name") for case in failed] == ["coverage[encode]"], junit.name
        assert "not certified for encode" in ElementTree.tostring(failed[0], "unicode")


def test_the_coverage_item_judges_every_vector_when_it_runs_without_them(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(TESTS))
    # -k selects the coverage items alone: each checks its capability's vectors itself.
    result = pytester.runpytest("--utf8-codec", UNCERTIFIED, "-k", "coverage", *NO_CACHE)
    outcomes = result.parseoutcomes()  # one item per capability the codec offers
    assert outcomes["failed"] == 1 and outcomes["passed"] >= 1
    # The share of a whole check, as the command line's run of every vector gives it.
    counted = r"encode: .*\((\d+\.\d)% of those counted\)"
    whole = re.search(counted, check(UNCERTIFIED, "--in-process").out)
    assert whole is not None
    share = whole.group(1)
    result.stdout.fnmatch_lines(
        [f"*is not certified for encode: {share}% of its questions answered*"]
    )
