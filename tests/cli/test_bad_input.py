"""Bad and large input to `utf8cert check`: hostile vector files and baselines end in one line and
exit 2 (a usage error in pytest), never a traceback or a crash; one input can come from a file
or standard input, its report stays small however large it is, and its reproducer reproduces."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.cli_runs import check
from support.hostile_files import baselines as hostile_baselines
from support.hostile_files import vector_files
from support.user_vectors import HEADER

from utf8cert.harness.check.baseline import BaselineError, load_baseline
from utf8cert.harness.check.probe import ENCODE_PIECE
from utf8cert.harness.check.run import check_input
from utf8cert.harness.codec.python_codec import PythonCodec
from utf8cert.harness.codec.spec import CodecSpecError
from utf8cert.harness.world.spec import load_codec

pytest_plugins = ["pytester"]

EURO_CUT_SHORT = HEADER + (
    "decode:\n  - id: mine-1\n    description: The euro sign cut short, declared whole.\n"
    '    source: RFC 3629 §4\n    flags: [odd]\n    bytes: "E2 82"\n    valid: true\n'
    "    scalars: [U+20AC]\n"
)
HOSTILE_VECTOR_FILES = {
    "nested 500 deep": ("[" * 500 + "]" * 500, "1: yaml: nested deeper than 32 lists and mappings"),
    "nested 25,000 deep": (
        "[" * 25_000 + "]" * 25_000,
        "1: yaml: nested deeper than 32 lists and mappings",
    ),
    "billion laughs": (
        'a: &a ["lol", "lol"]\nb: &b [*a, *a]\nc: [*b, *b]\n',
        "2: yaml: alias *a: a vector file has no use for aliases",
    ),
    "python object": (
        "theme: !!python/object/apply:os.system [echo hi]\n",
        "1: yaml: tag !!python/object/apply:os.system: not a plain list or mapping",
    ),
    "the euro sign cut short": (
        EURO_CUT_SHORT,
        "14: decode[0].valid: contradicts the reference: the vector says well-formed, U+20AC; "
        "the reference says ill-formed: truncated at 0 (2 bytes)",
    ),
}
HOSTILE_BASELINES = {
    "not UTF-8": (b'{"utf8cert-baseline": 2,\n "codec": "caf\xe9"}', ":2: not UTF-8"),
    "nested 100,000 deep": (b"[" * 100_000 + b"]" * 100_000, ":1: nested deeper than 16"),
    "an int of 5000 digits": (b'{"utf8cert-baseline": ' + b"9" * 5000 + b"}", ": not JSON"),
    "brackets in a string do not nest": (
        b'{"utf8cert-baseline": 2, "codec": "' + b"[" * 99 + b'"}',
        ": 'deviations' must be a list",
    ),
}


def utf8cert(*arguments: str, stdin: bytes = b"", cwd: Path | None = None) -> tuple[int, str, str]:
    """Return (status, stdout, stderr) of `utf8cert ARGUMENTS` run as its own process."""
    run = subprocess.run(
        [sys.executable, "-m", "utf8cert.harness", *arguments],
        input=stdin,
        capture_output=True,
        timeout=300,
        cwd=cwd,
    )
    return run.returncode, run.stdout.decode(), run.stderr.decode()


@pytest.mark.parametrize("case", HOSTILE_VECTOR_FILES, ids=list(HOSTILE_VECTOR_FILES))
def test_a_hostile_vector_file_is_one_line_and_exit_2(case: str, tmp_path: Path) -> None:
    text, problem = HOSTILE_VECTOR_FILES[case]
    path = tmp_path / "hostile.yaml"
    path.write_text(text, encoding="utf-8")
    status, out, err = utf8cert("check", "--vectors", str(path))
    assert (status, out, err) == (2, "", f"utf8cert: error: {path}:{problem}\n")


@pytest.mark.parametrize("case", HOSTILE_BASELINES, ids=list(HOSTILE_BASELINES))
def test_a_hostile_baseline_is_one_line_and_exit_2(case: str, tmp_path: Path) -> None:
    content, problem = HOSTILE_BASELINES[case]
    path = tmp_path / "baseline.json"
    path.write_bytes(content)
    status, out, err = utf8cert("check", "--baseline", str(path))
    assert status == 2 and out == "" and "Traceback" not in err
    assert err.startswith(f"utf8cert: error: --baseline {path}{problem}")
    assert err.count("\n") == 1


def test_in_pytest_a_hostile_vector_file_is_a_usage_error(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("[" * 25_000 + "]" * 25_000, encoding="utf-8")
    result = pytester.runpytest_subprocess(
        "--utf8-codec", "codec:utf-8", "--utf8-vectors", str(path), "-p", "no:cacheprovider"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    output = str(result.stdout) + str(result.stderr)
    assert "INTERNALERROR" not in output and "Traceback" not in output
    assert f"utf8cert: {path}:1: yaml: nested deeper than 32 lists and mappings" in output


def test_input_file_and_standard_input_give_the_report_of_the_same_hex(tmp_path: Path) -> None:
    path = tmp_path / "input.bin"
    path.write_bytes(bytes.fromhex("e0 80 af 41"))
    arguments = ("check", "codec:utf-8:surrogateescape", "--json", "-", "--quiet")
    by_hex = utf8cert(*arguments, "--input", "e080af41")
    by_file = utf8cert(*arguments, "--input-file", str(path))
    by_stdin = utf8cert(*arguments, "--input", "-", stdin=path.read_bytes())
    assert by_hex[0] == by_file[0] == by_stdin[0] == 1

    def differences(run: tuple[int, str, str]) -> list[tuple[str, str, str, str]]:
        document = json.loads(run[1])
        return [
            (d["variant"], d["capability"], d["what"], d["input"]) for d in document["differences"]
        ]

    assert differences(by_hex) == differences(by_file) == differences(by_stdin) != []
    assert "on input e0 80 af 41:" in by_hex[2]
    assert f"on input {path} (4 bytes):" in by_file[2]
    assert "on input from standard input (4 bytes):" in by_stdin[2]


@pytest.mark.slow
def test_an_unreadable_input_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    missing = tmp_path / "missing.bin"
    assert utf8cert("check", "--input-file", str(missing)) == (
        2,
        "",
        f"utf8cert: error: --input-file {missing}: No such file or directory\n",
    )
    assert utf8cert("check", "--input-file", str(tmp_path)) == (
        2,
        "",
        f"utf8cert: error: --input-file {tmp_path}: Is a directory\n",
    )
    status, _, err = utf8cert("check", "--input", "41", "--input-file", str(missing))
    assert status == 2 and "not allowed with argument --input" in err and err.count("\n") == 1


def text_with_a_bad_byte(tmp_path: Path, size: int) -> Path:
    """Return a file of about `size` bytes of text (an emoji in each line) with one FF 100 bytes
    before the end."""
    line = "naïve café 東京 😀 plain ASCII words to make up the line\n".encode()
    data = bytearray(line * (size // len(line)))
    data[-100] = 0xFF
    path = tmp_path / "big.bin"
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    "size",
    [
        # 100 kB already dwarfs both bounds (its hex alone is 200 kB): the default tier's case;
        # the megabyte costs about 45 CPU-s (run and reproducer).
        pytest.param(100_000, id="100 kB"),
        pytest.param(1_000_000, id="1 MB", marks=pytest.mark.slow),
    ],
)
@pytest.mark.slow
def test_the_reports_of_a_long_input_stay_small_and_its_reproducer_reproduces(
    tmp_path: Path, size: int
) -> None:
    # One run writes both reports: a long input costs its run seconds.
    path = text_with_a_bad_byte(tmp_path, size)
    spec = "codec:utf-8:surrogateescape"  # lets FF through as U+DCFF: a must difference
    status, out, err = utf8cert(
        "check", spec, "--input-file", path.name, "-v", "--json", "r.json", cwd=tmp_path
    )
    assert status == 1 and err == ""
    # Not the input: each answer named in at most 200 items, a window of the dump around the FF.
    assert len(out) < 20_000, out[:20_000]
    dumped = [line for line in out.splitlines() if re.match(r"  [0-9A-F]{6,}  ", line)]
    assert dumped and any("[FF]" in line for line in dumped)
    assert len(dumped) <= 9 * 2  # decode and incremental each show at most 8 rows and a part
    reproducers = {line.strip() for line in out.splitlines() if "reproduce:" in line}
    assert reproducers == {f"reproduce: utf8cert check {spec} --input-file {path.name}"}
    # The JSON holds a part of the input around the bad byte, not the input.
    document = (tmp_path / "r.json").read_text(encoding="utf-8")
    assert len(document) < 32_000
    data = path.read_bytes()
    for difference in json.loads(document)["differences"]:
        shown = bytes.fromhex(difference["input"])
        offset = difference["input_offset"]
        assert difference["input_length"] == len(data)
        assert data[offset : offset + len(shown)] == shown and 0xFF in shown
        assert "padding" not in difference
    again = utf8cert(*reproducers.pop().removeprefix("reproduce: utf8cert ").split(), cwd=tmp_path)
    verdict = [line for line in out.splitlines() if line.startswith("on input big.bin")]
    assert again[0] == 1 and verdict and verdict[0] in again[1].splitlines()


def test_a_long_input_is_offered_to_the_encoder_in_pieces_that_make_up_all_of_it() -> None:
    """Every code point is offered once, in order, at most ENCODE_PIECE at a time."""
    offered: list[str] = []

    def encode(text: str) -> bytes:
        offered.append(text)
        return text.encode("utf-8")

    data = ("€uro and 😀 " * 100_000).encode() + b"\xff" + b"tail"
    codec = PythonCodec("counting", "an encoder that records what it is offered", encode=encode)
    assert check_input(codec, data) == []
    assert "".join(offered) == data.decode("utf-8", "replace")
    assert len(offered) > 1 and all(len(piece) <= ENCODE_PIECE for piece in offered)


@settings(max_examples=300)
@given(hostile_baselines)
def test_a_hostile_baseline_loads_or_is_refused_in_one_line(content: bytes) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "baseline.json"
        path.write_bytes(content)
        try:
            baseline = load_baseline(path)
        except BaselineError as error:
            message = str(error)
            assert message.startswith(str(path)) and "\n" not in message, message
            return
        assert all(isinstance(part, str) for key in baseline for part in key)


SAFE_MODULES = [
    "json",
    "codecs",
    "utf8cert.reference",
    "support.broken_codecs",
    "no_such_module_xyz",
]
"""Modules a random MODULE:ATTR spec may name: importing any other module a random name hits
could do anything (`antigravity` opens a browser)."""
words = st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=20)
"""Text a command line can carry: no NUL (the test below has it), no lone surrogate (characters()
alone gives them; the bytes of a command line that are not UTF-8 are `raw_specs`)."""
raw_specs = st.binary(min_size=1, max_size=20).filter(lambda raw: b"\x00" not in raw)
"""A command line's argument as the bytes it is: UTF-8 or not (Python reads each byte that is
not UTF-8 as a lone surrogate, U+DC80 to U+DCFF)."""
specs = st.one_of(
    words.map(lambda text: "no_such_module_" + text),
    st.builds(lambda text: "codec:" + text, words),
    st.builds(
        lambda name, errors: f"codec:{name}:{errors}",
        st.sampled_from(["utf-8", "latin-1", "hex", "rot13", "nope", ""]),
        words,
    ),
    st.builds(lambda text: "adapter:" + text, words),
    st.builds(
        lambda program, text: f"cmd:{program}{text}",
        st.sampled_from(["/nonexistent/program ", "false", "'unterminated ", '"', "", "   "]),
        st.text(alphabet="abc '\"\\ ", max_size=10),
    ),
    st.builds(
        lambda module, attribute: f"{module}:{attribute}",
        st.sampled_from(SAFE_MODULES),
        words,
    ),
    st.sampled_from([":", "::", "codec:", "cmd:", "adapter:", "json", "json:", "json:loads"]),
)


@settings(max_examples=150)
@given(specs)
def test_a_random_spec_loads_or_is_refused_in_one_line(spec: str) -> None:
    try:
        codec = load_codec(spec, timeout=5)
    except CodecSpecError as error:
        assert "\n" not in str(error) and str(error).startswith("codec spec "), str(error)
        return
    codec.close()


@pytest.mark.parametrize("spec", ["codec:\x00", "no_such_module_\x00", "codec:\udcff", "x\udcff"])
def test_a_spec_with_nul_or_an_undecodable_byte_is_one_line(spec: str) -> None:
    """`utf8cert check $'codec:\\xff'` gets 'codec:\\udcff' from Python's argv decoding."""
    with pytest.raises(CodecSpecError):
        load_codec(spec)


