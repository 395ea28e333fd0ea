"""The seed corpus: every vector's input as one raw file, for libFuzzer to start from.

`utf8cert corpus build` writes `corpus/seeds/` (committed) from the vectors; a campaign writes the
same seeds into its own working corpus. A decoding vector gives its bytes; an encoding vector
gives its code points written the RFC 2279 way (surrogates and values up to U+7FFFFFFF
included), which is how the fuzz target reads code points back out of bytes (`probe.py`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Final

from utf8cert.harness.fuzzing.save import write_atomically
from utf8cert.harness.vectors.model import DecodeVector, VectorSet
from utf8cert.reference import encode_legacy

SEED_NAME: Final = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
"""A seed file is named after the vector it comes from (schema `id`), with no suffix."""
LEGACY_LIMIT: Final = 0x7FFFFFFF


def named_seeds(vectors: VectorSet) -> dict[str, bytes]:
    """Return {vector id: input bytes}, one per distinct non-empty input, first vector first.

    An encoding vector with a value above U+7FFFFFFF (no RFC 2279 form) gives no seed.
    """
    seeds: dict[str, bytes] = {}
    seen: set[bytes] = set()
    for vector in vectors:
        if isinstance(vector, DecodeVector):
            data = vector.data
        elif all(0 <= value <= LEGACY_LIMIT for value in vector.scalars):
            data = encode_legacy(vector.scalars)
        else:
            continue
        if data and data not in seen:
            seen.add(data)
            seeds[vector.id] = data
    return seeds


def default_seeds() -> Path | None:
    """Return corpus/seeds/ of utf8cert's source tree (the committed seed corpus), None when
    utf8cert is installed without it (the seeds are not package data)."""
    seeds = Path(str(files("utf8cert.corpus"))) / "seeds"
    return seeds if seeds.is_dir() else None


def seed_inputs(vectors: VectorSet) -> list[bytes]:
    """Return the distinct non-empty inputs of the vectors, in vector order ([] for none)."""
    return list(named_seeds(vectors).values())


@dataclass(frozen=True)
class CorpusChange:
    """What building a seed directory did: files written, removed, and left as they were."""

    written: int
    removed: int
    unchanged: int


def build_corpus(vectors: VectorSet, directory: Path, *, prune: bool = True) -> CorpusChange:
    """Write one file per seed into `directory` (created if need be); return what changed.

    Files already holding the right bytes are left alone, so a rebuild of an up-to-date corpus
    changes nothing. With `prune`, seed files (named like vector ids) of vectors that are gone
    are removed; other files are never touched.
    """
    directory.mkdir(parents=True, exist_ok=True)
    seeds = named_seeds(vectors)
    written = unchanged = removed = 0
    for name, data in seeds.items():
        path = directory / name
        if path.is_file() and path.read_bytes() == data:
            unchanged += 1
            continue
        write_atomically(path, data)
        written += 1
    if prune:
        for path in directory.iterdir():
            if path.is_file() and SEED_NAME.match(path.name) and path.name not in seeds:
                path.unlink()
                removed += 1
    return CorpusChange(written, removed, unchanged)


STRADDLED: Final = (0x20AC, 0x1F600)
"""A three- and a four-byte character. Few: a 4 KiB seed costs an instrumented pure-Python
decoder tens of milliseconds, and with six characters the seed pass took half a second more."""
VALUE_ONLY_ERRORS: Final = (b"\xc0\xaf", b"\xe0\x80\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80")
"""Sequences of the right shape that only their value makes ill-formed (RFC 3629 §3, §4):
overlong "/" in two and three bytes, U+D800, 0x110000. A vector path that checks only the shape
of each sequence, from 64 bytes on, lets them through."""
STRADDLED_BOUNDARIES: Final = (64, 4096)
"""The block boundaries the straddling seeds cross (65536 is left to the mutator: one such
input costs a pure-Python codec a tenth of a second)."""


def straddling_seeds(
    max_len: int, boundaries: tuple[int, ...] = STRADDLED_BOUNDARIES
) -> dict[str, bytes]:
    """Return {name: input}: each STRADDLED character in ASCII, starting 1, 2 or 3 bytes before
    each of `boundaries`, so that it is cut by it, and each VALUE_ONLY_ERRORS
    sequence across the 64-byte boundary (the inputs of --max-len or less). A buffered decoder
    that loses a held-back character, or a long-input path that checks shapes only, fails on
    one of these in the seed pass, before any mutation."""
    seeds = {}
    for boundary in boundaries:
        for value in STRADDLED:
            encoded = chr(value).encode("utf-8")
            for back in range(1, len(encoded)):
                data = b"a" * (boundary - back) + encoded + b"z"
                if len(data) <= max_len:
                    seeds[f"straddle-{boundary}-u{value:04x}-{back}"] = data
    for index, sequence in enumerate(VALUE_ONLY_ERRORS):
        data = b"a" * (STRADDLED_BOUNDARIES[0] - 1) + sequence + b"z"
        if len(data) <= max_len:
            seeds[f"straddle-64-error-{index}"] = data
    return seeds
