"""Codecs in a child process: hangs become timeouts, deaths crashes, and the next call still works.

Timeouts here are a few seconds: long enough for a loaded machine to start a Python child, short
enough that the tests of hangs stay quick. Nothing asserts how long anything took.
"""

from __future__ import annotations

import os
import shlex
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from utf8cert.harness.codec import children
from utf8cert.harness.codec.interface import Codec, Failed, Inapplicable, Returned
from utf8cert.harness.codec.isolate import ProcessCodec
from utf8cert.harness.codec.pace import PER_BYTE
from utf8cert.harness.codec.spec import CodecSpecError, load_codec

HANG_TIMEOUT = 3.0

BROKEN_CODECS = """
import ctypes, os, resource, sys, time

def hangs_on_x(data):
    if b"x" in data:
        time.sleep(3600)
    return data.decode("utf-8")

def exits_on_x(data):
    if b"x" in data:
        print("fatal: out of cheese", file=sys.stderr, flush=True)
        os._exit(7)
    return data.decode("utf-8")

def segfaults_on_x(data):
    if b"x" in data:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core file left behind
        ctypes.string_at(0)
    return data.decode("utf-8")

def hogs_on_x(data):
    if b"x" in data:
        hoard = bytearray(3 << 30)  # 3 GiB: more than the limit the test sets
        return str(len(hoard))
    return data.decode("utf-8")

def raises_type_error(data):
    raise TypeError("expected str")

def returns_bytes(data):
    return data
"""

PROGRAM = """
import os, sys
mode = sys.argv[1]
if mode == "once" and os.path.exists(sys.argv[2]):
    sys.exit("second start refused")
if mode == "once":
    open(sys.argv[2], "w").close()
print("utf8cert-protocol 1 decode validate", flush=True)
if mode == "deaf":
    import time; time.sleep(3600)
for line in sys.stdin:
    operation, data = line.split()
    if mode == "once":
        os._exit(1)
    elif data == "6a756e6b":  # "junk"
        print("junk", flush=True)
    elif operation == "validate":
        print("ok maybe", flush=True)
    else:
        text = str(os.getpid()).encode("utf-32-be").hex()
        print("ok", text, flush=True)
"""


@pytest.fixture
def broken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """Return the name of a module of broken decoders, importable here and in a child."""
    (tmp_path / "isolate_broken_codecs.py").write_text(BROKEN_CODECS)
    monkeypatch.syspath_prepend(str(tmp_path))
    return "isolate_broken_codecs"


@pytest.fixture
def program(tmp_path: Path) -> str:
    """Return the cmd: spec of a protocol program (argument: its mode) that misbehaves on cue."""
    path = tmp_path / "program.py"
    path.write_text(PROGRAM)
    return f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(path))}"


@pytest.fixture
def closing() -> Iterator[list[Codec]]:
    """Return a list whose codecs are closed after the test."""
    codecs: list[Codec] = []
    yield codecs
    for codec in codecs:
        codec.close()


def pid_of(outcome: object) -> int:
    assert isinstance(outcome, Returned)
    assert isinstance(outcome.value, str)
    return int(outcome.value)


def answering_pid(codec: Codec) -> int:
    """Return the pid, in this process's view, of the program that answers `decode(b"pid")`:
    in an OS sandbox the program sees its own PID namespace, where it is not that number."""
    pid_of(codec.decode(b"pid"))
    assert isinstance(codec, ProcessCodec)
    channel = codec.running()
    assert channel is not None
    return children.program_pid(channel.process)


def test_an_isolated_codec_answers_as_the_same_codec_in_process(closing: list[Codec]) -> None:
    isolated = load_codec("codec:utf-8", isolate=True)
    closing.append(isolated)
    direct = load_codec("codec:utf-8")
    for data in [b"", b"abc", b"a\xe2\x82\xac", b"a\xc0\xafb", b"\xed\xa0\x80", b"ab\xf0\x9f"]:
        assert isolated.decode(data) == direct.decode(data)
        assert isolated.decode_replace(data) == direct.decode_replace(data)
        assert isolated.decode_chunks([data[:1], data[1:]], True) == direct.decode_chunks(
            [data[:1], data[1:]], True
        )
    assert isolated.encode([0x41, 0xDFFF]) == direct.encode([0x41, 0xDFFF])


