"""`utf8cert vectors export|list`: returns 0 after writing the vectors out (2 for a load error)."""

from __future__ import annotations

import argparse
from typing import Any

from utf8cert.harness.cli.check_options import add_vectors_argument


def register(subcommands: Any) -> None:
    """Add the `vectors` subcommand's parser, with `export` and `list` under it."""
    parser = subcommands.add_parser(
        "vectors",
        help="export or list the test vectors",
        description="Export the test vectors as one JSON document, for a harness in another "
        "language, or list them one a line; the built-in vectors and, with --vectors, your own. "
        "Exit status: 0 written, 2 a vector file that does not load (one line on stderr).",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    export = actions.add_parser(
        "export",
        help="write every vector as one JSON document (for harnesses in any language)",
        description="Write every vector, with its expected answers for each capability, as one "
        "JSON document (to standard output unless -o names a file).",
    )
    export.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE (default and -: stdout)"
    )
    listing = actions.add_parser(
        "list",
        help="list the vectors: id, kind, expectation, description",
        description="List the vectors file by file, one a line: id, what is decoded or encoded "
        "and what is expected, and the description (tab-separated).",
    )
    for action in (export, listing):
        add_vectors_argument(action, "")
    export.set_defaults(run=run_export)
    listing.set_defaults(run=run_list)


def _load(paths: list[str]) -> Any:
    """Return the built-in vectors and those at `paths`; UsageFailure for a bad file."""
    from utf8cert.harness.cli.main import UsageFailure
    from utf8cert.harness.vectors.load import VectorLoadError, load_vectors

    try:
        return load_vectors(paths)
    except VectorLoadError as error:
        raise UsageFailure(str(error)) from None
    except OSError as error:
        raise UsageFailure(f"{error.filename or ''}: {error.strerror or error}") from None


def run_export(arguments: argparse.Namespace) -> int:
    """Return 0 once the JSON document is written to the output file or stdout."""
    from utf8cert.harness.cli.outputs import check_paths, report_failures, write_reports
    from utf8cert.harness.vectors.export import export_json

    output = ("--output", arguments.output or "-")
    check_paths([output], stdout_closed=getattr(arguments, "stdout_closed", False))
    document = export_json(_load(arguments.vectors))
    return report_failures(write_reports([(*output, lambda: document)]))


def run_list(arguments: argparse.Namespace) -> int:
    """Return 0 once one line per vector is printed, file by file."""
    from utf8cert.harness.vectors.adequacy import statement, whole_builtin
    from utf8cert.harness.vectors.model import DecodeVector

    vectors = _load(arguments.vectors)
    if whole_builtin(vectors):
        print(f"# adequacy: {statement()}")
    for vector_file in vectors.files:
        print(f"# {vector_file.path}: {vector_file.theme} ({len(vector_file.vectors)} vectors)")
        for vector in vector_file.vectors:
            if isinstance(vector, DecodeVector):
                what = f"decode {vector.data.hex(' ') or '(empty)'} -> "
                what += "valid" if vector.valid else f"{len(vector.errors)} errors"
            else:
                what = f"encode {len(vector.scalars)} values -> "
                what += "refused" if vector.expected is None else "bytes"
            print(f"{vector.id}\t{what}\t{vector.description}")
    return 0
