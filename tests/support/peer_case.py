"""What a peer suite says about one input: `PeerCase`, and where the peer files are.

`SHARED` is None on a fresh clone without ../shared; `peer_path` then calls `pytest.skip`, so
that a test reading a peer file is skipped with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pytest

_CANDIDATE = Path(__file__).resolve().parents[2].parent / "shared"
SHARED: Path | None = _CANDIDATE if _CANDIDATE.is_dir() else None
"""/work/shared (the project's ../shared) when present, else None."""

BomHandling = Literal["kept", "stripped", "sniffed"]

KUHN = "kuhn-cases.json"
UNICODE_TABLES = "unicode-table-3-8-to-3-12.json"
FLENNIKEN = "flenniken-utf8tests.txt"
WAKABA = ("wakaba-utf8-1.dat", "wakaba-utf8-2.dat", "wakaba-utf8-3.dat")


class PeerFormatError(ValueError):
    """A peer file that does not read as its documented format: the message names file and line."""


@dataclass(frozen=True)
class PeerCase:
    """One peer case: input bytes and what the peer says a UTF-8 decoder makes of them."""

    source: str
    """The suite: 'kuhn', 'unicode', 'flenniken' or 'wakaba'."""
    case_id: str
    """Unique over all suites, e.g. 'kuhn-3.1.2', 'flenniken-13.0', 'wakaba-utf8-1.dat:42'."""
    where: str
    """The file and line (or entry) the case comes from, for failure messages."""
    data: bytes
    valid: bool
    """The peer's verdict: True when `data` is well-formed UTF-8 (after BOM handling)."""
    replaced: str | None = None
    """The text with one U+FFFD per maximal subpart, if the peer states it."""
    skipped: str | None = None
    """The text with every maximal subpart dropped (flenniken's 'skip' column), if stated."""
    maximal_subparts: tuple[tuple[int, int], ...] | None = None
    """(offset, length) of each ill-formed maximal subpart, offsets into `data`, if stated."""
    fffd_count: int | None = None
    """How many U+FFFD the replaced text holds, counting any U+FFFD encoded in `data` itself."""
    first_error: tuple[int, int | None] | None = None
    """Rust's (valid_up_to, error_len) of the first error; error_len None means input cut short."""
    chunks: tuple[bytes, ...] | None = None
    """How the peer feeds `data` to a streaming decoder (wakaba), empty chunks included."""
    bom: BomHandling = "kept"
    """'kept': U+FEFF decodes like any character. 'stripped': the peer's decoder drops one leading
    EF BB BF first (WHATWG's 'UTF-8 decode'). 'sniffed': it chooses the encoding by a BOM, so
    FE FF / FF FE leave UTF-8 altogether (the expected text is then not UTF-8's)."""
    encodes: bool = False
    """True when the peer also states that encoding `replaced` gives `data` (wakaba '#cb')."""
    description: str = ""


def peer_path(name: str) -> Path:
    """Return the path of peer file `name`; call pytest.skip when it or ../shared is absent."""
    if SHARED is None:
        pytest.skip("../shared is absent (a fresh clone): peer suites not available")
    path = SHARED / "peers" / name
    if not path.is_file():
        pytest.skip(f"peer file {path} is absent")
    return path
