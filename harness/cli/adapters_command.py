"""`utf8cert adapters`: returns 0 after listing the shipped adapters and whether each can run."""

from __future__ import annotations

import argparse
from typing import Any


def register(subcommands: Any) -> None:
    """Add the `adapters` subcommand's parser."""
    parser = subcommands.add_parser(
        "adapters",
        help="list the shipped adapters (adapter:NAME), their versions and availability",
        description="List the adapters shipped with utf8cert, each a codec of another library "
        "or runtime to check as adapter:NAME: what it checks, and its version or why it cannot "
        "run here (a runtime not installed). Exit status: 0.",
    )
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    """Return 0 once one line per adapter is printed: name, version or why it is unavailable,
    and what it checks."""
    from utf8cert.harness.world.catalog import registry

    entries = registry()
    width = max(map(len, entries), default=0)
    for name, entry in entries.items():
        reason = entry.unavailable()
        state = entry.version() if reason is None else f"unavailable: {reason}"
        print(f"adapter:{name:<{width}}  {entry.description}\n  {' ' * (width + 8)}{state}")
    return 0
