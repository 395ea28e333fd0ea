"""Codecs that declare what their API cannot carry (codec/restrictions.py), rightly or not.

`XmlText` is the docs/adapters.md example on the standard library's expat: XML element text,
which cannot hold U+0001 nor U+FFFE (XML 1.0 §2.2 Char). `FalselyRestricted` is CPython's own
codec declaring that same restriction, which it does not have: it answers every such question.
Loadable as `support.restricted_codecs:NAME`.
"""

from __future__ import annotations

from xml.parsers import expat

from support.hand_rolled import CPythonUtf8
from utf8cert.harness.codec.kit import XML_ELEMENT


class XmlText:
    """The text of an XML element, parsed by expat; refuses what expat refuses."""

    refusals = (expat.ExpatError,)
    restriction = "xml-1.0-char"

    @staticmethod
    def refusal_offset(error: BaseException) -> int | None:
        return None  # expat says a line and a column of the document, not of the payload

    def decode(self, data: bytes) -> str:
        document = XML_ELEMENT.wrap(data).document  # NotApplicable for U+0001, U+FFFE...
        parser = expat.ParserCreate()
        text: list[str] = []
        parser.CharacterDataHandler = text.append
        parser.Parse(document, True)
        return "".join(text)


class FalselyRestricted(CPythonUtf8):
    """CPython's codec, declaring a restriction it does not have."""

    restriction = "xml-1.0-char"
