"""A warm judge for bench/mutants.py: returns, one JSON line a request, what `utf8cert check`
says of each mutant, each checked in a child forked from a process that has loaded utf8cert and
its vectors once.

    python bench/mutation/warm.py        (requests on standard input, one JSON object a line)

A request is {"directory": D, "module": M, "options": [...], "timeout": S}; the answer
{"returncode": N, "report": {...} or null, "timeout": bool}: the check of `M:Subject` (a
module in the scratch directory D) with `--in-process --fail-on may --quiet --json FILE` and
the options, as trial.py would run it in a fresh interpreter, in a forked child under the same
address-space limit, ended after S seconds of CPU time (or ten times S of wall time). What it
saves is the interpreter's start, the imports and the reading of the vectors (about 0.9 s a
mutant of the 1.2 s the automaton's probes take): the forked child gets the loaded vectors,
the very same VectorSet, from its parent (load_vectors is made to return it again; the vectors
are immutable). For the bench's own mutants only: the parent is never handed to a codec, each
check runs in a child of its own, as in trial.py.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import resource
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.mutation.trial import limit_memory  # noqa: E402

WALL = 10
"""A check may take this many times its CPU-time limit in wall time (a machine loaded tenfold)."""


def warm() -> None:
    """Load utf8cert's check and its vectors, and make later loads return the same set."""
    from utf8cert.harness.cli import check_command  # noqa: F401  (imported before forking)
    from utf8cert.harness.vectors import load
    from utf8cert.harness.vectors.identity import suite_of

    loaded = load.load_vectors()
    suite_of(loaded)  # the digest, kept by identity (identity.py)

    def again(paths: Any = (), *, builtin: bool = True, wanted: Any = ()) -> Any:
        if tuple(paths) == () and builtin:
            return loaded  # every vector, where `wanted` names some: the caller keeps those
        return original(paths, builtin=builtin)

    original = load.load_vectors
    load.load_vectors = again


def child(request: dict[str, Any], report: str) -> int:
    """Run the check the request asks for, in this (forked) process; return its exit status."""
    from utf8cert.harness.cli.main import main

    limit_memory()
    # The time limit is CPU time: on a loaded machine a check starved of the CPU is slow, not
    # hung, and a mutant that loops spends its seconds all the same (SIGXCPU ends it).
    seconds = max(1, math.ceil(request["timeout"]))
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))
    os.chdir(request["directory"])
    sys.path.insert(0, request["directory"])
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    argv = ["check", f"{request['module']}:Subject", "--in-process", "--fail-on", "may"]
    argv += ["--quiet", "--json", report, *request["options"]]
    try:
        return main(argv)
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else 2
    except BaseException:  # a mutant that breaks the check itself: as trial.py's exit 2
        return 2


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """Return the answer to one request (see the module)."""
    with tempfile.TemporaryDirectory(prefix="utf8cert-warm-") as scratch:
        report = str(Path(scratch) / "report.json")
        pid = os.fork()
        if pid == 0:  # the child never returns
            code = 2
            with contextlib.suppress(BaseException):
                code = child(request, report)
            os._exit(code)
        deadline = time.monotonic() + WALL * request["timeout"]
        status = None
        while status is None:
            done, raw = os.waitpid(pid, os.WNOHANG)
            if done:
                status = raw
            elif time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return {"returncode": None, "report": None, "timeout": True}
            else:
                time.sleep(0.01)
        returncode = os.waitstatus_to_exitcode(status)
        if returncode in (-signal.SIGXCPU, -signal.SIGKILL):  # its CPU time was up
            return {"returncode": None, "report": None, "timeout": True}
        text = Path(report).read_text(encoding="utf-8") if Path(report).exists() else ""
        loaded = json.loads(text) if text.strip() else None
        return {"returncode": returncode, "report": loaded, "timeout": False}


def main() -> int:
    """Answer each request of standard input on standard output; return 0 at its end."""
    warm()
    for line in sys.stdin:
        print(json.dumps(answer(json.loads(line))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
