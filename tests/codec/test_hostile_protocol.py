"""Hostile protocol programs: each fault is judged on the request that provokes it, every other
request gets the answer a well-behaved program gives, and the check of the whole suite blames no
vector that does not hold the byte that provokes it.

The programs are real processes (hostile_program.py), misbehaving only on inputs holding C0;
their answers are compared with those of the same program in a mode that does not misbehave.
Asked one by one (as `utf8cert check` asks) and all at once (pipelined for version 2).
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from utf8cert.harness.codec.interface import Failed, FailureKind, Outcome, Returned
from utf8cert.harness.codec.isolate import ProcessCodec
from utf8cert.harness.codec.protocol import Request
from utf8cert.harness.codec.spec import load_codec

PROGRAM = Path(__file__).with_name("hostile_program.py")
TIMEOUT = 5.0

REQUESTS = [
    Request("decode", data=b"a"),
    Request("replace", data=b"\xe2\x82\xac\xff"),
    Request("validate", data=b"ok"),
    Request("decode", data=b"b\xe2\x82"),
    Request("decode", data=b"x\xc0\xafy"),  # the one that provokes the fault
    Request("decode", data=b"b\xff"),
    Request("replace", data=b"plain"),
    Request("validate", data=b"\xed\xa0\x80"),
    Request("decode", data=b"\xf0\x9f\x98\x80"),
]
PROVOKING = 4


def spec(version: int, mode: str, *rest: str) -> str:
    """Return the cmd: spec of the hostile program."""
    words = [sys.executable, str(PROGRAM), str(version), mode, *rest]
    return "cmd:" + shlex.join(words)


Ask = Callable[[ProcessCodec, list[Request]], list[Outcome]]


def one_by_one(codec: ProcessCodec, requests: list[Request]) -> list[Outcome]:
    return [codec.ask(request) for request in requests]


def all_at_once(codec: ProcessCodec, requests: list[Request]) -> list[Outcome]:
    return codec.ask_all(requests)


WAYS = [pytest.param(one_by_one, id="one-by-one"), pytest.param(all_at_once, id="all-at-once")]


@pytest.fixture
def program() -> Iterator[Callable[..., ProcessCodec]]:
    """Return a function loading a hostile program (closed after the test)."""
    started: list[ProcessCodec] = []

    def load(version: int, mode: str, *rest: str, memory_mb: int | None = 2048) -> ProcessCodec:
        codec = load_codec(spec(version, mode, *rest), timeout=TIMEOUT, memory_mb=memory_mb)
        assert isinstance(codec, ProcessCodec)
        started.append(codec)
        return codec

    yield load
    for codec in started:
        codec.close()


@pytest.fixture(scope="module")
def calm() -> list[Outcome]:
    """Return the answers of the program when it does not misbehave."""
    codec = load_codec(spec(1, "calm"))
    try:
        return [codec.ask(request) for request in REQUESTS]  # type: ignore[attr-defined]
    finally:
        codec.close()


def assert_only_the_provoking_request_failed(
    outcomes: list[Outcome], calm: list[Outcome], kind: FailureKind
) -> Failed:
    """Return the failure of the provoking request, having checked every other answer."""
    failure = outcomes[PROVOKING]
    assert isinstance(failure, Failed), failure
    assert failure.kind == kind, failure
    others = [outcome for i, outcome in enumerate(outcomes) if i != PROVOKING]
    assert others == [outcome for i, outcome in enumerate(calm) if i != PROVOKING]
    return failure


EXACT = [
    ("twice-at-once", "protocol", "refused 1 invalid start byte'"),
    ("twice-at-once", "protocol", "a second answer to it: '"),
    ("twice-different", "protocol", "two answers to one question: a second answer to it, '"),
    ("twice-different", "protocol", "refused 0 second thoughts', after 'refused 1 invalid start"),
    ("garbage", "protocol", "'this is no answer'"),
    ("chatter", "protocol", "'debug: decoding'"),
    ("flood", "protocol", "a line longer than"),
    ("flood-lines", "protocol", "refused 1 invalid start byte'"),
    ("hang", "timeout", "no answer within"),
    ("exit", "crash", "the program exited with status 7; its stderr ends: fatal: C0 seen"),
    ("segfault", "crash", "the program was killed by SIGSEGV"),
]


@pytest.mark.parametrize("ask", WAYS)
@pytest.mark.parametrize("version", [1, 2])
@pytest.mark.parametrize(("mode", "kind", "words"), EXACT)
def test_a_fault_fails_the_request_that_provokes_it_and_no_other(
    program: Callable[..., ProcessCodec],
    calm: list[Outcome],
    ask: Ask,
    version: int,
    mode: str,
    kind: FailureKind,
    words: str,
) -> None:
    codec = program(version, mode)
    failure = assert_only_the_provoking_request_failed(ask(codec, REQUESTS), calm, kind)
    assert words in failure.message


@pytest.mark.parametrize("mode", ["twice", "wrong-id"])
def test_version_2_ids_pin_a_second_answer_or_a_wrong_id_on_its_request(
    program: Callable[..., ProcessCodec], calm: list[Outcome], mode: str
) -> None:
    failure = assert_only_the_provoking_request_failed(
        program(2, mode).ask_all(REQUESTS), calm, "protocol"
    )
    expected = "a second answer to it: " if mode == "twice" else "got '999999 refused 1 "
    assert expected in failure.message


def test_version_2_asked_one_by_one_fails_a_second_answer_or_the_next_request_never_another(
    program: Callable[..., ProcessCodec], calm: list[Outcome]
) -> None:
    # The second line is written just after the first: seen before that request's answer is
    # given out, it fails that request; seen after, the next one, which it cannot be mistaken
    # for (its id is not the next request's).
    outcomes = one_by_one(program(2, "twice"), REQUESTS)
    failed = [i for i, outcome in enumerate(outcomes) if isinstance(outcome, Failed)]
    assert failed in ([PROVOKING], [PROVOKING + 1])
    failure = outcomes[failed[0]]
    assert isinstance(failure, Failed)
    assert failure.kind == "protocol"
    assert "'5 refused 1 invalid start byte'" in failure.message
    assert [o for i, o in enumerate(outcomes) if i not in failed] == [
        o for i, o in enumerate(calm) if i not in failed
    ]


def test_a_late_second_answer_is_pinned_on_its_request_when_asked_all_at_once(
    program: Callable[..., ProcessCodec], calm: list[Outcome]
) -> None:
    failure = assert_only_the_provoking_request_failed(
        program(2, "twice-late").ask_all(REQUESTS), calm, "protocol"
    )
    assert failure.message.startswith("a second answer to it: ")


def test_a_late_second_answer_asked_one_by_one_fails_the_next_request_naming_the_earlier(
    program: Callable[..., ProcessCodec], calm: list[Outcome]
) -> None:
    codec = program(2, "twice-late")
    outcomes = one_by_one(codec, REQUESTS)
    assert outcomes[PROVOKING] == calm[PROVOKING]  # its first answer, given out at once
    late = outcomes[PROVOKING + 1]
    assert isinstance(late, Failed)
    assert late.kind == "protocol"
    assert "refused 1 invalid start byte" in late.message  # the line, quoted
    assert outcomes[: PROVOKING + 1] + outcomes[PROVOKING + 2 :] == (
        calm[: PROVOKING + 1] + calm[PROVOKING + 2 :]
    )


@pytest.mark.parametrize("version", [1, 2])
def test_a_line_before_any_request_fails_the_request_it_arrives_before(
    program: Callable[..., ProcessCodec], version: int
) -> None:
    codec = program(version, "early")
    outcome = codec.ask(REQUESTS[0])
    expected = "a line that answers no request arrived before this one was sent: "
    assert outcome == Failed("protocol", expected + ("'1 ok -'" if version == 2 else "'ok -'"))


@pytest.mark.parametrize("ask", WAYS)
@pytest.mark.parametrize("version", [1, 2])
def test_a_program_out_of_memory_is_a_memory_failure_not_a_crash(
    program: Callable[..., ProcessCodec],
    calm: list[Outcome],
    ask: Ask,
    version: int,
) -> None:
    codec = program(version, "hog", memory_mb=256)
    failure = assert_only_the_provoking_request_failed(ask(codec, REQUESTS), calm, "memory")
    assert failure.message == (
        "the program exited with status 1; its stderr ends: MemoryError (memory limit 256 MiB)"
    )


def test_a_death_with_several_requests_in_flight_is_pinned_by_asking_them_again_alone(
    program: Callable[..., ProcessCodec], calm: list[Outcome], tmp_path: Path
) -> None:
    # It dies on its first C0 only: asked again alone, nothing fails, and the death is
    # reported on the oldest request in flight, saying that it did not recur.
    codec = program(2, "once", str(tmp_path / "died"))
    outcomes = codec.ask_all(REQUESTS)
    failed = [(i, o) for i, o in enumerate(outcomes) if isinstance(o, Failed)]
    assert len(failed) == 1
    index, failure = failed[0]
    assert failure.kind == "crash"
    assert failure.message.startswith("the program exited with status 9, with ")
    assert failure.message.endswith("none of them failed (a fault that does not recur)")
    assert index <= PROVOKING
    assert [o for i, o in enumerate(outcomes) if i != index] == [
        o for i, o in enumerate(calm) if i != index
    ]


def test_pipelined_answers_are_exactly_the_one_by_one_answers_over_many_requests(
    program: Callable[..., ProcessCodec],
) -> None:
    requests = [
        Request(capability, data=bytes([first, second]))
        for first in range(0x80, 0x100, 3)
        for second in (0x41, 0x80, 0xBF)
        for capability in ("decode", "replace", "validate")
        if first != 0xC0
    ]
    codec = program(2, "calm")
    assert codec.ask_all(requests) == [codec.ask(request) for request in requests]


def check(spec: str, *options: str) -> tuple[int, list[dict[str, object]]]:
    """Return the exit status of `utf8cert check SPEC` and the differences it reports."""
    done = subprocess.run(
        [sys.executable, "-m", "utf8cert.harness", "check", spec, "--json", "-", "-q", *options],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr
    return done.returncode, json.loads(done.stdout)["differences"]


VECTORS = ["imp-1", "ovl-1", "wf-1", "lead-1", "imp-2", "trunc-60", "sec-2", "ovl-26", "u39-3"]
"""Vectors holding C0 (imp-1, ovl-1, trunc-60, sec-2) among others checked after them."""


@pytest.mark.parametrize("ask", WAYS)
def test_an_answer_to_an_id_not_asked_yet_fails_the_request_it_follows_not_that_id(
    program: Callable[..., ProcessCodec], calm: list[Outcome], ask: Ask
) -> None:
    # Pipelined, the guessed answer arrives while the next request is in flight and reads as
    # its answer; the real one then as a second answer. Who wrote it cannot be told there:
    # asked again one at a time, it follows the answer of the request that provoked it.
    failure = assert_only_the_provoking_request_failed(
        ask(program(2, "ahead"), REQUESTS), calm, "protocol"
    )
    assert failure.message.startswith("a line after its answer: '"), failure.message
    assert failure.message.endswith(" ok -'")


@pytest.mark.parametrize(("version", "mode"), [(2, "twice"), (1, "twice-at-once"), (2, "ahead")])
@pytest.mark.slow
def test_a_check_blames_the_vectors_holding_c0_and_no_other(version: int, mode: str) -> None:
    options = [item for vector in VECTORS for item in ("--vector", vector)]
    status, differences = check(spec(version, mode), *options)
    assert status == 1
    assert differences
    for difference in differences:
        assert difference["what"] == "broke the protocol", difference
        assert 0xC0 in bytes.fromhex(str(difference["input"])), difference
    blamed = {difference["vector"] for difference in differences}
    assert blamed == {"imp-1", "ovl-1", "trunc-60", "sec-2"}


NODE_HOG = """
const readline = require("node:readline");
process.stdout.write("utf8cert-protocol 2 decode\\n");
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const [id, , data] = line.split(" ");
  const hoard = [];
  while (data.includes("c0")) hoard.push(Buffer.alloc(1 << 26, 1));
  process.stdout.write(`${id} ok -\\n`);
});
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_a_node_program_out_of_memory_is_a_memory_failure_quoting_what_node_said(
    tmp_path: Path,
) -> None:
    (tmp_path / "hog.js").write_text(NODE_HOG)
    codec = load_codec(f"cmd:node {shlex.quote(str(tmp_path / 'hog.js'))}", memory_mb=512)
    try:
        assert codec.decode(b"") == Returned("")
        failure = codec.decode(b"\xc0")
        assert isinstance(failure, Failed)
        assert failure.kind == "memory"
        assert failure.message.startswith("the program exited with status 1; ")
        assert "allocation failed" in failure.message
        assert failure.message.endswith(" (memory limit 512 MiB)")
        assert codec.decode(b"") == Returned("")
    finally:
        codec.close()


