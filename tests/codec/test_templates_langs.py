"""The protocol templates of examples/go, ruby, php, perl and lua, run as their headers show
(`utf8cert check "cmd:..."`), each with the verdict its language's own codec earns.

Each template ships wired to its standard library, so the verdict is known from that library's
documentation: Go's []rune conversion gives one RuneError per bad byte (two for the truncated
E2 82, where Unicode's practice gives one: a `should`); Ruby's String#scrub, PHP's mbstring (with
U+FFFD as its substitute character) and the Lua template's checks meet the standard; Perl's
Encode refuses the noncharacters Unicode Corrigendum #9 allows (U+FDD0 is asked in the vectors).
A template whose language is missing is skipped with the reason.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from utf8cert.harness.codec.cache import cache_root

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ALL = {"decode", "replace", "validate", "encode"}
WRONG_COUNT = ("should", "wrong U+FFFD count")


def certify(command: str, directory: Path) -> tuple[int, dict[str, object]]:
    """Return the exit status of `utf8cert check "cmd:COMMAND"` run in `directory`, and its
    JSON report."""
    report = directory / "report.json"
    options = ["--quiet", "--json", str(report)]
    done = subprocess.run(
        [sys.executable, "-m", "utf8cert.harness", "check", f"cmd:{command}", *options],
        cwd=directory,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return done.returncode, json.loads(report.read_text(encoding="utf-8"))


def behaviours(report: dict[str, object]) -> set[tuple[str, str]]:
    found = report["behaviours"]
    assert isinstance(found, list)
    return {(behaviour["level"], behaviour["what"]) for behaviour in found}


def checked(report: dict[str, object]) -> set[str]:
    summary = report["summary"]
    assert isinstance(summary, dict)
    return set(summary["checked"])


def needs(tool: str) -> None:
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} not found on PATH")


def copied(tmp_path: Path, language: str, name: str) -> Path:
    """Copy the template where a user would have it: examples/LANGUAGE/NAME in their project."""
    (tmp_path / "examples" / language).mkdir(parents=True)
    return Path(shutil.copy(EXAMPLES / language / name, tmp_path / "examples" / language))


@pytest.mark.slow
def test_go_template_builds_and_certifies_the_standard_library(tmp_path: Path) -> None:
    needs("go")
    copied(tmp_path, "go", "utf8codec.go")
    # The build cache the shipped Go programs use: the standard library is compiled once.
    environment = {**os.environ, "GOCACHE": str(cache_root() / "go-build"), "GOFLAGS": ""}
    subprocess.run(
        ["go", "build", "-o", "utf8codec", "examples/go/utf8codec.go"],
        cwd=tmp_path,
        env=environment,
        check=True,
        timeout=600,
    )
    status, report = certify("./utf8codec", tmp_path)
    assert status == 0
    assert checked(report) == ALL
    assert behaviours(report) == {WRONG_COUNT}  # []rune: one RuneError per bad byte


@pytest.mark.parametrize(
    ("tool", "language", "name"),
    [("ruby", "ruby", "utf8codec.rb"), ("php", "php", "utf8codec.php")],
)
@pytest.mark.slow
def test_ruby_and_php_templates_certify_their_standard_library(
    tmp_path: Path, tool: str, language: str, name: str
) -> None:
    needs(tool)
    copied(tmp_path, language, name)
    status, report = certify(f"{tool} examples/{language}/{name}", tmp_path)
    assert status == 0
    assert checked(report) == ALL
    assert behaviours(report) == set()


@pytest.mark.slow
def test_perl_template_finds_that_encode_refuses_noncharacters(tmp_path: Path) -> None:
    needs("perl")
    copied(tmp_path, "perl", "utf8codec.pl")
    status, report = certify("perl examples/perl/utf8codec.pl", tmp_path)
    assert status == 1
    assert checked(report) == ALL
    found = behaviours(report)
    assert ("must", "rejected well-formed input") in found  # U+FDD0 and the other noncharacters
    assert ("must", "refused an encodable value") in found
    assert ("must", "lost well-formed characters") in found  # 80 E2 82 AC: U+20AC is lost


@pytest.mark.slow
def test_lua_template_certifies_utf8_library_used_with_care(tmp_path: Path) -> None:
    needs("lua5.4")
    copied(tmp_path, "lua", "utf8codec.lua")
    status, report = certify("lua5.4 examples/lua/utf8codec.lua", tmp_path)
    assert status == 0
    assert checked(report) == {"decode", "validate", "encode"}
    assert behaviours(report) == set()
