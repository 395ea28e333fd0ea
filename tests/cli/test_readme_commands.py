"""Every shell command the README shows, run as shown, in README order, in a fresh directory
holding what the commands name: a package `mypkg` with a codec `Utf8`, the Node example, a
`my_vectors/` directory; the `pyproject.toml` the README shows is written where it stands.

Only the commands that set up this checkout itself are left out (.ci/run runs them): the
editable install, the installer of the adapters' runtimes (apt-get, npm), and the whole test
suite, which would run this test again.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from user_vectors import EXTRA_VECTOR

REPOSITORY = Path(__file__).resolve().parents[2]
README = REPOSITORY / "README.md"
SET_UP_ONLY = {"python -m pip install -e '.[dev]'", "python -m pytest", "scripts/install-runtimes"}
"""What the README shows for setting up this checkout (and the machine: apt-get, npm), run by
.ci/run instead."""
BLOCK = re.compile(r"^```(sh|toml)\n(.*?)^```", re.MULTILINE | re.DOTALL)
COMMENT = re.compile(r"\s+#\s.*$")

MYPKG_CODEC = '''"""A user's codec, as the README names it: CPython's UTF-8, wrapped."""

from hand_rolled import CPythonUtf8 as Utf8

__all__ = ["Utf8"]
'''
"""The codec of `mypkg.codec:Utf8` (tests/ is on the commands' PYTHONPATH)."""


def readme_steps() -> list[tuple[str, str]]:
    """Return ('sh', command) for each shell command and ('toml', text) for each TOML block,
    in README order; continued lines joined, comments dropped, `a && b` as two commands."""
    steps: list[tuple[str, str]] = []
    for kind, body in BLOCK.findall(README.read_text(encoding="utf-8")):
        if kind == "toml":
            steps.append((kind, body))
            continue
        for line in body.replace("\\\n", " ").splitlines():
            command = " ".join(COMMENT.sub("", line).split())
            steps += [("sh", part.strip()) for part in command.split("&&") if part.strip()]
    return steps


def project(directory: Path) -> None:
    """Put in `directory` what the README's commands name."""
    (directory / "mypkg").mkdir()
    (directory / "mypkg" / "__init__.py").write_text("", encoding="utf-8")
    (directory / "mypkg" / "codec.py").write_text(MYPKG_CODEC, encoding="utf-8")
    (directory / "my_vectors").mkdir()
    (directory / "my_vectors" / "extra.yaml").write_text(EXTRA_VECTOR, encoding="utf-8")
    (directory / "docs").mkdir()  # where the README writes the conformance matrix
    (directory / "examples" / "node").mkdir(parents=True)
    shutil.copy(
        REPOSITORY / "examples" / "node" / "textdecoder.js", directory / "examples" / "node"
    )
    (directory / "examples" / "python").mkdir()
    shutil.copy(
        REPOSITORY / "examples" / "python" / "template.py", directory / "examples" / "python"
    )


def test_the_readme_shows_the_commands_this_test_knows() -> None:
    commands = [text for kind, text in readme_steps() if kind == "sh"]
    assert set(commands) >= SET_UP_ONLY
    assert "pytest --utf8-codec codec:utf-8 -k overlong -x --junitxml=utf8.xml -n 2" in commands


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_every_readme_command_runs_as_shown(tmp_path: Path) -> None:
    project(tmp_path)
    environment = dict(os.environ)
    environment["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{environment['PATH']}"
    environment["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(REPOSITORY / "tests")])
    environment.pop("PYTEST_ADDOPTS", None)
    ran = []
    for kind, text in readme_steps():
        if kind == "toml":
            (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
            continue
        if text in SET_UP_ONLY:
            continue
        result = subprocess.run(
            text,
            shell=True,
            cwd=tmp_path,
            env=environment,
            capture_output=True,
            text=True,
            timeout=900,
        )
        output = result.stdout + result.stderr
        # 0 passes, 1 finds differences; 2 (usage), 3-5 (pytest: internal, usage, nothing
        # collected) are what a README example must never give.
        assert result.returncode in (0, 1), f"{text}: exit {result.returncode}\n{output}"
        assert "Traceback" not in output, f"{text}\n{output}"
        ran.append(text)
    assert len(ran) == sum(1 for kind, text in readme_steps() if kind == "sh") - len(SET_UP_ONLY)
    for name in ("report.json", "CERTIFICATE.md", "report.html", "utf8.xml", "utf8-baseline.json"):
        assert (tmp_path / name).stat().st_size > 0, name
