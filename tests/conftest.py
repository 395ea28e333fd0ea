"""Shared test configuration: the peer suites' location, Hypothesis profiles, the sign of life
of a long session (heartbeat.py), and how many xdist workers `-n logical` starts."""

from __future__ import annotations

import compileall
import os
import signal
import threading
from pathlib import Path
from types import FrameType

import pytest
from hypothesis import HealthCheck, settings
from support.heartbeat import Heartbeat

from utf8cert.harness.check.interrupt import STOPPING
from utf8cert.harness.codec.child_environment import NAMED_VARIABLE
from utf8cert.harness.codec.sandbox import WRITABLE_VARIABLE

TEST_VARIABLES = (
    "HOSTILE_MARK",  # hostile_codecs.py, hostile_programs.py: where an attack leaves its mark
    "FUZZ_CODECS_MARK",
    "MARK",
    "CALLS",
    "WEAR_OUT_AFTER",  # lying_codecs.py: when a codec starts to lie
    "BREAK_AFTER",
    "BREAK_HOW",
    "PROBE_LOG",  # sandbox_probe.py: the attack probe's log, token and reports
    "PROBE_TOKEN",
    "PROBE_REPORTS",
    "PROBE_PORT",
    "PROBE_SECRETS",
    "TMP_FILL_MIB",  # tmp_filler.py: how much it writes into its temporary directory
)
"""The variables the tests' codecs read in their child processes, which get none of the judge's
environment but what their runtime needs and what is named (harness/codec/child_environment.py)."""

ROOT = Path(__file__).resolve().parents[1]
IMPORTED_BY_CHILDREN = (
    "namespace",
    "harness",
    "reference",
    "corpus",
    "vectors",
    "fuzz",
    "bench",
    "tests/support",
)
"""The folders whose modules the processes a test starts import: utf8cert's own (installed
in place by `pip install -e`; namespace/ is its `python -m utf8cert`), the bench scripts some
tests run, and the tests' codecs."""

# Deterministic by default (CI and a loaded 2-core machine): derandomized, no deadline.
settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile("explore", deadline=None, max_examples=10_000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """Return the workers pyproject's `-n logical` starts: one more than the CPUs this process
    may run on. Much of the suite waits on the child processes it starts (time limits, hangs,
    programs starting): on 2 CPUs, tests/check, codec and plugin kept the CPUs 57 % busy with
    2 workers (338 s) and took 274 s with 3 (bench/README.md, "CI time")."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) + 1
    return (os.cpu_count() or 1) + 1


def _ignored(number: int, frame: FrameType | None) -> None:
    """Do nothing with a stopping signal the run was started ignoring."""


def pytest_configure(config: pytest.Config) -> None:
    """Register the heartbeat (it beats in the session that writes to the terminal alone), and
    start every process a test starts with the stopping signals as a terminal gives them.

    A run started in the background of a shell (`cmd &`, SIGINT ignored) or under nohup (SIGHUP
    ignored) passes the ignoring on to every child, and utf8cert keeps a signal its parent
    ignores ignored (check/interrupt.py heeded()): a test sending it SIGINT would wait out its
    timeout. Here a signal ignored is ignored by a handler that does nothing instead, which no
    child inherits (exec resets handlers), so the run still ignores it and its children do not
    (tests/cli/test_stale_reports.py starts one as nohup does on purpose)."""
    config.pluginmanager.register(Heartbeat(config), "utf8cert-heartbeat")
    if not hasattr(config, "workerinput"):  # the session's first process, before any worker
        _compile_what_children_import()
    if threading.current_thread() is threading.main_thread():
        for number in STOPPING:
            if signal.getsignal(number) == signal.SIG_IGN:
                signal.signal(number, _ignored)


def _compile_what_children_import() -> None:
    """Write the bytecode of every module in IMPORTED_BY_CHILDREN beside its source, as Python
    does on import unless PYTHONDONTWRITEBYTECODE is set (this project's machines set it).

    With it set, each of the processes the tests start (hundreds of `utf8cert` runs, and each
    isolated codec's child) compiled again every module it imported: `utf8cert check --help`
    took 0.6 CPU-s, 0.3 with the bytecode there. Python reads bytecode whatever that variable
    says, and compiles again in memory a module whose source changed since (its bytecode
    records the source's time and size); files `__pycache__/`, which git ignores. A folder
    that cannot be written (a read-only checkout) is left as it was, silently: its modules are
    compiled on import, as before."""
    for folder in IMPORTED_BY_CHILDREN:
        compileall.compile_dir(ROOT / folder, quiet=2)


@pytest.fixture(autouse=True, scope="session")
def _children_may_write_the_test_directories(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Let the codecs under test write their marks (HOSTILE_MARK, ...) into the tests' temporary
    directories, which the OS sandbox would otherwise keep read-only (harness/codec/sandbox.py);
    tests/sandbox/ removes this to show the sandbox whole."""
    os.environ[WRITABLE_VARIABLE] = str(tmp_path_factory.getbasetemp())


@pytest.fixture(autouse=True, scope="session")
def _children_get_the_tests_variables() -> None:
    """Name TEST_VARIABLES for the codecs' children (utf8cert's own processes, started by the
    tests, inherit the naming); tests/sandbox/test_child_environment.py shows a variable not named
    kept from them."""
    os.environ[NAMED_VARIABLE] = os.pathsep.join(TEST_VARIABLES)
