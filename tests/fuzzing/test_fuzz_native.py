"""Native codecs (`native:LIB.so`): a C codec built with clang's -fsanitize=fuzzer-no-link,address
and loaded in the fuzzing process, its memory errors findings.

The codecs are examples/c/utf8_codec.c as shipped (conformant) and with a planted memory bug: a
4-byte load at each lead byte F0..FF, past the input's end when such a byte is among its last
three. Its answers are still right (the same bug built with gcc as a program shows no difference
on the input the campaign saves); only AddressSanitizer sees it. Campaigns run as `python -m
utf8cert.harness fuzz` in a child process.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.no_sandbox import environment_without_bwrap

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "examples" / "c" / "utf8_codec.c"
PLANTED_AFTER = "        uint8_t lead = s[i];\n"
PLANTED = (
    "        volatile uint32_t word = 0; /* planted: a 4-byte load past the input's end */\n"
    "        if (lead >= 0xF0) memcpy((void *)&word, s + i, 4);\n"
)
GUIDE = ROOT / "docs" / "fuzzing.md"
RUST_TEMPLATE = ROOT / "examples" / "rust" / "utf8_template.rs"
needs_clang = pytest.mark.skipif(
    shutil.which("clang") is None,
    reason="clang is not installed (scripts/install-runtimes installs it): native codecs are"
    " built with clang's -fsanitize=fuzzer-no-link,address",
)


def utf8cert(
    *arguments: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    """Run `python -m utf8cert.harness ARGUMENTS` in `cwd` (in `env`, or this environment)."""
    command = [sys.executable, "-m", "utf8cert.harness", *arguments]
    return subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


def fuzz(directory: Path, spec: str, *extra: str) -> subprocess.CompletedProcess[str]:
    """Run a campaign, seed 1, its artifacts under `directory`/artifacts."""
    artifacts = str(directory / "artifacts")
    return utf8cert("fuzz", spec, "--artifacts", artifacts, "--seed", "1", *extra, cwd=directory)


def reproducer_in(artifacts: Path) -> list[str]:
    """Return the words of the reproducer of the one finding under `artifacts`."""
    [explained] = artifacts.glob("*.txt")
    return shlex.split(explained.read_text().splitlines()[-1].removeprefix("reproduce: "))


def overreading(directory: Path) -> Path:
    """Return the template with the planted memory bug, written into `directory`."""
    text = TEMPLATE.read_text(encoding="utf-8")
    assert PLANTED_AFTER in text, "the template's decoder changed: plant the bug anew"
    source = directory / "overread.c"
    source.write_text(text.replace(PLANTED_AFTER, PLANTED_AFTER + PLANTED), encoding="utf-8")
    return source


def documented_flags() -> list[str]:
    """Return the flags docs/fuzzing.md builds the template's library with."""
    text = GUIDE.read_text(encoding="utf-8").replace("\\\n", " ")
    found = re.search(r"^clang (.*?) -o utf8_codec\.so examples/c/utf8_codec\.c$", text, re.M)
    assert found, "docs/fuzzing.md shows no clang command for the template"
    return shlex.split(found[1])


def build_native(source: Path) -> Path:
    """Return the shared library built from `source` as docs/fuzzing.md says."""
    library = source.with_suffix(".so")
    command = ["clang", *documented_flags(), "-o", str(library), str(source)]
    subprocess.run(command, check=True, capture_output=True, timeout=120)
    return library


@pytest.mark.slow
@needs_clang
def test_a_memory_error_is_a_finding_with_its_input_kept_and_replayable(tmp_path: Path) -> None:
    library = build_native(overreading(tmp_path))
    run = fuzz(tmp_path, f"native:{library}", "--runs", "20000", "--json", "-")
    assert run.returncode == 1, run.stderr
    [finding] = json.loads(run.stdout)["findings"]
    assert finding["what"] == "crashed"
    data = bytes.fromhex(finding["input"])
    # The bug: a lead byte F0..FF among the input's last three bytes.
    assert any(byte >= 0xF0 for byte in data[-3:]), data.hex()
    artifacts = tmp_path / "artifacts"
    [explained] = artifacts.glob("*.txt")
    # Its behaviour is ASan's kind of error, as a Python crash's is its exception's name.
    assert explained.name == "decode-crashed-addresssanitizer-heap-buffer-overflow.txt"
    text = explained.read_text()
    assert "AddressSanitizer: heap-buffer-overflow" in text
    # libFuzzer's log holds ASan's whole report, the line of the planted load named.
    assert "in my_decode" in (artifacts / "libfuzzer.log").read_text()
    [kept] = artifacts.glob("*.bin")
    assert kept.read_bytes() == data
    # The reproducer replays it: the same memory error, in a child process under ASan.
    words = reproducer_in(artifacts)
    assert words[:3] == ["utf8cert", "check", f"native:{library}"] and "--isolate" in words
    replayed = utf8cert(*words[1:], cwd=tmp_path)
    assert replayed.returncode == 1
    assert "AddressSanitizer: heap-buffer-overflow" in replayed.stdout
    # Independent evidence that it is a memory error, not a wrong answer: the same source built
    # with gcc as a program (no sanitizer) answers that input as the reference does.
    program = tmp_path / "overread"
    gcc = ["gcc", "-O2", "-o", str(program), str(tmp_path / "overread.c")]
    subprocess.run(gcc, check=True, capture_output=True, timeout=120)
    plain = utf8cert("check", f"cmd:{program}", "--input", data.hex(), cwd=tmp_path)
    assert plain.returncode == 0, plain.stdout


