"""The supported ranges pyproject.toml declares are the ones CI tests: each dependency's lower
bound is the release .ci/oldest.txt pins (.ci/run runs the plugin's tests with those), so that a
bound raised or lowered without the oldest end being tested again fails here."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]


def pinned() -> dict[str, Version]:
    """Return the release .ci/oldest.txt pins, by normalised name."""
    lines = (ROOT / ".ci" / "oldest.txt").read_text(encoding="utf-8").splitlines()
    found = {}
    for line in lines:
        if line.strip() and not line.startswith("#"):
            requirement = Requirement(line)
            (spec,) = requirement.specifier
            assert spec.operator == "==", line
            found[requirement.name.lower()] = Version(spec.version)
    return found


def lower_bounds(requirements: list[str]) -> dict[str, Version]:
    """Return each requirement's lower bound (`>=`), by normalised name (none: not listed)."""
    found = {}
    for line in requirements:
        requirement = Requirement(line)
        for spec in requirement.specifier:
            if spec.operator == ">=":
                found[requirement.name.lower()] = Version(spec.version)
    return found


def test_every_runtime_dependency_is_tested_at_its_lower_bound() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    runtime = lower_bounds(project["dependencies"])
    assert set(runtime) == {Requirement(line).name.lower() for line in project["dependencies"]}
    oldest = pinned()
    assert {name: oldest.get(name) for name in runtime} == runtime
    # The test tools of the plugin's tests, pinned too, are pinned at their lower bounds.
    dev = lower_bounds(project["optional-dependencies"]["dev"])
    assert {name: dev.get(name) for name in set(oldest) - set(runtime)} == {
        name: oldest[name] for name in set(oldest) - set(runtime)
    }
