"""A program's first line, the handshake (harness/PROTOCOL.md): the protocol's version, the
capabilities it offers, and what it declares of them — what its strings hold, the mode of its
incremental decoder, whether it answers `reuse` requests, the inputs its API cannot carry.

    handshake_line(capabilities, ...)  -> str         what a program (or utf8cert's child) writes
    read_handshake(line)               -> Handshake   what utf8cert reads; ProtocolError if not one
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from utf8cert.harness.codec.interface import (
    CAPABILITIES,
    INCREMENTAL_MODES,
    Capability,
    IncrementalMode,
)
from utf8cert.harness.codec.protocol import GREETING, VERSION, VERSIONS, ProtocolError, quoted
from utf8cert.harness.codec.restrictions import HANDSHAKE_KEY as RESTRICTION_KEY
from utf8cert.harness.codec.restrictions import RESTRICTIONS
from utf8cert.harness.codec.strings import (
    DEFAULT,
    HANDSHAKE_KEY,
    HANDSHAKE_VALUES,
    StringModel,
    handshake_word,
)

MODE_KEY: Final = "incremental"
"""A handshake word `incremental=strict` or `incremental=replace` declares the mode of the
program's incremental decoder (check/modes.py); without it, the mode is inferred."""


REUSE_WORD: Final = "reuse=yes"
"""A handshake word: the program answers `reuse` requests (one incremental decoder object fed
stream after stream: PROTOCOL.md, check/reuse.py); without it, none is sent."""


def handshake_line(
    capabilities: frozenset[Capability],
    version: int = VERSION,
    strings: StringModel = DEFAULT,
    mode: IncrementalMode | None = None,
    reuse: bool = False,
    restriction: str | None = None,
) -> str:
    """Return the first line a program writes: the protocol, its version, its capabilities and,
    when they are not code points, what its strings hold (`strings=utf-16`), the mode of
    its incremental decoder when it declares one (`incremental=replace`), and `reuse=yes` when
    it answers `reuse` requests."""
    words = [GREETING, str(version), *(c for c in CAPABILITIES if c in capabilities)]
    if mode is not None and "incremental" in capabilities:
        words.append(f"{MODE_KEY}={mode}")
    if reuse and "incremental" in capabilities:
        words.append(REUSE_WORD)
    if restriction in RESTRICTIONS:
        words.append(f"{RESTRICTION_KEY}={restriction}")
    return " ".join([*words, handshake_word(strings)]).rstrip()


@dataclass(frozen=True)
class Handshake:
    """What a program announced: the version it speaks, the capabilities it offers, what its
    strings hold (codec/strings.py), and the mode of its incremental decoder (None: not said)."""

    version: int
    capabilities: frozenset[Capability]
    strings: StringModel = DEFAULT
    incremental_mode: IncrementalMode | None = None
    reuse: bool = False
    """Whether it answers `reuse` requests (REUSE_WORD)."""
    restriction: str | None = None
    """The rule naming the inputs it cannot carry (`restriction=NAME`: codec/restrictions.py)."""


def _declared(words: list[str], key: str, values: Iterable[str]) -> str | None:
    """Return the value a handshake's `KEY=VALUE` word declares (None without one);
    ProtocolError for an unknown value or a second declaration."""
    declared = [word.partition("=")[2] for word in words if word.startswith(f"{key}=")]
    if len(declared) > 1:
        raise ProtocolError(f"handshake failure: {key}= declared {len(declared)} times")
    if not declared:
        return None
    if declared[0] not in values:
        known = ", ".join(values)
        raise ProtocolError(f"handshake failure: unknown {key}={declared[0]} (known: {known})")
    return declared[0]


def _declared_strings(words: list[str]) -> StringModel:
    """Return the strings a handshake's `strings=VALUE` word declares (the default without one);
    ProtocolError for an unknown value or a second declaration."""
    declared = _declared(words, HANDSHAKE_KEY, HANDSHAKE_VALUES)
    return DEFAULT if declared is None else HANDSHAKE_VALUES[declared]


def _declared_mode(words: list[str]) -> IncrementalMode | None:
    """Return the mode a handshake's `incremental=MODE` word declares (None without one)."""
    declared = _declared(words, MODE_KEY, INCREMENTAL_MODES)
    return next((mode for mode in INCREMENTAL_MODES if mode == declared), None)


def read_handshake(line: str) -> Handshake:
    """Return the version, capabilities and strings a handshake line announces; ProtocolError if
    it is not one, or speaks a version utf8cert does not know."""
    words = line.split()
    expected = f"expected '{GREETING} {VERSION} CAPABILITY...', got {quoted(line)}"
    if len(words) < 2 or words[0] != GREETING:
        raise ProtocolError(f"handshake failure: {expected}")
    known = " or ".join(map(str, VERSIONS))
    if words[1] not in {str(version) for version in VERSIONS}:
        spoken = f"{GREETING} {words[1]}"
        raise ProtocolError(f"handshake failure: the program speaks {spoken}, utf8cert {known}")
    strings, mode = _declared_strings(words[2:]), _declared_mode(words[2:])
    reuse = _declared(words[2:], REUSE_WORD.partition("=")[0], ("yes",)) is not None
    restriction = _declared(words[2:], RESTRICTION_KEY, tuple(RESTRICTIONS))
    keys = (f"{HANDSHAKE_KEY}=", f"{MODE_KEY}=", "reuse=", f"{RESTRICTION_KEY}=")
    words = [word for word in words if not word.startswith(keys)]
    unknown = [word for word in words[2:] if word not in CAPABILITIES]
    if unknown:
        names = ", ".join(CAPABILITIES)
        raise ProtocolError(
            f"handshake failure: unknown capability {unknown[0]!r} (known: {names})"
        )
    if len(words) == 2:
        raise ProtocolError("handshake failure: the program announces no capability")
    capabilities = frozenset(c for c in CAPABILITIES if c in words[2:])
    if mode is not None and "incremental" not in capabilities:
        raise ProtocolError(f"handshake failure: {MODE_KEY}={mode} without incremental")
    if reuse and "incremental" not in capabilities:
        raise ProtocolError(f"handshake failure: {REUSE_WORD} without incremental")
    return Handshake(int(words[1]), capabilities, strings, mode, reuse, restriction)


def parse_handshake(line: str) -> frozenset[Capability]:
    """Return the capabilities a handshake line announces; ProtocolError if it is not one."""
    return read_handshake(line).capabilities
