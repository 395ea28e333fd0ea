"""Every report format, each checked against an independent description of it: the JSON report
against its shipped JSON Schema, JUnit XML against the JUnit schema CI systems document, GitHub
annotations against the documented workflow-command format."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import jsonschema
import pytest
import xmlschema
from support.cli_runs import builtin, check, check_once
from support.samples import few_of_each_kind, options

from utf8cert.harness.reports.json_report import FORMAT, schema
from utf8cert.harness.vectors.model import EncodeVector

HERE = Path(__file__).parent
JUNIT_SCHEMA = xmlschema.XMLSchema(str(HERE / "junit-10.xsd"))
"""The published schema of the xunit2 family, pytest's default (its header says where from)."""
UNCERTIFIED = "support.uncertified_codecs:NoSurrogateEncoder"
"""A codec whose encoder declines every surrogate: its encode is not certified (too many
questions declined), while nothing else fails."""

CHOSEN = (*few_of_each_kind(), "sec-10")
"""The vectors of the runs: a few of each kind (a report's format is the same on every vector),
and sec-10 (ED A1 8C ED BE B4, a surrogate pair that surrogatepass lets through)."""
FEW = tuple(options(CHOSEN))

RUNS = {
    "conformant": ("codec:utf-8", *FEW),
    "surrogatepass": ("codec:utf-8:surrogatepass", *FEW),
    "two behaviours at two levels": (
        "support.broken_codecs:NaiveBitDecoder",
        "--fail-on",
        "should",
        *FEW,
    ),
    "crashes": ("support.broken_codecs:CrashingDecoder", "--vector", "ovl-1", "--vector", "sec-10"),
    "one input": ("support.broken_codecs:NaiveBitDecoder", "--input", "c0 af"),
}


@pytest.mark.parametrize("arguments", RUNS.values(), ids=RUNS.keys())
@pytest.mark.slow
def test_every_json_report_is_valid_by_the_shipped_schema(arguments: tuple[str, ...]) -> None:
    run = check_once(*arguments, "--json", "-", "--quiet")
    document = run.json()
    jsonschema.Draft202012Validator(schema()).validate(document)
    assert document["format"] == FORMAT
    # Every difference belongs to a behaviour listed, and each example points at one of its own.
    ids = {behaviour["id"] for behaviour in document["behaviours"]}
    assert {difference["behaviour"] for difference in document["differences"]} == ids
    for behaviour in document["behaviours"]:
        example = document["differences"][behaviour["example"]]
        assert example["behaviour"] == behaviour["id"]
        assert example["vector"] == behaviour["vectors"][0]


