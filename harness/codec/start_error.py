"""A program under test that could not be started: the error that says why, and the failure of
a request that found no program to ask.

isolate.py raises StartError when it starts a program, and matching.py turns it into the
failure of the requests it was asking; each imports this module, never the other for it.
"""

from __future__ import annotations

from utf8cert.harness.codec.interface import Failed


class StartError(Exception):
    """The program could not be started or did not complete the handshake; says why in one line."""


def failed_start(error: StartError) -> Failed:
    """Return the failure of a request that found no program to ask."""
    return Failed("crash", f"cannot restart the program: {error}")
