"""The pytest plugin, run with pytester: the suite as items from any directory, with -k, -x,
--junitxml, xdist, the --utf8-* options, and the one-line suite in a project's own tests."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from support import lying_codecs
from support.cli_runs import builtin, cached_load

from utf8cert.harness.cli.main import main
from utf8cert.harness.plugin import suite as pytest_suite
from utf8cert.harness.vectors.model import EncodeVector

pytest_plugins = ["pytester"]

TESTS = Path(__file__).resolve().parents[1]
NO_CACHE = ("-p", "no:cacheprovider")


@pytest.fixture(autouse=True)
def builtin_vectors_parsed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Parse the built-in vector files once for every in-process pytest run of this module."""
    monkeypatch.setattr(pytest_suite, "load_vectors", cached_load)


def items_for_cpython() -> int:
    """Return how many items CPython's codec gets: decode, replace and incremental for each
    decoding vector, encode for each encoding vector (it has no validator), the coverage of
    each of those four capabilities, and the stability of its answers asked again."""
    return sum(1 if isinstance(vector, EncodeVector) else 3 for vector in builtin()) + 4 + 1


def test_the_suite_is_collected_in_an_empty_directory_one_item_per_vector_and_capability(
    pytester: pytest.Pytester,
) -> None:
    result = pytester.runpytest("--utf8-codec", "codec:utf-8", "--collect-only", "-q", *NO_CACHE)
    items = [line for line in result.outlines if line.startswith("utf8cert::")]
    assert len(items) == items_for_cpython()
    assert {
        "utf8cert::security/sec-10[decode]",
        "utf8cert::security/sec-10[incremental]",
        "utf8cert::coverage[encode]",
        "utf8cert::stability",
    } <= set(items)
    # pytest counts what it lists, and what would run.
    result.stdout.fnmatch_lines([f"{items_for_cpython()} tests collected in *"])


@pytest.mark.slow
def test_cpython_passes_every_item_and_the_header_says_how_to_reproduce(
    pytester: pytest.Pytester,
) -> None:
    result = pytester.runpytest("--utf8-codec", "codec:utf-8", *NO_CACHE)
    result.assert_outcomes(passed=items_for_cpython())
    result.stdout.fnmatch_lines(
        [
            f"utf8cert *: codec codec:utf-8 (decode, encode, incremental, replace), "
            f"profile rfc3629, {len(builtin())} vectors in *",
            "utf8cert reproduce: pytest --utf8-codec codec:utf-8 --utf8-fail-on must",
        ]
    )


