"""The options of `utf8cert check`: the codec and vectors checked, the one input checked instead,
the limits of a run, how the report is shown and where it goes, and the level that fails it."""

from __future__ import annotations

import argparse

from utf8cert.harness.check.interrupt import DEADLINE_EXIT
from utf8cert.harness.check.profiles import PROFILES
from utf8cert.harness.check.seeded_inputs import SEED
from utf8cert.harness.cli.ranges import MAX_SEED, seconds, whole
from utf8cert.harness.codec.children import DEFAULT_MEMORY_MB
from utf8cert.harness.codec.limits import MAX_MEMORY_MIB
from utf8cert.harness.vectors.model import LEVELS

DEFAULT_TIMEOUT = 10.0
DEFAULT_PROFILE = "rfc3629"


def add_check_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of `check` to `parser`."""
    parser.add_argument(
        "spec",
        nargs="?",
        metavar="SPEC",
        help="MODULE:ATTR, codec:NAME[:ERRORS], cmd:COMMAND, adapter:NAME or native:LIB.so"
        " (default: codec:utf-8)",
    )
    add_vectors_argument(parser, ", checked with the built-in ones")
    parser.add_argument(
        "--vector",
        action="append",
        default=[],
        metavar="ID",
        help="check only the vector with this id (repeatable; built-in or from --vectors)",
    )
    parser.add_argument(
        "--seed",
        type=whole(0, MAX_SEED),
        default=SEED,
        metavar="N",
        help="the seed of the pass of generated inputs after the vectors, the same inputs for "
        f"the same seed (default: {SEED}); a run of --vector IDs asks none",
    )
    add_output_arguments(parser)
    add_limit_arguments(parser)
    parser.add_argument(
        "--fail-on",
        choices=LEVELS,
        default="must",
        help="the least binding level that fails the run (default: must)",
    )
    parser.add_argument("--baseline", metavar="FILE", help="known deviations: only new ones fail")
    parser.add_argument(
        "--baseline-any-codec",
        action="store_true",
        help="use a baseline recorded for another codec or profile",
    )
    parser.add_argument(
        "--strict-baseline",
        action="store_true",
        help="fail when a known deviation no longer occurs (the baseline is out of date)",
    )
    parser.add_argument(
        "--write-baseline", metavar="FILE", help="write every difference found as known"
    )
    add_isolation_arguments(parser)
    parser.add_argument(
        "--timeout",
        type=seconds,
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help=f"seconds allowed per call in a child process (default: {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--depth",
        choices=("default", "full"),
        default="default",
        help="default: every vector as is, mid-stream and byte by byte, the shifts, straddles "
        "and every-point cuts spread over the vectors; full: every variant of every vector",
    )
    given = parser.add_mutually_exclusive_group()
    given.add_argument(
        "--input",
        metavar="HEX",
        help="check one byte string instead of the vectors, each capability's answer shown "
        "beside the reference's; - reads the bytes (raw, not hex) from standard input",
    )
    given.add_argument(
        "--input-file", metavar="FILE", help="check the bytes of FILE as one input (as --input)"
    )
    add_profile_argument(parser, "check")


def add_isolation_arguments(parser: argparse.ArgumentParser) -> None:
    """Add --in-process and --isolate: where a Python codec runs (`arguments.isolate`).

    Isolated is the default: a process cannot outlive a codec's `os._exit(0)`, nor judge
    answers with a judge the codec has patched, so only a codec in another process can fail
    the gate whatever it does. In process is the fast path for code one trusts."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--in-process",
        dest="isolate",
        action="store_false",
        help="run a Python codec in utf8cert's own process: faster, but the codec is trusted "
        "(os._exit(0) or a patch of utf8cert can end or forge the run)",
    )
    where.add_argument(
        "--isolate",
        dest="isolate",
        action="store_true",
        help="run a Python codec in a child process, where nothing it does reaches the judge "
        "(the default)",
    )
    parser.set_defaults(isolate=True)
    add_sandbox_arguments(parser)


def add_sandbox_arguments(parser: argparse.ArgumentParser) -> None:
    """Add --sandbox-writable, --sandbox-env and --require-sandbox: the OS sandbox of a codec's
    child process (harness/codec/sandbox.py, docs/sandbox.md)."""
    parser.add_argument(
        "--sandbox-writable",
        action="append",
        default=[],
        metavar="PATH",
        help="a path the codec's child may write (repeatable); the sandbox keeps the rest of "
        "the filesystem read-only",
    )
    parser.add_argument(
        "--sandbox-env",
        action="append",
        default=[],
        metavar="NAME",
        help="a variable of this environment the codec's child gets (repeatable); it gets only "
        "those its runtime needs otherwise (PATH, the locale, ...: docs/sandbox.md)",
    )
    parser.add_argument(
        "--require-sandbox",
        action="store_true",
        help="fail (exit 2) where no OS sandbox can be made, instead of running the codec "
        "behind the process boundary only (and saying so in the report)",
    )


def add_limit_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options that bound a whole run and each call of an isolated codec."""
    parser.add_argument(
        "--deadline",
        type=seconds,
        metavar="S",
        help="stop after S seconds in all, with a report of the vectors checked until then "
        f"marked INCOMPLETE (exit {DEADLINE_EXIT}); default: 120 s and 1 s a vector asked",
    )
    parser.add_argument(
        "--memory",
        type=whole(1, MAX_MEMORY_MIB, "MiB"),
        metavar="MIB",
        default=DEFAULT_MEMORY_MB,
        help="memory allowed to an isolated codec or cmd: program, in MiB (default: "
        f"{DEFAULT_MEMORY_MB}); more is a finding",
    )


def add_output_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options that say how the report is shown and which files it goes to."""
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument(
        "-v", "--verbose", action="store_true", help="explain every difference, not one a behaviour"
    )
    shown.add_argument("-q", "--quiet", action="store_true", help="print the verdict line only")
    parser.add_argument(
        "--show-level",
        choices=LEVELS,
        default="may",
        help="show the behaviours at this level or above in the terminal, Markdown and HTML "
        "reports (default: may, all); the verdict and the counts stay the whole run's",
    )
    parser.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the report (default: auto, on a terminal unless NO_COLOR is set)",
    )
    parser.add_argument(
        "--json", metavar="FILE", help="write the report as JSON (- for standard output)"
    )
    parser.add_argument("--markdown", metavar="FILE", help="write a markdown certificate")
    parser.add_argument(
        "--junit-xml", metavar="FILE", help="write JUnit XML: a test case per vector and capability"
    )
    parser.add_argument("--html", metavar="FILE", help="write a self-contained HTML report")
    parser.add_argument(
        "--github",
        action="store_true",
        help="print GitHub Actions annotations, one per behaviour",
    )


def add_vectors_argument(parser: argparse.ArgumentParser, use: str) -> None:
    """Add --vectors: the user's vector files or directories; `use` ends its help line.

    One path an option (repeat it for more): with nargs="+" it would take the SPEC after it
    (`check --vectors DIR SPEC` checked CPython's codec, loading SPEC as vectors)."""
    parser.add_argument(
        "--vectors",
        action="append",
        default=[],
        metavar="PATH",
        help=f"an extra vector file or directory{use} (repeatable)",
    )


def add_profile_argument(parser: argparse.ArgumentParser, verb: str) -> None:
    """Add --profile: the dialect to `verb` against instead of RFC 3629."""
    parser.add_argument(
        "--profile",
        default=DEFAULT_PROFILE,
        choices=list(PROFILES),
        help=f"{verb} against a named dialect instead of RFC 3629 (default: {DEFAULT_PROFILE})",
    )
