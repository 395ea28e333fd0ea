"""The shipped vectors are the release's: vectors/SHA256SUMS records the digest of every vector
file and schema (checked here with hashlib and with coreutils' sha256sum), and an install whose
vectors were gutted, edited, removed or added to is a load error naming the file, never a
smaller suite. After changing a file under vectors/, run scripts/update-vector-digests."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Final

import pytest

ROOT: Final = Path(__file__).parents[2]
VECTORS: Final = ROOT / "vectors"
UPDATE: Final = "scripts/update-vector-digests"


def recorded() -> dict[str, str]:
    """Return the digest vectors/SHA256SUMS records for each file, by name."""
    lines = (VECTORS / "SHA256SUMS").read_text().splitlines()
    return {name: digest for digest, name in (line.split("  ", 1) for line in lines)}


def test_every_vector_file_and_schema_has_its_digest_recorded() -> None:
    actual = {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest()
        for pattern in ("*.yaml", "*.json")
        for path in VECTORS.glob(pattern)
    }
    assert recorded() == actual, f"a vector file changed: run {UPDATE} and commit SHA256SUMS"


def test_sha256sum_checks_the_recorded_digests() -> None:
    done = subprocess.run(
        ["sha256sum", "--check", "--strict", "SHA256SUMS"],
        cwd=VECTORS,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, f"{done.stdout}{done.stderr}: run {UPDATE}"


def installed_copy(tmp_path: Path) -> Path:
    """Return a directory that holds utf8cert as an install does, its vectors a copy that a
    test may change (the code is the checkout's, by symbolic links)."""
    package = tmp_path / "site" / "utf8cert"
    package.mkdir(parents=True)
    for name in ("harness", "reference"):
        (package / name).symlink_to(ROOT / name)
    shutil.copytree(VECTORS, package / "vectors")
    return package / "vectors"


def list_vectors(vectors: Path) -> subprocess.CompletedProcess[str]:
    """Return the finished `utf8cert vectors list`, run on the install that holds `vectors`."""
    environment = {**os.environ, "PYTHONPATH": str(vectors.parents[1])}
    return subprocess.run(
        [sys.executable, "-m", "utf8cert.harness", "vectors", "list"],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )


def gut(path: Path) -> None:
    """Keep the first third of a vector file: a valid file of fewer vectors."""
    text = path.read_text()
    path.write_text(text[: text.index("\n  - id:", len(text) // 3)] + "\n")


CHANGES = {
    "gutted": (lambda vectors: gut(vectors / "security.yaml"), "security.yaml"),
    "removed": (lambda vectors: (vectors / "security.yaml").unlink(), "security.yaml"),
    "added": (
        lambda vectors: shutil.copy(vectors / "bom.yaml", vectors / "more.yaml"),
        "more.yaml",
    ),
    "schema loosened": (lambda vectors: (vectors / "schema.json").write_text("{}"), "schema.json"),
}


@pytest.mark.parametrize(("change", "name"), CHANGES.values(), ids=CHANGES.keys())
def test_an_install_whose_vectors_changed_is_an_error_naming_the_file(
    tmp_path: Path, change: Callable[[Path], object], name: str
) -> None:
    vectors = installed_copy(tmp_path)
    intact = list_vectors(vectors)
    assert intact.returncode == 0 and intact.stderr == ""
    change(vectors)
    changed = list_vectors(vectors)
    assert changed.returncode == 2 and changed.stdout == ""
    assert changed.stderr.startswith(
        f"utf8cert: error: the installed vectors differ from the release: vectors/{name} ("
    )
    assert changed.stderr.count("\n") == 1 and UPDATE in changed.stderr
