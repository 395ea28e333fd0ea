"""Ends the process that imports it, with status 0 (sys.exit at import)."""

import sys

sys.exit(0)
