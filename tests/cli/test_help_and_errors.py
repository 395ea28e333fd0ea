"""Help and usage errors: every subcommand says what it does; a mistyped subcommand, choice or
option gets the closest one suggested; a number out of its option's range is one line naming
that option, exit 2, before anything runs (never a traceback from a timer or a resource limit)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from utf8cert.harness.cli.main import main
from utf8cert.harness.plugin.suite import SuiteError, load_suite

SUBCOMMANDS = [
    ["check"],
    ["vectors"],
    ["vectors", "export"],
    ["vectors", "list"],
    ["fuzz"],
    ["corpus"],
    ["corpus", "build"],
    ["corpus", "target"],
    ["corpus", "pack"],
    ["adapters"],
    ["matrix"],
]


def utf8cert(*arguments: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Return the finished `utf8cert ARGUMENTS`, run as its own process."""
    command = [sys.executable, "-m", "utf8cert.harness", *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=cwd)


def usage_error(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Return the one line `utf8cert ARGUMENTS` prints on stderr, asserting it exits 2 with
    nothing on stdout."""
    with pytest.raises(SystemExit) as stopped:
        main(arguments)
    assert stopped.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, err
    return err


@pytest.mark.parametrize("words", SUBCOMMANDS, ids=" ".join)
def test_every_subcommand_describes_itself_in_its_help(
    words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([*words, "--help"])
    assert stopped.value.code == 0
    shown = capsys.readouterr().out
    # argparse prints: the usage, a blank line, the description, then the argument sections.
    usage, _, rest = shown.partition("\n\n")
    assert usage.startswith(f"usage: utf8cert {' '.join(words)}")
    description = rest.split("\n\n")[0]
    assert not description.endswith(":"), f"no description: {shown}"
    assert len(description.split()) >= 10, description


@pytest.mark.parametrize(
    ("arguments", "suggested"),
    [
        (["chek"], "invalid choice: 'chek'"),
        (["vectors", "lst"], "invalid choice: 'lst'"),
        (["check", "--profile", "rfc3269"], "invalid choice: 'rfc3269'"),
        (["check", "--fail-on", "shuold"], "invalid choice: 'shuold'"),
        (["check", "--jsn", "report.json"], "unrecognized arguments: --jsn"),
        (["check", "--jsn=report.json"], "unrecognized arguments: --jsn=report.json"),
        (["matrix", "--pyton"], "unrecognized arguments: --pyton"),
        (["fuzz", "--keep-goign"], "unrecognized arguments: --keep-goign"),
    ],
)
def test_a_mistyped_word_gets_the_closest_one_suggested(
    arguments: list[str], suggested: str, capsys: pytest.CaptureFixture[str]
) -> None:
    error = usage_error(arguments, capsys)
    assert suggested in error
    expected = {
        "chek": "check",
        "lst": "list",
        "rfc3269": "rfc3629",
        "shuold": "should",
        "--jsn": "--json",
        "--jsn=report.json": "--json",
        "--pyton": "--python",
        "--keep-goign": "--keep-going",
    }
    typed = next(word for word in arguments if word in expected)
    assert f"(did you mean {expected[typed]}?)" in error


def test_a_word_close_to_nothing_gets_no_suggestion(capsys: pytest.CaptureFixture[str]) -> None:
    error = usage_error(["check", "--xyzzy"], capsys)
    assert "unrecognized arguments: --xyzzy" in error and "did you mean" not in error


OUT_OF_RANGE = [
    (["check", "--timeout", "-1"], "argument --timeout: must be more than 0 seconds, not -1"),
    (["check", "--timeout", "0"], "argument --timeout: must be more than 0 seconds, not 0"),
    (["check", "--timeout", "nan"], "argument --timeout: must be more than 0 seconds, not nan"),
    (["check", "--timeout", "inf"], "argument --timeout: must be at most 604800 seconds"),
    (["check", "--timeout", "1e308"], "argument --timeout: must be at most 604800 seconds"),
    (["check", "--timeout", "ten"], "argument --timeout: not a number of seconds: 'ten'"),
    (["check", "--deadline", "inf"], "argument --deadline: must be at most 604800 seconds"),
    (["check", "--deadline", "-3"], "argument --deadline: must be more than 0 seconds"),
    (["check", "--memory", "0"], "argument --memory: must be from 1 to 1073741824 MiB, not 0"),
    (["check", "--memory", "99999999999999"], "argument --memory: must be from 1 to"),
    (["check", "--memory", "1.5"], "argument --memory: not a whole number of MiB: '1.5'"),
    (["check", "--seed", "-1"], "argument --seed: must be from 0 to 4294967295, not -1"),
    (["check", "--seed", "x"], "argument --seed: not a whole number: 'x'"),
    (["fuzz", "--seed", "-5"], "argument --seed: must be from 1 to 4294967295, not -5"),
    (["fuzz", "--seed", "4294967296"], "argument --seed: must be from 1 to 4294967295"),
    (["fuzz", "--max-len", "99999999999999999"], "argument --max-len: must be from 1 to"),
    (["fuzz", "--timeout", "0"], "argument --timeout: must be from 1 to 604800 seconds"),
    (["fuzz", "--runs", "0"], "argument --runs: must be from 1 to 2147483647 executions"),
    (["fuzz", "--max-time", "1e30"], "argument --max-time: not a whole number of seconds"),
    (["fuzz", "--jobs", "-2"], "argument --jobs: must be from 1 to"),
]


@pytest.mark.parametrize(
    ("arguments", "words"), OUT_OF_RANGE, ids=[" ".join(a) for a, _ in OUT_OF_RANGE]
)
def test_a_number_out_of_range_is_named_as_its_own_option(
    arguments: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    error = usage_error(arguments, capsys)
    assert error.startswith(f"utf8cert {arguments[0]}: error: {words}"), error
    assert "codec spec" not in error


@pytest.mark.parametrize(
    "arguments",
    [
        ["--timeout", "inf"],
        ["--timeout", "1e308"],
        ["--memory", "99999999999999"],
        ["--deadline", "inf"],
    ],
)
def test_as_a_process_a_number_out_of_range_is_one_line_and_no_traceback(
    arguments: list[str],
) -> None:
    # Each of these printed a traceback from select, setitimer or setrlimit (issue 31).
    done = utf8cert("check", *arguments, "--isolate", "--input", "41")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert f"argument {arguments[0]}:" in done.stderr


def test_the_largest_limits_are_taken_and_the_check_runs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    arguments = ["--timeout", "604800", "--memory", "1073741824", "--deadline", "604800"]
    assert main(["check", *arguments, "--isolate", "--input", "e282ac", "-q"]) == 0
    assert capsys.readouterr().out.startswith("on input e2 82 ac: conformant to RFC 3629")


def test_a_missing_baseline_is_named_with_its_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.json"
    assert main(["check", "--baseline", str(missing), "--input", "41"]) == 2
    assert capsys.readouterr().err == (
        f"utf8cert: error: --baseline {missing}: No such file or directory\n"
    )


@pytest.mark.parametrize(
    ("limits", "words"),
    [
        ({"timeout": float("inf")}, "the timeout must be more than 0 and at most 604800 seconds"),
        ({"timeout": float("nan")}, "the timeout must be more than 0 and at most 604800 seconds"),
        ({"memory_mb": 99999999999999}, "the memory limit must be at most 1073741824 MiB"),
    ],
)
def test_the_pytest_plugins_suite_refuses_the_same_limits_in_one_line(
    limits: dict[str, float], words: str
) -> None:
    # `pytest --utf8-timeout inf` said "cannot load the suite: OverflowError: ...".
    with pytest.raises(SuiteError, match=words):
        load_suite("codec:utf-8", isolate=True, **limits)  # type: ignore[arg-type]
