"""A wrong decoder (Latin-1) that makes the process importing it end with status 0, whatever
status it meant to end with (os._exit(0) at exit)."""

import atexit
import os

atexit.register(os._exit, 0)


def decode(data: bytes) -> str:
    return data.decode("latin-1")
