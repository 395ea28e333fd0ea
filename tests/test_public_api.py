"""The public API: every documented name imports from `utf8cert.harness`, lazily, and the
user guide's Python example runs as written."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib import import_module
from pathlib import Path
from typing import Final

import pytest

import utf8cert.harness as harness

ROOT: Final = Path(__file__).resolve().parents[1]
GUIDE: Final = ROOT / "docs" / "guide.md"
ADAPTERS: Final = ROOT / "docs" / "adapters.md"
PAGES: Final = (ROOT / "README.md", GUIDE, ROOT / "docs" / "ci.md", ADAPTERS)
"""The pages whose Python examples a user copies."""


def test_every_public_name_imports_from_utf8cert_harness() -> None:
    for name in harness.__all__:
        home = import_module(f"utf8cert.harness.{harness._HOME[name]}")
        assert getattr(harness, name) is getattr(home, name)
    assert sorted(dir(harness)) == sorted(harness.__all__)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'run'"):
        harness.run  # noqa: B018 - the attribute access is what is tested


def test_importing_the_package_loads_no_wing() -> None:
    """`import utf8cert.harness` must stay light: the CLI and plugin pay only for what they use."""
    code = (
        "import sys, utf8cert.harness; "
        "print(sorted(m for m in sys.modules if m.startswith('utf8cert.harness.')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert loaded.stdout.strip() == "[]"


@pytest.mark.slow
def test_the_guide_python_api_example_runs() -> None:
    """The guide's API example certifies surrogatepass and prints its verdict (not conformant)."""
    text = GUIDE.read_text()
    section = text[text.index("## The Python API") :]
    example = re.search(r"```python\n(.*?)```", section, re.S)
    assert example is not None
    ran = subprocess.run(
        [sys.executable, "-c", example.group(1)], capture_output=True, text=True, check=True
    )
    assert ran.stdout.startswith("NOT conformant to RFC 3629")


def test_the_documented_imports_use_the_public_api() -> None:
    text = "".join(page.read_text() for page in PAGES)
    imports = re.findall(r"^from (utf8cert\.harness\S*) import", text, re.M)
    # the adapter kit is public as a module of its own (utf8cert.harness.codec.kit)
    assert imports and set(imports) == {"utf8cert.harness", "utf8cert.harness.codec.kit"}


def test_the_adapter_kit_is_public_and_documented() -> None:
    """Every name of utf8cert.harness.codec.kit imports from it, is the one the harness uses,
    and is named in the adapters guide's section on the kit."""
    kit = import_module("utf8cert.harness.codec.kit")
    text = ADAPTERS.read_text()
    section = text[text.index("## The adapter kit") :]
    section = section[: section.index("\n## ")]
    for name in kit.__all__:
        assert getattr(kit, name) is not None
        assert f"`{name}" in section, name
    assert kit.wrapped_decoder is harness.wrapped_decoder
    assert kit.JSON_STRING is harness.JSON_STRING


def test_the_adapter_kit_example_prints_what_its_comments_say() -> None:
    text = ADAPTERS.read_text()
    section = text[text.index("## The adapter kit") :]
    example = re.search(r"```python\n(.*?)```", section, re.S)
    assert example is not None
    ran = subprocess.run(
        [sys.executable, "-c", example.group(1)], capture_output=True, text=True, check=True
    )
    said = [
        line.split("  # ")[1].split(":")[0]
        for line in example.group(1).splitlines()
        if line.startswith("    print(") or line.startswith("print(")
    ]
    assert ran.stdout.splitlines() == said
