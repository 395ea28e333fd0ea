"""The fuzz campaign's judge, out of the codec's reach (issue 39): the frames the codec's
process sends are read with limits, judged by the reference in utf8cert's own process, and a
codec that patches the judge in its own process, forges its answers or garbles the pipe cannot
make "0 findings" (tests/support/judge_patchers.py)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.hand_rolled import HandRolled

from utf8cert.harness.codec.interface import (
    Failed,
    Inapplicable,
    Outcome,
    Refused,
    Returned,
    Stream,
)
from utf8cert.harness.fuzzing.answers import HEADER, MAGIC, ChannelError, frame, read_frame
from utf8cert.harness.fuzzing.judge import Judge
from utf8cert.harness.fuzzing.recorder import answers_of
from utf8cert.harness.world.spec import load_codec

TESTS = Path(__file__).resolve().parents[1]
LATIN1 = "support.judge_patchers:PatchesJudge"


def test_every_outcome_crosses_the_pipe_as_it_was() -> None:
    outcomes: list[Outcome] = [
        Returned("a\udc80é"),
        Returned("a\udc80é"),  # sent once, referred to after
        Returned(True),
        Returned(b"\xff\x00"),
        Returned((0x110000, 0x41), Stream((1, 2), (1, 2))),
        Refused("bad", 1, 2, Stream((1,), ()), True),
        Failed("crash", "boom", cut_short=True),
        Inapplicable("no", unholdable=True),
    ]
    record = read_frame(io.BytesIO(frame(b"\xc3\xa9", outcomes, "e\udc80")), 16)
    assert record is not None
    assert record.data == b"\xc3\xa9"
    assert record.outcomes == tuple(outcomes)
    assert [o.stream for o in record.outcomes if isinstance(o, Returned | Refused)] == [
        o.stream for o in outcomes if isinstance(o, Returned | Refused)
    ]
    assert record.offered() == (0x65, 0xDC80)


def test_the_usual_question_crosses_as_the_judges_own_text() -> None:
    # The encoder's usual question, the input's U+FFFD text, is not sent but made by the judge.
    data = b"a\xed\xa0\x80\xff"
    outcomes = [Returned(b"a\xef\xbf\xbd")]
    written = frame(data, outcomes, data.decode("utf-8", "replace"))
    assert written.endswith(b'[true,["returned","bytes","a\xc3\xaf\xc2\xbf\xc2\xbd",null]]')
    record = read_frame(io.BytesIO(written), 16)
    assert record is not None
    assert record.offered() == (0x61, 0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD)
    assert record.outcomes == tuple(outcomes)


def _answers(answers: bytes) -> bytes:
    """Return a frame of an empty input with these answers, as bytes."""
    return HEADER.pack(MAGIC, 0, len(answers)) + answers


@pytest.mark.parametrize(
    ("written", "said"),
    [
        (b"XXXX" + bytes(8), "does not start with"),
        (HEADER.pack(MAGIC, 99, 0), "above -max_len"),
        (HEADER.pack(MAGIC, 0, 1 << 30), "bytes of answers"),
        (HEADER.pack(MAGIC, 4, 2) + b"ab", "ended inside a frame"),
        (HEADER.pack(MAGIC, 0, 3) + b"{x]", "not JSON"),
        (HEADER.pack(MAGIC, 0, 2) + b"{}", "not a list"),
        (_answers(b'[null, ["boo", 1]]'), "unknown form"),
        (_answers(b"[null, 0]"), "refers to answer 0"),
        (_answers(b'[null, "a", 1]'), "refers to answer 1"),
        (_answers(b'[false, "a"]'), "question is not a list of integers"),
        (_answers(b"[null, null]"), "not a non-empty list"),
        (_answers(b'[null, ["returned", "str", 5, null]]'), "not a string"),
        (_answers(b'[null, ["refused", "m", 1.5, null, null, false]]'), "offset"),
        (_answers(rb'[null, ["returned", "bytes", "\u0100", null]]'), r"above U\+00FF"),
        (b"U8F", "inside a frame header"),
    ],
)
def test_a_malformed_frame_is_a_channel_error_never_a_crash(written: bytes, said: str) -> None:
    with pytest.raises(ChannelError, match=said):
        read_frame(io.BytesIO(written), 16)


def _judge(tmp_path: Path, codec: object, stopped: list[bool]) -> Judge:
    return Judge(
        load_codec("support.hand_rolled:HandRolled"),
        tmp_path,
        capabilities=None,
        fail_on="must",
        keep_going=False,
        known=frozenset(),
        profile="rfc3629",
        max_len=1024,
        found=lambda: stopped.append(True),
    )


def test_the_judge_finds_what_a_frame_shows_whatever_the_codec_judged_itself(
    tmp_path: Path,
) -> None:
    # A Latin-1 decoder's answers, as its process would send them: the judge alone decides.
    latin1 = load_codec("support.plain_latin1:Latin1")  # never judge_patchers in this process
    honest = HandRolled()
    stopped: list[bool] = []
    judge = _judge(tmp_path, honest, stopped)
    inputs = [b"plain ASCII", b"caf\xc3\xa9", b"\xe9t\xe9"]
    pipe = b"".join(frame(data, *answers_of(latin1, judge.asked, data, False)) for data in inputs)
    judge.serve(io.BytesIO(pipe), "the codec's process")
    assert stopped == [True]  # a finding stops the campaign
    assert judge.judged == 2  # the second input shows it: é read as two characters
    [pending] = (tmp_path / "pending").glob("*.bin")
    assert pending.name.startswith("decode-")
    assert judge.problems == []


def test_a_conformant_codec_frames_are_no_finding_and_are_all_counted(tmp_path: Path) -> None:
    honest = load_codec("support.hand_rolled:HandRolled")
    stopped: list[bool] = []
    judge = _judge(tmp_path, honest, stopped)
    inputs = [b"", b"abc", b"\xc3\xa9", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xff\xc3"]
    pipe = b"".join(frame(data, *answers_of(honest, judge.asked, data, True)) for data in inputs)
    judge.serve(io.BytesIO(pipe), "the codec's process")
    assert (judge.judged, stopped, judge.problems) == (len(inputs), [], [])
    assert judge.audit() == []  # asked again in a child: the same answers


def test_a_verdict_is_kept_for_the_same_frame_never_for_the_same_input(tmp_path: Path) -> None:
    # libFuzzer runs inputs again: the honest frame, twice, is one verdict counted twice; the
    # same input answered otherwise (a Latin-1 decoder's é) is judged anew, and is a finding.
    latin1 = load_codec("support.plain_latin1:Latin1")
    honest = load_codec("support.hand_rolled:HandRolled")
    stopped: list[bool] = []
    judge = _judge(tmp_path, honest, stopped)
    data = b"caf\xc3\xa9"
    passing = frame(data, *answers_of(honest, judge.asked, data, False))
    forged = frame(data, *answers_of(latin1, judge.asked, data, False))
    judge.serve(io.BytesIO(passing + passing + forged), "the codec's process")
    assert (judge.judged, stopped, judge.problems) == (3, [True], [])
    [pending] = (tmp_path / "pending").glob("*.bin")
    assert pending.read_bytes() == data


def test_a_garbled_pipe_is_a_problem_that_ends_the_campaign(tmp_path: Path) -> None:
    stopped: list[bool] = []
    judge = _judge(tmp_path, HandRolled(), stopped)
    judge.serve(io.BytesIO(b"\x00" * 40), "the codec's process")
    assert stopped == [True]
    [problem] = judge.problems
    assert problem.startswith("the codec's process broke the judge's channel: a frame does not")


def test_answers_forged_in_the_codecs_process_fail_the_audit(tmp_path: Path) -> None:
    cpython = load_codec("codec:utf-8")  # what a forger sends: a correct codec's answers
    stopped: list[bool] = []
    child = load_codec("support.judge_patchers:PatchesJudge", isolate=True)  # the real codec
    judge = Judge(
        child,
        tmp_path,
        capabilities=None,
        fail_on="must",
        keep_going=False,
        known=frozenset(),
        profile="rfc3629",
        max_len=1024,
        found=lambda: stopped.append(True),
    )
    try:
        inputs = [b"abc", b"caf\xc3\xa9"]
        forged = [frame(d, *answers_of(cpython, judge.asked, d, False)) for d in inputs]
        judge.serve(io.BytesIO(b"".join(forged)), "the codec's process")
        assert (judge.judged, stopped) == (2, [])  # the forged answers conform
        [line] = judge.audit()
    finally:
        child.close()
    assert "the campaign's answers are not the codec's" in line


def utf8cert(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "utf8cert.harness", "fuzz", *arguments],
        cwd=cwd,
        env=dict(os.environ, PYTHONPATH=path),
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_codec_that_patches_the_judge_at_import_is_found(tmp_path: Path) -> None:
    report = tmp_path / "fuzz.json"
    done = utf8cert(
        LATIN1, "--artifacts", str(tmp_path / "a"), "--runs", "2000", "--seed", "1",
        "--json", str(report), cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert " 1 finding(s)" in done.stdout
    document = json.loads(report.read_text())
    assert document["boundary"].endswith("the judge in utf8cert's own process")
    assert document["judge"] == "utf8cert's own process, out of the codec's reach"
    [finding] = document["findings"]
    assert finding["capability"] == "decode"
    assert (
        f"boundary: {document['boundary']}"
        in Path(finding["vector_file"]).with_suffix(".txt").read_text()
    )
    assert f"boundary: {document['boundary']}" in done.stdout


@pytest.mark.slow
def test_in_process_the_patched_judge_finds_nothing_and_the_output_says_it_is_trusted(
    tmp_path: Path,
) -> None:
    report = tmp_path / "fuzz.json"
    done = utf8cert(
        LATIN1, "--in-process", "--artifacts", str(tmp_path / "a"), "--runs", "3000",
        "--seed", "1", "--json", str(report), cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr  # what --in-process trusts
    document = json.loads(report.read_text())
    assert "--in-process" in document["judge"]
    assert "trusted" in document["boundary"]
    assert "boundary: none: --in-process" in done.stdout


@pytest.mark.slow
def test_a_patched_judge_is_found_within_60_seconds(tmp_path: Path) -> None:
    # The campaign as a user runs it: --max-time 60, its default seeds and mutation.
    done = utf8cert(
        LATIN1, "--artifacts", str(tmp_path / "a"), "--max-time", "60", "--seed", "2",
        "-q", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    first = done.stdout.split(" 1 finding(s), the first after ")[1].split(" s")[0]
    assert float(first) < 60


@pytest.mark.slow
def test_forged_answers_and_a_garbled_pipe_fail_the_campaign(tmp_path: Path) -> None:
    forged = utf8cert(
        "support.judge_patchers:ForgesAnswers", "--artifacts", str(tmp_path / "f"),
        "--runs", "1500", "--seed", "1", cwd=tmp_path,
    )  # fmt: skip
    assert forged.returncode == 1, forged.stdout + forged.stderr
    assert "judge: the codec's process answered" in forged.stdout
    garbled = utf8cert(
        "support.judge_patchers:GarblesChannel", "--artifacts", str(tmp_path / "g"),
        "--runs", "1500", "--seed", "1", cwd=tmp_path,
    )  # fmt: skip
    assert garbled.returncode == 1, garbled.stdout + garbled.stderr
    assert "judge: the codec's process broke the judge's channel" in garbled.stdout
    assert "Traceback" not in garbled.stdout + garbled.stderr
