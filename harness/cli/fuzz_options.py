"""The options of `utf8cert fuzz`: the codec, how long and how wide the campaign runs, where its
findings go, and what counts as one (level, baseline, profile)."""

from __future__ import annotations

import argparse

from utf8cert.harness.cli.check_options import (
    add_profile_argument,
    add_sandbox_arguments,
    add_vectors_argument,
)
from utf8cert.harness.cli.ranges import MAX_INT, MAX_SEED, whole
from utf8cert.harness.codec.interface import CAPABILITIES
from utf8cert.harness.codec.limits import MAX_SECONDS
from utf8cert.harness.fuzzing.campaign import DEFAULT_MAX_LEN, DEFAULT_TIMEOUT
from utf8cert.harness.vectors.model import LEVELS

MAX_LEN = 1 << 26
"""The longest input a campaign may ask for (64 MiB): libFuzzer keeps buffers of this size, and
the in-flight record (fuzzing/inflight.py) a file of it."""


def add_fuzz_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of `fuzz` to `parser`."""
    # The libFuzzer flags after `--` never reach this parser: cli.main splits them off first
    # (main.PASSING_THROUGH) and hands them over as `arguments.passed`.
    parser.add_argument(
        "spec",
        nargs="?",
        metavar="SPEC",
        help="the codec (default: codec:utf-8; native:LIB.so, a library built with clang's"
        " -fsanitize=fuzzer-no-link,address, is guided by its own branches); libFuzzer flags go"
        " last, after `--`",
    )
    parser.add_argument(
        "--max-time", type=whole(1, MAX_INT, "seconds"), metavar="S", help="stop after S seconds"
    )
    parser.add_argument(
        "--runs", type=whole(1, MAX_INT, "executions"), metavar="N", help="stop after N executions"
    )
    parser.add_argument(
        "--max-len",
        type=whole(1, MAX_LEN, "bytes"),
        default=DEFAULT_MAX_LEN,
        metavar="N",
        help=f"longest input in bytes (default {DEFAULT_MAX_LEN}: past the 64 KiB boundary)",
    )
    parser.add_argument(
        "--jobs",
        type=whole(1, MAX_INT),
        default=1,
        metavar="N",
        help="fuzzing processes sharing one corpus",
    )
    parser.add_argument(
        "--artifacts", default="artifacts", metavar="DIR", help="where findings go (artifacts)"
    )
    parser.add_argument(
        "--capability",
        action="append",
        choices=CAPABILITIES,
        help="fuzz only this capability (repeatable; default: all the codec offers)",
    )
    parser.add_argument(
        "--seed",
        type=whole(1, MAX_SEED),
        metavar="N",
        help=f"libFuzzer's random seed, 1 to {MAX_SEED} (default: a new one each campaign)",
    )
    parser.add_argument(
        "--keep-going",
        action="store_true",
        help="collect every kind of difference instead of stopping at the first",
    )
    parser.add_argument(
        "--fail-on", choices=LEVELS, default="must", help="least binding level that is a finding"
    )
    parser.add_argument(
        "--timeout",
        type=whole(1, MAX_SECONDS, "seconds"),
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help=f"seconds one input may take before it is a hang (default {DEFAULT_TIMEOUT})",
    )
    add_vectors_argument(parser, " to seed and splice from")
    parser.add_argument(
        "--baseline",
        metavar="FILE",
        help="known deviations (utf8cert check --write-baseline FILE): not findings",
    )
    parser.add_argument(
        "--baseline-any-codec",
        action="store_true",
        help="use a baseline recorded for another codec or profile",
    )
    add_profile_argument(parser, "judge")
    parser.add_argument(
        "-q", "--quiet", action="store_true", help="print the summary line only (no progress)"
    )
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="I trust this codec: run it in the judge's process, outside any sandbox (the "
        "judge in the codec's reach; the output and the JSON say so). Default: the codec's "
        "process runs in the OS sandbox and sends its answers to a judge in utf8cert's own",
    )
    add_sandbox_arguments(parser)
    parser.add_argument(
        "--json",
        metavar="FILE",
        help="write the campaign as JSON: findings, executions, time, corpus, why it stopped "
        "(- for standard output)",
    )
