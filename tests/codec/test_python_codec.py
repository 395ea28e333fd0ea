"""In-process codecs: how whatever a Python codec does becomes an outcome, never a crash of ours."""

from __future__ import annotations

import codecs
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from typing import NoReturn

import pytest

from utf8cert.harness.codec.interface import Failed, Inapplicable, Refused, Returned
from utf8cert.harness.codec.python_codec import PythonCodec

ILL_FORMED = [b"\xc0\xaf", b"ab\xe0\x80\xaf", b"\xed\xa0\x80z", b"abc\xf0\x9f\x98", b"\xe2\x82a"]


def raising(error: BaseException) -> Callable[..., NoReturn]:
    """Return a function that raises `error`, whatever it is given."""

    def codec_function(*_: object) -> NoReturn:
        raise error

    return codec_function


class UnprintableError(RuntimeError):
    def __str__(self) -> str:
        raise RuntimeError("even the message is broken")


def test_a_decoder_that_raises_type_error_crashes_with_its_message() -> None:
    codec = PythonCodec("t", "t", decode=raising(TypeError("expected str, got bytes")))
    assert codec.decode(b"a") == Failed("crash", "TypeError: expected str, got bytes")


def test_a_decoder_that_calls_sys_exit_is_a_crash_not_our_exit() -> None:
    codec = PythonCodec("t", "t", decode=lambda data: sys.exit(3))
    assert codec.decode(b"a") == Failed("crash", "SystemExit: 3")


def test_an_exception_that_cannot_be_printed_still_gives_a_crash() -> None:
    codec = PythonCodec("t", "t", decode=raising(UnprintableError()))
    assert codec.decode(b"a") == Failed("crash", "UnprintableError: <message cannot be printed>")


def test_a_decoder_returning_bytes_is_the_wrong_type() -> None:
    codec = PythonCodec("t", "t", decode=lambda data: data, decode_replace=lambda data: None)
    assert codec.decode(b"ab") == Failed("wrong-type", "decode returned bytes b'ab', not str")
    assert codec.decode_replace(b"") == Failed(
        "wrong-type", "decode_replace returned NoneType None, not str"
    )


def test_a_validator_returning_an_int_is_the_wrong_type() -> None:
    codec = PythonCodec("t", "t", validate=lambda data: 1)
    assert codec.validate(b"a") == Failed("wrong-type", "validate returned int 1, not bool")


def test_an_encoder_returning_str_is_the_wrong_type_and_bytearray_is_bytes() -> None:
    assert PythonCodec("t", "t", encode=lambda text: text).encode([0x41]) == Failed(
        "wrong-type", "encode returned str 'A', not bytes"
    )
    assert PythonCodec("t", "t", encode=lambda text: bytearray(b"A")).encode([0x41]) == Returned(
        b"A"
    )


@pytest.mark.parametrize("data", ILL_FORMED, ids=bytes.hex)
def test_a_unicode_decode_error_is_refused_at_its_start(data: bytes) -> None:
    codec = PythonCodec("t", "t", decode=lambda data: data.decode("utf-8"))
    refused = codec.decode(data)
    with pytest.raises(UnicodeDecodeError) as cpython:
        data.decode("utf-8")
    assert refused == Refused(f"UnicodeDecodeError: {cpython.value}", cpython.value.start)


def test_a_plain_value_error_is_refused_without_an_offset() -> None:
    codec = PythonCodec("t", "t", validate=raising(ValueError("not UTF-8")))
    assert codec.validate(b"\xff") == Refused("ValueError: not UTF-8", None)


def test_a_unicode_encode_error_is_refused_at_its_start() -> None:
    codec = PythonCodec("t", "t", encode=lambda text: text.encode("utf-8"))
    refused = codec.encode([0x41, 0x42, 0xDFFF, 0x43])
    assert isinstance(refused, Refused)
    assert refused.offset == 2


