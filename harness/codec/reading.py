"""How a codec's API reads its input, and the questions it cannot be given whole.

Most APIs take bytes (or code points) and a length, and see all of them. Some take a C string:
the text ends at its first NUL, by definition of the string (C11 §7.1.1), so a caller cannot
hand them `61 00 80` at all; what they are given is `61`. libxml2's `xmlCheckUTF8` has no other
form. GLib's `g_utf8_to_ucs4` and `g_utf8_to_utf16` take a length but stop at a NUL all the
same, and so do its encoders `g_ucs4_to_utf8` and `g_utf16_to_utf8` at a U+0000 (GLib 2.74.6,
asked directly: `items_read` is 1 for `61 00 80` of length 3, the answer `a`, no error).
Judging such an API on what follows the NUL blames it for input it never saw: it "accepts" the
ill-formed tail, "loses" the text after the NUL, writes nothing for U+0000.

So an adapter declares what its API reads (`reads`: "bytes", the default, or "c-string"), and a
question whose input holds a NUL is answered `Inapplicable` by the harness itself, never put
to the codec, and marked `unholdable`: the report counts those questions once, under this
reason, as the API's declared limit, and not against the codec's coverage (check/coverage.py).
"""

from __future__ import annotations

from typing import Final, Literal, get_args

from utf8cert.harness.codec.interface import Inapplicable
from utf8cert.harness.codec.protocol import Request

InputModel = Literal["bytes", "c-string"]
INPUT_MODELS: Final[tuple[InputModel, ...]] = get_args(InputModel)
BYTES: Final[InputModel] = "bytes"

C_STRING_LIMIT: Final = (
    "the API reads a C string, which ends at its first NUL: the bytes from there on are never seen"
)
C_STRING_NOTE: Final = "its API reads a C string (it ends at the first NUL)"
"""What a codec's description says of it (codec/spec.py)."""


def input_model(codec: object) -> InputModel:
    """Return what `codec` (or an adapter entry) declares its API reads (`reads`), "bytes"
    when it says nothing or something unknown."""
    declared = getattr(codec, "reads", BYTES)
    return declared if declared in INPUT_MODELS else BYTES


def unseen(model: InputModel, request: Request) -> Inapplicable | None:
    """Return the answer to a question the API cannot be given whole (None: it can be asked):
    for a C string, one whose input holds a NUL (a 00 byte to decode, U+0000 to encode)."""
    if model != "c-string":
        return None
    if request.capability == "encode":
        held = 0 in request.scalars
    else:
        held = b"\x00" in request.data or any(b"\x00" in chunk for chunk in request.chunks)
    return Inapplicable(C_STRING_LIMIT, unholdable=True) if held else None
