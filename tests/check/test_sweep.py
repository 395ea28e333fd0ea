"""The sweep after the vectors asks every scalar value and every byte pair that starts
ill-formed input alone (harness/check/sweep.py, issue 44); a codec wrong on one of them alone
is not certified.

Each claim about what the sweep holds is proven here with CPython's codec as the judge of what
is well-formed (an error handler records each maximal subpart it reports), not with the
reference nor with sweep.py's own table of RFC 3629.
"""

from __future__ import annotations

import codecs
from itertools import pairwise

from utf8cert.harness.check.behaviour import group
from utf8cert.harness.check.profiles import RFC3629
from utf8cert.harness.check.run import run_check
from utf8cert.harness.check.sweep import (
    PIECES,
    SWEEP,
    scalars,
    sweep_differences,
    validator_inputs,
)
from utf8cert.harness.reports.explain import Rerun
from utf8cert.harness.vectors.model import VectorSet
from utf8cert.harness.world.spec import load_codec


def errors_of(data: bytes) -> list[tuple[int, int]]:
    """Return (start, end) of each maximal subpart CPython's decoder replaces in `data`."""
    found: list[tuple[int, int]] = []

    def record(error: UnicodeError) -> tuple[str, int]:
        assert isinstance(error, UnicodeDecodeError)
        found.append((error.start, error.end))
        return "\ufffd", error.end

    codecs.register_error("test_sweep.record", record)
    data.decode("utf-8", "test_sweep.record")
    return found


def well_formed(data: bytes) -> bool:
    return not errors_of(data)


def begins_ill_formed(first: int, second: int) -> bool:
    """Return whether no well-formed input begins with the two bytes: CPython's incremental
    decoder, not at the end of its input, refuses them at once (it refuses a sequence as soon
    as a byte cannot go on with it: Unicode §3.9's maximal subparts)."""
    try:
        codecs.getincrementaldecoder("utf-8")().decode(bytes([first, second]), final=False)
    except UnicodeDecodeError:
        return True
    return False


def test_every_scalar_value_is_asked_once() -> None:
    asked = "".join(scalars(piece) for piece in PIECES)
    every = "".join(map(chr, [*range(0xD800), *range(0xE000, 0x110000)]))
    assert asked == every


def test_every_byte_pair_that_starts_ill_formed_input_is_the_only_error_of_an_input() -> None:
    """Each (b1, b2) no well-formed input begins with (39,456, by value: `29 80`, `41 80`,
    `E4 41`, `F4 90` alike) is the window of a well-formed byte and the error after it, or the
    first two bytes of the error, in an input whose only ill-formed run that error begins, after
    a well-formed byte; and each continuation byte ending a character comes right before each
    byte that begins nothing, likewise. A validator, one bit an input, shows a wrong table cell
    only so."""
    windows: set[tuple[int, int]] = set()
    for data in validator_inputs():
        errors = errors_of(data)
        assert errors and all(a[1] == b[0] for a, b in pairwise(errors)), data.hex()
        start = errors[0][0]
        assert start > 0 and well_formed(data[:start]), data.hex()
        windows.add((data[start - 1], data[start]))  # a well-formed byte, then the error
        if start + 1 < len(data):
            windows.add((data[start], data[start + 1]))  # the error's first two bytes
    wanted = {(a, b) for a in range(256) for b in range(256) if begins_ill_formed(a, b)}
    assert len(wanted) == 39_456 and sorted(wanted - windows) == []
    # A continuation byte ends a character too (C2 80 then C0): every byte that can, before
    # every byte that begins nothing.
    never = [b for b in range(256) if all(begins_ill_formed(b, c) for c in range(256))]
    assert len(never) == 13 + 64 and {0x80, 0xBF, 0xC0, 0xC1, 0xF5, 0xFF} <= set(never)
    assert sorted({(a, b) for a in range(0xC0) for b in never} - windows) == []


def test_a_codec_that_refuses_one_scalar_no_vector_holds_is_not_certified() -> None:
    """U+2F9D2 is in no vector: only the sweep asks it, and finds it refused at must."""
    codec = load_codec("support.sweep_codecs:OneScalarRefuser")
    without = run_check(codec, VectorSet(()))
    assert (without.differences, without.sweep) == ([], "")
    report = run_check(codec, VectorSet(()), sweep=True)
    assert report.sweep.startswith("asked (")
    found = {(d.vector, d.capability, d.level) for d in report.differences}
    assert found == {(SWEEP, "decode", "must"), (SWEEP, "validate", "must")}
    decoded = next(d for d in report.differences if d.capability == "decode")
    # Its piece (U+2F000..U+2FFFF) halved while a half alone is still refused: the one value.
    assert decoded.variant == "U+2F9D2"
    assert decoded.input == "\U0002f9d2".encode()
    # One bug, as it is: not a way of going wrong "only when the input is moved or cut".
    assert [g.behaviour.what for g in group(report.differences)] == ["rejected well-formed input"]
    # Four bytes: the reproducer asks them alone, not the whole run.
    assert Rerun("support.sweep_codecs:OneScalarRefuser").command(decoded) == (
        "utf8cert check support.sweep_codecs:OneScalarRefuser --in-process --input f0afa792"
    )


def test_a_validator_that_takes_a_tail_after_a_parenthesis_is_shown_the_pair_alone() -> None:
    codec = load_codec("support.sweep_codecs:TailAfterParenthesis")
    swept = sweep_differences(codec, ["validate"], RFC3629)
    shown = {d.input for d in swept.differences if d.level == "must"}
    assert bytes.fromhex("41 29 80") in shown
    assert all(len(data) == 3 and data[1] == 0x29 for data in shown)
    difference = next(d for d in swept.differences if d.input == bytes.fromhex("41 29 80"))
    assert Rerun("support.sweep_codecs:TailAfterParenthesis").command(difference) == (
        "utf8cert check support.sweep_codecs:TailAfterParenthesis --in-process --input 412980"
    )


def test_a_program_that_crashes_is_not_asked_the_rest_of_the_sweep() -> None:
    """A crash in a child is a `must` difference; the 45,000 questions after it are not asked
    (each would start the program again)."""
    codec = load_codec("support.sweep_codecs:CrashesOnC0", isolate=True)
    try:
        swept = sweep_differences(codec, ["validate"], RFC3629)
    finally:
        codec.close()
    (crash,) = swept.differences
    assert (crash.capability, crash.level) == ("validate", "must")
    assert crash.input == bytes.fromhex("41 80 C0")  # the first pair input that holds C0
    assert swept.questions == len(PIECES) + validator_inputs().index(crash.input) + 1