SLOW_HOG = """
import sys, time
print("utf8cert-protocol 2 decode", flush=True)
hoard = []
for line in sys.stdin:
    number, _, data = line.split()
    while data == "c0":  # 64 MiB every 0.3 s: past the 1 s learnt from its quick answers
        hoard.append(bytearray(1 << 26))
        time.sleep(0.3)
    print(number, "ok", "-", flush=True)
"""


def test_a_program_slowly_running_out_of_memory_is_a_memory_failure_not_a_timeout(
    tmp_path: Path,
) -> None:
    # What a loaded machine does to a program on its way to its memory limit, done on purpose:
    # it takes longer than the deadline its quick answers taught (pace.FLOOR), but it is not
    # hung: its memory grows, and it dies of it, which is what it must be reported as.
    (tmp_path / "hog.py").write_text(SLOW_HOG)
    program = shlex.join([sys.executable, str(tmp_path / "hog.py")])
    codec = load_codec(f"cmd:{program}", memory_mb=512)
    try:
        assert codec.decode(b"") == Returned("")
        failure = codec.decode(b"\xc0")
        assert isinstance(failure, Failed)
        assert (failure.kind, failure.message.split(";")[0]) == (
            "memory",
            "the program exited with status 1",
        )
        assert "MemoryError" in failure.message
        assert codec.decode(b"") == Returned("")
    finally:
        codec.close()


@pytest.mark.parametrize("mode", ["hang", "exit", "garbage"])
def test_asked_until_failure_the_answers_stop_at_the_failing_request(
    program: Callable[..., ProcessCodec], calm: list[Outcome], mode: str
) -> None:
    # What a check would skip after a hang or a crash (its circuit breaker) must not cost a
    # hang or a crash each: the prefetch of a vector's questions stops at the first failure.
    codec = program(2, mode)
    outcomes = codec.ask_until_failure(REQUESTS)
    assert len(outcomes) == PROVOKING + 1
    assert outcomes[:PROVOKING] == calm[:PROVOKING]
    failure = outcomes[PROVOKING]
    assert isinstance(failure, Failed)
    assert failure.kind == {"hang": "timeout", "exit": "crash", "garbage": "protocol"}[mode]
    # The program is still there to ask the rest, one by one.
    assert codec.ask(REQUESTS[PROVOKING + 1]) == calm[PROVOKING + 1]
