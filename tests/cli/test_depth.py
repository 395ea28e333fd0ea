"""`--depth full` (`utf8cert check`) and `--utf8-depth full` (the plugin) run every variant of
every vector; the default depth runs fewer and finds the same kinds of difference."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

import pytest
from support.shipped_vectors import shipped_vectors

from utf8cert.harness.cli.main import main

pytest_plugins = ["pytester"]

SURROGATES = "codec:utf-8:surrogatepass"
"""Reads and writes surrogates: a must difference on every surrogate vector, in every variant."""


SURROGATE_VECTORS: Final = tuple(
    option
    for vector in [vector for vector in shipped_vectors() if vector.id.startswith("sur-")][:8]
    for option in ("--vector", vector.id)
)
"""The first eight surrogate vectors alone: the full depth's cost is that of every variant of
every vector (tests/check/test_schedule.py compares the depths on them all, in the exhaustive
tier); on all 23 this test took 50 s."""


def differences(tmp_path: Path, *depth: str) -> list[dict[str, Any]]:
    report = tmp_path / f"report{len(depth)}.json"
    arguments = ["check", SURROGATES, *SURROGATE_VECTORS, "--json", str(report), *depth]
    assert main(arguments) == 1
    document = json.loads(report.read_text())
    assert document["depth"] == (depth[-1] if depth else "default")
    found: list[dict[str, Any]] = document["differences"]
    return found


@pytest.mark.slow
def test_check_depth_full_runs_every_shift_of_every_vector_and_finds_no_new_kind(
    tmp_path: Path,
) -> None:
    default, full = differences(tmp_path), differences(tmp_path, "--depth", "full")
    places = {(d["vector"], d["variant"]) for d in full}
    assert {(d["vector"], d["variant"]) for d in default} < places
    # Every surrogate vector, shifted by 3, is a difference at full depth; few are by default.
    shifted = [d for d in full if d["variant"] == "shift-3" and d["capability"] == "decode"]
    assert len(shifted) > 2 * sum(d["variant"] == "shift-3" for d in default)
    assert {(d["capability"], d["what"]) for d in default} == {
        (d["capability"], d["what"]) for d in full
    }


@pytest.mark.slow
def test_the_plugin_takes_utf8_depth_full(pytester: pytest.Pytester) -> None:
    arguments = ("--utf8-codec", SURROGATES, "-k", "sur-1 and decode", "-p", "no:cacheprovider")
    result = pytester.runpytest(*arguments, "--utf8-depth", "full")
    result.assert_outcomes(failed=10, passed=1)  # sur-1, sur-10 to sur-18; one is valid
    # Each fails in every one of its 20 variants (straddles among them as 3 chunkings each):
    # one explained, 8 named alike, 11 more.
    result.stdout.fnmatch_lines(
        ["*reproduce: pytest *--utf8-depth full*", "*also in: mid-stream; shift-1; *(11 more)"]
    )
