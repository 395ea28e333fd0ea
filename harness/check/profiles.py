"""The named dialect profiles of `utf8cert check --profile NAME`, each RFC 3629 plus the few
rules its published definition changes (how a profile applies them: profile.py).

| name                   | definition                                                        |
|------------------------|-------------------------------------------------------------------|
| `rfc3629`              | RFC 3629 itself (the default)                                     |
| `python-surrogatepass` | CPython's `surrogatepass` error handler (codecs module docs)      |
| `wtf-8`                | S. Sapin, "The WTF-8 encoding" (simonsapin.github.io/wtf-8)       |
| `cesu-8`               | Unicode Technical Report #26, CESU-8                              |
| `java-modified`        | Java SE `java.io.DataInput`, "Modified UTF-8"                     |
| `rfc2279`              | RFC 2279 §2 (1 to 6 octets, up to 0x7FFFFFFF), shortest forms only |
| `whatwg`               | WHATWG Encoding Standard, "UTF-8 decode" and "UTF-8 encode"       |
"""

from __future__ import annotations

import re
from typing import Final

from utf8cert.harness.check.expected import Decoded
from utf8cert.harness.check.profile import (
    HIGH_SURROGATES,
    LARGEST_SCALAR,
    LOW_SURROGATES,
    Profile,
    joined,
    utf8,
)
from utf8cert.reference import REPLACEMENT_CHARACTER, decode_legacy, encode_legacy

SURROGATE_WAIVER: Final = "RFC 3629 §3: surrogates (U+D800..U+DFFF) are not encoded or decoded"
FOUR_BYTE_WAIVER: Final = "RFC 3629 §3: a character above U+FFFF takes a 4-octet sequence"
OVERLONG_WAIVER: Final = "RFC 3629 §3, §10: the shortest form only (no C0 80 for U+0000)"
RANGE_WAIVER: Final = "RFC 3629 §3: no value above U+10FFFF; 1 to 4 octets only"
SIGNATURE_WAIVER: Final = "RFC 3629 §6: a leading U+FEFF is a character unless the protocol says"
REFUSAL_WAIVER: Final = "RFC 3629 §3: a value with no UTF-8 form is not encoded (refused)"

# Byte patterns of RFC 3629 §4's table: an encoded surrogate is ED A0..BF 80..BF.
SURROGATE: Final = rb"\xED[\xA0-\xBF][\x80-\xBF]"
HIGH: Final = rb"\xED[\xA0-\xAF][\x80-\xBF]"
LOW: Final = rb"\xED[\xB0-\xBF][\x80-\xBF]"
TRUNCATED_SURROGATE: Final = rb"\xED[\xA0-\xBF](?![\x80-\xBF])"
# The forms of RFC 2279 §2's table that RFC 3629 §3 took away (values above U+10FFFF), shortest
# forms only (RFC 2279 §6): the second byte of F4, F8 and FC says whether the value needs them.
BEYOND: Final = (
    rb"\xF4[\x90-\xBF][\x80-\xBF]{2}|[\xF5-\xF7][\x80-\xBF]{3}"  # 4 octets, to U+1FFFFF
    rb"|\xF8[\x88-\xBF][\x80-\xBF]{3}|[\xF9-\xFB][\x80-\xBF]{4}"  # 5 octets, to U+3FFFFFF
    rb"|\xFC[\x84-\xBF][\x80-\xBF]{4}|\xFD[\x80-\xBF]{5}"  # 6 octets, to U+7FFFFFFF
)
TRUNCATED_BEYOND: Final = (
    rb"(?:\xF4[\x90-\xBF][\x80-\xBF]?|[\xF5-\xF7][\x80-\xBF]{0,2}"
    rb"|\xF8(?:[\x88-\xBF][\x80-\xBF]{0,2})?|[\xF9-\xFB][\x80-\xBF]{0,3}"
    rb"|\xFC(?:[\x84-\xBF][\x80-\xBF]{0,3})?|\xFD[\x80-\xBF]{0,4})(?![\x80-\xBF])"
)
FOUR_BYTE_LEAD: Final = re.compile(rb"[\xF0-\xF4]")


def _is_surrogate(value: int) -> bool:
    return value in HIGH_SURROGATES or value in LOW_SURROGATES


def _three_bytes(value: int) -> bytes:
    """Return the 3-octet form of a BMP code point, surrogates included (RFC 2279 §2)."""
    return encode_legacy([value])


def _values(sequence: bytes) -> Decoded:
    """Return the code points an RFC 2279 reading of `sequence` gives, each as it is: a str,
    or a tuple when one lies above U+10FFFF."""
    values = decode_legacy(sequence)
    return "".join(map(chr, values)) if max(values) <= LARGEST_SCALAR else tuple(values)


def _pairs_joined(sequence: bytes) -> str:
    """Return the reading of `sequence` with each surrogate pair joined (UTF-16's reading)."""
    values = decode_legacy(sequence)
    if len(values) == 2 and values[0] in HIGH_SURROGATES and values[1] in LOW_SURROGATES:
        return chr(joined(*values))
    return "".join(map(chr, values))


def _surrogates_too(value: int) -> bytes | None:
    return _three_bytes(value) if _is_surrogate(value) else utf8(value)


def _as_utf16_units(value: int) -> bytes | None:
    """Return a supplementary character as the 3-octet forms of its two UTF-16 code units."""
    if 0xFFFF < value <= 0x10FFFF:
        high, low = 0xD800 + ((value - 0x10000) >> 10), 0xDC00 + ((value - 0x10000) & 0x3FF)
        return _three_bytes(high) + _three_bytes(low)
    return utf8(value)


def _java_write(value: int) -> bytes | None:
    if value == 0:
        return b"\xc0\x80"
    return _three_bytes(value) if _is_surrogate(value) else _as_utf16_units(value)