def test_lone_surrogates_are_offered_to_an_encoder_values_beyond_unicode_are_not() -> None:
    seen: list[str] = []

    def encoder(text: str) -> bytes:
        seen.append(text)
        return text.encode("utf-8", "surrogatepass")

    codec = PythonCodec("t", "t", encode=encoder)
    assert codec.encode([0xD800, 0xDC00]) == Returned(b"\xed\xa0\x80\xed\xb0\x80")
    assert seen == ["\ud800\udc00"]
    assert codec.encode([0x41, 0x110000]) == Inapplicable("0x110000 cannot be held in a Python str")
    assert codec.encode([0x7FFFFFFF]) == Inapplicable("0x7fffffff cannot be held in a Python str")
    assert seen == ["\ud800\udc00"]


def test_a_capability_not_offered_is_inapplicable() -> None:
    codec = PythonCodec("mod:fn", "t", decode=bytes.decode)
    assert codec.capabilities == {"decode"}
    assert codec.decode_replace(b"") == Inapplicable("mod:fn has no replace capability")
    assert codec.validate(b"") == Inapplicable("mod:fn has no validate capability")
    assert codec.encode([]) == Inapplicable("mod:fn has no encode capability")
    assert codec.decode_chunks([], False) == Inapplicable("mod:fn has no incremental capability")


class RecordingDecoder:
    """An incremental decoder that returns nothing and records how it was fed."""

    def __init__(self, log: list[tuple[bytes, bool]]) -> None:
        self.log = log

    def decode(self, chunk: bytes, final: bool = False) -> str:
        self.log.append((chunk, final))
        return ""


@pytest.mark.parametrize(
    ("chunks", "final_empty", "fed"),
    [
        ([b"a", b"b"], False, [(b"a", False), (b"b", True)]),
        ([b"a", b"b"], True, [(b"a", False), (b"b", False), (b"", True)]),
        ([], False, [(b"", True)]),
        ([], True, [(b"", True)]),
    ],
)
def test_chunks_are_fed_final_on_the_last_or_on_an_extra_empty_chunk(
    chunks: list[bytes], final_empty: bool, fed: list[tuple[bytes, bool]]
) -> None:
    log: list[tuple[bytes, bool]] = []
    codec = PythonCodec("t", "t", incremental_decoder=lambda: RecordingDecoder(log))
    assert codec.decode_chunks(chunks, final_empty) == Returned("")
    assert log == fed


@pytest.mark.parametrize("data", ILL_FORMED, ids=bytes.hex)
def test_an_incremental_refusal_is_placed_where_the_one_shot_decoder_places_it(data: bytes) -> None:
    codec = PythonCodec(
        "t", "t", incremental_decoder=lambda: codecs.getincrementaldecoder("utf-8")()
    )
    with pytest.raises(UnicodeDecodeError) as cpython:
        data.decode("utf-8")
    for cut in range(len(data) + 1):
        for final_empty in (False, True):
            refused = codec.decode_chunks([data[:cut], data[cut:]], final_empty)
            assert isinstance(refused, Refused)
            assert refused.offset == cpython.value.start
    one_byte_at_a_time = [data[i : i + 1] for i in range(len(data))]
    refused = codec.decode_chunks(one_byte_at_a_time, True)
    assert isinstance(refused, Refused)
    assert refused.offset == cpython.value.start


def test_an_incremental_refusal_has_no_offset_when_the_decoder_hides_its_state() -> None:
    class Stateless:
        def decode(self, chunk: bytes, final: bool = False) -> str:
            return chunk.decode("utf-8")

    codec = PythonCodec("t", "t", incremental_decoder=Stateless)
    refused = codec.decode_chunks([b"a", b"\xff"], False)
    assert isinstance(refused, Refused)
    assert refused.offset is None


