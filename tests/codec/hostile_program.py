"""A protocol program that answers as CPython's codec does, except for inputs holding the byte
C0, where it misbehaves as MODE says: `python hostile_program.py VERSION MODE [FILE]`.

VERSION is the protocol version it speaks (1 or 2). MODE, on an input holding C0:

- twice: writes its answer twice, each line with its own write (and flush);
- twice-at-once: writes its answer twice in one write;
- twice-late: writes its answer, then again 0.2 s later;
- twice-different: writes its answer and then another one (a refusal at 0), in one write;
- garbage: writes a line that is no answer instead of its answer;
- chatter: writes a line that is no answer, then its answer;
- wrong-id: (version 2) answers with an id no request has;
- ahead: (version 2) writes its answer and, in the same write, an answer to the next id, not
  asked yet (a guess);
- flood: writes 8 MiB without a newline, then waits;
- flood-lines: writes its answer 100,000 times;
- hang: never answers;
- hog: allocates 3 GiB (and dies of MemoryError under a smaller limit);
- exit: exits with status 7 at once, saying why on stderr;
- segfault: kills itself with SIGSEGV;
- once: exits with status 9 the first time only (FILE marks that it happened);
- escape: starts a process that leaves the program's session (setsid), then exits;
- spawn: starts `sleep 600` (which inherits its process group), writes the child's pid to FILE,
  then hangs.

In any mode:
- daemon: at start, a daemon (double fork and setsid) that sleeps 600 s;
- early: writes an answer right after the handshake, in the same write, before any request;
- slow: every answer takes 0.1 s, except an input holding C0: 1.5 s.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

CAPABILITIES = "decode replace validate"


def answer(operation: str, data: bytes) -> str:
    """Return CPython's answer to one request, as an answer line without id."""
    if operation == "validate":
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return "ok false"
        return "ok true"
    try:
        text = data.decode("utf-8", "strict" if operation == "decode" else "replace")
    except UnicodeDecodeError as error:
        return f"refused {error.start} {error.reason}"
    return f"ok {text.encode('utf-32-be', 'surrogatepass').hex() or '-'}"


def write(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def misbehave(mode: str, prefix: str, line: str, argument: str) -> bool:
    """Return True when the misbehaviour replaces the answer (False: answer after it)."""
    if mode == "twice":
        write(line)
        write(line)
    elif mode == "twice-at-once":
        write(line + line)
    elif mode == "twice-different":
        write(f"{line}{prefix}refused 0 second thoughts\n")
    elif mode == "twice-late":
        write(line)
        time.sleep(0.2)
        write(line)
    elif mode == "garbage":
        write("this is no answer\n")
    elif mode == "chatter":
        write("debug: decoding\n")
        return False
    elif mode == "wrong-id":
        write(f"999999 {line.partition(' ')[2]}")
    elif mode == "ahead":
        # One write: the guess arrives with the answer. Written later, on its own, a guess
        # cannot be told from a fast answer by a judge that asks one question at a time.
        write(line + f"{int(prefix) + 1} ok -\n")
    elif mode == "flood":
        write("a" * (8 << 20))
        time.sleep(3600)
    elif mode == "flood-lines":
        write(line * 100_000)
    elif mode == "hang":
        time.sleep(3600)
    elif mode == "hog":
        hoard = bytearray(3 << 30)
        write(f"{prefix}ok {len(hoard):08x}\n")
    elif mode == "exit":
        print("fatal: C0 seen", file=sys.stderr, flush=True)
        os._exit(7)
    elif mode == "segfault":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif mode == "once":
        if not os.path.exists(argument):
            open(argument, "w").close()
            os._exit(9)
        return False
    elif mode == "spawn":
        child = subprocess.Popen(["sleep", "600"])
        with open(argument, "w") as mark:
            mark.write(str(child.pid))
        time.sleep(3600)
    elif mode == "escape":
        escape()
        os._exit(7)
    else:
        return False
    return True


def escape() -> None:
    """Start a process that leaves this one's session and group (setsid) and sleeps, its pipes
    closed: a kill of this program's group does not reach it."""
    if os.fork() == 0:
        os.setsid()
        for fd in range(3):
            os.close(fd)
        time.sleep(600)
        os._exit(0)


def main() -> None:
    version, mode = int(sys.argv[1]), sys.argv[2]
    argument = sys.argv[3] if len(sys.argv) > 3 else ""
    handshake = f"utf8cert-protocol {version} {CAPABILITIES}\n"
    if mode == "daemon" and os.fork() == 0:  # a daemon: a grandchild in a session of its own
        escape()
        os._exit(0)
    write(handshake + ("1 ok -\n" if version == 2 else "ok -\n") if mode == "early" else handshake)
    for request in sys.stdin:
        words = request.split()
        prefix = f"{words.pop(0)} " if version == 2 else ""
        operation, data = words[0], bytes.fromhex("" if words[1] == "-" else words[1])
        line = f"{prefix}{answer(operation, data)}\n"
        if mode == "slow":
            time.sleep(1.5 if 0xC0 in data else 0.1)
        if 0xC0 in data and misbehave(mode, prefix, line, argument):
            continue
        write(line)


if __name__ == "__main__":
    main()
