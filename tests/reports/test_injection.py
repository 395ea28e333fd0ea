"""Text a codec writes (its stderr, its messages) is shown, never obeyed: no control character
reaches the terminal report, the CI log or the HTML page, and no line of it can start a GitHub
workflow command (issue 23)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
PROGRAM = TESTS / "support" / "injecting_program.py"
VECTORS = ("rfc3629-7-1", "cont-1", "sec-1")
"""Vectors on which the program speaks: it refuses every ill-formed input and dies on any
input holding the byte C0."""


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str, str]:
    """Return (stdout, stderr, HTML page) of checking the injecting program with --github."""
    directory = tmp_path_factory.mktemp("injection")
    spec = f"cmd:{sys.executable} {PROGRAM}"
    command = ["utf8cert", "check", spec, "--github", "-v", "--html", "page.html"]
    # The program's three texts, each on a vector that makes it speak: its stderr at start and
    # on any input (rfc3629-7-1, well-formed), a refusal's message (cont-1, a lone 80) and a
    # crash's last words (sec-1, C0 80).
    for vector in VECTORS:
        command += ["--vector", vector]
    done = subprocess.run(
        command, cwd=directory, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 1, done.stderr
    return done.stdout, done.stderr, (directory / "page.html").read_text(encoding="utf-8")


@pytest.mark.slow
def test_no_control_character_from_the_codec_reaches_any_output(
    checked: tuple[str, str, str],
) -> None:
    for text in checked:
        assert "\x1b" not in text
        assert "\r" not in text
    out, _, _ = checked
    assert "\\x1b[2J" in out  # shown, escaped


def test_a_workflow_command_in_codec_text_never_starts_a_line(
    checked: tuple[str, str, str],
) -> None:
    out, err, _ = checked
    assert "forged annotation" in out  # the codec's text is shown...
    for line in (out + err).splitlines():
        assert not line.lstrip().startswith("::error file=forged.py")  # ...never obeyed
    ours = [line for line in out.splitlines() if line.lstrip().startswith("::")]
    assert ours
    # Ours, every one titled utf8cert: on a user's vector file, or on none (a built-in vector,
    # the verdict's own errors).
    ours_pattern = r"::(error|warning|notice) (file=[^,:]*\.yaml,line=\d+,)?title=utf8cert%3A "
    assert all(re.match(ours_pattern, line) for line in ours), ours


def test_the_html_page_escapes_codec_text(checked: tuple[str, str, str]) -> None:
    _, _, page = checked
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
