"""A vector file read fast: its plain data straight from the YAML parser's events, with only the
lines a loaded file needs (each vector's, its id's, each retired id's), or None when the file
needs the careful reader (reader.parse_yaml) to say what is wrong with it.

reader.parse_yaml builds PyYAML's node tree (compose.py), then the data and the line of every
value and key, so that any error names its line: about 200 µs and 8 KiB a vector. A file that
loads is read here instead, in one pass over the events, keeping no node and no mark but those
lines. Whatever the careful reader refuses (an alias, nesting deeper than compose.MAX_DEPTH, a
tag that is not a plain value's, a second document, a merge key, a key that is not a string, a
duplicate key, a scalar that is not what its tag says, YAML that does not parse) makes this
reader give up (None), and load.py reads the file again carefully, which raises the error at
its line; so does any later error of the file (schema, cross-field rules).
"""

from __future__ import annotations

from typing import Any, Final

import yaml

from utf8cert.harness.vectors.compose import MAX_DEPTH, SCALAR_TAGS
from utf8cert.harness.vectors.reader import MERGE, Loader, Path, YamlDocument

STRING: Final = "tag:yaml.org,2002:str"
VECTORS: Final = frozenset({"decode", "encode"})
SECTIONS: Final = VECTORS | {"retired"}
"""The top-level lists whose items' lines a loaded file keeps (origins, duplicate ids)."""
DEEP: Final[Path] = ("", 0, 0)
"""The path kept for a value three steps or more from the top: no line of it is kept."""


class _GiveUp(Exception):
    """The careful reader must look at this file."""


def quick_parse(file: str, text: str) -> YamlDocument | None:
    """Return the document of one YAML text with the lines of its vectors, their ids and its
    retired ids (data None for an empty text); None where the careful reader must read it."""
    loader = Loader(text)
    try:
        return _document(file, loader)
    except (_GiveUp, yaml.YAMLError, RecursionError, ValueError, TypeError):
        return None
    finally:
        loader.dispose()


def _document(file: str, loader: Any) -> YamlDocument:
    """Return the one document of the stream, read as `quick_parse` says."""
    document = YamlDocument(file, None, every_line=False)
    loader.get_event()  # StreamStartEvent
    if loader.check_event(yaml.StreamEndEvent):
        return document
    loader.get_event()  # DocumentStartEvent
    data = _value(document, loader)
    loader.get_event()  # DocumentEndEvent
    if not loader.check_event(yaml.StreamEndEvent):
        raise _GiveUp  # a second document
    return YamlDocument(file, data, document.value_lines, document.key_lines, every_line=False)


def _value(document: YamlDocument, loader: Any) -> Any:
    """Return the plain value whose first event is next, reading to its last event with an
    explicit stack (no recursion, whatever the nesting)."""
    # A value that is no string, by text and tag; a plain scalar's tag, by text and implicit.
    scalars: dict[tuple[str, Any], Any] = {}
    plain: dict[str, Any] = {}
    """The value of each plain scalar (untagged, unquoted) read so far, by its text."""
    # Per open collection: the list or dict, its path, and a mapping's key awaiting its value.
    stack: list[tuple[Any, Path, list[Any]]] = []
    next_event, plain_strings = loader.get_event, not loader.yaml_path_resolvers
    while True:
        event = next_event()
        kind = type(event)
        if kind is yaml.ScalarEvent:  # the most frequent: tried first, with no call for text
            if event.tag is None and not event.implicit[0] and plain_strings:
                value = event.value  # quoted: a string, as the resolver would say at more cost
            elif event.tag is None and plain_strings:
                # A plain scalar read before (U+0061, true, 3: a file repeats them) is what it
                # was then: no call for it (the window vectors hold 100,000 such).
                value = plain.get(event.value, plain)
                if value is plain:
                    value = plain[event.value] = _scalar(loader, event, scalars)
            else:
                value = _scalar(loader, event, scalars)
            if len(stack) == 2:
                path = _child_path(stack)
                if path[0] in SECTIONS:
                    document.value_lines[path] = _line(event)
        elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
            if len(stack) >= MAX_DEPTH or event.tag not in (None, "!"):
                raise _GiveUp
            value = {} if kind is yaml.MappingStartEvent else []
            path = _child_path(stack) if len(stack) < 3 else DEEP
            if len(path) == 2 and path[0] in SECTIONS:
                document.value_lines[path] = _line(event)
            stack.append((value, path, []))
            continue
        elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            value, path, pending = stack.pop()
            if pending:
                raise _GiveUp
        else:  # an alias, or an event the parser gives no document
            raise _GiveUp
        if not stack:
            return value
        parent, parent_path, pending = stack[-1]
        if isinstance(parent, list):
            parent.append(value)
        elif not pending:
            if not isinstance(value, str) or value in parent:
                raise _GiveUp  # a key that is no string (or a collection), or a duplicate
            pending.append(value)
            if value == "id" and len(parent_path) == 2 and parent_path[0] in VECTORS:
                document.key_lines[(*parent_path, "id")] = _line(event)
        else:
            parent[pending.pop()] = value


def _line(event: Any) -> int:
    """Return the 1-based line an event starts on."""
    return int(event.start_mark.line) + 1


def _child_path(stack: list[tuple[Any, Path, list[Any]]]) -> Path:
    """Return the path of the value that comes next in the innermost open collection (asked
    only within two steps of the top: the lines kept are of paths two steps long)."""
    if not stack:
        return ()
    parent, path, pending = stack[-1]
    step = len(parent) if isinstance(parent, list) else (pending[0] if pending else "")
    return (*path, step)


def _scalar(loader: Any, event: yaml.ScalarEvent, known: dict[tuple[str, Any], Any]) -> Any:
    """Return a scalar's value as safe YAML reads it; _GiveUp for a tag that is not a plain
    value's, a merge key, or text that is not what its tag says."""
    if event.tag in (None, "!"):
        # A file repeats its plain scalars (U+0061, true, 3): the resolver's regular
        # expressions run once per distinct text.
        tag = known.get((event.value, event.implicit))
        if tag is None:
            tag = loader.resolve(yaml.ScalarNode, event.value, event.implicit)
            known[(event.value, event.implicit)] = tag
    elif event.tag in SCALAR_TAGS:
        tag = event.tag
    else:
        raise _GiveUp
    if tag == STRING:
        return event.value
    if tag not in SCALAR_TAGS or tag == MERGE:
        raise _GiveUp
    key = (event.value, tag)
    if key not in known:
        node = yaml.ScalarNode(tag, event.value)  # no marks: an error is the careful reader's
        try:
            known[key] = loader.construct_object(node, deep=True)
        except Exception:  # PyYAML's constructors raise anything: the careful reader says what
            raise _GiveUp from None
        finally:
            loader.constructed_objects.pop(node, None)
    return known[key]