@pytest.mark.slow
@needs_clang
def test_the_conformant_template_gives_no_finding_and_its_branches_guide(
    tmp_path: Path, template_copy: Path
) -> None:
    library = build_native(template_copy)
    run = fuzz(tmp_path, f"native:{library}", "--runs", "4000", "--json", "-")
    assert run.returncode == 0, run.stderr
    campaign = json.loads(run.stdout)
    assert campaign["findings"] == [] and campaign["executions"] >= 4000
    log = (tmp_path / "artifacts" / "libfuzzer.log").read_text()
    # libFuzzer counts the library's edges, and runs the campaign's own mutator.
    assert "Loaded 1 modules" in log and "inline 8-bit counters" in log
    assert "found LLVMFuzzerCustomMutator" in log


@pytest.fixture
def template_copy(tmp_path: Path) -> Path:
    shutil.copyfile(TEMPLATE, tmp_path / "utf8_codec.c")
    return tmp_path / "utf8_codec.c"


def test_a_missing_library_is_one_line(tmp_path: Path) -> None:
    run = utf8cert("check", f"native:{tmp_path / 'none.so'}", cwd=tmp_path)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        f"utf8cert: error: codec spec 'native:{tmp_path / 'none.so'}': no such file:"
        f" {tmp_path / 'none.so'}"
    ]


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
@pytest.mark.slow
def test_a_library_without_the_protocol_is_one_line(tmp_path: Path) -> None:
    source = tmp_path / "half.c"
    source.write_text('const char *utf8cert_handshake(const char *a) { return "x"; }\n')
    library = tmp_path / "half.so"
    command = ["gcc", "-shared", "-fPIC", "-o", str(library), str(source)]
    subprocess.run(command, check=True, capture_output=True, timeout=60)
    run = utf8cert("check", f"native:{library}", cwd=tmp_path)
    assert run.returncode == 2
    [line] = run.stderr.strip().splitlines()
    assert line.endswith("the library has no function utf8cert_answer (harness/codec/native.py)")


def without_atheris_runtime(directory: Path) -> dict[str, str]:
    """Return an environment whose atheris has no asan_with_fuzzer.so beside it (atheris' wheels
    put one into site-packages; an install without clang has none): an empty `atheris` package
    first on the import path (only its location is read), and an empty cache."""
    (directory / "shadow" / "atheris").mkdir(parents=True)
    (directory / "shadow" / "atheris" / "__init__.py").write_text("")
    path = os.pathsep.join(filter(None, [str(directory / "shadow"), os.environ.get("PYTHONPATH")]))
    return dict(os.environ, PYTHONPATH=path, UTF8CERT_CACHE=str(directory / "cache"))


def test_no_runtime_is_one_line_naming_what_to_install(tmp_path: Path) -> None:
    # Without clang the runtime cannot be built either.
    library = tmp_path / "codec.so"
    library.write_bytes(b"")
    env = environment_without_bwrap(tmp_path / "no-bwrap", without_atheris_runtime(tmp_path))
    for extra in (["check"], ["fuzz", "--artifacts", str(tmp_path / "artifacts")]):
        run = utf8cert(*extra, f"native:{library}", cwd=tmp_path, env=env, timeout=120)
        assert run.returncode == 2, run.stderr
        [line] = run.stderr.strip().splitlines()
        assert "apt-get install clang" in line and "AddressSanitizer" in line


