"""`utf8cert corpus build|target|pack`: returns 0 after writing the seed corpus (one raw file per
distinct vector input), a ClusterFuzzLite / OSS-Fuzz fuzz target for a codec, or what a built
target ships beside it (options, dictionary, seed zip); 2 for a usage or load error (one line on
stderr)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from utf8cert.harness.check.behaviour import Behaviour
from utf8cert.harness.cli.check_options import add_profile_argument, add_vectors_argument
from utf8cert.harness.vectors.model import LEVELS


def register(subcommands: Any) -> None:
    """Add the `corpus` subcommand's parser and its `build` action."""
    corpus = subcommands.add_parser(
        "corpus",
        help="manage the seed corpus",
        description="Build the fuzzers' seed corpus from the vectors (build), write a "
        "ClusterFuzzLite / OSS-Fuzz fuzz target for a codec (target), or what a built target "
        "ships beside it (pack). Exit status: 0 written, 2 usage or load error.",
    )
    actions = corpus.add_subparsers(dest="action", metavar="ACTION", required=True)
    build = actions.add_parser(
        "build",
        help="write one seed file per vector input",
        description="Write the seed corpus: one raw file per distinct vector input, named "
        "after the vector; seeds of vectors that are gone are removed.",
    )
    build.add_argument(
        "--out",
        metavar="DIR",
        help="where to write (default: corpus/seeds/ of utf8cert's source tree)",
    )
    add_vectors_argument(build, ", whose inputs are seeds too")
    build.set_defaults(run=run_corpus_build)
    target = actions.add_parser(
        "target",
        help="write a ClusterFuzzLite / OSS-Fuzz fuzz target for a codec",
        description="Write NAME.py, a fuzz target for the codec of SPEC, for ClusterFuzzLite "
        "or OSS-Fuzz (docs/fuzzing.md shows the build).",
    )
    target.add_argument("spec", metavar="SPEC", help="the codec (as for `utf8cert check`)")
    target.add_argument("--out", default="fuzz", metavar="DIR", help="where to write (fuzz)")
    target.add_argument("--name", metavar="NAME", help="file stem (default: from SPEC, _fuzzer)")
    target.add_argument(
        "--baseline",
        metavar="FILE",
        help="known deviations (utf8cert check --write-baseline FILE): written into the "
        "target, no crash",
    )
    target.add_argument(
        "--baseline-any-codec",
        action="store_true",
        help="use a baseline recorded for another codec or profile",
    )
    target.add_argument(
        "--fail-on", choices=LEVELS, default="must", help="least binding level that crashes"
    )
    add_profile_argument(target, "judge")
    target.set_defaults(run=run_corpus_target)
    pack = actions.add_parser(
        "pack",
        help="write a fuzz target's options, dictionary and seed zip",
        description="Write NAME.options (max_len), NAME.dict and NAME_seed_corpus.zip (the "
        "vectors' inputs and seeds across 64, 4096 and 65536 bytes) for a built fuzz target.",
    )
    pack.add_argument("name", metavar="NAME", help="the fuzz target's name (utf8_fuzzer)")
    pack.add_argument("--out", required=True, metavar="DIR", help="where to write ($OUT)")
    pack.set_defaults(run=run_corpus_pack)


def run_corpus_build(arguments: argparse.Namespace) -> int:
    """Return 0 after writing the seed corpus, printing what changed."""
    from utf8cert.harness.cli.main import UsageFailure
    from utf8cert.harness.fuzzing.corpus import build_corpus, default_seeds
    from utf8cert.harness.vectors.load import VectorLoadError, load_vectors

    out = default_seeds() if arguments.out is None else Path(arguments.out)
    if out is None:
        raise UsageFailure(
            "corpus build: utf8cert is installed without its source tree (no corpus/seeds/ "
            "beside it): give --out DIR"
        )
    try:
        vectors = load_vectors(arguments.vectors)
        change = build_corpus(vectors, out)
    except VectorLoadError as error:
        raise UsageFailure(str(error)) from None
    except OSError as error:
        raise UsageFailure(f"--out {out}: {error.strerror}") from None
    print(
        f"{out}: {change.written} written, {change.removed} removed, {change.unchanged} unchanged",
        file=sys.stdout,
    )
    return 0


def run_corpus_target(arguments: argparse.Namespace) -> int:
    """Return 0 after writing the fuzz target of `arguments.spec`, printing its path."""
    from utf8cert.harness.cli.main import UsageFailure
    from utf8cert.harness.fuzzing.package import write_target

    known = _known(arguments)
    written = "".join(
        f" {flag} {value}"
        for flag, value, default in [
            ("--baseline", arguments.baseline, None),
            ("--fail-on", arguments.fail_on, "must"),
            ("--profile", arguments.profile, "rfc3629"),
        ]
        if value != default
    )
    options = {"known": known, "fail_on": arguments.fail_on, "profile": arguments.profile}
    try:
        path = write_target(
            arguments.spec, Path(arguments.out), arguments.name, written=written, **options
        )
    except ValueError as error:
        raise UsageFailure(f"--name: {error}") from None
    except OSError as error:
        raise UsageFailure(f"--out {arguments.out}: {error.strerror}") from None
    print(path)
    return 0


def _known(arguments: argparse.Namespace) -> frozenset[Behaviour]:
    """Return the behaviours --baseline makes known (none without one); UsageFailure (one
    line) for one that does not load or was recorded for another codec or profile (as `check`
    and `fuzz` refuse it, unless --baseline-any-codec)."""
    from utf8cert.harness.cli.main import UsageFailure
    from utf8cert.harness.fuzzing.known import known_behaviours
    from utf8cert.harness.vectors.load import load_vectors

    if arguments.baseline is None:
        return frozenset()
    profile = None if arguments.profile == "rfc3629" else arguments.profile
    try:
        return known_behaviours(
            arguments.baseline,
            load_vectors(),
            spec=arguments.spec,
            profile=profile,
            any_codec=arguments.baseline_any_codec,
        )
    except ValueError as error:  # a BaselineError is a ValueError
        raise UsageFailure(str(error)) from None
    except OSError as error:
        raise UsageFailure(f"{error.filename}: {error.strerror}") from None


def run_corpus_pack(arguments: argparse.Namespace) -> int:
    """Return 0 after writing a target's options, dictionary and seed zip, printing each path."""
    from utf8cert.harness.cli.main import UsageFailure
    from utf8cert.harness.fuzzing.package import write_pack

    try:
        written = write_pack(Path(arguments.out), arguments.name)
    except ValueError as error:
        raise UsageFailure(str(error)) from None
    except OSError as error:
        raise UsageFailure(f"--out {arguments.out}: {error.strerror}") from None
    for path in written:
        print(path)
    return 0
