"""A report is bound to its run and its suite: every report path holds an INCOMPLETE report
from before the codec first runs (a judge killed with SIGKILL leaves no earlier pass behind),
every report names the SHA-256 and count of the vectors asked, and two report options naming
one file are refused. The formats are checked against the JSON Schema shipped with the report and
the JUnit schema CI systems document; the digest against `sha256` of `utf8cert vectors export`."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any, Final

import jsonschema
import pytest
import xmlschema
from support.cli_runs import check
from support.user_vectors import EXTRA_VECTOR

from utf8cert.harness.cli.main import main
from utf8cert.harness.reports.json_report import schema

REPORTS = Path(__file__).parents[1] / "reports"
JUNIT_SCHEMA: Final = xmlschema.XMLSchema(str(REPORTS / "junit-10.xsd"))
ANNOUNCING_CODEC: Final = '''\
"""A codec that says it has started (it creates the file $MARK), then answers nothing for
five minutes: a judge killed meanwhile is killed mid-run."""
import os
import pathlib
import time


class Slow:
    def decode(self, data: bytes) -> str:
        pathlib.Path(os.environ["MARK"]).touch()
        time.sleep(300)
        return data.decode("utf-8")
'''
FORMATS: Final = {
    "--json": "r.json",
    "--junit-xml": "r.xml",
    "--markdown": "r.md",
    "--html": "r.html",
}
UNFINISHED: Final = "INCOMPLETE: the run did not finish"


def report_options(directory: Path) -> list[str]:
    """Return the options that write every report format into `directory`."""
    return [word for option, name in FORMATS.items() for word in (option, str(directory / name))]


def junit_failures(path: Path) -> int:
    """Return the failures the JUnit report at `path` counts, once it is valid by the schema."""
    JUNIT_SCHEMA.validate(str(path))
    return int(ElementTree.parse(path).getroot().get("failures", "-1"))


@pytest.mark.slow
def test_a_judge_killed_mid_run_leaves_an_incomplete_report_at_every_path(
    tmp_path: Path,
) -> None:
    # First a passing run's reports, as a previous CI job leaves them.
    passed = check("codec:utf-8", "--in-process", "--vector", "rfc3629-7-1", "-q",
                   *report_options(tmp_path))  # fmt: skip
    assert passed.status == 0
    assert json.loads((tmp_path / "r.json").read_text())["certified"] is True
    assert junit_failures(tmp_path / "r.xml") == 0
    (tmp_path / "Slow.py").write_text(ANNOUNCING_CODEC)
    mark = tmp_path / "started"
    environment = {**os.environ, "PYTHONPATH": str(tmp_path), "MARK": str(mark)}
    judge = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "utf8cert.harness",
            "check",
            "Slow:Slow",
            "-q",
            *report_options(tmp_path),
        ],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not mark.exists() and judge.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert mark.exists(), "the codec never ran"
        judge.send_signal(signal.SIGKILL)  # no handler sees it: nothing is written after this
        assert judge.wait(30) == -signal.SIGKILL
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(judge.pid, signal.SIGKILL)  # the codec's child, if it outlived the judge
        judge.wait()
    document = json.loads((tmp_path / "r.json").read_text())
    jsonschema.Draft202012Validator(schema()).validate(document)
    assert document["certified"] is False and document["complete"] is False
    assert document["summary"]["passed"] is False and document["summary"]["conformant"] is False
    assert document["summary"]["gate"].startswith(UNFINISHED)
    assert junit_failures(tmp_path / "r.xml") == 1
    failure = ElementTree.parse(tmp_path / "r.xml").getroot().find(".//failure")
    assert failure is not None and failure.get("message", "").startswith(UNFINISHED)
    for name in ("r.md", "r.html"):
        assert UNFINISHED in (tmp_path / name).read_text()


def export_digest(*arguments: str) -> tuple[str, int]:
    """Return the SHA-256 of `utf8cert vectors export ARGUMENTS` and the vectors it counts."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["vectors", "export", *arguments]) == 0
    counts = json.loads(out.getvalue())["counts"]
    return hashlib.sha256(out.getvalue().encode()).hexdigest(), counts["decode"] + counts["encode"]


def suite_named(directory: Path, text: str) -> dict[str, Any]:
    """Return the suite each format in `directory` and the terminal `text` name, once they
    agree: its sha256, vectors and utf8cert version."""
    document = json.loads((directory / "r.json").read_text())
    suite: dict[str, Any] = document["suite"]
    # What a whole check asked after the vectors: the JSON report's numbers (check/seeded.py).
    after: dict[str, str] = {}
    if document["sweep"] is not None:
        after["utf8cert.sweep.questions"] = str(document["sweep"]["questions"])
    if document["seeded"] is not None:
        after["utf8cert.seeded.seed"] = str(document["seeded"]["seed"])
        after["utf8cert.seeded.inputs"] = str(document["seeded"]["inputs"])
    root = ElementTree.parse(directory / "r.xml").getroot()
    for testsuite in root:
        properties = {p.get("name"): p.get("value") for p in testsuite.iter("property")}
        properties.pop("boundary", None)  # the sandbox's, tests/sandbox asserts it
        assert {name: properties.pop(name, None) for name in after} == after
        assert properties == {
            "utf8cert.suite.sha256": suite["sha256"],
            "utf8cert.suite.vectors": str(suite["vectors"]),
            "utf8cert.version": suite["utf8cert"],
        }
    noun = "vector" if suite["vectors"] == 1 else "vectors"  # issue 42: "1 vectors asked"
    line = f"{suite['vectors']} {noun} asked, SHA-256 {suite['sha256']}"
    assert f"| Suite | {line} |" in (directory / "r.md").read_text()
    assert f'<p id="suite">Suite: {line}.</p>' in (directory / "r.html").read_text()
    assert f"\nsuite: {line}\n" in text
    return suite


@pytest.mark.slow
def test_every_report_names_the_digest_and_count_of_the_vectors_asked(tmp_path: Path) -> None:
    mine = tmp_path / "mine.yaml"
    mine.write_text(EXTRA_VECTOR)
    digest, count = export_digest("--vectors", str(mine))
    every = check("codec:utf-8", "--in-process", "--vectors", str(mine), *report_options(tmp_path))
    assert every.status == 0  # extra-1 is a lone low surrogate, which strict utf-8 refuses too
    suite = suite_named(tmp_path, every.out)
    assert suite["sha256"] == digest and suite["vectors"] == count
    JUNIT_SCHEMA.validate(str(tmp_path / "r.xml"))
    # The vectors actually asked: one vector is another suite, its count 1.
    one = check("codec:utf-8", "--in-process", "--vector", "rfc3629-7-1", *report_options(tmp_path))
    assert one.status == 0
    alone = suite_named(tmp_path, one.out)
    assert alone["vectors"] == 1 and alone["sha256"] != digest


def test_two_report_options_naming_one_file_are_refused(tmp_path: Path) -> None:
    report = tmp_path / "r"
    run = check("--json", str(report), "--markdown", f"{tmp_path}/./r")
    assert run.status == 2 and run.out == ""
    assert run.err == (
        f"utf8cert: error: --json {report} and --markdown {tmp_path}/./r name one file: "
        "give each its own path\n"
    )
    assert not report.exists()
    report.write_text("an old report\n")
    os.link(report, tmp_path / "hard")  # a hard link is the same file under another name
    run = check("--junit-xml", str(report), "--html", str(tmp_path / "hard"))
    assert run.status == 2 and "name one file" in run.err
    assert report.read_text() == "an old report\n"
