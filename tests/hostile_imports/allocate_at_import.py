"""Allocates 3 GiB at import (and touches it), then offers a correct decoder."""

HOARD = bytearray(3 << 30)


def decode(data: bytes) -> str:
    return data.decode("utf-8")
