"""YAML events to a node tree with bounded nesting and no aliases: a vector file that is hostile
(nested thousands deep, or a "billion laughs" of aliases) is refused before it costs anything.

PyYAML's own composer recurses once per level of nesting (libyaml's, in C, overflows the stack
at about 25,000 levels; the Python one raises RecursionError at about 500) and expands every
alias into a shared node that a walk of the tree visits once per reference. This composer reads
the same events with an explicit stack, counts the depth, and refuses an alias at its line.
The nodes it builds are PyYAML's own, with the same tags and marks.
"""

from __future__ import annotations

from typing import Any, Final, Protocol

import yaml

from utf8cert.harness.vectors.errors import VectorLoadError

MAX_DEPTH: Final = 32
"""Deepest nesting of lists and mappings allowed in a vector file. The schema needs 5 (file >
decode > vector > errors > error); anything far deeper is not a vector file."""
NESTED_TOO_DEEP: Final = f"nested deeper than {MAX_DEPTH} lists and mappings"

SEQUENCE: Final = "tag:yaml.org,2002:seq"
MAPPING: Final = "tag:yaml.org,2002:map"
SCALAR_TAGS: Final = frozenset(
    f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null")
)
"""The explicit scalar tags a vector file may use: the plain values JSON Schema knows. Others
(!!binary, !!timestamp, !!python/...) build values no vector field takes, or run code."""

Collection = yaml.SequenceNode | yaml.MappingNode


class Events(Protocol):
    """The part of a PyYAML loader this module reads (PyYAML's stubs leave it untyped)."""

    def get_event(self) -> Any: ...
    def check_event(self, *choices: type[yaml.Event]) -> bool: ...
    def resolve(self, kind: type[yaml.Node], value: str | None, implicit: Any) -> str: ...


def compose_single(file: str, loader: Events) -> yaml.Node | None:
    """Return the root node of the one document in the stream (None for an empty stream).

    Raises VectorLoadError for an alias, nesting deeper than MAX_DEPTH, a tag that is not a
    plain value's, or a second document; yaml.YAMLError for text that is not YAML.
    """
    loader.get_event()  # StreamStartEvent
    root = None
    if not loader.check_event(yaml.StreamEndEvent):
        loader.get_event()  # DocumentStartEvent
        root = _compose_node(file, loader)
        loader.get_event()  # DocumentEndEvent
    if not loader.check_event(yaml.StreamEndEvent):
        line = loader.get_event().start_mark.line + 1
        raise VectorLoadError(file, line, "yaml", "a second YAML document: a file holds one")
    loader.get_event()
    return root


def _compose_node(file: str, loader: Events) -> yaml.Node:
    """Return the node whose first event is next, reading to its last event without recursion."""
    open_nodes: list[Collection] = []
    keys: list[yaml.Node | None] = []  # per open node: a mapping's key awaiting its value
    while True:
        event = loader.get_event()
        line = event.start_mark.line + 1
        node: yaml.Node
        if isinstance(event, yaml.AliasEvent):
            raise VectorLoadError(
                file, line, "yaml", f"alias *{event.anchor}: a vector file has no use for aliases"
            )
        if isinstance(event, yaml.CollectionStartEvent):
            if len(open_nodes) >= MAX_DEPTH:
                raise VectorLoadError(file, line, "yaml", NESTED_TOO_DEEP)
            is_mapping = isinstance(event, yaml.MappingStartEvent)
            kind = yaml.MappingNode if is_mapping else yaml.SequenceNode
            tag = _tag(loader, kind, event, None)
            if tag != (MAPPING if is_mapping else SEQUENCE):
                raise VectorLoadError(
                    file, line, "yaml", f"tag {_short(event.tag)}: not a plain list or mapping"
                )
            # libyaml's marks (yaml._yaml.Mark) have the line and column PyYAML's have.
            start = event.start_mark
            open_nodes.append(kind(tag, [], start, None, flow_style=event.flow_style))  # type: ignore[arg-type]
            keys.append(None)
            continue
        if isinstance(event, yaml.CollectionEndEvent):
            node = open_nodes.pop()
            node.end_mark = event.end_mark
            keys.pop()
        elif isinstance(event, yaml.ScalarEvent):
            tag = _tag(loader, yaml.ScalarNode, event, event.value)
            if event.tag not in (None, "!") and tag not in SCALAR_TAGS:
                raise VectorLoadError(
                    file, line, "yaml", f"tag {_short(event.tag)}: a vector file holds plain values"
                )
            start, end = event.start_mark, event.end_mark
            node = yaml.ScalarNode(tag, event.value, start, end, style=event.style)  # type: ignore[arg-type]
        else:  # the parser gives no other event inside a document
            raise VectorLoadError(file, line, "yaml", f"unexpected {type(event).__name__}")
        if not open_nodes:
            return node
        parent = open_nodes[-1]
        if isinstance(parent, yaml.SequenceNode):
            parent.value.append(node)
        elif keys[-1] is None:
            keys[-1] = node
        else:
            parent.value.append((keys[-1], node))
            keys[-1] = None


def _tag(
    loader: Events,
    kind: type[yaml.Node],
    event: yaml.ScalarEvent | yaml.CollectionStartEvent,
    value: str | None,
) -> str:
    """Return a node's tag: its own, or the one YAML resolves for it (as PyYAML's composer)."""
    if event.tag is not None and event.tag != "!":
        return str(event.tag)
    return loader.resolve(kind, value, event.implicit)


def _short(tag: str | None) -> str:
    """Return a tag as written in YAML: '!!binary' for 'tag:yaml.org,2002:binary'."""
    return str(tag).replace("tag:yaml.org,2002:", "!!", 1)
