"""`python -m utf8cert`: the `utf8cert` command; exits with its status.

utf8cert is a PEP 420 namespace (no __init__.py); this one module of it is shipped from here
(pyproject.toml's py-modules), so that the package's own name runs the command."""

from __future__ import annotations

import sys

from utf8cert.harness.cli.entry import main

if __name__ == "__main__":
    sys.exit(main())
