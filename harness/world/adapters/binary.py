"""msgpack and CBOR decoders checked on a payload held in a msgpack str or a CBOR text string.

Codec objects as in json_text.py. A msgpack decoder's UnicodeDecodeError counts from the first
byte of the string's body (it decodes the body on its own); cbor2 says no position. Each also
encodes: the packer's str, its header taken off.
"""

from __future__ import annotations

from utf8cert.harness.codec.unwrap import cbor_body, msgpack_body, unwrapping_encoder
from utf8cert.harness.codec.wrappers import (
    CBOR_TEXT,
    MSGPACK_STR,
    in_body,
    nowhere,
    wrapped_decoder,
)
from utf8cert.harness.world.adapters.json_text import START


class MsgspecMsgpack:
    """msgspec.msgpack.decode."""

    def __init__(self) -> None:
        import msgspec

        errors = (ValueError, msgspec.DecodeError)
        self.decode = wrapped_decoder(MSGPACK_STR, msgspec.msgpack.decode, errors, in_body(START))
        self.encode = unwrapping_encoder(msgspec.msgpack.encode, msgpack_body)


class Msgpack:
    """msgpack.unpackb (the C extension), raw=False: str types decoded as UTF-8."""

    def __init__(self) -> None:
        import msgpack
        from msgpack import fallback

        if msgpack.unpackb is fallback.unpackb:
            raise ImportError("msgpack's C extension is not built here (only the fallback)")
        self.decode = wrapped_decoder(MSGPACK_STR, msgpack.unpackb, (ValueError,), in_body(START))
        self.encode = unwrapping_encoder(msgpack.packb, msgpack_body)


class MsgpackFallback:
    """msgpack.fallback's unpackb and Packer, the pure-Python ones."""

    def __init__(self) -> None:
        from msgpack import fallback

        self.decode = wrapped_decoder(MSGPACK_STR, fallback.unpackb, (ValueError,), in_body(START))
        self.encode = unwrapping_encoder(fallback.Packer().pack, msgpack_body)


class Cbor2:
    """cbor2.loads; it refuses with CBORDecodeError and no position."""

    def __init__(self) -> None:
        import cbor2

        errors = (ValueError, cbor2.CBORDecodeError)
        self.decode = wrapped_decoder(CBOR_TEXT, cbor2.loads, errors, nowhere)
        self.encode = unwrapping_encoder(cbor2.dumps, cbor_body)
