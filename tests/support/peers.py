"""Typed readers for the peer suites in ../shared/peers/, for cross-checking the reference.

Each reader returns a tuple of `PeerCase`s, one per case of the peer file, holding only what the
peer states (bytes, verdict, expected text, maximal subparts); nothing is computed by our code.
The peer files are read, never copied into the project (flenniken's has no licence).

The case model and the file locations are in peer_case.py (re-exported here for the tests).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from support.peer_case import (
    FLENNIKEN,
    KUHN,
    UNICODE_TABLES,
    WAKABA,
    BomHandling,
    PeerCase,
    PeerFormatError,
    peer_path,
)

__all__ = [
    "PeerCase",
    "PeerFormatError",
    "all_cases",
    "flenniken_cases",
    "kuhn_cases",
    "unicode_table_cases",
    "wakaba_cases",
]


def _text_of_scalars(names: Sequence[str], where: str) -> str:
    """Return the text of 'U+0061'-style names; PeerFormatError naming `where` if one is not."""
    text = []
    for name in names:
        if not re.fullmatch(r"U\+[0-9A-Fa-f]{4,6}", name):
            raise PeerFormatError(f"{where}: {name!r} is not a U+XXXX scalar name")
        text.append(chr(int(name[2:], 16)))
    return "".join(text)


def _subparts(pairs: Any, where: str) -> tuple[tuple[int, int], ...]:
    """Return [[offset, length], ...] as a tuple of pairs; PeerFormatError if malformed."""
    if not isinstance(pairs, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(n, int) for n in p) for p in pairs
    ):
        raise PeerFormatError(f"{where}: maximal subparts must be [[offset, length], ...]")
    return tuple((offset, length) for offset, length in pairs)


def _json_list(path: Path) -> list[dict[str, Any]]:
    """Return the JSON array of objects in `path`; PeerFormatError if it is anything else."""
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise PeerFormatError(f"{path}:{error.lineno}: not JSON: {error.msg}") from None
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise PeerFormatError(f"{path}: expected a JSON array of objects")
    return entries


@cache
def kuhn_cases() -> tuple[PeerCase, ...]:
    """Return the 80 numbered cases of Kuhn's stress test (kuhn-cases.json); skip when absent.

    Where Kuhn's prose suggests another U+FFFD count, the file's maximal-subpart data is what
    is returned (see ../shared/README.md).
    """
    path = peer_path(KUHN)
    cases = []
    for index, entry in enumerate(_json_list(path)):
        where = f"{path.name} entry {index} (UTF-8-test.txt line {entry.get('line')})"
        try:
            data = bytes.fromhex(entry["hex"])
            valid_up_to, error_len = entry["rust_valid_up_to"], entry["rust_error_len"]
            cases.append(
                PeerCase(
                    source="kuhn",
                    case_id=f"kuhn-{entry['id']}",
                    where=where,
                    data=data,
                    valid=bool(entry["valid_utf8"]),
                    replaced=_text_of_scalars(entry["decoded_codepoints"], where),
                    maximal_subparts=_subparts(entry["maximal_subparts_offset_len"], where),
                    fffd_count=int(entry["fffd_count_maximal_subpart"]),
                    first_error=None if valid_up_to is None else (valid_up_to, error_len),
                    description=f"Kuhn {entry['id']}",
                )
            )
        except (KeyError, ValueError, TypeError) as error:
            raise PeerFormatError(f"{where}: {type(error).__name__}: {error}") from None
        if len(data) != entry["len"]:
            raise PeerFormatError(f"{where}: hex has {len(data)} bytes, 'len' says {entry['len']}")
    return tuple(cases)


@cache
def unicode_table_cases() -> tuple[PeerCase, ...]:
    """Return the Unicode §3.9 U+FFFD examples (Tables 3-8..3-12, PRI #121, D93b), or skip."""
    path = peer_path(UNICODE_TABLES)
    cases = []
    for index, entry in enumerate(_json_list(path)):
        where = f"{path.name} entry {index}"
        try:
            subparts = _subparts(entry["maximal_subparts(offset,len)"], where)
            name = str(entry["name"])
            cases.append(
                PeerCase(
                    source="unicode",
                    case_id="unicode-" + re.sub(r"[^0-9A-Za-z.#-]+", "-", name).strip("-"),
                    where=where,
                    data=bytes.fromhex(entry["hex"]),
                    valid=not subparts,
                    replaced=_text_of_scalars(entry["expected"].split(), where),
                    maximal_subparts=subparts,
                    fffd_count=int(entry["fffd_count"]),
                    description=name,
                )
            )
        except (KeyError, ValueError, TypeError, AttributeError) as error:
            raise PeerFormatError(f"{where}: {type(error).__name__}: {error}") from None
    return tuple(cases)


def _flenniken_hex(field: str, where: str) -> bytes:
    """Return the bytes of a hex column ('nothing' is empty; spaces anywhere are ignored)."""
    field = field.strip()
    if field == "nothing":
        return b""
    digits = re.sub(r"\s+", "", field)
    try:
        return bytes.fromhex(digits)
    except ValueError:
        raise PeerFormatError(f"{where}: {field!r} is not hex") from None


def _flenniken_text(field: str, where: str) -> str:
    """Return the text of an expected-output column, which the file writes as UTF-8 in hex."""
    try:
        return _flenniken_hex(field, where).decode("utf-8")
    except UnicodeDecodeError:
        raise PeerFormatError(f"{where}: expected output {field!r} is not UTF-8") from None


@cache
def flenniken_cases() -> tuple[PeerCase, ...]:
    """Return the 222 cases of flenniken/utf8tests, for cross-checking only; skip when absent.

    Lines read `id:valid:<ASCII>`, `id:valid hex:<hex>` or `id:invalid hex:<hex>:<skip>:<replace>`
    where <skip> is the output with each invalid part dropped and <replace> the output with
    U+FFFD for each; both are hex of UTF-8 ('nothing' is empty). Valid cases state no text.
    """
    path = peer_path(FLENNIKEN)
    cases, seen = [], set()
    for number, line in enumerate(path.read_text(encoding="ascii").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        where = f"{path.name}:{number}"
        case_id, kind, rest = [*line.split(":", 2), "", ""][:3]
        case_id, kind, columns = case_id.strip(), kind.strip(), rest.split(":")
        if case_id in seen:
            raise PeerFormatError(f"{where}: id {case_id} appears twice")
        seen.add(case_id)
        data, valid, skipped, replaced = b"", True, None, None
        if kind == "valid":
            data = rest.encode("ascii")  # the bytes as ASCII text, taken verbatim
        elif kind == "valid hex" and len(columns) == 1:
            data = _flenniken_hex(columns[0], where)
        elif kind == "invalid hex" and len(columns) == 3:
            data, valid = _flenniken_hex(columns[0], where), False
            skipped = _flenniken_text(columns[1], where)
            replaced = _flenniken_text(columns[2], where)
        else:
            raise PeerFormatError(f"{where}: not an 'id:valid…' or 'id:invalid hex…' line")
        case = PeerCase(
            source="flenniken",
            case_id=f"flenniken-{case_id}",
            where=where,
            data=data,
            valid=valid,
            skipped=skipped,
            replaced=replaced,
        )
        cases.append(case)
    return tuple(cases)


def _unescape_bytes(line: str, where: str) -> bytes:
    r"""Return the bytes of a wakaba '#b' line: \xHH escapes, other characters as ASCII."""
    if "\\" in re.sub(r"\\x[0-9A-Fa-f]{2}", "", line):
        raise PeerFormatError(f"{where}: unknown escape in {line!r}")
    parts = re.split(r"\\x([0-9A-Fa-f]{2})", line)
    # re.split alternates literal text (even indices) and the hex digits of each escape (odd)
    return b"".join(
        bytes([int(part, 16)]) if index % 2 else part.encode("ascii")
        for index, part in enumerate(parts)
    )


def _unescape_text(line: str, where: str) -> str:
    r"""Return the text of a wakaba '#c' line: \u{H...} escapes, other characters as they are."""
    if "\\" in re.sub(r"\\u\{[0-9A-Fa-f]{1,6}\}", "", line):
        raise PeerFormatError(f"{where}: unknown escape in {line!r}")
    return re.sub(r"\\u\{([0-9A-Fa-f]{1,6})\}", lambda m: chr(int(m.group(1), 16)), line)


def _wakaba_blocks(path: Path) -> Iterator[tuple[int, dict[str, tuple[str, list[str]]]]]:
    """Yield (first line number, {'#field': (argument, value lines)}) for each blank-line block."""
    block: dict[str, tuple[str, list[str]]] = {}
    start = 0
    current: list[str] | None = None
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate([*lines, ""], start=1):
        if not line:
            if block:
                yield start, block
            block, current = {}, None
        elif line.startswith("#"):
            name, _, argument = line.partition(" ")
            if name in block:
                raise PeerFormatError(f"{path.name}:{number}: {name} twice in one block")
            if not block:
                start = number
            block[name] = (argument, [])
            current = block[name][1]
        elif current is None:
            raise PeerFormatError(f"{path.name}:{number}: a value line outside any #field")
        else:
            current.append(line)


_BOM_FLAGS: dict[str, BomHandling] = {
    "": "kept",
    "nobom": "kept",
    "nobomsniffing": "kept",
    "bom": "stripped",
    "bomsniffing": "sniffed",
}


def _wakaba_case(path: Path, start: int, block: dict[str, tuple[str, list[str]]]) -> PeerCase:
    """Return the case of one wakaba block that has '#b', '#c' and '#bc'."""
    where = f"{path.name}:{start}"
    chunks = tuple(b"" if line == "_" else _unescape_bytes(line, where) for line in block["#b"][1])
    text = "".join(_unescape_text(line, where) for line in block["#c"][1])
    flag = block["#bc"][0].strip()
    if flag not in _BOM_FLAGS:
        raise PeerFormatError(f"{where}: unknown '#bc {flag}'")
    subparts = []
    for line in block.get("#errors", ("", []))[1]:
        offset, level, kind, bad = [*line.split(";"), "", "", ""][:4]
        if (level, kind) == ("m", "utf-8:bad bytes"):
            subparts.append((int(offset), len(_unescape_bytes(bad, where))))
        elif (level, kind) != ("s", "bom"):
            raise PeerFormatError(f"{where}: unknown error line {line!r}")
    fatal = block.get("#errors", ("", []))[0].strip() == "fatal"
    if fatal != bool(subparts):
        raise PeerFormatError(f"{where}: '#errors fatal' must go with bad-bytes errors")
    return PeerCase(
        source="wakaba",
        case_id=where,
        where=where,
        data=b"".join(chunks),
        valid=not subparts,
        replaced=text,
        maximal_subparts=tuple(subparts),
        chunks=chunks,
        bom=_BOM_FLAGS[flag],
        encodes="#cb" in block,
        description=" ".join(block.get("#name", ("", []))[1]),
    )


@cache
def wakaba_cases() -> tuple[PeerCase, ...]:
    """Return every bytes-to-text case of the three manakai/wakaba UTF-8 files; skip if absent.

    Blocks hold '#b' (one line per chunk fed to the decoder, '_' an empty chunk, \\xHH escapes),
    '#c' (the text, \\u{H} escapes), '#bc [bom|nobom|bomsniffing|nobomsniffing]', optionally
    '#cb' (the text also encodes to the bytes) and '#errors [fatal]' with lines
    'offset;level;type;bytes'.
    The '#encoding' header block is checked and dropped.
    """
    cases = []
    for name in WAKABA:
        path = peer_path(name)
        for start, block in _wakaba_blocks(path):
            if set(block) == {"#encoding"}:
                if block["#encoding"][1] != ["utf-8"]:
                    raise PeerFormatError(f"{path.name}:{start}: not a utf-8 file")
                continue
            missing = {"#b", "#c", "#bc"} - set(block)
            if missing:
                raise PeerFormatError(f"{path.name}:{start}: block lacks {sorted(missing)}")
            cases.append(_wakaba_case(path, start, block))
    return tuple(cases)


def all_cases() -> tuple[PeerCase, ...]:
    """Return the cases of every peer suite, in the order above; skip when any file is absent."""
    return kuhn_cases() + unicode_table_cases() + flenniken_cases() + wakaba_cases()