def _whatwg_write(value: int) -> bytes | None:
    # WebIDL USVString: a lone surrogate becomes U+FFFD before the encoder sees it.
    return REPLACEMENT_CHARACTER.encode("utf-8") if _is_surrogate(value) else utf8(value)


def _legacy_write(value: int) -> bytes | None:
    return encode_legacy([value]) if 0 <= value <= 0x7FFFFFFF else None


RFC3629: Final = Profile(
    name="rfc3629",
    title="RFC 3629",
    source="RFC 3629 (STD 63), with Unicode §3.9's U+FFFD practice",
    behaviour="strict UTF-8",
)

PYTHON_SURROGATEPASS: Final = Profile(
    name="python-surrogatepass",
    title="CPython surrogatepass",
    source="Python docs, codecs: error handler 'surrogatepass' (utf-8)",
    behaviour="decodes and encodes each surrogate in its 3-byte form, pairs left unjoined",
    waives=(SURROGATE_WAIVER,),
    accepts=re.compile(SURROGATE),
    read=_values,
    # No CPython error handler both passes surrogates and replaces errors: U+FFFD decoding is
    # errors='replace', plain UTF-8.
    decoding=frozenset(("decode", "validate", "incremental")),
    write=_surrogates_too,
    special=_is_surrogate,
)

WTF_8: Final = Profile(
    name="wtf-8",
    title="WTF-8",
    source='S. Sapin, "The WTF-8 encoding", https://simonsapin.github.io/wtf-8/',
    behaviour="decodes and encodes lone surrogates; joins a surrogate pair when encoding",
    waives=(SURROGATE_WAIVER,),
    # A surrogate pair byte sequence is ill-formed in WTF-8 (§ "The WTF-8 encoding").
    keeps=re.compile(HIGH + LOW),
    accepts=re.compile(SURROGATE),
    truncated=re.compile(TRUNCATED_SURROGATE),
    read=_values,
    write=_surrogates_too,
    joins_pairs=True,
    special=_is_surrogate,
)

CESU_8: Final = Profile(
    name="cesu-8",
    title="CESU-8",
    source="Unicode Technical Report #26, CESU-8, https://www.unicode.org/reports/tr26/",
    behaviour="writes and reads supplementary characters as two 3-byte surrogates; no 4-byte forms",
    waives=(FOUR_BYTE_WAIVER, SURROGATE_WAIVER + " (in pairs only)"),
    accepts=re.compile(HIGH + LOW),
    read=_pairs_joined,
    truncated=re.compile(TRUNCATED_SURROGATE),
    refuses=FOUR_BYTE_LEAD,
    write=_as_utf16_units,
    joins_pairs=True,
    special=lambda value: value > 0xFFFF or _is_surrogate(value),
)

JAVA_MODIFIED: Final = Profile(
    name="java-modified",
    title="Java modified UTF-8",
    source="Java SE API, java.io.DataInput, 'Modified UTF-8' (readUTF, writeUTF)",
    behaviour="C0 80 for U+0000, supplementary characters as surrogate pairs, any surrogate in "
    "its 3-byte form; no 4-byte forms",
    waives=(OVERLONG_WAIVER + " (C0 80 only)", FOUR_BYTE_WAIVER, SURROGATE_WAIVER),
    accepts=re.compile(rb"\xC0\x80|" + HIGH + LOW + rb"|" + SURROGATE),
    read=lambda sequence: "\0" if sequence == b"\xc0\x80" else _pairs_joined(sequence),
    truncated=re.compile(TRUNCATED_SURROGATE),
    refuses=FOUR_BYTE_LEAD,
    write=_java_write,
    special=lambda value: value == 0 or value > 0xFFFF or _is_surrogate(value),
)

RFC2279: Final = Profile(
    name="rfc2279",
    title="RFC 2279 UTF-8",
    source="RFC 2279 §2 (1998): 1 to 6 octets, values up to 0x7FFFFFFF",
    behaviour="reads and writes surrogates as values, and values above U+10FFFF in their "
    "RFC 2279 forms (up to six octets)",
    waives=(SURROGATE_WAIVER, RANGE_WAIVER),
    # Shortest forms only (RFC 2279 §6 rejects the rest).
    accepts=re.compile(SURROGATE + b"|" + BEYOND),
    read=_values,
    truncated=re.compile(TRUNCATED_SURROGATE + b"|" + TRUNCATED_BEYOND),
    write=_legacy_write,
    special=lambda value: value > 0x10FFFF or _is_surrogate(value),
)

WHATWG: Final = Profile(
    name="whatwg",
    title="WHATWG Encoding Standard UTF-8",
    source="WHATWG Encoding Standard, 'UTF-8 decode' and 'UTF-8 encode' "
    "(with WebIDL USVString conversion)",
    behaviour="strips a leading BOM when decoding; writes U+FFFD for a lone surrogate and "
    "joins a surrogate pair when encoding",
    waives=(SIGNATURE_WAIVER, REFUSAL_WAIVER + " (lone surrogates become U+FFFD)"),
    strips_signature=True,
    write=_whatwg_write,
    joins_pairs=True,
    special=_is_surrogate,
)

PROFILES: Final = {
    profile.name: profile
    for profile in (RFC3629, PYTHON_SURROGATEPASS, WTF_8, CESU_8, JAVA_MODIFIED, RFC2279, WHATWG)
}
"""Every profile by name, the reference first."""


def profile_named(name: str) -> Profile:
    """Return the profile of that name; KeyError naming the known ones for any other."""
    try:
        return PROFILES[name]
    except KeyError:
        raise KeyError(f"unknown profile {name!r} (known: {', '.join(PROFILES)})") from None
