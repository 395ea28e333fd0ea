"""YAML vector files as plain data that remembers the line of every value, and the load error.

The node tree, with source marks, comes from compose.py (bounded depth, no aliases); this module
turns it into plain dicts, lists and scalars (refusing duplicate keys, non-string keys and merge
keys, which `yaml.safe_load` would let pass silently) and answers "on which line is the value at
this path?", so that every problem found later (schema, hex, flags, ids) is reported as
`file:line: field: problem`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import yaml

from utf8cert.harness.vectors.compose import NESTED_TOO_DEEP, compose_single
from utf8cert.harness.vectors.errors import VectorLoadError

__all__ = ["Loader", "Path", "VectorLoadError", "YamlDocument", "field_name", "parse_yaml"]

# libyaml's loader where PyYAML was built with it (ten times faster: loading the vectors is most of
# a `utf8cert check` run); the pure-Python one otherwise. Both give the same nodes and marks.
Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MERGE = "tag:yaml.org,2002:merge"

Path = tuple[str | int, ...]
"""A path into the data: mapping keys and sequence indexes, outermost first."""


def field_name(path: Iterable[str | int]) -> str:
    """Return a path as a field name: `decode[3].errors[0].kind` ('file' for the empty path).
    A key that is not a printable name is quoted, escapes and all, so that a hostile file's
    error stays on one line ('"a\\nb"')."""
    name = ""
    for step in path:
        if isinstance(step, str) and not step.isprintable():
            step = json.dumps(step)
        name += f"[{step}]" if isinstance(step, int) else (f".{step}" if name else step)
    return name or "file"


@dataclass(frozen=True)
class YamlDocument:
    """A parsed vector file: its plain data and the line of each value and of each key."""

    file: str
    data: Any
    value_lines: dict[Path, int] = field(default_factory=dict)
    """The 1-based line where the value at each path starts."""
    key_lines: dict[Path, int] = field(default_factory=dict)
    """The 1-based line of the key of each mapping entry, by the entry's path."""
    raw_scalars: dict[Path, str] = field(default_factory=dict)
    """The source text of each scalar value, as written (e.g. '00' where YAML reads the int 0)."""
    every_line: bool = True
    """False when only the lines of the vectors, their ids and the retired ids were kept
    (quick_yaml): an error elsewhere needs the file read again."""

    def line_of(self, path: Sequence[str | int]) -> int:
        """Return the line of the key at `path`, else of its value, else of the nearest parent."""
        path = tuple(path)
        while path:
            line = self.key_lines.get(path) or self.value_lines.get(path)
            if line is not None:
                return line
            path = path[:-1]
        return self.value_lines.get((), 1)

    def error(self, path: Sequence[str | int], problem: str) -> VectorLoadError:
        """Return the load error for the value at `path`, at its line."""
        return VectorLoadError(self.file, self.line_of(path), field_name(path), problem)


def parse_yaml(file: str, text: str) -> YamlDocument:
    """Return the document of one YAML text (data None for an empty text).

    Raises `VectorLoadError` on YAML syntax errors, several documents, aliases, nesting deeper
    than compose.MAX_DEPTH, duplicate, merge and non-string keys, tags other than plain values'
    and scalars that are not what their tag says, each at the line where it is.
    """
    loader = Loader(text)
    try:
        root = _single_node(file, text, loader)
        lines = YamlDocument(file, None)  # filled in by _plain as it walks the tree
        data = None if root is None else _plain(lines, loader, root, ())
    finally:
        loader.dispose()
    return replace(lines, data=data)


def _single_node(file: str, text: str, loader: yaml.SafeLoader) -> yaml.Node | None:
    """Return the root node of the one document in the stream; `VectorLoadError` if not YAML."""
    try:
        return compose_single(file, loader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark is not None else 1
        problem = error.problem or error.context or "not YAML"
        if "maximum nesting depth" in problem:
            # libyaml 0.2.6 has a limit of its own (1000 levels): one message for both limits.
            raise VectorLoadError(file, line, "yaml", NESTED_TOO_DEEP) from None
        if error.problem and error.context and error.context_mark is not None:
            # e.g. "found unexpected end of stream" is clearer with where the quote was opened
            problem += f" ({error.context} on line {error.context_mark.line + 1})"
        raise VectorLoadError(file, line, "yaml", f"YAML syntax: {problem}") from None
    except yaml.reader.ReaderError as error:  # a character YAML does not allow, e.g. U+0000
        # libyaml counts the position in UTF-8 bytes, PyYAML's own reader in characters.
        if Loader is yaml.SafeLoader:
            line = text[: error.position].count("\n") + 1
        else:
            line = text.encode("utf-8", "surrogatepass")[: error.position].count(b"\n") + 1
        problem = f"YAML syntax: character {error.character!r} is not allowed: {error.reason}"
        raise VectorLoadError(file, line, "yaml", problem) from None
    except yaml.YAMLError as error:
        raise VectorLoadError(file, 1, "yaml", f"YAML syntax: {error}") from None


def _plain(document: YamlDocument, loader: yaml.SafeLoader, node: yaml.Node, path: Path) -> Any:
    """Return the plain value of `node`, recording the lines of it and everything under it."""
    document.value_lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        mapping: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == MERGE:  # with no aliases, a merge key has nothing to merge
                raise document.error(path, "merge key '<<' is not allowed: write the fields out")
            key = _scalar(document, loader, key_node, path)
            if not isinstance(key, str):
                raise document.error(path, f"key {key!r} is not a string")
            if key in mapping:
                first = document.key_lines[(*path, key)]
                raise VectorLoadError(
                    document.file,
                    key_node.start_mark.line + 1,
                    field_name((*path, key)),
                    f"duplicate key (first on line {first})",
                )
            document.key_lines[(*path, key)] = key_node.start_mark.line + 1
            mapping[key] = _plain(document, loader, value_node, (*path, key))
        return mapping
    if isinstance(node, yaml.SequenceNode):
        return [
            _plain(document, loader, item, (*path, index)) for index, item in enumerate(node.value)
        ]
    document.raw_scalars[path] = node.value
    return _scalar(document, loader, node, path)


def _scalar(document: YamlDocument, loader: yaml.SafeLoader, node: yaml.Node, path: Path) -> Any:
    """Return the value of a scalar node as safe YAML reads it (str, int, bool, None, ...)."""
    if not isinstance(node, yaml.ScalarNode):
        raise VectorLoadError(
            document.file, node.start_mark.line + 1, field_name(path), "a key must be a string"
        )
    try:
        return loader.construct_object(node, deep=True)
    except yaml.constructor.ConstructorError as error:
        problem = str(error.problem)
    except Exception as error:  # PyYAML's constructors raise anything on text they cannot read
        # e.g. 2001-13-45 read as a date (ValueError), `!!int ''` (IndexError), an int of more
        # than 4300 digits (ValueError): each is a value that is not what its tag says.
        problem = f"{node.value[:40]!r} is not a valid {node.tag.rsplit(':', 1)[-1]}: {error}"
    raise VectorLoadError(document.file, node.start_mark.line + 1, field_name(path), problem)
