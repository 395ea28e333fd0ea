"""The package installs as one namespace, utf8cert, in both install modes."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

IMPORT_CHECK = """
import importlib.util, sys
import utf8cert.reference, utf8cert.harness, utf8cert.vectors
from importlib.resources import files
yaml_files = [p.name for p in files("utf8cert.vectors").iterdir() if p.name.endswith(".yaml")]
assert yaml_files, "no vector files shipped"
assert (files("utf8cert.vectors") / "schema.json").is_file(), "schema.json not shipped"
assert (files("utf8cert.vectors") / "SHA256SUMS").is_file(), "vectors/SHA256SUMS not shipped"
from utf8cert.harness.vectors.release import released_files
assert len(released_files()) > 10, "the shipped vectors are not the release's"
assert (files("utf8cert.corpus") / "utf8.dict").is_file(), "the fuzzing dictionary not shipped"
from utf8cert.harness.fuzzing.campaign import default_dictionary
assert default_dictionary() is not None, "utf8cert fuzz finds no dictionary"
for bare in ("reference", "harness", "vectors"):
    assert importlib.util.find_spec(bare) is None, f"bare top-level {bare!r} is importable"
print(utf8cert.reference.decode(b"\\xf0\\x9f\\x98\\x80"))
"""


def run_import_check(cwd: Path, extra_path: Path | None = None) -> str:
    """Return the check script's output, run from `cwd` (never the repository root)."""
    env = {"PYTHONPATH": str(extra_path)} if extra_path else {}
    result = subprocess.run(
        [sys.executable, "-I" if extra_path is None else "-S", "-c", IMPORT_CHECK],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env | {"PATH": "/usr/bin:/bin"},
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_installed_package_imports_as_utf8cert_from_any_directory(tmp_path: Path) -> None:
    assert run_import_check(tmp_path).strip() == "\U0001f600"


def test_python_dash_m_utf8cert_is_the_command(tmp_path: Path) -> None:
    """Issue 42: `python -m utf8cert` ran nothing (`python -m utf8cert.harness` did)."""
    result = subprocess.run(
        [sys.executable, "-m", "utf8cert", "check", "--in-process", "--input", "c0af", "--quiet"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr  # CPython's codec refuses C0 AF: conformant
    assert "conformant to RFC 3629" in result.stdout


@pytest.mark.slow
def test_a_built_wheel_holds_only_the_utf8cert_namespace_and_its_data(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("utf8cert-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    code_and_data = [n for n in names if ".dist-info/" not in n]
    assert all(n.startswith("utf8cert/") for n in code_and_data), code_and_data
    for expected in (
        "utf8cert/reference/table.py",
        "utf8cert/reference/py.typed",
        "utf8cert/harness/py.typed",
        "utf8cert/vectors/schema.json",
        "utf8cert/corpus/utf8.dict",
        "utf8cert/harness/world/programs/npm_codecs.js",
        "utf8cert/harness/world/programs/package.json",  # the npm packages it checks, pinned
        "utf8cert/harness/world/programs/Utf8Encoders.java",
    ):
        assert expected in names
    assert any(n.startswith("utf8cert/vectors/") and n.endswith(".yaml") for n in names)
    assert "utf8cert/__init__.py" not in names  # a PEP 420 namespace: nothing to keep in step
    assert "utf8cert/__main__.py" in names  # python -m utf8cert
    assert any(".dist-info/" in n and n.endswith("/LICENSE") for n in names)  # Apache-2.0 text


@pytest.mark.slow
def test_a_regular_install_works_without_the_source_tree(tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "-q",
            "--target",
            str(target),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    installed = sorted(p.name for p in target.iterdir() if not p.name.endswith(".dist-info"))
    assert installed in (["utf8cert"], ["bin", "utf8cert"])  # bin/ holds the console script
    assert run_import_check(tmp_path, extra_path=target).strip() == "\U0001f600"
