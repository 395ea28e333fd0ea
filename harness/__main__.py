"""`python -m utf8cert.harness`: the `utf8cert` command; exits with its status."""

from __future__ import annotations

import sys

from utf8cert.harness.cli.entry import main

sys.exit(main())
