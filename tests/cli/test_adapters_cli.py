"""The adapter commands and the adapter-kit example of docs/adapters.md, run as a user runs them."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from utf8cert.harness.world.catalog import PYTHON_ADAPTERS

ADAPTERS = Path(__file__).resolve().parents[2] / "docs" / "adapters.md"


@pytest.mark.slow
def test_check_adapter_sqlite_finds_ill_formed_bytes_decoded_as_characters(tmp_path: Path) -> None:
    if PYTHON_ADAPTERS["sqlite"].unavailable():
        pytest.skip(f"adapter:sqlite: {PYTHON_ADAPTERS['sqlite'].unavailable()}")
    finished = subprocess.run(
        ["utf8cert", "check", "adapter:sqlite"], capture_output=True, text=True, check=False
    )
    assert finished.returncode == 1
    assert "adapter:sqlite = SQLite's UTF-8 to UTF-16" in finished.stdout
    assert "must: decoded ill-formed bytes as characters" in finished.stdout


@pytest.mark.slow
def test_check_an_unavailable_adapter_is_one_line_and_exit_2() -> None:
    finished = subprocess.run(
        ["utf8cert", "check", "adapter:nonesuch"], capture_output=True, text=True, check=False
    )
    assert finished.returncode == 2
    assert finished.stderr.count("\n") == 1 and "no such adapter" in finished.stderr


@pytest.mark.slow
def test_the_documented_adapter_example_is_a_working_codec(tmp_path: Path) -> None:
    pytest.importorskip("lxml")
    text = ADAPTERS.read_text(encoding="utf-8")
    section = text[text.index("## Shipped adapters") :]
    example = re.search(r"```python\n(# mycodec.py.*?)```", section, re.S)
    assert example is not None
    (tmp_path / "mycodec.py").write_text(example.group(1), encoding="utf-8")
    finished = subprocess.run(
        ["utf8cert", "check", "mycodec:XmlText"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "conformant to RFC 3629" in finished.stdout and "NOT conformant" not in finished.stdout
    assert "crashed" not in finished.stdout  # XMLSyntaxError is a refusal, U+FFFE inapplicable