def test_incremental_output_is_every_piece_joined_and_checked_for_type() -> None:
    codec = PythonCodec(
        "t", "t", incremental_decoder=lambda: codecs.getincrementaldecoder("utf-8")()
    )
    data = "a€😀z".encode()
    assert codec.decode_chunks([data[i : i + 1] for i in range(len(data))], False) == Returned(
        "a€😀z"
    )

    class ReturnsBytes:
        def decode(self, chunk: bytes, final: bool = False) -> bytes:
            return chunk

    broken = PythonCodec("t", "t", incremental_decoder=ReturnsBytes)
    assert broken.decode_chunks([b"a"], False) == Failed(
        "wrong-type", "incremental decode returned bytes b'a', not str"
    )


def test_a_decoder_factory_that_raises_is_a_crash() -> None:
    codec = PythonCodec("t", "t", incremental_decoder=raising(LookupError("gone")))
    assert codec.decode_chunks([b"a"], False) == Failed("crash", "LookupError: gone")


def test_a_decoder_may_return_code_points_above_unicode_as_a_tuple_of_ints() -> None:
    codec = PythonCodec(
        "t",
        "t",
        decode=lambda data: (0x41, 0x110000),
        decode_replace=lambda data: (0x41, 0x42),  # all within Unicode: a str was due
        incremental_decoder=lambda: type(
            "D", (), {"decode": lambda self, chunk, final=False: "A" if final else (0x110000,)}
        )(),
    )
    assert codec.decode(b"x") == Returned((0x41, 0x110000))
    assert codec.decode_replace(b"x") == Failed(
        "wrong-type", "decode_replace returned tuple (65, 66), not str"
    )
    assert codec.decode_chunks([b"x"], True) == Returned((0x110000, 0x41))


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (KeyboardInterrupt(), "KeyboardInterrupt"),
        (GeneratorExit("closed"), "GeneratorExit: closed"),
        (SystemExit("bye"), "SystemExit: bye"),
        (BaseException("base"), "BaseException: base"),
    ],
)
def test_any_base_exception_the_codec_raises_is_a_crash_of_that_call(
    error: BaseException, message: str
) -> None:
    codec = PythonCodec(
        "t",
        "t",
        decode=raising(error),
        encode=raising(error),
        incremental_decoder=lambda: codecs.getincrementaldecoder("utf-8")(),
    )
    assert codec.decode(b"a") == Failed("crash", message)
    assert codec.encode([0x41]) == Failed("crash", message)
    codec = PythonCodec("t", "t", incremental_decoder=raising(error))
    assert codec.decode_chunks([b"a"], False) == Failed("crash", message)


def test_a_memory_error_is_a_memory_failure() -> None:
    codec = PythonCodec("t", "t", decode=raising(MemoryError("cannot allocate")))
    assert codec.decode(b"a") == Failed("memory", "MemoryError: cannot allocate")


def test_a_refusal_declared_by_the_codec_is_still_a_refusal_before_any_crash() -> None:
    class Declined(Exception):
        pass

    codec = PythonCodec("t", "t", decode=raising(Declined("no")), refusals=(Declined,))
    assert codec.decode(b"a") == Refused("Declined: no", None)


@pytest.fixture
def python_handles_sigint() -> Iterator[None]:
    """Give SIGINT Python's own handler for the test (a test runner may have set another)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


@pytest.mark.usefixtures("python_handles_sigint")
def test_the_users_ctrl_c_during_a_call_still_stops_the_run() -> None:
    def interrupted(data: bytes) -> str:
        os.kill(os.getpid(), signal.SIGINT)  # the user presses Ctrl-C while the codec runs
        time.sleep(5)  # the KeyboardInterrupt arrives here, in the codec's own code
        return data.decode()

    codec = PythonCodec("t", "t", decode=interrupted)
    with pytest.raises(KeyboardInterrupt):
        codec.decode(b"a")
    # Afterwards, a KeyboardInterrupt the codec raises itself is its crash again.
    assert PythonCodec("t", "t", decode=raising(KeyboardInterrupt())).decode(b"a") == Failed(
        "crash", "KeyboardInterrupt"
    )
