"""utf8cert.reference: UTF-8 exactly as RFC 3629 defines it, in plain Python with no dependencies.

    decode(data) -> str                 strict; raises DecodeError at the first ill-formed byte
    decode_replace(data) -> str         one U+FFFD per maximal subpart (Unicode §3.9, WHATWG)
    errors(data) -> list[DecodeError]   every maximal subpart, in order
    validate(data) -> bool
    encode(str | Sequence[int]) -> bytes    refuses surrogates and values above U+10FFFF
    IncrementalDecoder(errors="strict" | "replace")
    strip_signature(data) -> bytes      drops one leading EF BB BF (RFC 3629 §6)
    decode_legacy / encode_legacy       RFC 2044/2279: 1 to 6 octets, up to U+7FFFFFFF

Everything is driven by the RFC 3629 §4 table in `table.py` (and the §3 table in `encoder.py`);
the text of well-formed runs comes from the §3 bit layout in `text.py`.
"""

from .decoder import (
    REPLACEMENT_CHARACTER,
    SIGNATURE,
    decode,
    decode_replace,
    errors,
    sequence_at,
    strip_signature,
    validate,
)
from .encoder import encode
from .incremental import IncrementalDecoder
from .kinds import DecodeError, EncodeError, ErrorKind, StrEncodeError
from .legacy import decode_legacy, encode_legacy
from .text import scalar_of

__all__ = [
    "REPLACEMENT_CHARACTER",
    "SIGNATURE",
    "DecodeError",
    "EncodeError",
    "ErrorKind",
    "IncrementalDecoder",
    "StrEncodeError",
    "decode",
    "decode_legacy",
    "decode_replace",
    "encode",
    "encode_legacy",
    "errors",
    "scalar_of",
    "sequence_at",
    "strip_signature",
    "validate",
]
