"""GitHub annotations and reports speak of the user's repository: a user's vector file and a
baseline by their path from the repository's root ($GITHUB_WORKSPACE, else the working
directory's git work tree), whatever the working directory below it; a vector shipped with
utf8cert on no file (GitHub shows an annotation beside code only for a file of the repository),
its message saying where it is in the package; never an absolute path of an install."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from support.cli_runs import check
from support.user_vectors import EXTRA_VECTOR

SURROGATEPASS = "codec:utf-8:surrogatepass"
"""Decodes surrogates: lets sur-1 (built in) and extra-1 (the user's) through."""
COMMAND = re.compile(r"^::(error|warning|notice)(?: ([^:]*))?::(.*)$")


def workflow_commands(out: str) -> list[tuple[str, dict[str, str], str]]:
    """Return each workflow command of `out` as (command, its properties, its message)."""
    found = []
    for line in out.splitlines():
        match = COMMAND.match(line)
        if match is None:
            continue
        command, properties, message = match.groups()
        pairs = dict(p.split("=", 1) for p in properties.split(",")) if properties else {}
        unescaped = {k: v.replace("%3A", ":").replace("%2C", ",") for k, v in pairs.items()}
        found.append((command, unescaped, message.replace("%0A", "\n").replace("%3A", ":")))
    return found


@pytest.fixture
def repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Return a git repository's root (a .git directory, as `git init` leaves it) holding the
    user's vector file tests/utf8/extra.yaml, the working directory set to tests/ below it."""
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    vectors = root / "tests" / "utf8"
    vectors.mkdir(parents=True)
    (vectors / "extra.yaml").write_text(EXTRA_VECTOR, encoding="utf-8")
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    monkeypatch.chdir(root / "tests")
    return root


def line_of(path: Path, vector_id: str) -> int:
    """Return the line of `- id: VECTOR_ID` in a YAML file, counted from 1."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if line.strip() == f"- id: {vector_id}")


def run_github(*arguments: str) -> list[tuple[str, dict[str, str], str]]:
    run = check(SURROGATEPASS, "--github", "-q", *arguments)
    assert run.status == 1, run.err
    return workflow_commands(run.out)


@pytest.mark.slow
def test_a_users_vector_is_annotated_on_its_file_from_the_repository_root(
    repository: Path,
) -> None:
    shown = run_github("--vectors", "utf8/extra.yaml", "--vector", "extra-1")
    [(command, properties, message)] = shown
    path = repository / "tests" / "utf8" / "extra.yaml"
    assert command == "error"
    assert properties["file"] == "tests/utf8/extra.yaml"  # from the root, not from tests/
    assert properties["line"] == str(line_of(path, "extra-1"))
    assert f"tests/utf8/extra.yaml:{line_of(path, 'extra-1')})" in message


@pytest.mark.slow
def test_a_builtin_vector_is_annotated_on_no_file_and_named_in_the_package(
    repository: Path,
) -> None:
    shown = run_github("--vector", "sur-1")
    [(command, properties, message)] = shown
    assert command == "error" and "file" not in properties and "line" not in properties
    assert properties["title"].startswith("utf8cert: decode: let ill-formed input through")
    shipped = Path(sys.modules["utf8cert.vectors"].__path__[0]) / "ill-formed-surrogates.yaml"
    place = f"utf8cert/vectors/ill-formed-surrogates.yaml:{line_of(shipped, 'sur-1')}"
    assert place in message
    assert str(shipped.parent) not in message  # no path of the install


@pytest.mark.slow
def test_github_workspace_is_the_root_wherever_the_command_runs(
    repository: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("GITHUB_WORKSPACE", str(repository))
    given = str(repository / "tests" / "utf8" / "extra.yaml")
    [(_, properties, _)] = run_github("--vectors", given, "--vector", "extra-1")
    assert properties["file"] == "tests/utf8/extra.yaml"


@pytest.mark.slow
def test_a_file_outside_the_repository_is_annotated_on_no_file(
    repository: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.yaml"
    outside.write_text(EXTRA_VECTOR, encoding="utf-8")
    [(_, properties, message)] = run_github("--vectors", str(outside), "--vector", "extra-1")
    assert "file" not in properties
    assert f"{outside}:{line_of(outside, 'extra-1')}" in message  # as the user gave it


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.slow
def test_a_stale_baseline_is_annotated_on_the_baseline_file(strict: bool, repository: Path) -> None:
    baseline = repository / "tests" / "known.json"
    chosen = ["--vectors", "utf8/extra.yaml", "--vector", "extra-1", "--vector", "sur-1"]
    assert check(SURROGATEPASS, *chosen, "--write-baseline", "known.json", "-q").status == 0
    assert baseline.is_file()
    # CPython's strict codec lets neither through: both known deviations are fixed.
    arguments = ["codec:utf-8", *chosen, "--baseline", "known.json", "--baseline-any-codec"]
    run = check(*arguments, "--github", "-q", *(["--strict-baseline"] if strict else []))
    assert run.status == (1 if strict else 0)
    shown = [
        a for a in workflow_commands(run.out) if "of the baseline no longer occur" in a[1]["title"]
    ]
    [(command, properties, message)] = shown
    assert command == ("error" if strict else "notice")
    assert properties["file"] == "tests/known.json"
    assert "extra-1 [decode, as-is]: accepted ill-formed input" in message
