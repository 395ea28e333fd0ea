"""Returns how utf8cert's check judges one mutant: killed at must, should or may, or survived.

Each mutant is written as a module of its own into a scratch directory and checked by
`utf8cert check MODULE:Subject --in-process --fail-on may --quiet --json -` in a child process,
with a time limit and a memory limit (a mutant can loop forever or grow a list without end).
In process within that child: the child is the isolation, and the error's extent and streaming
timeliness are judged only where utf8cert calls the codec itself (the protocol carries neither).
The verdict is the most binding level among the behaviours the report finds. A mutant the
check never gets an answer from is killed at must too, for the reason given: a hang (the time
limit), or a module that does not load (utf8cert's exit 2). Survivors are then compared with
the original codec in another child (equivalence.py), which says whether they are equivalent.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.mutation.mutate import Mutant

LEVELS = ("must", "should", "may")
MEMORY = 2 << 30
"""Bytes a child may map: far above a check's needs, far below what would hurt the machine."""


@dataclass(frozen=True)
class Verdict:
    """What became of one mutant: `level` is must/should/may (killed), "survived", or after the
    comparison "equivalent" or "choice"; `how` the first behaviour found, "timeout", "does not
    load", or for a survivor what the comparison found."""

    level: str
    how: str
    difference: dict[str, str] | None = None


def limit_memory() -> None:
    """Cap the child's address space (run in the child before exec)."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def child_env(directory: Path) -> dict[str, str]:
    """Return the environment of a child: the scratch directory first on the import path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(directory), env.get("PYTHONPATH", "")]).rstrip(":")
    return env


def write(mutant: Mutant, directory: Path) -> Path:
    """Return the path of `mutant` written as a module into `directory`."""
    path = directory / f"subject_{mutant.id}.py"
    path.write_text(mutant.source, encoding="utf-8")
    return path


class Warm:
    """A warm judge (warm.py) of one thread's mutants, started at the first question."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[str] | None = None

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """Return warm.py's answer to one request."""
        if self.process is None:
            command = [sys.executable, str(Path(__file__).with_name("warm.py"))]
            self.process = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
            )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        answer: dict[str, Any] = json.loads(self.process.stdout.readline())
        return answer

    def close(self) -> None:
        """End the warm judge (it ends when its input does)."""
        if self.process is not None and self.process.stdin is not None:
            self.process.stdin.close()
            self.process.wait()


def judge(
    mutant: Mutant,
    directory: Path,
    timeout: float,
    first: Sequence[str] = (),
    warm: Warm | None = None,
    chosen: Sequence[str] = (),
) -> Verdict:
    """Return utf8cert's verdict on `mutant` (killed at a level, or "survived").

    `first`: ids of vectors whose plan does not depend on the other vectors (the automaton's
    probes: check/schedule.py gives each of them the same questions whatever else is checked),
    checked alone first: where they kill the mutant at must (a behaviour, a hang or a module
    that does not load), the whole check would too, on the same questions, and is spared.
    `warm`: each check is a child forked by that warm judge (warm.py), not a new interpreter.
    `chosen`: the options that choose the whole check's vectors (none: all of them)."""
    path = write(mutant, directory)
    if first:
        selected = [option for vector in first for option in ("--vector", vector)]
        quick = _check(path, directory, timeout, selected, warm)
        if quick.level == "must" and not quick.how.startswith("not certified"):
            return Verdict("must", f"{quick.how} (on the probes alone)")
    return _check(path, directory, timeout, chosen, warm)


def _check(
    path: Path, directory: Path, timeout: float, selected: Sequence[str], warm: Warm | None
) -> Verdict:
    """Return the verdict of one `utf8cert check` of the module at `path` (`selected`: the
    options that choose its vectors, none for all)."""
    if warm is not None:
        request = {"directory": str(directory), "module": path.stem, "timeout": timeout}
        answer = warm.ask(request | {"options": list(selected)})
        if answer["timeout"]:
            return Verdict("must", f"timeout ({timeout:g} s)")
        return _verdict(answer["returncode"], answer["report"], "exit 2")
    command = [sys.executable, "-m", "utf8cert.harness", "check", f"{path.stem}:Subject"]
    command += ["--in-process", "--fail-on", "may", "--quiet", "--json", "-", *selected]
    try:
        done = subprocess.run(
            command, cwd=directory, env=child_env(directory), capture_output=True, text=True,
            timeout=timeout, preexec_fn=limit_memory,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return Verdict("must", f"timeout ({timeout:g} s)")
    line = (done.stderr.strip().splitlines() or ["no output"])[-1]
    report = json.loads(done.stdout) if done.stdout.strip() else None
    return _verdict(done.returncode, report, line)


def _verdict(returncode: int, report: dict[str, Any] | None, why: str) -> Verdict:
    """Return the verdict of a check that exited with `returncode` and wrote `report` (None:
    nothing), `why` the last line it printed on error."""
    if returncode == 2 or report is None:
        return Verdict("must", f"does not load: {why[:100]}")
    behaviours = [b for b in report["behaviours"] if b["level"] in LEVELS]
    if not behaviours:
        if returncode == 0:
            return Verdict("survived", "")
        return Verdict("must", f"not certified: {report['summary']['gate'][:100]}")
    worst = min(behaviours, key=lambda b: LEVELS.index(b["level"]))
    return Verdict(worst["level"], f"{worst['id']}")


def equivalence(original: Path, mutant: Mutant, directory: Path, timeout: float) -> Verdict:
    """Return the survivor `mutant`'s verdict: "equivalent"; "choice" (it differs from the
    original only in a choice the standard leaves to a codec, equivalence.choice), a conformant
    codec the check rightly passes; or "survived" with its shortest difference."""
    path = write(mutant, directory)
    command = [sys.executable, str(Path(__file__).with_name("equivalence.py"))]
    command += [str(original), str(path)]
    try:
        done = subprocess.run(
            command, cwd=directory, capture_output=True, text=True, timeout=timeout,
            preexec_fn=limit_memory,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return Verdict("survived", "hangs on an input the check never feeds")
    if done.returncode != 0:
        line = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return Verdict("survived", f"comparison failed: {line[:100]}")
    difference = json.loads(done.stdout)
    if difference is None:
        return Verdict("equivalent", "no input found that tells it from the original")
    if "choice" in difference:
        return Verdict("choice", f"differs only in a choice: {difference['choice']}", difference)
    return Verdict("survived", "differs", difference)
