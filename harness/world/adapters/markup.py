"""XML and YAML parsers checked on a payload held in an element's text or a quoted scalar.

Codec objects as in json_text.py. lxml (libxml2) says where an error is as a line and a column
counted in characters; PyYAML's ReaderError gives a document offset in bytes for a decoding error.
"""

from __future__ import annotations

from typing import Any

from utf8cert.harness.codec.wrappers import (
    XML_ELEMENT,
    YAML_SCALAR,
    Wrapped,
    as_int,
    in_document,
    line_and_column,
    wrapped_decoder,
)


def element_text(element: Any) -> object:
    """Return the text of a parsed root element ('' for none, as lxml gives None)."""
    text = element.text
    return "" if text is None else text


def at_line_and_column(error: BaseException, wrapped: Wrapped) -> int | None:
    """Return the payload offset of an lxml error's (line, column), or None."""
    position = getattr(error, "position", None)
    if not isinstance(position, tuple) or len(position) != 2:
        return None
    line, column = (as_int(number) for number in position)
    if line is None or column is None:
        return None
    return wrapped.payload_offset(line_and_column(wrapped.document, line, column))


class Lxml:
    """lxml.etree.fromstring with the default (strict) parser: XMLSyntaxError."""

    restriction = "xml-1.0-char"  # XML text cannot carry U+0001 nor U+FFFE (codec/restrictions.py)

    def __init__(self) -> None:
        from lxml import etree

        def parse(document: bytes) -> object:
            return element_text(etree.fromstring(document))

        errors = (etree.XMLSyntaxError,)
        self.decode = wrapped_decoder(XML_ELEMENT, parse, errors, at_line_and_column)


class LxmlRecover:
    """lxml.etree.fromstring with XMLParser(recover=True): libxml2 replaces what it cannot read."""

    restriction = "xml-1.0-char"

    def __init__(self) -> None:
        from lxml import etree

        parser = etree.XMLParser(recover=True)

        def parse(document: bytes) -> object:
            return element_text(etree.fromstring(document, parser))

        errors = (etree.XMLSyntaxError,)
        self.decode_replace = wrapped_decoder(XML_ELEMENT, parse, errors, at_line_and_column)


def yaml_decoder(loader: Any) -> Any:
    """Return a decoder of payloads through yaml.load with `loader`."""
    import yaml

    def parse(document: bytes) -> object:
        return yaml.load(document, Loader=loader)

    where = in_document(lambda error: getattr(error, "position", None))
    return wrapped_decoder(YAML_SCALAR, parse, (yaml.YAMLError,), where)


class PyyamlLibyaml:
    """PyYAML's CSafeLoader: libyaml's reader decodes the UTF-8."""

    def __init__(self) -> None:
        import yaml

        if not yaml.__with_libyaml__:
            raise ImportError("PyYAML was built without libyaml (no CSafeLoader)")
        self.decode = yaml_decoder(yaml.CSafeLoader)


class PyyamlPure:
    """PyYAML's pure-Python SafeLoader: its Reader decodes with Python's codec."""

    def __init__(self) -> None:
        import yaml

        self.decode = yaml_decoder(yaml.SafeLoader)
