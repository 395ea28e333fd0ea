"""The protocol templates of examples/<language>/ (the README's adapter kit): each, run as
`utf8cert check "cmd:..."` as a user would after copying it, gets its language's own codec's
verdict. What each codec is known to do is in its documentation: CPython's and Rust's standard
decoders follow the maximal subpart practice; Node.js's TextDecoder drops a leading BOM (the
WHATWG Encoding Standard); Java's REPLACE decoder gives one U+FFFD for ED A0 (a `should`)."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.cli_runs import check

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def verdict(command: list[str]) -> tuple[int, str]:
    """Return the exit status and the verdict line of `utf8cert check "cmd:COMMAND"`."""
    run = check("cmd:" + shlex.join(command))
    lines = [line for line in run.out.splitlines() if line.startswith(("conformant", "NOT"))]
    assert len(lines) == 1, run.out + run.err
    return run.status, lines[0]


def test_the_python_template_certifies_cpythons_codec() -> None:
    status, line = verdict([sys.executable, str(EXAMPLES / "python" / "template.py")])
    assert (status, line) == (0, "conformant to RFC 3629; follows recommended practice throughout")


def test_the_python_template_says_where_each_error_ends() -> None:
    # PROTOCOL.md's optional end= field, from UnicodeDecodeError.end: E2 82 cut short after
    # "A" is the maximal subpart 1..3, across the chunks of an incremental request too.
    requests = "1 decode 41e282\n2 incremental 0 41e2 82\n3 encode 0000d800\n"
    template = [sys.executable, str(EXAMPLES / "python" / "template.py")]
    done = subprocess.run(template, input=requests, capture_output=True, text=True, check=True)
    answers = [line.split()[:4] for line in done.stdout.splitlines()[1:]]
    assert answers == [
        ["1", "refused", "end=3", "1"],
        ["2", "refused", "end=3", "1"],
        ["3", "refused", "end=1", "0"],
    ]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_node_template_finds_textdecoders_signature_stripping() -> None:
    status, line = verdict(["node", str(EXAMPLES / "node" / "textdecoder.js")])
    assert status == 0
    assert line.startswith("conformant to RFC 3629; departs from recommended practice")
    assert "(may)" in line


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("javac") is None, reason="javac is not installed")
def test_the_java_template_certifies_javas_charset_coders(tmp_path: Path) -> None:
    source = EXAMPLES / "java" / "Utf8Template.java"
    subprocess.run(["javac", "-d", str(tmp_path), str(source)], check=True, timeout=300)
    status, line = verdict(["java", "-cp", str(tmp_path), "Utf8Template"])
    # Conformant, with one recommended-practice departure (its replacing decoder's U+FFFD
    # count); how many vectors show it follows the vector set, not the template.
    assert status == 0
    assert line.startswith("conformant to RFC 3629; departs from recommended practice: 1 behaviour")
    assert line.endswith("(should)")


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("rustc") is None, reason="rustc is not installed")
def test_the_rust_template_certifies_rusts_standard_library(tmp_path: Path) -> None:
    program = tmp_path / "utf8_template"
    source = EXAMPLES / "rust" / "utf8_template.rs"
    subprocess.run(["rustc", "-O", "-o", str(program), str(source)], check=True, timeout=300)
    status, line = verdict([str(program)])
    assert (status, line) == (0, "conformant to RFC 3629; follows recommended practice throughout")
