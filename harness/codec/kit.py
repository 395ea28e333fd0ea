"""The adapter kit: the public helpers an adapter uses to put a codec to utf8cert.

    from utf8cert.harness.codec.kit import JSON_STRING, in_document, wrapped_decoder

A Python adapter is a codec object (`utf8cert check MODULE:CLASS`): its `decode`, `decode_replace`,
`validate`, `encode`, `incremental_decoder` are called in the process. For a parser, the kit
holds the payload in a document and maps the parser's error back to the payload:

- formats: `JSON_STRING`, `MSGPACK_STR`, `CBOR_TEXT`, `XML_ELEMENT`, `YAML_SCALAR` (or your own
  `Format`); `FORMAT.wrap(payload)` returns a `Wrapped`: the `document`, and
  `payload_offset(document_offset)`, the payload index a document offset points at;
- `wrapped_decoder(FORMAT, parse, refusals, locate)`: a decoder of payloads in one call;
- locators, which read where a parser's exception says the error is: `in_document(read)` (an
  offset in the document's bytes), `in_body(read)` (from the string's first byte),
  `in_payload(read)` (in the unescaped string), `nowhere` (it does not say);
  `line_and_column(document, line, column)` turns a 1-based line and character column into a
  document offset;
- unwrapping what a serializer wrote, to check its encoder: `unwrapping_encoder(dumps, BODY)`
  with `json_body`, `msgpack_body` or `cbor_body` (`NotTheFormat` when the output is not one
  string of the format);
- `Refusal(message, offset)`: refuse at an offset worked out by hand; `NotApplicable(reason)`:
  the request cannot be put to the codec (a format cannot carry a character).

A program in any language (`utf8cert check "cmd:..."`, harness/PROTOCOL.md) exchanges hex
fields; in Python: `bytes_of_hex`, `hex_of_bytes`, `text_of_hex`, `hex_of_text` (eight digits
per code point, lone surrogates kept), `scalars_of_hex`, `hex_of_scalars` (any 0..FFFFFFFF).
examples/<language>/ holds a protocol template for each language the kit knows.
"""

from __future__ import annotations

from utf8cert.harness.codec.protocol import (
    bytes_of_hex,
    hex_of_bytes,
    hex_of_scalars,
    hex_of_text,
    scalars_of_hex,
    text_of_hex,
)
from utf8cert.harness.codec.raised import NotApplicable, Refusal
from utf8cert.harness.codec.unwrap import (
    NotTheFormat,
    cbor_body,
    json_body,
    msgpack_body,
    unwrapping_encoder,
)
from utf8cert.harness.codec.wrappers import (
    CBOR_TEXT,
    JSON_STRING,
    MSGPACK_STR,
    XML_ELEMENT,
    YAML_SCALAR,
    Format,
    Locate,
    Wrapped,
    in_body,
    in_document,
    in_payload,
    line_and_column,
    nowhere,
    wrapped_decoder,
)

__all__ = [
    "CBOR_TEXT",
    "JSON_STRING",
    "MSGPACK_STR",
    "XML_ELEMENT",
    "YAML_SCALAR",
    "Format",
    "Locate",
    "NotApplicable",
    "NotTheFormat",
    "Refusal",
    "Wrapped",
    "bytes_of_hex",
    "cbor_body",
    "hex_of_bytes",
    "hex_of_scalars",
    "hex_of_text",
    "in_body",
    "in_document",
    "in_payload",
    "json_body",
    "line_and_column",
    "msgpack_body",
    "nowhere",
    "scalars_of_hex",
    "text_of_hex",
    "unwrapping_encoder",
    "wrapped_decoder",
]