@settings(max_examples=40)
@given(
    st.one_of(
        specs.map(lambda s: ("spec", s.encode())), hostile_baselines.map(lambda b: ("baseline", b))
    )
)
def test_the_cli_given_a_hostile_spec_or_baseline_exits_0_1_or_2_in_one_line(
    case: tuple[str, bytes],
) -> None:
    """In process: `check SPEC --input 41` and `check --baseline F --input 41` (one input:
    the vectors are not loaded) end in a verdict or in one line and exit 2."""
    kind, content = case
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "baseline.json"
        path.write_bytes(content)
        arguments = ["--baseline", str(path)] if kind == "baseline" else [content.decode()]
        run = check(*arguments, "--input", "41", "--timeout", "5", "--quiet")
    assert run.status in (0, 1, 2), run
    if run.status == 2:
        assert run.out == "" and run.err.startswith("utf8cert: error: ")
        assert run.err.count("\n") == 1, run.err


@pytest.mark.slow
@settings(max_examples=20)
@given(
    st.one_of(
        vector_files.map(lambda b: ("--vectors", b)),
        hostile_baselines.map(lambda b: ("--baseline", b)),
        specs.map(lambda s: ("spec", s.encode())),
        raw_specs.map(lambda raw: ("spec", raw)),
    )
)
def test_utf8cert_given_hostile_files_and_specs_never_prints_a_traceback(
    case: tuple[str, bytes],
) -> None:
    """As its own process, on one vector: success, differences, or one line and exit 2."""
    option, content = case
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "hostile"
        path.write_bytes(content)
        given = [os.fsdecode(content)] if option == "spec" else [option, str(path)]
        status, out, err = utf8cert("check", *given, "--vector", "sec-1", "--timeout", "5", "-q")
    assert status in (0, 1, 2) and "Traceback" not in err, err
    if status == 2:
        assert out == "" and err.startswith("utf8cert") and err.count("\n") == 1, err


