"""Restrictions an API declares and the check verifies: the inputs a wrapper cannot carry, by rule.

A wrapper around a parser can only put to its codec what the format holds: XML 1.0 element text
cannot hold U+0001 nor U+FFFE in any form (XML 1.0 §2.2, the `Char` production), so a conformant
XML parser's wrapper answers such questions `Inapplicable`, and would never reach the coverage a
certificate needs. Rather than trust a wrapper's say-so, it names a rule from this small table
(`restriction = "xml-1.0-char"`, or the handshake word `restriction=xml-1.0-char`), and the
check (check/coverage.py) holds it to exactly that rule: a question the rule excludes and the
wrapper declines is not counted against its coverage; one the rule allows and the wrapper
declines stays a gap; one the rule excludes and the wrapper answers shows a restriction it does
not have, and the capability is not certified. The certificate says over what it holds
("certified over the inputs XML text can carry"). An unknown name is no restriction at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from utf8cert.reference import decode_replace

HANDSHAKE_KEY: Final = "restriction"


@dataclass(frozen=True)
class Restriction:
    """A rule naming the inputs an API cannot be given."""

    name: str
    source: str
    """Where the rule is written ('XML 1.0 §2.2 Char')."""
    over: str
    """What a certificate holds over ('the inputs XML text can carry')."""
    excludes: Callable[[str], bool]
    """Whether the rule excludes an input, given the text of its well-formed characters (its
    ill-formed bytes are what is checked, and are never excluded)."""


_NOT_XML_CHAR: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
"""The characters UTF-8 can hold that XML 1.0's Char production (§2.2) leaves out: the C0
controls but tab, LF and CR, U+FFFE and U+FFFF (surrogates have no UTF-8 form)."""

RESTRICTIONS: Final = {
    "xml-1.0-char": Restriction(
        "xml-1.0-char",
        "XML 1.0 §2.2 Char",
        "the inputs XML text can carry",
        lambda text: _NOT_XML_CHAR.search(text) is not None,
    ),
}


def declared_restriction(codec: object) -> Restriction | None:
    """Return the restriction `codec` declares (`restriction`: a name in RESTRICTIONS), None for
    none or an unknown name (then every question counts, as without a declaration)."""
    name = getattr(codec, "restriction", None)
    return RESTRICTIONS.get(name) if isinstance(name, str) else None


def excluded(restriction: Restriction, data: bytes) -> bool:
    """Return True when `restriction` says the API cannot be given `data` (b'': False)."""
    return restriction.excludes(decode_replace(data)) if data else False
