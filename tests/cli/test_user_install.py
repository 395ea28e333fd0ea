"""A user's install, without the dev extra, in a fresh virtual environment: the README's install
lines run in a copy of the clone, then utf8cert certifies the README's codec; and the GitHub
Actions workflow a user copies (examples/ci/utf8cert.yml) runs its steps as written.

pip fetches the runtime dependencies as a user's pip does (from the index, or its cache).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from support.doc_pages import README, REPOSITORY, USER_INSTALL, WORKFLOW, commands, user_codec

pytestmark = pytest.mark.slow

NOT_A_CLONE = shutil.ignore_patterns(
    ".git", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis", "artifacts"
)


def clone(directory: Path) -> Path:
    """Return a copy of this checkout's files in `directory`, as a user's clone has them."""
    return Path(shutil.copytree(REPOSITORY, directory / "utf8cert", ignore=NOT_A_CLONE))


def fresh_environment(directory: Path) -> dict[str, str]:
    """Return the environment of a new virtual environment made in `directory` (a shell's, with
    the venv's bin/ first on PATH, as `activate` makes it)."""
    subprocess.run([sys.executable, "-m", "venv", str(directory)], check=True, timeout=600)
    environment = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("PYTHON", "PYTEST", "VIRTUAL_ENV"))
    }
    environment["VIRTUAL_ENV"] = str(directory)
    environment["PATH"] = f"{directory / 'bin'}{os.pathsep}{os.environ['PATH']}"
    environment["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return environment


def run(command: str, cwd: Path, environment: dict[str, str]) -> str:
    """Return the output of `command`, run by the shell; fail the test on a non-zero exit."""
    done = subprocess.run(
        command,
        shell=True,
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{command}: exit {done.returncode}\n{output[-3000:]}"
    return output


def user_repository(directory: Path) -> Path:
    """Return a directory holding the README's codec, as a user's repository holds theirs."""
    (directory / "mypkg").mkdir(parents=True)
    (directory / "mypkg" / "__init__.py").write_text("", encoding="utf-8")
    (directory / "mypkg" / "codec.py").write_text(user_codec(), encoding="utf-8")
    return directory


def test_the_readme_installs_without_the_dev_extra_certify_and_fuzz(tmp_path: Path) -> None:
    shown = commands(README)
    assert all(line in shown for line in USER_INSTALL)
    source = clone(tmp_path)
    environment = fresh_environment(tmp_path / "venv")
    mine = user_repository(tmp_path / "mine")
    run("python -m pip install .", source, environment)
    run("python -c 'import utf8cert.harness'", mine, environment)
    for dev_only in ("xdist", "ruff", "atheris"):  # none of the dev extra came with it
        run(f"python -c 'import {dev_only}' || exit 0 && exit 1", mine, environment)
    verdict = run("utf8cert check mypkg.codec:Utf8", mine, environment)
    assert "conformant to RFC 3629" in verdict and "NOT conformant" not in verdict
    run("python -m pip install '.[fuzz]'", source, environment)
    run("utf8cert fuzz mypkg.codec:Utf8 --runs 2000", mine, environment)


def workflow() -> dict[Any, Any]:
    """Return the parsed workflow (YAML 1.1 reads its key `on` as True)."""
    parsed = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert isinstance(parsed, dict)
    return parsed


def test_the_readme_wheel_and_the_user_workflow_run_as_written(tmp_path: Path) -> None:
    """The README's wheel lines, then every `run:` step of the workflow in order, in a user's
    repository, with the workflow's env: its install step installs the wheel the README built,
    already in place from the README's own install of it, the same `pip install FILE`."""
    source = clone(tmp_path)
    environment = fresh_environment(tmp_path / "venv")
    run("python -m pip wheel --no-deps -w dist .", source, environment)
    run("python -m pip install dist/utf8cert-*.whl", source, environment)
    (wheel,) = (source / "dist").glob("utf8cert-*.whl")

    spec = workflow()
    env = {name: str(value) for name, value in spec["env"].items()}
    assert Path(env["UTF8CERT"]).name == wheel.name, "the workflow names another version's wheel"
    mine = user_repository(tmp_path / "mine")
    (mine / env["UTF8CERT"]).parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(wheel, mine / env["UTF8CERT"])
    assert env["CODEC"] == "mypkg.codec:Utf8"  # the README's codec, which the test puts in place

    (job,) = spec["jobs"].values()
    uses = [step["uses"].split("@")[0] for step in job["steps"] if "uses" in step]
    assert uses == ["actions/checkout", "actions/setup-python", "actions/upload-artifact"]
    (setup,) = [step for step in job["steps"] if step.get("uses", "").startswith(uses[1])]
    version = tuple(int(part) for part in str(setup["with"]["python-version"]).split("."))
    assert version >= (3, 11)  # pyproject's requires-python
    ran = 0
    for step in job["steps"]:
        if "run" in step:
            run(step["run"], mine, environment | env)
            ran += 1
    assert ran == 2
    (keep,) = [step for step in job["steps"] if step.get("uses", "").startswith("actions/upload")]
    for kept in keep["with"]["path"].split():
        assert (mine / kept).stat().st_size > 0, kept
