"""The user documentation holds together: a README a stranger reads in two minutes, links that
lead somewhere, no path that exists only on the machine the project was written on, and a CI
workflow that says what the guide says and that utf8cert's parser accepts."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import yaml
from support.doc_pages import ELSEWHERE, PAGES, README, REPOSITORY, WORKFLOW, commands

from utf8cert.harness.cli.main import build_parser

USER_FACING = (
    *PAGES,
    REPOSITORY / "docs" / "fuzzing.md",
    REPOSITORY / "docs" / "versions.md",
    REPOSITORY / "CHANGELOG.md",
    REPOSITORY / "vectors" / "README.md",
    REPOSITORY / "harness" / "PROTOCOL.md",
)
"""The pages a user reads (docs/findings.md, matrix.md and mutation.md are reports)."""

LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_the_readme_is_short_and_starts_with_the_set_up() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200
    first = commands_in("\n".join(lines[:40]))
    assert first[:3] == [
        "python -m pip install -e '.[dev]' && utf8cert check",
        "python -m pytest",
        "python -m pip install .",
    ]


def commands_in(text: str) -> list[str]:
    """Return the lines of the ```sh blocks of `text`."""
    blocks = re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S)
    return [line for block in blocks for line in block.splitlines()]


@pytest.mark.parametrize("page", USER_FACING, ids=lambda page: str(page.relative_to(REPOSITORY)))
def test_every_relative_link_leads_to_a_file(page: Path) -> None:
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if target.startswith(("http://", "https://", "#", "mailto:")):
            continue
        path = (page.parent / target.split("#")[0]).resolve()
        assert path.exists(), f"{page.name}: {target}"
        assert path.is_relative_to(REPOSITORY), f"{page.name}: {target} leaves the repository"


@pytest.mark.parametrize("page", USER_FACING, ids=lambda page: str(page.relative_to(REPOSITORY)))
def test_no_page_names_a_path_of_the_machine_it_was_written_on(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for internal in ("../shared", "/work/", "shared/peers", "seed 00"):
        assert internal not in text, f"{page.name}: {internal}"
    # utf8cert is not on a package index: an install names a clone, a wheel or a git URL
    assert not re.search(r"pip install '?utf8cert\b(?! @)", text), page.name


def test_every_docs_page_with_commands_is_run_by_a_test() -> None:
    run_here = {str(page.relative_to(REPOSITORY)) for page in PAGES}
    for page in sorted((REPOSITORY / "docs").glob("*.md")):
        name = str(page.relative_to(REPOSITORY))
        if commands(page):
            assert name in run_here or name in ELSEWHERE, name


def test_the_ci_guide_shows_the_workflow_file_as_it_is() -> None:
    guide = (REPOSITORY / "docs" / "ci.md").read_text(encoding="utf-8")
    shown = re.findall(r"^```yaml\n(.*?)^```", guide, re.M | re.S)
    assert shown == [WORKFLOW.read_text(encoding="utf-8")]


def test_the_workflow_runs_utf8cert_as_its_parser_reads_it() -> None:
    """Each `utf8cert` step of the workflow, its variables replaced by the workflow's values,
    is accepted by the command line's parser (tests/cli/test_user_install.py runs them)."""
    spec = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    values = {name: str(value) for name, value in spec["env"].items()}
    (job,) = spec["jobs"].values()
    checks = [step["run"] for step in job["steps"] if step.get("run", "").startswith("utf8cert ")]
    assert checks
    for command in checks:
        words = [re.sub(r"\$(\w+)", lambda m: values[m.group(1)], w) for w in shlex.split(command)]
        arguments = build_parser().parse_args(words[1:])
        assert arguments.command == "check"
        assert arguments.spec == values["CODEC"]
