"""The `utf8cert` command: returns its exit status (0 pass, 1 differences, 2 usage or load error).

Each subcommand lives in its own module with a `register(subcommands)` function that adds its
parser and sets `run` (a function of the parsed arguments returning the exit status). To add a
subcommand, add its module to COMMANDS; keep heavy imports inside `run`, so that `--help` and the
other subcommands stay fast.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import os
import re
import select
import sys
from collections.abc import Sequence
from typing import NoReturn

from utf8cert.harness.check.report import utf8cert_version
from utf8cert.harness.cli import environment

COMMANDS: list[str] = [
    "utf8cert.harness.cli.check_command",
    "utf8cert.harness.cli.vectors_command",
    "utf8cert.harness.cli.fuzz_command",
    "utf8cert.harness.cli.corpus_command",
    "utf8cert.harness.cli.adapters_command",
    "utf8cert.harness.cli.matrix_command",
]
"""Modules that each register one subcommand."""

USAGE_ERROR = 2

BROKEN_PIPE = 141
"""The exit status when whatever read standard output stopped reading (128 + SIGPIPE, as a
shell reports a program that SIGPIPE killed): `utf8cert vectors list | head -3`."""

PASSING_THROUGH: frozenset[str] = frozenset({"fuzz"})
"""Subcommands that hand the words after `--` to another program (fuzz: libFuzzer's flags), as
`arguments.passed`, wherever `--` stands; for the others argparse reads `--` itself."""


class UsageFailure(Exception):
    """A problem with what the user asked for; str() is the one line to print (exit 2)."""


_INVALID_CHOICE = re.compile(r"invalid choice: '(?P<given>.*?)' \(choose from (?P<choices>.*)\)$")


def close_match(word: str, candidates: Sequence[str]) -> str:
    """Return ' (did you mean X?)' for the candidate closest to a mistyped `word` ('' when none
    is close: difflib's ratio under 0.6)."""
    found = difflib.get_close_matches(word, candidates, n=1)
    return f" (did you mean {found[0]}?)" if found else ""


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr (and exit 2), not a usage block;
    a mistyped choice (a subcommand, a --profile) gets the closest one suggested."""

    def error(self, message: str) -> NoReturn:
        """Never return: print `message` as one line on stderr and exit with status 2."""
        invalid = _INVALID_CHOICE.search(message)
        if invalid is not None:
            # Python before 3.12.8 quotes each choice, later ones do not: strip the quotes.
            choices = [each.strip("'") for each in invalid["choices"].split(", ")]
            message += close_match(invalid["given"], choices)
        self.exit(USAGE_ERROR, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def chosen_parser(
    parser: argparse.ArgumentParser, arguments: argparse.Namespace
) -> argparse.ArgumentParser:
    """Return the parser of the (sub)command `arguments` were parsed for: `parser` itself, or
    the subcommand's (`check`), or its action's (`vectors export`)."""
    while True:
        subcommands = [
            action for action in parser._actions if isinstance(action, argparse._SubParsersAction)
        ]
        name = getattr(arguments, subcommands[0].dest, None) if subcommands else None
        if name is None or name not in subcommands[0].choices:
            return parser
        parser = subcommands[0].choices[name]


def unrecognized(parser: argparse.ArgumentParser, words: Sequence[str]) -> str:
    """Return the error for `words` that `parser` does not know, each option among them with
    the closest of `parser`'s options suggested (`--jsn`: did you mean --json?)."""
    options = [option for action in parser._actions for option in action.option_strings]
    named = []
    for word in words:
        typed = word.split("=", 1)[0]
        named.append(word + (close_match(typed, options) if typed.startswith("-") else ""))
    return f"unrecognized arguments: {' '.join(named)}"


def build_parser() -> argparse.ArgumentParser:
    """Return the parser of the whole command, every module in COMMANDS registered."""
    parser = OneLineParser(
        prog="utf8cert",
        description="Certify a UTF-8 codec against RFC 3629: vectors, variants, a verdict.",
    )
    parser.add_argument("--version", action="version", version=f"utf8cert {utf8cert_version()}")
    subcommands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(name).register(subcommands)
    return parser


def split_passed(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """Return (the words utf8cert parses, the words it passes on): split at the first `--` for
    a subcommand in PASSING_THROUGH, else (argv, []).

    argparse gives the words after `--` to a positional only while it is still unmatched, so
    `fuzz SPEC --max-time 5 -- -seed=1` would fail; split first, it works wherever `--` is.
    """
    words = list(argv)
    command = next((word for word in words if not word.startswith("-")), None)
    if command not in PASSING_THROUGH or "--" not in words:
        return words, []
    separator = words.index("--")
    return words[:separator], words[separator + 1 :]


def main(argv: Sequence[str] | None = None) -> int:
    """Return the exit status of `utf8cert ARGS` (sys.argv when None), printing one line on
    stderr for a usage or load error instead of a traceback.

    As the command (argv None), it ends the process once its work is done, even if a codec
    left a thread running that would keep Python from exiting.
    """
    if argv is not None:
        return _main(argv)
    from utf8cert.harness.codec.sandbox import protect_judge

    environment.prepare()
    protect_judge()  # no process of this user reads or writes utf8cert's memory (sandbox.py)
    status = environment.unwritable(_main, None)
    if environment.lingering():
        environment.end_now(status)
    return status


def _main(argv: Sequence[str] | None) -> int:
    """Return the exit status of `main`, in this process."""
    from utf8cert.harness.codec.isolate import ResourceFailure

    stdout_closed = _reopen_closed_stdout()
    parser = build_parser()
    own, passed = split_passed(sys.argv[1:] if argv is None else argv)
    arguments, extra = parser.parse_known_args(own)
    if extra:
        chosen = chosen_parser(parser, arguments)
        chosen.error(unrecognized(chosen, extra))
    if arguments.command is None:  # plain `utf8cert`: check CPython's own codec
        arguments = parser.parse_args(["check"])
    arguments.passed = passed
    arguments.stdout_closed = stdout_closed
    try:
        if not getattr(arguments, "releases_signals", False):
            environment.release_signals()  # else the command does, once it can end cleanly
        status: int = arguments.run(arguments)
    except (UsageFailure, ResourceFailure) as failure:  # a ResourceFailure is utf8cert's own
        print(f"utf8cert: error: {failure}", file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt:
        print("utf8cert: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        if not _stdout_broken():
            raise
        return BROKEN_PIPE
    return status


def _reopen_closed_stdout() -> bool:
    """Return whether standard output was closed (`utf8cert check >&-`); if so, descriptor 1
    is opened on /dev/null (so that no file utf8cert opens takes its place, to be written by a
    stray print or a child) and what is printed for the user goes to standard error."""
    if sys.stdout is not None:
        return False
    descriptor = os.open(os.devnull, os.O_WRONLY)
    if descriptor != 1:
        os.dup2(descriptor, 1)
        os.close(descriptor)
    sys.stdout = sys.stderr if sys.stderr is not None else open(os.devnull, "w")  # noqa: SIM115
    return True


def _stdout_broken() -> bool:
    """Return whether standard output is a pipe nobody reads any more (poll says POLLERR on
    its writing end); if so it is pointed at /dev/null, so that the interpreter's last flush
    does not fail in turn."""
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    poll = select.poll()
    poll.register(descriptor, select.POLLOUT)
    if not any(events & select.POLLERR for _, events in poll.poll(0)):
        return False
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, descriptor)
    os.close(devnull)
    return True
