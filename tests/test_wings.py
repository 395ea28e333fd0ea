"""The harness is built in wings, and imports run one way: command line and plugin → fuzzing and
reports → check engine and the world (the shipped adapters and programs) → codecs and vectors →
`utf8cert.reference`. No module imports from a wing above its own, nor from a wing beside it
(harness/*/__init__.py says what each owns): the machinery that runs any codec (codec, vectors,
check) imports nothing of the world."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Final

import pytest

ROOT: Final = Path(__file__).resolve().parents[1]

RANK: Final = {
    "reference": 0,
    "codec": 1,
    "vectors": 1,
    "check": 2,
    "world": 2,
    "reports": 3,
    "fuzzing": 3,
    "plugin": 4,
    "cli": 4,
}
"""Each wing's height: a module may import its own wing and any wing of a lower rank."""

NAME: Final = re.compile(r"utf8cert\.(reference|harness)(?:\.(\w+))?")


def wing_of(path: Path) -> str | None:
    """Return the wing a source file belongs to (None for the harness facade itself)."""
    relative = path.relative_to(ROOT)
    if relative.parts[0] == "reference":
        return "reference"
    return relative.parts[1] if len(relative.parts) > 2 else None


def imported(path: Path) -> list[tuple[int, str]]:
    """Return (line, module) for every utf8cert module a source file names: import statements
    anywhere (at the top, in functions, under TYPE_CHECKING) and module names in strings (a
    `python -m` command line, an importlib call), which are imports by other means."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            # `from .x import y` stays inside its own package; `from ..x` would leave it unseen.
            assert node.level <= 1, f"{path}:{node.lineno}: a relative import out of its package"
            if node.level == 1:
                continue
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found += [(node.lineno, match.group(0)) for match in NAME.finditer(node.value)]
    return found


def target_wing(module: str) -> str | None:
    """Return the wing a module name lies in, '' for the harness facade, None outside utf8cert."""
    match = NAME.match(module)
    if match is None:
        return None
    if match.group(1) == "reference":
        return "reference"
    return match.group(2) if match.group(2) in RANK else ""


SOURCES: Final = sorted([*ROOT.glob("reference/**/*.py"), *ROOT.glob("harness/*/**/*.py")])


def test_every_harness_module_lies_in_a_wing() -> None:
    loose = [
        p.name for p in ROOT.glob("harness/*.py") if p.name not in {"__init__.py", "__main__.py"}
    ]
    assert loose == []
    assert {p.parent.name for p in ROOT.glob("harness/*/__init__.py")} == set(RANK) - {"reference"}


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_run_one_way(path: Path) -> None:
    own = wing_of(path)
    assert own is not None
    wrong = []
    for line, module in imported(path):
        wing = target_wing(module)
        if wing is None or wing == own:
            continue
        if wing == "" or RANK[wing] >= RANK[own]:
            wrong.append(f"{path.relative_to(ROOT)}:{line}: {own} imports {module}")
    assert wrong == []


def test_the_check_finds_an_upward_import(tmp_path: Path) -> None:
    """The rule above can fail: a check-engine module naming a report module is caught."""
    upward = tmp_path / "upward.py"
    upward.write_text("from utf8cert.harness.reports.explain import explain\n")
    ((line, module),) = imported(upward)
    assert (line, target_wing(module)) == (1, "reports")
    assert RANK["reports"] > RANK["check"]


def test_the_check_finds_the_machinery_naming_the_world(tmp_path: Path) -> None:
    """A codec-wing module that starts the world's server by name (`python -m`) is caught, as is
    the check engine importing the catalog inside a function: the world sits beside check."""
    naming = tmp_path / "naming.py"
    naming.write_text(
        'SERVER = "utf8cert.harness.world.serve"\n'
        "def entries():\n"
        "    from utf8cert.harness.world.catalog import registry\n"
        "    return registry()\n"
    )
    found = [(line, target_wing(module)) for line, module in imported(naming)]
    assert found == [(1, "world"), (3, "world")]
    assert RANK["world"] >= RANK["codec"] and RANK["world"] >= RANK["check"]
