"""Serving any codec over the line protocol, `adapter:NAME` included: codec/serve.py with the
world's loader. An isolated Python adapter runs in a child started so:

    python -m utf8cert.harness.world.serve [--protocol 1|2] adapter:NAME
"""

from __future__ import annotations

import sys

from utf8cert.harness.codec import serve
from utf8cert.harness.world.spec import SERVER_MODULE, load_codec


def main(argv: list[str] | None = None) -> int:
    """Return 0 when stdin ends, or 2 (one line on stderr) if the spec names no codec."""
    return serve.main(argv, load=load_codec, prog=f"python -m {SERVER_MODULE}")


if __name__ == "__main__":
    sys.exit(main())
