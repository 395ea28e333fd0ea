"""The seeded pass after the vectors and the sweep (harness/check/seeded.py, issue 44): the same
generated combinations on every run, judged as a vector is; a codec wrong only on a combination
the vectors and the sweep do not hold is not certified, and each difference reproduces.

What the inputs hold is proven with CPython's codec as the judge of where each maximal subpart
lies (an error handler records them), not with the reference nor with seeded_inputs.py's table.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from itertools import pairwise

import jsonschema
import pytest
from support.seeded_codecs import maximal_subparts

from utf8cert.harness.check.modes import HeldMode
from utf8cert.harness.check.profiles import RFC3629
from utf8cert.harness.check.run import check_one_input, run_check
from utf8cert.harness.check.seeded import SEEDED, seeded_differences
from utf8cert.harness.check.seeded_inputs import INPUTS, SEED, seeded_inputs
from utf8cert.harness.codec.interface import Capability
from utf8cert.harness.reports.coverage import coverage_lines
from utf8cert.harness.reports.explain import REPRODUCIBLE, Rerun
from utf8cert.harness.reports.json_report import report_document, schema
from utf8cert.harness.reports.view import View
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import VectorSet
from utf8cert.harness.world.spec import load_codec

DIGEST = (
    "import hashlib; from utf8cert.harness.check.seeded_inputs import seeded_inputs; "
    "print(hashlib.sha256(b'|'.join(seeded_inputs())).hexdigest())"
)


def test_the_same_inputs_on_every_run_and_other_ones_for_another_seed() -> None:
    """Two interpreters with other hash seeds draw the same inputs as this one."""
    here = hashlib.sha256(b"|".join(seeded_inputs())).hexdigest()
    for hash_seed in ("1", "2"):
        environment = {**os.environ, "PYTHONHASHSEED": hash_seed}
        drawn = subprocess.run(
            [sys.executable, "-c", DIGEST], capture_output=True, text=True, env=environment
        )
        assert drawn.stdout.strip() == here, drawn.stderr
    assert len(seeded_inputs()) == INPUTS
    assert seeded_inputs(SEED + 1) != seeded_inputs()


def test_the_inputs_hold_what_the_vectors_do_not_enumerate() -> None:
    """Several errors in one input, errors side by side, either end of an error on each block
    boundary and a byte either side, long inputs; every kind of ill-formed fragment; never NUL
    nor a leading signature (asked alone by the sweep; the protocol's choice: RFC 3629 §6)."""
    inputs = seeded_inputs()
    errors = [maximal_subparts(data) for data in inputs]
    assert sum(len(found) >= 2 for found in errors) >= INPUTS // 3
    assert sum(any(a[1] == b[0] for a, b in pairwise(e)) for e in errors) >= INPUTS // 4
    assert sum(len(data) >= 256 for data in inputs) >= INPUTS // 20
    ends = {edge for found in errors for start, end in found for edge in (start, end)}
    assert {block + delta for block in (16, 32, 64) for delta in (-1, 0, 1)} <= ends
    starts = {
        data[start : start + 2]
        for data, found in zip(inputs, errors, strict=True)
        for start, _ in found
    }
    firsts = {pair[0] for pair in starts}
    # Stray tails, C0 and C1, F5..FF, and the refused second bytes of E0, ED, F0 and F4.
    assert {0x80, 0xBF, 0xC0, 0xC1, 0xF5, 0xFF} <= firsts
    for lead, refused in NARROWED:
        assert any(len(pair) == 2 and pair[0] == lead and pair[1] in refused for pair in starts)
    # A sequence cut short at the end of an input: CPython's incremental decoder holds it.
    assert any(
        found and found[-1][1] == len(data) for data, found in zip(inputs, errors, strict=True)
    )
    assert not any(b"\x00" in data or data.startswith(b"\xef\xbb\xbf") for data in inputs)


NARROWED = (
    (0xE0, range(0x80, 0xA0)),  # overlong
    (0xED, range(0xA0, 0xC0)),  # surrogate
    (0xF0, range(0x80, 0x90)),  # overlong
    (0xF4, range(0x90, 0xC0)),  # above U+10FFFF
)


@pytest.mark.parametrize(
    ("spec", "capabilities"),
    [
        ("support.seeded_codecs:SecondErrorAtBlockEnd", ["validate"]),
        ("support.seeded_codecs:OverlongAfterASurrogate", ["decode", "replace"]),
    ],
)
def test_a_codec_wrong_only_on_a_combination_is_found_and_each_difference_reproduces(
    spec: str, capabilities: Sequence[Capability]
) -> None:
    codec = load_codec(spec)
    asked, found = seeded_differences(codec, capabilities, RFC3629, HeldMode.of(codec))
    assert asked.questions == len(capabilities) * INPUTS
    wrong = [d for d in found if d.level == "must"]
    assert wrong and all(d.vector == SEEDED for d in wrong)
    for difference in wrong:
        assert isinstance(difference.input, bytes)
        assert maximal_subparts(difference.input)  # CPython: ill-formed, so a codec's text is
        assert difference.variant.startswith(f"seed {SEED}, input ")
        # The reproducer asks the same input alone, and the codec is wrong on it there too.
        again = check_one_input(codec, difference.input)
        assert (difference.capability, "must") in {
            (d.capability, d.level) for d in again.differences
        }
        command = Rerun(spec).command(difference)
        if len(difference.input) <= REPRODUCIBLE:
            assert command == f"utf8cert check {spec} --in-process --input {difference.input.hex()}"
        else:  # a long input: the whole run, its seed
            assert command == f"utf8cert check {spec} --in-process"
            assert Rerun(spec, seed=7).command(difference) == f"{command} --seed 7"


@pytest.mark.parametrize("spec", ["codec:utf-8", "support.hand_rolled:HandRolled"])
def test_a_conformant_codec_differs_on_no_input(spec: str) -> None:
    codec = load_codec(spec)
    offered = [
        c
        for c in ("decode", "replace", "validate", "incremental", "encode")
        if c in codec.capabilities
    ]
    asked, found = seeded_differences(codec, offered, RFC3629, HeldMode.of(codec))
    assert found == [] and asked.inputs == INPUTS


def test_the_seed_is_in_the_coverage_lines_and_the_json_report() -> None:
    codec = load_codec("support.seeded_codecs:SecondErrorAtBlockEnd")
    report = run_check(codec, VectorSet(()), seed=11)
    assert report.seeded is not None and report.seeded.seed == 11
    assert f"  seeded pass: {INPUTS} inputs, seed 11, asked ({INPUTS} questions)" in coverage_lines(
        report
    )
    document = report_document(View(report))
    jsonschema.validate(document, schema())
    assert document["seeded"] == {"seed": 11, "inputs": INPUTS, "questions": INPUTS}
    assert document["sweep"] is None  # not asked: sweep=False
    assert json.dumps(document)
    without = run_check(codec, VectorSet(()))
    assert without.seeded is None and report_document(View(without))["seeded"] is None


@pytest.mark.slow
@pytest.mark.parametrize(
    "spec",
    [
        "support.seeded_codecs:SecondErrorAtBlockEnd",
        "support.seeded_codecs:OverlongAfterASurrogate",
    ],
)
def test_the_vectors_and_the_sweep_certify_what_the_seeded_pass_does_not(spec: str) -> None:
    codec = load_codec(spec)
    vectors = load_vectors()
    assert run_check(codec, vectors, sweep=True).certified
    report = run_check(codec, vectors, sweep=True, seed=SEED)
    assert not report.certified
    assert {d.vector for d in report.differences} == {SEEDED}
