"""The built-in vectors, loaded once per test process.

Six test modules use them at import, and every xdist worker imports every module: one load
(0.6 CPU-s) each was 3.6 CPU-s of every worker's collection."""

from __future__ import annotations

from functools import cache

from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import VectorSet


@cache
def shipped_vectors() -> VectorSet:
    """Return `load_vectors()`: the built-in vectors, read at the first call (a VectorSet is
    immutable: every caller gets the same one)."""
    return load_vectors()
