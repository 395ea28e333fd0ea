"""A fresh clone with only `pip install -e '.[dev]'` runs the default tier without an import
error: a test reaches a library outside utf8cert[dev] (an adapter's library, PyICU) only through
`pytest.importorskip`, which skips with the reason where the library is missing (tests/README.md).

The rule is checked on the source, so it holds for tests that are skipped or deselected here:
every `import` and `from ... import` statement under tests/, at any depth, must name the standard
library, utf8cert, the tests' own modules, or a distribution utf8cert[dev] requires (its
requirements read from the installed metadata, markers evaluated for this Python, transitively).
CI's first step found five tests that imported their library before their skip check.
"""

from __future__ import annotations

import ast
import importlib.metadata
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

TESTS: Final = Path(__file__).resolve().parent


def required_distributions(root: str = "utf8cert", extras: tuple[str, ...] = ("dev",)) -> set[str]:
    """Return the canonical names of the distributions `root[extras]` needs on this Python,
    itself included, following each one's own requirements (and the extras named on the way)."""
    needed: set[str] = set()
    seen: set[tuple[str, frozenset[str]]] = set()
    pending: list[tuple[str, frozenset[str]]] = [(root, frozenset(extras))]
    while pending:
        name, wanted = pending.pop()
        key = canonicalize_name(name)
        if (key, wanted) in seen:
            continue  # a requirement met before (a circle of extras ends here)
        seen.add((key, wanted))
        needed.add(key)
        try:
            requirements = importlib.metadata.requires(name) or []
        except importlib.metadata.PackageNotFoundError:
            continue  # required on another platform or Python: its marker said so
        for line in requirements:
            requirement = Requirement(line)
            environments = [{"extra": extra} for extra in wanted] or [{"extra": ""}]
            if requirement.marker is None or any(
                requirement.marker.evaluate(environment) for environment in environments
            ):
                pending.append((requirement.name, frozenset(requirement.extras)))
    return needed


def allowed_top_level_modules() -> set[str]:
    """Return the top-level import names a test may import with a plain import statement."""
    required = required_distributions()
    allowed = set(sys.stdlib_module_names) | {"utf8cert", "support", "conftest", "__future__"}
    for module, distributions in importlib.metadata.packages_distributions().items():
        if any(canonicalize_name(name) in required for name in distributions):
            allowed.add(module)
    # the tests' own modules and folders (tests/ is on sys.path), and the repository's (bench/)
    allowed.update(path.stem for path in TESTS.rglob("*.py"))
    allowed.update(
        path.name for path in (*TESTS.iterdir(), *TESTS.parent.iterdir()) if path.is_dir()
    )
    return allowed


def imports_of(path: Path) -> Iterator[tuple[int, str]]:
    """Return (line, top-level module) for every import statement of a source file."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module.split(".")[0]


def test_the_dev_extra_is_read_from_the_installed_metadata() -> None:
    required = required_distributions()
    # what the README's first command installs, and what they bring (pytest-xdist needs execnet)
    assert {"pytest", "pyyaml", "hypothesis", "pytest-xdist", "execnet"} <= required
    assert "orjson" not in required  # the adapters extra is not the dev extra


def test_a_library_outside_the_dev_extra_is_reached_only_through_importorskip() -> None:
    allowed = allowed_top_level_modules()
    outside = [
        f"{path.relative_to(TESTS.parent)}:{line}: import {module}"
        for path in sorted(TESTS.rglob("*.py"))
        for line, module in imports_of(path)
        if module not in allowed
    ]
    assert not outside, "use pytest.importorskip for these:\n" + "\n".join(outside)
