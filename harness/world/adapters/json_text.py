"""JSON parsers checked on a payload held in a JSON string (harness/codec/wrappers.py).

Each class is a codec object (`utf8cert check MODULE:CLASS` takes it as it is): made with no
arguments, it imports its library (ImportError when it is missing) and offers `decode`. What
the library's error offset counts from was found by hand for each, as its locator says.
"""

from __future__ import annotations

from utf8cert.harness.codec.unwrap import json_body, unwrapping_encoder
from utf8cert.harness.codec.wrappers import (
    JSON_STRING,
    in_document,
    in_payload,
    nowhere,
    wrapped_decoder,
)


def START(error: BaseException) -> object:
    """Return the `start` of a parser's error, None when it has none (msgspec 0.23 and later
    raise a plain DecodeError, 'Invalid UTF-8 encoded string', placing the error nowhere)."""
    return getattr(error, "start", None)


class StdlibJson:
    """Python's json.loads on bytes: it decodes the document with errors='surrogatepass'
    (json/__init__.py), so a UnicodeDecodeError's start is a document offset."""

    def __init__(self) -> None:
        import json

        self.decode = wrapped_decoder(JSON_STRING, json.loads, (ValueError,), in_document(START))


class Orjson:
    """orjson.loads on bytes; its JSONDecodeError's `pos` points at the string, not the byte.
    orjson.dumps encodes: it refuses with JSONEncodeError, a TypeError (declared a refusal)."""

    def __init__(self) -> None:
        import orjson

        errors = (orjson.JSONDecodeError,)
        self.decode = wrapped_decoder(JSON_STRING, orjson.loads, errors, nowhere)
        self.encode = unwrapping_encoder(orjson.dumps, json_body)
        self.refusals = (orjson.JSONEncodeError,)


class Ujson:
    """ujson.loads on bytes; its JSONDecodeError names the problem but no position."""

    def __init__(self) -> None:
        import ujson

        self.decode = wrapped_decoder(JSON_STRING, ujson.loads, (ujson.JSONDecodeError,), nowhere)


class Simplejson:
    """simplejson.loads on bytes: UnicodeDecodeError at a document offset."""

    def __init__(self) -> None:
        import simplejson

        self.decode = wrapped_decoder(
            JSON_STRING, simplejson.loads, (ValueError,), in_document(START)
        )


class Rapidjson:
    """python-rapidjson's loads on bytes: UnicodeDecodeError at a document offset."""

    def __init__(self) -> None:
        import rapidjson

        self.decode = wrapped_decoder(
            JSON_STRING, rapidjson.loads, (ValueError,), in_document(START)
        )


class MsgspecJson:
    """msgspec.json.decode: UnicodeDecodeError whose start counts in the unescaped string;
    msgspec.json.encode encodes."""

    def __init__(self) -> None:
        import msgspec

        errors = (ValueError, msgspec.DecodeError)
        self.decode = wrapped_decoder(JSON_STRING, msgspec.json.decode, errors, in_payload(START))
        self.encode = unwrapping_encoder(msgspec.json.encode, json_body)


class Pyjson5:
    """pyjson5.decode_utf8 on bytes (JSON5, a superset of JSON): a Json5DecoderException is a
    refusal that names the string but no byte of it."""

    def __init__(self) -> None:
        import pyjson5

        errors = (pyjson5.Json5DecoderException,)
        self.decode = wrapped_decoder(JSON_STRING, pyjson5.decode_utf8, errors, nowhere)