@pytest.mark.slow
@needs_clang
def test_a_runtime_built_from_clang_serves_where_atheris_has_none(tmp_path: Path) -> None:
    library = build_native(overreading(tmp_path))
    env = without_atheris_runtime(tmp_path)
    run = utf8cert(
        "check", f"native:{library}", "--input", "F5", cwd=tmp_path, env=env, timeout=300
    )
    assert run.returncode == 1, run.stderr
    assert "AddressSanitizer: heap-buffer-overflow" in run.stdout
    assert list((tmp_path / "cache").glob("native-runtime/*/asan_with_fuzzer.so"))


PROGRAMS = ROOT / "harness" / "world" / "programs"


@pytest.mark.slow
@pytest.mark.skipif(
    subprocess.run(["pkg-config", "--exists", "libutf8proc"], check=False).returncode != 0
    if shutil.which("pkg-config")
    else True,
    reason="utf8proc's development files are missing (apt-get install libutf8proc-dev)",
)
def test_a_shipped_program_built_as_a_library_answers_as_the_program(tmp_path: Path) -> None:
    # c_protocol.h either way: the adapter's program over the pipe, and the same source with
    # -DUTF8CERT_SHARED in process; every answer of a check the same.
    flags = subprocess.run(
        ["pkg-config", "--cflags", "--libs", "libutf8proc"], capture_output=True, text=True
    ).stdout.split()
    library = tmp_path / "c_utf8proc.so"
    source = PROGRAMS / "c_utf8proc.c"
    command = ["gcc", "-shared", "-fPIC", "-O2", "-DUTF8CERT_SHARED", "-o", str(library)]
    subprocess.run([*command, str(source), *flags], check=True, capture_output=True, timeout=120)
    documents: list[dict[str, object]] = []
    for spec in (f"native:{library} utf8proc-iterate", "adapter:utf8proc-iterate"):
        report = tmp_path / f"{len(documents)}.json"
        run = utf8cert("check", spec, "--json", str(report), cwd=tmp_path)
        assert run.returncode in (0, 1), run.stderr
        documents.append(json.loads(report.read_text()))
    native, program = documents
    for key in ("answers", "fingerprint", "differences", "behaviours", "summary"):
        assert native[key] == program[key], key


def documented_rust_command() -> list[str]:
    """Return the rustc command the Rust template's comment gives for its library."""
    text = RUST_TEMPLATE.read_text(encoding="utf-8")
    lines = [line.removeprefix("//").strip() for line in text.splitlines()]
    joined = " ".join(lines).replace("\\ ", " ")
    found = re.search(r"(rustc -O --crate-type cdylib .*? examples/rust/utf8_template\.rs)", joined)
    assert found, "the Rust template shows no rustc command for its library"
    return shlex.split(found[1])


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("rustc") is None, reason="rustc is not installed")
def test_the_rust_template_as_a_library_gives_no_finding_and_its_edges_count(
    tmp_path: Path,
) -> None:
    command = [
        str(ROOT / word) if word.endswith(".rs") else word for word in documented_rust_command()
    ]
    library = tmp_path / "libutf8_template.so"
    command[command.index("-o") + 1] = str(library)
    subprocess.run(command, check=True, capture_output=True, timeout=600, cwd=tmp_path)
    run = fuzz(tmp_path, f"native:{library}", "--runs", "3000", "--json", "-")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["findings"] == []
    log = (tmp_path / "artifacts" / "libfuzzer.log").read_text()
    assert "inline 8-bit counters" in log and "found LLVMFuzzerCustomMutator" in log


@pytest.mark.slow
@needs_clang
def test_a_wrong_answer_in_process_is_judged_as_check_judges_it(tmp_path: Path) -> None:
    # The template reading C0 and C1 as lead bytes: overlong two-byte forms let through
    # (RFC 3629 §3: C0 and C1 never appear), found in process and reproduced by `check`.
    text = TEMPLATE.read_text(encoding="utf-8")
    assert "lead < 0xC2 ? 0" in text
    source = tmp_path / "overlong.c"
    source.write_text(text.replace("lead < 0xC2 ? 0", "lead < 0xC0 ? 0"), encoding="utf-8")
    library = build_native(source)
    run = fuzz(tmp_path, f"native:{library}", "--runs", "20000", "--json", "-")
    assert run.returncode == 1, run.stderr
    [finding] = json.loads(run.stdout)["findings"]
    assert finding["behaviour_id"] == "decode/let-ill-formed-input-through/overlong", finding
    assert any(byte in (0xC0, 0xC1) for byte in bytes.fromhex(finding["input"]))
    words = reproducer_in(tmp_path / "artifacts")
    assert "--isolate" not in words  # a wrong answer, not a crash
    replayed = utf8cert(*words[1:], cwd=tmp_path)
    assert replayed.returncode == 1 and "overlong" in replayed.stdout
