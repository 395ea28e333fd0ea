"""`python -m utf8cert.harness`: the `utf8cert` command; exits with its status."""

from __future__ import annotations

import sys

from .cli import main

sys.exit(main())
