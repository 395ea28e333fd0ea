"""What a codec's strings can hold, and the encoding questions no string of its kind can ask.

An encoder is offered code points. Most codecs take them in a string of code points (Python's
str holds any of 0..U+10FFFF, lone surrogates too). A codec whose strings are UTF-16 (JavaScript,
Java, C#, ICU) takes a supplementary character as its surrogate pair, so a high surrogate
followed by a low one is, in its string, that character: "encode D83D DE00, kept apart" cannot
be asked of it, and its answer to the pair would be its answer to U+1F600. Nor can a UTF-16
string hold a value above U+10FFFF. Such a question is answered `Inapplicable` by the harness
itself, never put to the codec, and marked `unholdable`: coverage does not count it against the
codec (harness/check/coverage.py), as no UTF-16 encoder could answer it.

A codec says which strings it has with `strings` ("code points", the default, or "utf-16"): an
adapter in its catalog entry, a program in its handshake (`strings=utf-16`, harness/PROTOCOL.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Final, Literal, get_args

from utf8cert.harness.codec.interface import Inapplicable

StringModel = Literal["code points", "utf-16"]
STRING_MODELS: Final[tuple[StringModel, ...]] = get_args(StringModel)
DEFAULT: Final[StringModel] = "code points"

HANDSHAKE_KEY: Final = "strings"
"""A handshake word `strings=utf-16` declares a program's strings (code-points: the default)."""
HANDSHAKE_VALUES: Final[dict[str, StringModel]] = {"code-points": "code points", "utf-16": "utf-16"}

UTF16_PAIR: Final = (
    "a UTF-16 string cannot keep a high surrogate followed by a low one apart from the "
    "character they encode"
)
UTF16_BEYOND: Final = "a UTF-16 string cannot hold a value above U+10FFFF"

LARGEST_CODE_POINT: Final = 0x10FFFF


def string_model(codec: object) -> StringModel:
    """Return the strings `codec` declares (its `strings`), "code points" when it says none."""
    declared = getattr(codec, "strings", DEFAULT)
    return declared if declared in STRING_MODELS else DEFAULT


def _joined(high: int, low: int) -> bool:
    return 0xD800 <= high <= 0xDBFF and 0xDC00 <= low <= 0xDFFF


def unholdable(model: StringModel, scalars: Sequence[int]) -> Inapplicable | None:
    """Return the answer to an encoding question no string of `model` can ask (None: it can be
    asked): for UTF-16, one holding a high surrogate followed by a low one, or a value above
    U+10FFFF. Code point strings leave values above U+10FFFF to the codec (an int encoder may
    take them)."""
    if model != "utf-16":
        return None
    if any(value > LARGEST_CODE_POINT for value in scalars):
        return Inapplicable(UTF16_BEYOND, unholdable=True)
    if any(_joined(high, low) for high, low in pairwise(scalars)):
        return Inapplicable(UTF16_PAIR, unholdable=True)
    return None


def handshake_word(model: StringModel) -> str:
    """Return the handshake word that declares `model` ('' for the default)."""
    if model == DEFAULT:
        return ""
    value = next(word for word, named in HANDSHAKE_VALUES.items() if named == model)
    return f"{HANDSHAKE_KEY}={value}"
