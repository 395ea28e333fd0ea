"""One finding per root cause in a campaign, by construction (issue 42): a minimized input
whose behaviour no part of it shows alone, and whose parts showing other behaviours cover all
its bytes, holds those root causes and is no finding (harness/fuzzing/root_causes.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from utf8cert.harness.check.behaviour import LET_THROUGH, Behaviour, behaviour_of
from utf8cert.harness.fuzzing.differential import DifferentialTarget
from utf8cert.harness.fuzzing.root_causes import MOST_BYTES, parts, root_causes
from utf8cert.harness.world.spec import load_codec

TESTS = Path(__file__).resolve().parents[1]
FIRST, SECOND, BOTH = (Behaviour("decode", "what", name) for name in ("first", "second", "both"))


def shown_by(table: dict[bytes, list[Behaviour]]):  # type: ignore[no-untyped-def]
    return lambda data: table.get(data, [])


def test_an_input_whose_parts_show_two_other_behaviours_holds_their_root_causes() -> None:
    table = {b"AB": [FIRST], b"CD": [SECOND], b"ABCD": [BOTH]}
    held = root_causes(b"ABCD", BOTH, shown_by(table))
    assert not held.alone
    assert held.causes == {FIRST: b"AB", SECOND: b"CD"}


def test_a_byte_no_such_part_holds_keeps_the_behaviour_its_own() -> None:
    # X is in no part that shows something: the behaviour may need it.
    table = {b"AB": [FIRST], b"CD": [SECOND]}
    assert root_causes(b"ABXCD", BOTH, shown_by(table)).alone
    # A part that shows the behaviour itself: it stands alone.
    assert root_causes(b"ABCD", FIRST, shown_by(table)).alone
    # No part shows anything: it needs the whole input.
    assert root_causes(b"ABCD", BOTH, shown_by({})).alone
    # Too long to ask every part: kept as it is.
    assert root_causes(b"A" * (MOST_BYTES + 1), BOTH, shown_by(table)).alone


def test_the_parts_are_every_proper_substring_shortest_first() -> None:
    assert parts(b"abc") == [(0, 1), (1, 2), (2, 3), (0, 2), (1, 3)]


@pytest.mark.parametrize(
    ("spec", "data", "detail"),
    [
        # Read as U+D800: needs all three bytes, though 80 alone shows the C1 bug.
        ("support.two_bug_codecs:SurrogatesAndC1Controls", b"\xed\xa0\x80", "surrogate"),
        ("support.two_bug_codecs:SurrogatesAndOverlongs", b"\xed\xa0\x80", "surrogate"),
        ("support.two_bug_codecs:SurrogatesAndOverlongs", b"\xc0\x80", "overlong"),
        ("support.two_bug_codecs:SurrogatesAndC1Controls", b"\x80", "unexpected-continuation"),
    ],
)
def test_a_real_bugs_minimal_input_is_its_own_root_cause(
    spec: str, data: bytes, detail: str
) -> None:
    target = DifferentialTarget(load_codec(spec))
    [wanted] = {behaviour_of(d) for d in target.found(data)}
    assert wanted == Behaviour("decode", LET_THROUGH, detail)

    def shown(part: bytes) -> list[Behaviour]:
        return list(dict.fromkeys(behaviour_of(d) for d in target.found(part)))

    assert root_causes(data, wanted, shown).alone


@pytest.mark.slow
def test_a_kept_going_campaign_on_a_two_bug_codec_gives_two_findings(tmp_path: Path) -> None:
    path = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-m", "utf8cert.harness", "fuzz",
         "support.two_bug_codecs:SurrogatesAndOverlongs", "--keep-going", "--runs", "8000",
         "--seed", "1", "--artifacts", str(tmp_path / "artifacts"), "-q"],
        cwd=tmp_path, env=dict(os.environ, PYTHONPATH=path), capture_output=True, text=True,
        timeout=900,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    stems = sorted(path.stem for path in (tmp_path / "artifacts").glob("*.yaml"))
    assert stems == [
        "decode-accepted-ill-formed-input-overlong",
        "decode-accepted-ill-formed-input-surrogate",
    ]