def test_without_the_option_the_plugin_adds_nothing(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest(*NO_CACHE)
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED
    assert "utf8cert reproduce" not in result.stdout.str()
    assert "utf8cert::" not in result.stdout.str()


def test_k_selects_by_vector_id_and_a_failure_is_explained_as_by_the_cli(
    pytester: pytest.Pytester,
) -> None:
    result = pytester.runpytest(
        "--utf8-codec", "codec:utf-8:surrogatepass", "-k", "sec-10", *NO_CACHE
    )
    result.assert_outcomes(passed=1, failed=2)  # replace is right; decode and incremental are not
    result.stdout.fnmatch_lines(
        [
            "sec-10 [[]decode, as-is[]] must: accepted ill-formed input (flags: surrogate*)",
            "  vector: ED A1 8C ED BE B4*",
            "  input, 6 bytes (the vector's at 0): [[]ED A1 8C ED BE B4[]]",
            "  expected: refusal at offset 0",
            "  actual:   U+D84C U+DFB4",
            "  also in: mid-stream; *",  # the other variants are spread over the vectors
        ]
    )
    assert "Traceback" not in result.stdout.str()


@pytest.mark.slow
def test_x_stops_at_the_first_failing_item(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--utf8-codec", "codec:utf-8:surrogatepass", "-x", *NO_CACHE)
    outcomes = result.parseoutcomes()
    assert outcomes["failed"] == 1
    assert outcomes.get("passed", 0) < items_for_cpython() - 1


def test_junitxml_records_each_item_with_its_vector_id(pytester: pytest.Pytester) -> None:
    report = pytester.path / "junit.xml"
    spec = "codec:utf-8:surrogatepass"
    pytester.runpytest("--utf8-codec", spec, "-k", "sec-1", f"--junitxml={report}", *NO_CACHE)
    cases = ElementTree.parse(report).getroot().iter("testcase")
    by_name = {case.get("name"): case for case in cases}
    assert "security/sec-10[decode]" in by_name and "security/sec-1[decode]" in by_name
    failure = by_name["security/sec-10[decode]"].find("failure")
    assert failure is not None and "accepted ill-formed input" in (failure.text or "")
    assert by_name["security/sec-1[decode]"].find("failure") is None


@pytest.mark.slow
def test_xdist_runs_the_suite_on_two_workers(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(TESTS))
    selection = ("-k", "sec-1 or rfc3629")
    inline = pytester.runpytest("--utf8-codec", "codec:utf-8", *selection, *NO_CACHE)
    expected = inline.parseoutcomes()["passed"]
    result = pytester.runpytest_subprocess(
        "--utf8-codec", "codec:utf-8", "-n", "2", *selection, *NO_CACHE, timeout=300
    )
    result.assert_outcomes(passed=expected)
    assert "2 workers" in result.stdout.str()


def test_a_bad_spec_is_a_usage_error_in_one_line(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--utf8-codec", "no_such_module_xyz:decode", *NO_CACHE)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    errors = [line for line in result.errlines if line.strip()]
    assert errors == [
        "ERROR: utf8cert: codec spec 'no_such_module_xyz:decode': cannot import module "
        "'no_such_module_xyz': ModuleNotFoundError: No module named 'no_such_module_xyz'"
    ]


@pytest.mark.slow
def test_fail_on_chooses_the_level_that_fails_an_item(pytester: pytest.Pytester) -> None:
    # One U+FFFD per byte of a maximal subpart is recommended practice only (Unicode §3.9).
    # The cut-short sequences on replace (a maximal subpart of two or three bytes each), not
    # every decoding vector: the gate is the same on any item, and half the run's cost.
    selection = ("-k", "replace and trunc-")
    arguments = ("--utf8-codec", "support.broken_codecs:OneFffdPerByte", *selection, *NO_CACHE)
    chosen = [vector for vector in decoding_ids() if "trunc-" in vector]
    assert chosen
    pytester.runpytest(*arguments).assert_outcomes(failed=0, passed=len(chosen))
    result = pytester.runpytest(*arguments, "--utf8-fail-on", "should")
    assert result.parseoutcomes()["failed"] > 0
    result.stdout.fnmatch_lines(["* should: wrong U+FFFD count (flags: *)"])


def decoding_ids() -> list[str]:
    return [vector.id for vector in builtin() if not isinstance(vector, EncodeVector)]


@pytest.mark.slow
def test_a_baseline_written_by_the_cli_makes_the_plugin_pass(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("utf8cert.harness.vectors.load.load_vectors", cached_load)
    baseline = pytester.path / "baseline.json"
    spec = "codec:utf-8:surrogatepass"
    selection = ("-k", "sec-1")  # sec-10 and sec-11 are among them, failing without it
    chosen = [vector.id for vector in builtin() if vector.id.startswith("sec-1")]
    written = ["check", spec, "--write-baseline", str(baseline)]
    assert main([*written, *(word for each in chosen for word in ("--vector", each))]) == 0
    without = pytester.runpytest("--utf8-codec", spec, *selection, *NO_CACHE)
    assert without.parseoutcomes()["failed"] > 0
    result = pytester.runpytest(
        "--utf8-codec", spec, "--utf8-baseline", str(baseline), *selection, *NO_CACHE
    )
    assert result.ret == pytest.ExitCode.OK
    # The known deviations are expected failures, each still explained.
    outcomes = result.parseoutcomes()
    assert outcomes["xfailed"] == without.parseoutcomes()["failed"]
    assert "failed" not in outcomes


def surrogatepass_baseline_of_sec_10(directory: Path) -> Path:
    """Return a baseline written by the CLI: surrogatepass's deviations on sec-10."""
    baseline = directory / "baseline.json"
    spec = "codec:utf-8:surrogatepass"
    assert main(["check", spec, "--write-baseline", str(baseline), "--vector", "sec-10"]) == 0
    return baseline


@pytest.mark.slow
def test_a_fixed_known_deviation_is_an_xpass_strict_failure(pytester: pytest.Pytester) -> None:
    # A baseline recorded for a codec that accepted surrogates, now run on CPython's strict
    # codec, which refuses them: every known deviation is fixed.
    baseline = surrogatepass_baseline_of_sec_10(pytester.path)
    text = baseline.read_text(encoding="utf-8").replace("codec:utf-8:surrogatepass", "codec:utf-8")
    baseline.write_text(text, encoding="utf-8")
    result = pytester.runpytest(
        "--utf8-codec",
        "codec:utf-8",
        "--utf8-baseline",
        str(baseline),
        "-k",
        "sec-10",
        "-rX",
        *NO_CACHE,
    )
    result.assert_outcomes(failed=2, passed=1)  # decode and incremental; replace had none
    result.stdout.fnmatch_lines(
        ["*sec-10 ?decode?*", "?XPASS(strict)? known deviation, in the baseline"]
    )


@pytest.mark.slow
def test_a_baseline_of_another_codec_is_refused_in_one_line(pytester: pytest.Pytester) -> None:
    baseline = surrogatepass_baseline_of_sec_10(pytester.path)
    result = pytester.runpytest("--utf8-codec", "codec:utf-8", "--utf8-baseline", str(baseline))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert [line for line in result.errlines if line.strip()] == [
        f"ERROR: utf8cert: {baseline}: recorded for codec:utf-8:surrogatepass, not codec:utf-8 "
        "(--baseline-any-codec to use it anyway)"
    ]


def test_k_selects_by_theme_as_the_readme_says(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--utf8-codec", "codec:utf-8", "-k", "overlong", *NO_CACHE)
    overlong = [v for v in builtin() if v.origin.file.endswith("ill-formed-overlong.yaml")]
    # Each decoding vector of the theme on decode, replace and incremental (CPython's codec
    # has no validator); `overlong` is in no other theme's name.
    result.assert_outcomes(passed=3 * len(overlong))


@pytest.mark.slow
def test_pyproject_ini_options_configure_the_suite(pytester: pytest.Pytester) -> None:
    from support.user_vectors import EXTRA_VECTOR

    pytester.makefile(".yaml", extra=EXTRA_VECTOR)
    pytester.makepyprojecttoml(
        """
        [tool.pytest.ini_options]
        utf8_codec = "support.broken_codecs:OneFffdPerByte"
        utf8_fail_on = "should"
        utf8_vectors = ["extra.yaml"]
        """
    )
    result = pytester.runpytest("-k", "replace and (truncated or extra)", *NO_CACHE)
    result.stdout.fnmatch_lines(
        ["utf8cert *: codec support.broken_codecs:OneFffdPerByte *fail on should*"]
    )
    outcomes = result.parseoutcomes()
    assert outcomes["failed"] > 0  # a should difference fails, as the ini file says
    # The command line wins over the ini file.
    again = pytester.runpytest(
        "--utf8-fail-on", "must", "-k", "replace and (truncated or extra)", *NO_CACHE
    )
    assert "failed" not in again.parseoutcomes()
    assert again.parseoutcomes()["passed"] == outcomes["failed"] + outcomes.get("passed", 0)


@pytest.mark.slow
def test_extra_vector_files_add_items(pytester: pytest.Pytester) -> None:
    from support.user_vectors import EXTRA_VECTOR

    extra = pytester.makefile(".yaml", extra=EXTRA_VECTOR)
    result = pytester.runpytest(
        "--utf8-codec", "codec:utf-8", "--utf8-vectors", str(extra), "-k", "extra", *NO_CACHE
    )
    result.assert_outcomes(passed=3)


@pytest.mark.slow
def test_one_line_puts_the_suite_in_a_projects_own_tests(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_codec="""
        from utf8cert.harness.plugin.pytest_plugin import conformance_suite

        test_utf8_conformance = conformance_suite("codec:utf-8")
        test_cesu8 = conformance_suite("support.broken_codecs:Cesu8Decoder")
        """
    )
    # Every item of the suite is there (test_cpython_passes_every_item... runs them all) ...
    listed = pytester.runpytest("-k", "conformance", "--collect-only", "-q", *NO_CACHE)
    items = [line for line in listed.outlines if "test_utf8_conformance" in line]
    assert len(items) == items_for_cpython()
    # ... and runs as the option's suite does: CPython's passes sec-10, CESU-8's fails it.
    result = pytester.runpytest("-k", "sec-10", *NO_CACHE)
    outcomes = result.parseoutcomes()
    assert outcomes["passed"] >= 3 and outcomes["failed"] >= 1
    result.stdout.fnmatch_lines(["*test_cesu8?sec-10-decode*", "*accepted ill-formed input*"])


def test_the_plugin_module_imports_nothing_heavy() -> None:
    code = (
        "import sys, utf8cert.harness.plugin.pytest_plugin\n"
        "print(sorted(m for m in sys.modules if m.startswith(('utf8cert.', 'rich', 'yaml',"
        " 'jsonschema'))))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == str(
        ["utf8cert.harness", "utf8cert.harness.plugin", "utf8cert.harness.plugin.pytest_plugin"]
    )


def test_a_profile_allows_what_it_waives_and_an_unknown_one_is_a_usage_error(
    pytester: pytest.Pytester,
) -> None:
    spec, selection = "codec:utf-8:surrogatepass", ("-k", "sec-10", *NO_CACHE)
    result = pytester.runpytest(
        "--utf8-codec", spec, "--utf8-profile", "python-surrogatepass", *selection
    )
    result.assert_outcomes(passed=3)  # the surrogate it reads is what the profile allows
    result.stdout.fnmatch_lines(
        [
            "utf8cert *profile python-surrogatepass*",
            "utf8cert reproduce: *--utf8-profile python-surrogatepass*",
        ]
    )
    bad = pytester.runpytest("--utf8-codec", spec, "--utf8-profile", "latin-1", *selection)
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    assert "unknown profile 'latin-1'" in bad.stderr.str()


def test_a_decoder_that_wears_out_fails_the_stability_item_alone(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Right for its first 5,000 calls, Latin-1 after (issue 23): every vector passes as the
    # session asks it, and the questions asked again, as `utf8cert check` asks them, do not.
    monkeypatch.setenv("WEAR_OUT_AFTER", "5000")
    monkeypatch.setattr(lying_codecs, "_calls", 0)  # counted from this session's first call
    result = pytester.runpytest("--utf8-codec", "support.lying_codecs:wears_out", "-v", *NO_CACHE)
    outcomes = result.parseoutcomes()
    assert outcomes["failed"] == 1 and outcomes["passed"] > 400
    result.stdout.fnmatch_lines(
        ["utf8cert::stability FAILED*", "* must: two answers to one question (flags: *)"]
    )


def test_the_one_line_suite_has_the_stability_case_too(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEAR_OUT_AFTER", "5000")
    monkeypatch.setattr(lying_codecs, "_calls", 0)
    pytester.makepyfile(
        test_codec="""
        from utf8cert.harness.plugin.pytest_plugin import conformance_suite

        test_wears_out = conformance_suite("support.lying_codecs:wears_out")
        """
    )
    # Run alone, the case checks every vector first, then asks the kept questions again.
    result = pytester.runpytest("-k", "stability", "-v", *NO_CACHE)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*test_wears_out?stability? FAILED*"])
    result.stdout.fnmatch_lines(["* must: two answers to one question (flags: *)"])


def test_the_session_ends_on_a_summary_by_behaviour_with_the_fix_or_a_reproducer(
    pytester: pytest.Pytester,
) -> None:
    """Issue 42: a failing session ended on its many failing items alone. The summary groups
    their differences as `utf8cert check` does: the surrogate bug of Utf8Buggy is one line,
    whichever vectors show it, and its plain ValueError one line with the fix."""
    spec = "support.user_codecs:Utf8Buggy"
    result = pytester.runpytest("--utf8-codec", spec, "-k", "sur-1 or sur-2", *NO_CACHE)
    result.stdout.fnmatch_lines(
        [
            "*= utf8cert: behaviours =*",
            "[[]1[]] must: decode: let ill-formed input through (surrogate) — * vectors, *",
            f"  reproduce: utf8cert check {spec} --in-process --input eda080",
            "[[]2[]] may: decode: refused with a plain ValueError, placing the error nowhere*",
            "  fix: raise UnicodeDecodeError(*start, end*Refusal(message, offset)*",
        ]
    )
    failures = result.stdout.str().split("= FAILURES =")[1].split("= utf8cert: behaviours =")[0]
    for failure in failures.split("\n___")[1:]:
        assert len(failure.strip().splitlines()) <= 12, failure  # a few lines, no flag notes
        assert "reproduce: utf8cert check" in failure


@pytest.mark.slow
def test_a_projects_own_conformance_suite_of_the_same_codec_runs_once(
    pytester: pytest.Pytester,
) -> None:
    """Issue 42: `pytest --utf8-codec SPEC` in a project whose tests hold
    `conformance_suite(SPEC)` ran the suite twice. Its cases are deselected; another codec's
    suite, and the project's other tests, still run."""
    pytester.makepyfile(
        test_codec="""
        from utf8cert.harness.plugin.pytest_plugin import conformance_suite

        test_utf8_conformance = conformance_suite("codec:utf-8")
        test_cesu8 = conformance_suite("support.broken_codecs:Cesu8Decoder")

        def test_own():
            pass
        """
    )
    selection = ("--utf8-codec", "codec:utf-8", "-k", "sec-10 or own", *NO_CACHE)
    collected = pytester.runpytest(*selection, "--collect-only", "-q").stdout.lines
    assert not [line for line in collected if "test_utf8_conformance" in line]
    assert [line for line in collected if "test_cesu8[sec-10-decode]" in line]  # another codec's
    assert "test_codec.py::test_own" in collected
    assert "utf8cert::security/sec-10[decode]" in collected
    result = pytester.runpytest(*selection)
    result.stdout.fnmatch_lines(["utf8cert: * cases of the project's own conformance_suite*"])
