"""`utf8cert check`: exit status, terminal report, JSON and markdown, baseline, and one clear line
for every bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support.cli_runs import cached_load
from support.samples import few_of_each_kind, options
from support.user_vectors import EXTRA_VECTOR

from utf8cert.harness.cli.main import main
from utf8cert.harness.vectors import load as vectors_module
from utf8cert.harness.vectors.model import DecodeVector


@pytest.fixture(autouse=True)
def builtin_vectors_parsed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Parse the built-in vector files once for all the runs of this module (a user's files
    still go through the loader every time)."""
    monkeypatch.setattr(vectors_module, "load_vectors", cached_load)


def check(*arguments: str) -> int:
    return main(["check", *arguments])


def read_json(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


@pytest.mark.slow
def test_cpython_utf8_is_conformant_with_no_difference(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    assert check("codec:utf-8", "--json", str(report)) == 0
    document = read_json(report)
    assert document["differences"] == []
    assert document["capabilities"] == ["decode", "encode", "incremental", "replace"]
    assert document["summary"]["conformant"] is True
    assert document["vectors"] == len(cached_load())
    assert document["codec"] == "codec:utf-8"


@pytest.mark.slow
def test_no_spec_checks_cpythons_codec(capsys: pytest.CaptureFixture[str]) -> None:
    # On a few vectors of each kind: the whole check of CPython's codec is the test above's.
    assert main(["check", *options(few_of_each_kind())]) == 0
    output = capsys.readouterr().out
    assert "codec:utf-8" in output
    assert "conformant to RFC 3629" in output


@pytest.mark.slow
def test_surrogatepass_fails_and_every_difference_is_a_full_record(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    assert check("codec:utf-8:surrogatepass", "--json", str(report)) == 1
    document = read_json(report)
    assert document["summary"]["conformant"] is False
    assert document["summary"]["failing"] > 0
    fields = {"vector", "variant", "capability", "level", "input", "expected", "actual"}
    vectors = {vector.id: vector for vector in cached_load()}
    for item in document["differences"]:
        assert fields <= set(item)
        if item["vector"] in ("sweep", "seeded") and item["capability"] == "encode":
            # Asked after the vectors, so no vector's flags: a lone surrogate among the values.
            assert re.search(r"U\+D[89A-F][0-9A-F]{2}\b", item["input"]), item
        elif item["vector"] in ("sweep", "seeded"):  # a surrogate's UTF-8 form in the bytes
            assert re.search(rb"\xed[\xa0-\xbf]", bytes.fromhex(item["input"])), item
        else:
            assert "surrogate" in vectors[item["vector"]].flags
    item = next(i for i in document["differences"] if i["vector"] == "sec-10")
    assert item["input"] == "eda18cedbeb4"
    assert item["actual"] == "U+D84C U+DFB4"
    long = next(i for i in document["differences"] if i["variant"] == "straddle-65536")
    assert long["input_offset"] + len(bytes.fromhex(long["input"])) < long["input_length"]
    assert long["padding"] == 0x61


def test_the_terminal_report_explains_a_difference_with_a_marked_hex_dump(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert check("support.broken_codecs:NaiveBitDecoder", "--input", "2f c0 ae 2e 2f") == 1
    output = capsys.readouterr().out
    assert "input [decode, as-is] must: accepted ill-formed input" in output
    # Five bytes fit one dump row: on the input line itself, C0 AE (CPython stops at 1) marked.
    assert "  input, 5 bytes (the vector's at 0): 2F [C0 AE] 2E 2F\n" in output
    assert "actual:   U+002F U+002E U+002E U+002F" in output
    assert (
        "reproduce: utf8cert check support.broken_codecs:NaiveBitDecoder --input 2fc0ae2e2f"
        in output
    )


def test_an_ad_hoc_input_is_judged_by_the_reference(capsys: pytest.CaptureFixture[str]) -> None:
    assert check("codec:utf-8", "--input", "c0:af") == 0
    assert check("codec:utf-8", "--input", "e282ac") == 0
    assert "follows recommended practice" in capsys.readouterr().out


def test_an_encoding_finding_of_the_fuzzer_reproduces_from_its_input(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # ED A0 80 is U+D800 written the RFC 2279 way: the fuzzer offers that value to the encoder,
    # and so must the reproducer it prints, or an encoder that writes surrogates passes it.
    assert check("support.fuzz_codecs:SurrogateWritingEncoder", "--input", "ed a0 80") == 1
    output = capsys.readouterr().out
    assert "[encode, code points read from it] must" in output
    assert check("codec:utf-8", "--input", "ed a0 80") == 0


@pytest.mark.slow
def test_the_markdown_certificate_names_codec_verdict_table_and_differences(
    tmp_path: Path,
) -> None:
    # On a few vectors of each kind: surrogatepass shows both its behaviours there.
    certificate, chosen = tmp_path / "CERTIFICATE.md", few_of_each_kind()
    assert check("codec:utf-8:surrogatepass", *options(chosen), "--markdown", str(certificate)) == 1
    text = certificate.read_text(encoding="utf-8")
    assert text.startswith("# UTF-8 conformance certificate: `codec:utf-8:surrogatepass`")
    assert "**Verdict: NOT conformant to RFC 3629: 2 behaviours on " in text
    assert f"| Vectors | {len(chosen)}," in text
    assert "| decode |" in text and "| encode |" in text
    headings = re.findall(r"^### \d\. (.*)$", text, re.M)  # in the order of their vector counts
    assert sorted(headings) == [
        "must: decode: let ill-formed input through (surrogate)",
        "must: encode: encoded a surrogate",
    ]
    assert "sur-1 [decode, as-is] must: accepted ill-formed input" in text
    assert text.count("- **surrogate**: ") == 1  # the flag's note once, in the legend
    clean = tmp_path / "clean.md"
    assert check("codec:utf-8", *options(chosen), "--markdown", str(clean)) == 0
    assert "None: the codec agrees with every vector" in clean.read_text(encoding="utf-8")


def test_fail_on_chooses_the_least_binding_level_that_fails() -> None:
    # E2 82 41: one U+FFFD for E2 82 (Unicode §3.9); one per byte is a `should` difference.
    spec, truncated = "support.broken_codecs:OneFffdPerByte", ["--input", "e28241"]
    assert check(spec, *truncated) == 0
    assert check(spec, *truncated, "--fail-on", "should") == 1
    assert check(spec, *truncated, "--fail-on", "may") == 1


def test_a_baseline_lets_only_new_differences_fail(tmp_path: Path) -> None:
    baseline, report = tmp_path / "baseline.json", tmp_path / "report.json"
    few = options(few_of_each_kind())
    assert check("codec:utf-8:surrogatepass", *few, "--write-baseline", str(baseline)) == 0
    extra = tmp_path / "extra.yaml"
    extra.write_text(EXTRA_VECTOR, encoding="utf-8")
    arguments = ["--baseline", str(baseline), "--vectors", str(extra), "--json", str(report)]
    assert check("codec:utf-8:surrogatepass", *few, "--vector", "extra-1", *arguments) == 1
    differences = read_json(report)["differences"]
    new = [item for item in differences if not item["known"]]
    assert "extra-1" in {item["vector"] for item in new}
    # A vector added may move a built-in one into a variant it did not have (the schedule is
    # spread over the whole set): only such variants are new, never a vector as it is.
    assert all(item["variant"] != "as-is" for item in new if item["vector"] != "extra-1")


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


BAD_ARGUMENTS = {
    "unimportable module": (["no_such_module_xyz:decode"], "cannot import module"),
    "missing attribute": (["json:no_such_attribute"], "has no attribute"),
    "no capability": (["support.broken_codecs"], "not callable"),
    "unknown codec": (["codec:no-such-codec"], "unknown codec"),
    "program that cannot start": (["cmd:/no/such/program"], "cmd:/no/such/program"),
    "hex that is not hex": (["--input", "zz"], "not a hex byte string"),
}


@pytest.mark.parametrize("case", BAD_ARGUMENTS, ids=list(BAD_ARGUMENTS))
def test_a_bad_argument_is_one_line_and_exit_2(
    case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments, words = BAD_ARGUMENTS[case]
    assert check(*arguments) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and words in error, error
    assert error.startswith("utf8cert: error: ")


BAD_FILES = {
    "baseline not JSON": ("--baseline", "b.json", "{", "b.json:1: not JSON"),
    "baseline of another kind": ("--baseline", "b.json", '{"x": 1}', "not a utf8cert baseline"),
    "baseline with a bad deviation": (
        "--baseline",
        "b.json",
        '{"utf8cert-baseline": 1, "deviations": [{"vector": "a"}]}',
        "deviations[0]: 'variant' must be a string",
    ),
    "vector with bad hex": (
        "--vectors",
        "v.yaml",
        EXTRA_VECTOR.replace('"41 ED B0 80 42"', '"41 XX"'),
        "v.yaml:13: decode[0].bytes",
    ),
}


@pytest.mark.parametrize("case", BAD_FILES, ids=list(BAD_FILES))
def test_a_malformed_file_is_one_line_naming_it_and_exit_2(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    option, name, text, words = BAD_FILES[case]
    assert check(option, write(tmp_path, name, text)) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and words in error, error


def test_a_missing_file_or_unwritable_report_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert check("--baseline", str(tmp_path / "missing.json")) == 2
    assert check("--vectors", str(tmp_path / "missing.yaml")) == 2
    assert check("--json", str(tmp_path / "no" / "such" / "dir.json")) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 3 and all(line.startswith("utf8cert: error: ") for line in lines)


def test_a_usage_error_is_one_line_from_the_installed_command(tmp_path: Path) -> None:
    result = subprocess.run(
        ["utf8cert", "check", "--fail-on", "never"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "invalid choice: 'never'" in result.stderr


@pytest.mark.slow
def test_python_m_runs_the_same_command_without_a_traceback() -> None:
    run = [sys.executable, "-m", "utf8cert.harness"]
    result = subprocess.run([*run, "check", "x_y_z:q"], capture_output=True, text=True)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1
    version = subprocess.run([*run, "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.startswith("utf8cert ")


@pytest.mark.slow
def test_vectors_export_writes_every_vector_and_list_prints_one_line_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "vectors.json"
    assert main(["vectors", "export", "-o", str(output)]) == 0
    exported = output.read_text(encoding="utf-8")
    json.loads(exported)
    vectors = list(cached_load())
    assert all(f'"{vector.id}"' in exported for vector in vectors)
    assert main(["vectors", "list"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if not line.startswith("#")]
    assert len(lines) == len(vectors)
    first = next(vector for vector in vectors if isinstance(vector, DecodeVector))
    assert any(line.startswith(f"{first.id}\tdecode ") for line in lines)