@pytest.mark.slow
def test_a_json_report_with_a_baseline_is_valid_and_names_the_fixed(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.json"
    check("codec:utf-8:surrogatepass", "--vector", "sec-10", "--write-baseline", str(baseline))
    text = baseline.read_text(encoding="utf-8").replace("utf-8:surrogatepass", "utf-8")
    baseline.write_text(text, encoding="utf-8")
    document = check("codec:utf-8", "--baseline", str(baseline), "--json", "-", "-q").json()
    jsonschema.Draft202012Validator(schema()).validate(document)
    fixed = document["baseline"]["fixed"]
    assert fixed and all(item["vector"] == "sec-10" for item in fixed)


def test_the_schema_rejects_a_report_missing_its_version() -> None:
    document = check_once("codec:utf-8", *FEW, "--json", "-", "--quiet").json()  # RUNS shares it
    del document["format"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema()).validate(document)


@pytest.mark.slow
def test_json_to_standard_output_is_json_alone_and_the_report_goes_to_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    run = check("codec:utf-8:surrogatepass", *FEW, "--json", "-")
    assert run.status == 1
    assert json.loads(run.out)["codec"] == "codec:utf-8:surrogatepass"
    assert "NOT conformant to RFC 3629" in run.err
    assert not (tmp_path / "-").exists()


def junit_of(*arguments: str, tmp_path: Path) -> ElementTree.Element:
    path = tmp_path / "junit.xml"
    check(*arguments, "--junit-xml", str(path), "--quiet")
    JUNIT_SCHEMA.validate(str(path))
    return ElementTree.parse(path).getroot()


@pytest.mark.slow
def test_junit_xml_is_valid_with_a_case_per_vector_and_capability(tmp_path: Path) -> None:
    root = junit_of("codec:utf-8:surrogatepass", *FEW, tmp_path=tmp_path)
    cases = list(root.iter("testcase"))
    # CPython's codec: decode, replace and incremental per decoding vector, encode per encoding.
    asked = [vector for vector in builtin() if vector.id in CHOSEN]
    due = sum(1 if isinstance(vector, EncodeVector) else 3 for vector in asked)
    coverage = [case for case in cases if case.get("classname") == "utf8cert.coverage"]
    assert [case.get("name") for case in coverage] == [
        f"coverage[{capability}]" for capability in ("decode", "replace", "encode", "incremental")
    ]
    assert len(cases) == due + 4 == int(root.get("tests", "0"))
    by_name = {case.get("name"): case for case in cases}
    failure = by_name["sec-10[decode]"].find("failure")
    assert failure is not None and failure.get("type") == "must"
    assert "accepted ill-formed input" in (failure.text or "")
    assert "input, 6 bytes (the vector's at 0): [ED A1 8C ED BE B4]" in (failure.text or "")
    assert by_name["sec-10[replace]"].find("failure") is None
    failures = sum(case.find("failure") is not None for case in cases)
    assert failures == int(root.get("failures", "-1")) > 0
    assert {suite.get("name") for suite in root} >= {"utf8cert.security", "utf8cert.bom"}


@pytest.mark.slow
def test_junit_xml_skips_known_deviations_and_tells_lesser_ones(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.json"
    check("codec:utf-8:surrogatepass", *FEW, "--write-baseline", str(baseline))
    root = junit_of(
        "codec:utf-8:surrogatepass", *FEW, "--baseline", str(baseline), tmp_path=tmp_path
    )
    skipped = [case for case in root.iter("testcase") if case.find("skipped") is not None]
    assert root.get("failures") == "0" and skipped
    # One U+FFFD per byte is `should`: below the default gate, told but not failed.
    root = junit_of("support.broken_codecs:OneFffdPerByte", *FEW, tmp_path=tmp_path)
    told = [case for case in root.iter("testcase") if case.find("system-out") is not None]
    assert told and root.get("failures") == "0"


def test_a_capability_not_certified_fails_in_junit_and_github_as_in_the_exit_status(
    tmp_path: Path,
) -> None:
    path = tmp_path / "junit.xml"
    run = check(UNCERTIFIED, "--junit-xml", str(path), "--github", "--quiet")
    assert run.status == 1 and "not certified for encode" in run.out
    JUNIT_SCHEMA.validate(str(path))
    root = ElementTree.parse(path).getroot()
    failed = [case for case in root.iter("testcase") if case.find("failure") is not None]
    assert [(case.get("classname"), case.get("name")) for case in failed] == [
        ("utf8cert.coverage", "coverage[encode]")
    ]
    assert root.get("failures") == "1"
    errors = [line for line in run.out.splitlines() if line.startswith("::error")]
    assert len(errors) == 1 and "not certified for encode" in unescape(errors[0])


def test_an_incomplete_run_is_marked_in_every_format(tmp_path: Path) -> None:
    files = {name: tmp_path / name for name in ("j.xml", "r.json", "r.md", "r.html")}
    # The codec hangs at the first vector holding a C0 byte, and the deadline stops the run. It
    # must fall in the hang, not in the start: under a load of 14 on 2 cores, starting the
    # isolated child took more than 3 s (the run then stops before any vector, with no report).
    run = check(
        "support.hostile_codecs:HangOnC0", "--isolate", "--timeout", "120", "--deadline", "15",
        "--github",
        "--junit-xml", str(files["j.xml"]), "--json", str(files["r.json"]),
        "--markdown", str(files["r.md"]), "--html", str(files["r.html"]),
    )  # fmt: skip
    assert run.status == 3 and "INCOMPLETE" in run.out
    JUNIT_SCHEMA.validate(str(files["j.xml"]))
    root = ElementTree.parse(files["j.xml"]).getroot()
    (complete,) = [
        case for case in root.iter("testcase") if case.get("classname") == "utf8cert.run"
    ]
    failure = complete.find("failure")
    assert failure is not None and failure.get("type") == "incomplete"
    assert "stopped by the deadline of 15 s" in (failure.get("message") or "")
    errors = [line for line in run.out.splitlines() if line.startswith("::error")]
    assert any("INCOMPLETE" in unescape(line) for line in errors)
    document = json.loads(files["r.json"].read_text(encoding="utf-8"))
    assert document["complete"] is False and document["summary"]["passed"] is False
    for name in ("r.md", "r.html"):
        assert "INCOMPLETE" in files[name].read_text(encoding="utf-8")


def test_the_junit_schema_bites() -> None:
    nameless = "<testsuites><testsuite name='s' tests='1' failures='0' errors='0'>"
    nameless += "<testcase classname='c'/></testsuite></testsuites>"
    with pytest.raises(xmlschema.XMLSchemaValidationError):
        JUNIT_SCHEMA.validate(nameless)


# docs.github.com, "Workflow commands for GitHub Actions": `::{command} {parameters}::{message}`,
# parameters `name=value` joined by commas; `%`, CR and LF escaped in the message, and `:` and
# `,` as well in parameter values.
PARAMETER = r"(?:file|line|endLine|col|endColumn|title)=[^,:\r\n]*"
WORKFLOW_COMMAND = re.compile(
    rf"::(?:error|warning|notice)(?: {PARAMETER}(?:,{PARAMETER})*)?::[^\r\n]*"
)


def unescape(text: str) -> str:
    for escaped, raw in (("%0A", "\n"), ("%0D", "\r"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(escaped, raw)
    return text


@pytest.mark.slow
def test_github_annotations_are_workflow_commands_one_per_behaviour(tmp_path: Path) -> None:
    # One run writes the annotations and the JSON report they are counted against.
    written = tmp_path / "r.json"
    naive = ("support.broken_codecs:NaiveBitDecoder", *FEW)
    run = check(*naive, "--github", "--quiet", "--fail-on", "must", "--json", str(written))
    document = json.loads(written.read_text(encoding="utf-8"))
    lines = [line for line in run.out.splitlines() if line.startswith("::")]
    assert len(lines) == len(document["behaviours"]) >= 2
    for line in lines:
        assert WORKFLOW_COMMAND.fullmatch(line), line
    first = lines[0]
    # Built-in vectors: annotated on no file (test_annotation_places.py), the title first.
    assert first.startswith("::error title=utf8cert%3A decode%3A let ill-formed input through")
    message = unescape(first.split("::", 2)[2])
    assert "reproduce: utf8cert check support.broken_codecs:NaiveBitDecoder --input " in message
    lesser = [line for line in lines if "wrong U+FFFD count" in unescape(line)]
    assert lesser and all(line.startswith("::warning ") for line in lesser)


def test_a_codecs_message_cannot_break_out_of_its_annotation() -> None:
    from utf8cert.harness.reports.github import escape_data, escape_property

    assert escape_data("50%\r\n::error::x") == "50%25%0D%0A::error::x"
    assert escape_property("a,b:c%") == "a%2Cb%3Ac%25"