def test_a_hang_is_a_timeout_and_the_next_call_gets_a_fresh_child(
    broken: str, closing: list[Codec]
) -> None:
    codec = load_codec(f"{broken}:hangs_on_x", isolate=True, timeout=HANG_TIMEOUT)
    closing.append(codec)
    assert codec.decode(b"x") == Failed("timeout", f"no answer within {HANG_TIMEOUT:g} s")
    assert codec.decode(b"ok") == Returned("ok")


def test_a_child_that_exits_is_a_crash_with_its_status_and_last_stderr_line(
    broken: str, closing: list[Codec]
) -> None:
    codec = load_codec(f"{broken}:exits_on_x", isolate=True)
    closing.append(codec)
    assert codec.decode(b"a") == Returned("a")
    assert codec.decode(b"x") == Failed(
        "crash", "the program exited with status 7; its stderr ends: fatal: out of cheese"
    )
    assert codec.decode(b"b") == Returned("b")


def test_a_segfault_is_a_crash_naming_the_signal(broken: str, closing: list[Codec]) -> None:
    codec = load_codec(f"{broken}:segfaults_on_x", isolate=True)
    closing.append(codec)
    outcome = codec.decode(b"x")
    assert isinstance(outcome, Failed)
    assert outcome.kind == "crash"
    assert outcome.message.startswith("the program was killed by SIGSEGV")
    assert codec.decode(b"\xff") == load_codec("codec:utf-8").decode(b"\xff")


@pytest.mark.parametrize("function", ["raises_type_error", "returns_bytes"])
def test_crashes_and_wrong_types_come_back_from_the_child_unchanged(
    broken: str, function: str, closing: list[Codec]
) -> None:
    isolated = load_codec(f"{broken}:{function}", isolate=True)
    closing.append(isolated)
    assert isolated.decode(b"abc") == load_codec(f"{broken}:{function}").decode(b"abc")


def test_isolating_a_bad_spec_gives_the_same_line_as_in_process() -> None:
    with pytest.raises(CodecSpecError) as isolated:
        load_codec("no_such_codec_module:decode", isolate=True)
    with pytest.raises(CodecSpecError) as direct:
        load_codec("no_such_codec_module:decode")
    assert str(isolated.value) == str(direct.value)


def test_an_answer_outside_the_protocol_is_a_protocol_failure_and_restarts_the_program(
    program: str, closing: list[Codec]
) -> None:
    codec = load_codec(f"{program} normal")
    closing.append(codec)
    first = answering_pid(codec)
    assert codec.decode(b"junk") == Failed("protocol", "not an answer: 'junk'")
    second = answering_pid(codec)
    assert second != first


def test_an_ok_of_the_wrong_kind_is_wrong_type_and_keeps_the_program(
    program: str, closing: list[Codec]
) -> None:
    codec = load_codec(f"{program} normal")
    closing.append(codec)
    first = answering_pid(codec)
    outcome = codec.validate(b"a")
    assert isinstance(outcome, Failed)
    assert outcome.kind == "wrong-type"
    assert answering_pid(codec) == first


def test_a_program_that_stops_reading_times_out_instead_of_deadlocking(
    program: str, closing: list[Codec]
) -> None:
    codec = load_codec(f"{program} deaf", timeout=HANG_TIMEOUT)
    closing.append(codec)
    big = b"a" * (1 << 20)  # its hex fills the pipe to the program many times over
    deaf = "the program read none of its input after its handshake"
    hung = codec.decode(big)
    assert isinstance(hung, Failed) and hung.kind == "timeout" and not hung.cut_short
    # Its limit: the timeout, and the time its 2 MiB of request line may take (pace.PER_BYTE).
    waited, _, said = hung.message.removeprefix("no answer within ").partition(" s: ")
    assert said == deaf
    assert float(waited) == pytest.approx(HANG_TIMEOUT + PER_BYTE * 2 * len(big), abs=0.1)
    later = codec.decode(b"a")  # it would hang before reading the question: skipped, not asked
    assert isinstance(later, Failed) and later.kind == "timeout" and later.cut_short


