"""Every shell command of the README and of the user guides (docs/guide.md, docs/ci.md,
docs/adapters.md), run as shown, in page order, in a fresh directory holding what the commands
name: the package `mypkg` with the codec the README shows, the Node and Python examples, a
`my_vectors/` directory; a page's `pyproject.toml` block is written where it stands.

Left out here: the commands that set up this checkout or the machine (.ci/run runs them), and
the installs without the dev extra, which tests/cli/test_user_install.py runs in fresh virtual
environments.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.doc_pages import (
    PAGES,
    README,
    REPOSITORY,
    SET_UP_ONLY,
    USER_INSTALL,
    commands,
    steps,
    user_codec,
)
from support.user_vectors import EXTRA_VECTOR

REPORTS = {
    "README.md": ("report.json", "report.html", "utf8cert.xml", "utf8-baseline.json", "utf8.xml"),
    "guide.md": ("report.json", "CERTIFICATE.md", "report.html", "utf8.xml", "page.txt"),
    "ci.md": ("utf8cert.xml", "utf8cert.html", "utf8-baseline.json", "utf8.xml"),
    "adapters.md": ("docs/matrix.md", "matrix.html"),
}
"""The files each page's commands write (each must be there, and not empty, after them)."""


def project(directory: Path) -> None:
    """Put in `directory` what the pages' commands name."""
    (directory / "mypkg").mkdir()
    (directory / "mypkg" / "__init__.py").write_text("", encoding="utf-8")
    (directory / "mypkg" / "codec.py").write_text(user_codec(), encoding="utf-8")
    (directory / "my_vectors").mkdir()
    (directory / "my_vectors" / "extra.yaml").write_text(EXTRA_VECTOR, encoding="utf-8")
    (directory / "docs").mkdir()  # where the adapters guide writes the conformance matrix
    for example in ("node/textdecoder.js", "python/template.py"):
        (directory / "examples" / example).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPOSITORY / "examples" / example, directory / "examples" / example)


def test_the_readme_shows_the_commands_this_test_knows() -> None:
    shown = commands(README)
    assert set(shown) >= {"python -m pip install -e '.[dev]'", "python -m pytest", *USER_INSTALL}
    everywhere = {text for page in PAGES for text in commands(page)}
    assert everywhere >= set(SET_UP_ONLY)  # each left out for a reason that still holds
    assert shown[:2] == ["python -m pip install -e '.[dev]'", "utf8cert check"]
    assert "pytest --utf8-codec codec:utf-8 -k overlong -x --junitxml=utf8.xml -n 2" in shown


def test_every_page_has_commands_and_writes_what_this_test_expects() -> None:
    for page in PAGES:
        assert commands(page), page
        assert page.name in REPORTS, page


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_command_of_the_page_runs_as_shown(page: Path, tmp_path: Path) -> None:
    project(tmp_path)
    environment = dict(os.environ)
    environment["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{environment['PATH']}"
    environment["PYTHONPATH"] = str(tmp_path)
    environment.pop("PYTEST_ADDOPTS", None)
    ran = []
    for kind, text in steps(page):
        if kind == "toml":
            (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
            continue
        if text in SET_UP_ONLY or text in USER_INSTALL:
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
        # collected) are what a documented example must never give.
        where = f"{page.name}: {text}"
        assert result.returncode in (0, 1), f"{where}: exit {result.returncode}\n{output}"
        assert "Traceback" not in output, f"{where}\n{output}"
        ran.append(text)
    skipped = set(SET_UP_ONLY) | set(USER_INSTALL)
    assert ran == [text for text in commands(page) if text not in skipped]
    for name in REPORTS[page.name]:
        assert (tmp_path / name).stat().st_size > 0, name
