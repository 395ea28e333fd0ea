"""`utf8cert corpus build`: returns 0 after writing the seed corpus, one raw file per distinct
vector input, or 2 for a usage or load error (one line on stderr)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from utf8cert.harness.cli.check_options import add_vectors_argument


def register(subcommands: Any) -> None:
    """Add the `corpus` subcommand's parser and its `build` action."""
    corpus = subcommands.add_parser("corpus", help="manage the seed corpus")
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
