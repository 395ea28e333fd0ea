"""A correct decoder that closes the standard output (file descriptor 1) of whoever imports it."""

import os

os.close(1)


def decode(data: bytes) -> str:
    return data.decode("utf-8")