@pytest.mark.parametrize("option", [["--vectors", "vectors/bom.yaml"], ["--vector", "bom-1"]])
def test_vectors_with_one_input_are_refused_not_silently_ignored(option: list[str]) -> None:
    run = check("--input", "41", *option)
    assert (run.status, run.out) == (2, "")
    assert run.err == (
        f"utf8cert: error: {option[0]} has no effect on a check of one input (--input)\n"
    )


def test_memory_limits_an_isolated_codec_and_must_be_at_least_one_mib() -> None:
    hogging = check(
        "support.hostile_codecs:HogOnC0", "--isolate", "--memory", "256", "--input", "c0af"
    )
    assert hogging.status == 1, hogging.err
    assert "[1] must: decode: ran out of memory — 1 vector, 4 differences" in hogging.out
    assert "crashed" not in hogging.out  # a memory failure, not a crash
    # Under the default 2048 MiB the gigabyte is granted: the reproducer carries the limit.
    reproduce = "utf8cert check support.hostile_codecs:HogOnC0 --memory 256"
    assert f"reproduce: {reproduce} --input c0af" in hogging.out
    again = check(*reproduce.split()[2:], "--input", "c0af")
    assert (again.status, again.out) == (hogging.status, hogging.out)
    refused = utf8cert("check", "--memory", "0", "--input", "41")
    assert refused == (
        2,
        "",
        "utf8cert check: error: argument --memory: must be from 1 to 1073741824 MiB, not 0 "
        "(see utf8cert check --help)\n",
    )