def test_a_program_that_cannot_be_restarted_says_why_on_each_call(
    program: str, tmp_path: Path, closing: list[Codec]
) -> None:
    codec = load_codec(f"{program} once {shlex.quote(str(tmp_path / 'started'))}")
    closing.append(codec)
    assert codec.decode(b"a") == Failed("crash", "the program exited with status 1")
    expected = Failed(
        "crash",
        "cannot restart the program: the program exited with status 1 before the handshake; "
        "its stderr ends: second start refused",
    )
    assert codec.decode(b"a") == expected
    assert codec.validate(b"a") == expected


def test_close_ends_the_program(program: str) -> None:
    codec = load_codec(f"{program} normal")
    pid = answering_pid(codec)
    codec.close()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_a_program_that_dies_mid_stream_is_a_crash_not_an_exception(
    program: str, closing: list[Codec]
) -> None:
    codec = load_codec(f"{program} normal")
    closing.append(codec)
    killed = answering_pid(codec)
    os.kill(killed, signal.SIGKILL)
    assert codec.decode(b"pid") == Failed("crash", "the program was killed by SIGKILL")
    assert answering_pid(codec) != killed


def test_a_capability_the_program_did_not_announce_is_never_asked(
    program: str, closing: list[Codec]
) -> None:
    codec = load_codec(f"{program} normal")
    closing.append(codec)
    first = answering_pid(codec)
    assert codec.capabilities == {"decode", "validate"}
    assert codec.encode([0x41]) == Inapplicable(f"{program} normal has no encode capability")
    assert answering_pid(codec) == first


def test_a_runaway_allocation_in_a_child_is_a_memory_failure_and_the_child_goes_on(
    broken: str, closing: list[Codec]
) -> None:
    codec = load_codec(f"{broken}:hogs_on_x", isolate=True, memory_mb=256)
    closing.append(codec)
    assert codec.decode(b"x") == Failed("memory", "MemoryError")
    assert codec.decode(b"ok") == Returned("ok")


def test_the_memory_limit_is_a_parameter_of_loading_and_can_be_lifted(
    broken: str, closing: list[Codec]
) -> None:
    limited = load_codec(f"{broken}:hogs_on_x", isolate=True, memory_mb=256)
    closing.append(limited)
    assert limited.description.endswith("(at most 10 s a call, 256 MiB)")
    unlimited = load_codec(f"{broken}:hogs_on_x", isolate=True, memory_mb=None)
    closing.append(unlimited)
    assert "MiB" not in unlimited.description
    with pytest.raises(CodecSpecError, match="the memory limit must be a number of MiB: -1"):
        load_codec(f"{broken}:hogs_on_x", isolate=True, memory_mb=-1)


def test_a_hang_fails_after_the_whole_timeout_and_later_hangs_are_cut_short_as_skipped(
    broken: str, closing: list[Codec]
) -> None:
    codec = load_codec(f"{broken}:hangs_on_x", isolate=True, timeout=3)
    closing.append(codec)
    for word in (b"a", b"quick", b"answers"):
        assert codec.decode(word) == Returned(word.decode())
    # However quick its answers were, the first hang has the whole timeout: slow is not hung.
    assert codec.decode(b"x") == Failed("timeout", "no answer within 3 s")
    # After a hang for real, another waits its paced time (a second here) and is skipped.
    again = codec.decode(b"xx")
    assert isinstance(again, Failed)
    assert (again.kind, again.cut_short) == ("timeout", True)
    assert again.message == "skipped: no answer in its paced time after a hang on decode 78"
    assert codec.decode(b"ok") == Returned("ok")
