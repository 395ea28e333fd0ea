"""An answer is judged by the value the codec returned, never by what the object says of itself:
a str or bytes subclass whose __eq__, __len__ or __hash__ lie is copied to its exact type first,
in process and in a child process alike (issue 23)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from utf8cert.harness import load_codec, load_vectors, run_check
from utf8cert.harness.check import recheck, reuse
from utf8cert.harness.check.sweep import PIECES
from utf8cert.harness.reports.coverage import coverage_lines
from utf8cert.harness.reports.json_report import report_document, schema
from utf8cert.harness.reports.view import View

TESTS = Path(__file__).resolve().parents[1]
MODES_ONE_FAST = [pytest.param(("--in-process",), marks=pytest.mark.slow), ()]
"""In process and isolated, for a codec that lies only after many calls (a whole check): the
questions asked again are asked by the same engine either way, so the default tier runs the
default mode, isolated, and the slow tier both."""


IN_PROCESS_FAST = [("--in-process",), pytest.param((), marks=pytest.mark.slow)]
"""The other half of the diagonal: for the CESU-8 encoder the default tier runs in process
(the Latin-1 decoder isolated), the slow tier both modes for each."""


def check_status(spec: str, status: int, *options: str, **environ: str) -> dict[str, Any]:
    """Return the JSON report of `utf8cert check SPEC`, which must end with exit `status` and
    no traceback."""
    environment = dict(os.environ, PYTHONPATH=str(TESTS), **environ)
    command = [sys.executable, "-m", "utf8cert.harness", "check", spec, "--json", "-", *options]
    done = subprocess.run(command, capture_output=True, text=True, env=environment, check=False)
    assert done.returncode == status, done.stderr
    assert "Traceback" not in done.stderr
    document: dict[str, Any] = json.loads(done.stdout)
    return document


def check(spec: str, *options: str, **environ: str) -> dict[str, Any]:
    """Return the JSON report of `utf8cert check SPEC`, which must fail (exit 1)."""
    return check_status(spec, 1, *options, **environ)


@pytest.mark.parametrize("options", IN_PROCESS_FAST, ids=["in process", "isolated"])
@pytest.mark.slow
def test_cesu_8_bytes_that_claim_to_be_right_are_judged_by_their_bytes(
    options: tuple[str, ...],
) -> None:
    document = check("support.lying_codecs:CesuEncoder", *options)
    assert document["summary"]["conformant"] is False
    assert all(d["capability"] == "encode" for d in document["differences"])
    # U+10000 is written as its surrogate pair, ED A0 80 ED B0 80, whatever it says of itself.
    [first_four_byte] = [d for d in document["differences"] if d["expected"] == "F0 90 80 80"][:1]
    assert first_four_byte["level"] == "must"
    assert first_four_byte["actual"] == "ED A0 80 ED B0 80"


@pytest.mark.parametrize("options", MODES_ONE_FAST, ids=["in process", "isolated"])
@pytest.mark.slow
def test_latin_1_text_with_a_lying_length_and_hash_is_judged_without_a_crash(
    options: tuple[str, ...],
) -> None:
    document = check("support.lying_codecs:Latin1Decoder", *options)
    whats = {d["what"] for d in document["differences"]}
    assert "accepted ill-formed input" in whats  # C0 AF and the rest read as Latin-1
    assert "wrong text" in whats  # é (C3 A9) read as "Ã©"
    assert all(d["level"] == "must" for d in document["differences"])


@pytest.mark.parametrize("options", MODES_ONE_FAST, ids=["in process", "isolated"])
@pytest.mark.slow
def test_a_decoder_that_wears_out_after_the_run_is_caught_asked_again(
    options: tuple[str, ...],
) -> None:
    # Right for exactly as many calls as the run makes, wrong on every call after: only the
    # questions asked again at the end of the run (check/recheck.py) can see it.
    honest = check_status("codec:utf-8", 0)
    # Every decode call before the questions asked again: the vectors', the reuse probes' of a
    # one-shot decoder (check/reuse.py), the sweep's, one a piece of scalar values, then the
    # seeded pass's, one an input (check/seeded.py).
    calls = honest["coverage"]["decode"]["asked"] + len(reuse.one_shot_sizes()) + len(PIECES)
    calls += honest["seeded"]["inputs"]
    document = check("support.lying_codecs:wears_out", *options, WEAR_OUT_AFTER=str(calls))
    assert {d["what"] for d in document["differences"]} == {"two answers to one question"}
    first = document["differences"][0]
    assert first["variant"] == "asked again at the end of the run"
    assert first["level"] == "must"
    assert document["summary"]["conformant"] is False


@pytest.mark.parametrize("options", MODES_ONE_FAST, ids=["in process", "isolated"])
@pytest.mark.slow
def test_a_decoder_right_for_its_first_5000_calls_is_caught_at_the_default_depth(
    options: tuple[str, ...],
) -> None:
    # Issue 23's wear-out: the run itself asks decode far fewer than 5,000 times; the rounds
    # of questions asked again (check/recheck.py) bring every capability to recheck.SOAK.
    document = check("support.lying_codecs:wears_out", *options, WEAR_OUT_AFTER="5000")
    assert document["coverage"]["decode"]["asked"] < 5000
    assert {d["what"] for d in document["differences"]} == {"two answers to one question"}
    assert all(d["variant"] == "asked again at the end of the run" for d in document["differences"])
    # One question alone would be answered right: what reproduces it is the whole run.
    whole_run = " ".join(["utf8cert check support.lying_codecs:wears_out", *options])
    assert {d["reproduce"] for d in document["differences"]} == {whole_run}
    assert document["summary"]["conformant"] is False


BROKEN = [
    ("crash", ("--in-process",), "crashed"),
    ("crash", (), "crashed"),
    ("none", ("--in-process",), "returned the wrong type"),
    ("none", (), "returned the wrong type"),
    ("exit", (), "crashed"),  # in process, it would end utf8cert itself: the trusted path
    ("hang", ("--timeout", "5"), "timed out"),  # 5 s: an answer is never that slow, even loaded
]
DIAGONAL = {"crash ('--in-process',)", "none ()", "exit ()", "hang ('--timeout', '5')"}
"""Each way of breaking and each mode in the default tier; crash isolated and none in process
slow."""


@pytest.mark.parametrize(
    ("how", "options", "what"),
    [
        pytest.param(
            *b,
            id=f"{b[0]} {b[1]}",
            marks=[] if f"{b[0]} {b[1]}" in DIAGONAL else [pytest.mark.slow],
        )
        for b in BROKEN
    ],
)
def test_a_decoder_that_breaks_after_5000_calls_fails_asked_again(
    how: str, options: tuple[str, ...], what: str
) -> None:
    # A leak of some resource on every call: right for 5,000 calls, broken on every call after.
    # The run's own questions all come before that; a question answered once and failed when
    # asked again is that failure, `must`, and the reproducer is the whole run again.
    document = check("support.lying_codecs:breaks", *options, BREAK_AFTER="5000", BREAK_HOW=how)
    assert document["coverage"]["decode"]["asked"] < 5000
    (difference,) = document["differences"]
    assert (difference["what"], difference["level"]) == (what, "must")
    assert difference["variant"] == "asked again at the end of the run"
    assert difference["expected"].startswith("the first answer again: ")
    assert difference["reproduce"] == " ".join(
        ["utf8cert check support.lying_codecs:breaks", *options]
    )
    assert document["summary"]["conformant"] is False


@pytest.mark.parametrize("options", MODES_ONE_FAST, ids=["in process", "isolated"])
@pytest.mark.slow
def test_refusals_whose_messages_differ_each_time_are_one_answer(
    options: tuple[str, ...],
) -> None:
    # Asked again, a refusal at the same offset is the same answer, whatever its words.
    document = check_status("support.lying_codecs:numbers_its_refusals", 0, *options)
    assert document["differences"] == []


def test_questions_asked_again_that_run_out_of_time_say_how_far_they_got(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A codec slow on the questions asked again: here, no time at all for the rounds (the
    # reverse pass is always asked whole). The report says how many times each capability was
    # asked, short of recheck.SOAK, in text and in JSON valid by the shipped schema.
    monkeypatch.setattr(recheck, "SOAK_SECONDS", 0.0)
    report = run_check(load_codec("codec:utf-8"), load_vectors())
    cut = report.asked_again_cut_short
    # decode and incremental are asked over recheck.SOAK times in the run itself (1,084 vectors).
    assert set(cut) == {"replace", "encode"}
    assert all(0 < asked < recheck.SOAK for asked in cut.values())
    lines = coverage_lines(report)
    stopped = [line for line in lines if "asked again stopped" in line]
    assert len(stopped) == 2
    assert f"asked {cut['replace']:,} times in all" in stopped[0]
    document = report_document(View(report))
    jsonschema.Draft202012Validator(schema()).validate(document)
    assert document["coverage"]["replace"]["asked_in_all_cut_short"] == cut["replace"]
    assert "asked_in_all_cut_short" not in document["coverage"]["incremental"]
