"""A SIGTERM or SIGHUP that reaches a plugin session between items (in a hook after an item,
where no codec is asked) ends it as a Ctrl-C does: pytest's summary printed, its --junitxml
written, valid by the JUnit schema and marked INCOMPLETE, rather than the process killed with
nothing written (Python's default action for those signals)."""

from __future__ import annotations

import signal
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Final

import pytest
import xmlschema

TESTS: Final = Path(__file__).resolve().parents[1]
JUNIT_10: Final = xmlschema.XMLSchema(str(TESTS / "reports" / "junit-10.xsd"))
SIGNAL_AFTER_FIRST_ITEM: Final = """\
import os
import signal


def pytest_runtest_logfinish(nodeid, location):
    # After the item's teardown and report: between items, where no codec is asked.
    os.kill(os.getpid(), signal.{name})
"""


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP])
@pytest.mark.slow
def test_a_signal_between_items_ends_the_session_with_its_junit_report(
    tmp_path: Path, number: signal.Signals
) -> None:
    (tmp_path / "conftest.py").write_text(SIGNAL_AFTER_FIRST_ITEM.format(name=number.name))
    report = tmp_path / "junit.xml"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--utf8-codec",
            "codec:utf-8",
            "-k",
            "sec-1[ or sec-10[",
            f"--junitxml={report}",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == pytest.ExitCode.INTERRUPTED, done.stdout + done.stderr
    assert f"utf8cert: stopped by {number.name}" in done.stdout
    assert "1 passed" in done.stdout  # the first item ran, and no other
    JUNIT_10.validate(str(report))
    marks = [
        prop.get("value")
        for prop in ElementTree.parse(report).getroot().iter("property")
        if prop.get("name") == "utf8cert"
    ]
    assert marks == [f"INCOMPLETE: stopped by {number.name}"]
