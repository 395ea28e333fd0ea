"""Loading vector files: the YAML shipped in `utf8cert.vectors` and the user's own files.

    load_vectors(paths=(), *, builtin=True) -> VectorSet

Each file is parsed (vector_yaml), checked against `vectors/schema.json`, turned into the
immutable objects of `model` (vector_build), and then checked as a set: ids unique across all
files and never a retired one. Any problem stops the load with one `VectorLoadError` whose
message is `file:line: field: problem`. A file is first read the quick way (quick_yaml: no line
kept but its vectors'; quick_schema: the schema compiled), and read again the careful way (the
line of every value; jsonschema's own messages) only when that finds something wrong.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import jsonschema

from utf8cert.harness.vectors.build import build_file
from utf8cert.harness.vectors.model import VectorFile, VectorSet
from utf8cert.harness.vectors.named_file import read_named
from utf8cert.harness.vectors.quick_schema import quick_valid
from utf8cert.harness.vectors.quick_yaml import quick_parse
from utf8cert.harness.vectors.reader import VectorLoadError, YamlDocument, parse_yaml
from utf8cert.harness.vectors.release import released_files

__all__ = ["SCHEMA_VERSION", "VectorLoadError", "builtin_files", "load_vectors", "schema"]

BUILTIN_PACKAGE = "utf8cert.vectors"
SCHEMA_VERSION = "1.0"
"""The schema version this loader writes to and reads (it reads every 1.x file)."""


@cache
def schema() -> dict[str, Any]:
    """Return the JSON Schema of a vector file, as shipped in `utf8cert.vectors`."""
    loaded: dict[str, Any] = json.loads((files(BUILTIN_PACKAGE) / "schema.json").read_text())
    return loaded


@cache
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema())


def builtin_files() -> list[Traversable]:
    """Return the vector files shipped in `utf8cert.vectors`, sorted by name."""
    package = files(BUILTIN_PACKAGE)
    return sorted(
        (entry for entry in package.iterdir() if entry.name.endswith(".yaml")),
        key=lambda entry: entry.name,
    )


def load_vectors(paths: Sequence[str | Path] = (), *, builtin: bool = True) -> VectorSet:
    """Return every vector of the built-in files (unless `builtin` is False) and of `paths`.

    `paths` are YAML files or directories (their *.yaml files, sorted, not recursive), loaded
    after the built-in files in the order given. Returns an empty set when there is nothing to
    load. Raises `VectorLoadError` for the first malformed file, unknown path, duplicate id or
    reuse of a retired id, and for a built-in file that is not the release's (release.py).
    """
    sources: list[tuple[str, str]] = []
    if builtin:
        # Checked against the digests recorded at release (release.py): a gutted or edited
        # install is an error, never a smaller suite.
        sources.extend((str(entry), raw.decode("utf-8")) for entry, raw in released_files())
    for file in _user_files(paths):
        sources.append((str(file), _read(file)))
    documents = [quick_parse(name, text) or parse_yaml(name, text) for name, text in sources]
    vector_files = []
    for index, document in enumerate(documents):
        if not document.every_line:  # read by quick_yaml: the lines of its vectors only
            built = _quickly_built(document)
            if built is not None:
                vector_files.append(built)
                continue
            # Read again with every line, for the error at its line (or, where the compiled
            # check was stricter than the schema, a file that is valid after all).
            document = documents[index] = parse_yaml(*sources[index])
        _validate(document)
        vector_files.append(build_file(document))
    _check_ids(documents)
    return VectorSet(tuple(vector_files))


def _quickly_built(document: YamlDocument) -> VectorFile | None:
    """Return the vectors of a document read by quick_yaml when it is valid, by the compiled
    check (quick_schema) and the rules build_file enforces; None when it is not, or may not be
    (the careful reader and jsonschema then say what is wrong, at its line)."""
    valid = quick_valid()
    if valid is None or not isinstance(document.data, dict) or not valid(document.data):
        return None
    try:
        return build_file(document)
    except VectorLoadError:
        return None


def _user_files(paths: Sequence[str | Path]) -> Iterator[Path]:
    """Yield each file given, and each *.yaml file of each directory given (sorted)."""
    for given in paths:
        path = Path(given)
        if path.is_dir():
            found = sorted(path.glob("*.yaml"))
            if not found:
                raise VectorLoadError(str(path), 1, "file", "directory holds no *.yaml file")
            yield from found
        elif path.exists() or path.is_symlink():
            yield path  # read_named refuses what is not a regular file, saying what it is
        else:
            raise VectorLoadError(str(path), 1, "file", "no such file or directory")


def _read(path: Path) -> str:
    """Return a file's text; `VectorLoadError` if it is not UTF-8 or cannot be read."""
    try:
        raw = read_named(path)
    except OSError as error:
        raise VectorLoadError(str(path), 1, "file", error.strerror or str(error)) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise VectorLoadError(str(path), line, "file", f"not UTF-8: {error.reason}") from None


def _validate(document: YamlDocument) -> None:
    """Raise `VectorLoadError` for the first (topmost in the file) schema violation, if any."""
    if not isinstance(document.data, dict):
        raise VectorLoadError(
            document.file,
            1,
            "file",
            "expected a mapping with schema_version, theme, ... at the top",
        )
    explained = [_explain(document, error) for error in _validator().iter_errors(document.data)]
    if explained:
        path, problem = min(explained, key=lambda found: (document.line_of(found[0]), str(found)))
        raise document.error(path, problem)


def _explain(
    document: YamlDocument, error: jsonschema.ValidationError
) -> tuple[tuple[str | int, ...], str]:
    """Return the path of the value at fault and a plain-words problem for one schema error."""
    path = tuple(error.absolute_path)
    schema_part = error.schema if isinstance(error.schema, dict) else {}
    if error.validator in ("additionalProperties", "unevaluatedProperties"):
        allowed = sorted(_allowed_keys(schema_part))
        given = error.instance if isinstance(error.instance, dict) else {}
        unexpected = sorted(set(given) - set(allowed)) if allowed else []
        if unexpected:
            return (*path, unexpected[0]), f"unknown field (allowed here: {', '.join(allowed)})"
    if error.validator == "pattern" and "title" in schema_part:
        return path, f"{error.instance!r} is not {schema_part['title']}"
    if error.validator == "type" and not isinstance(error.instance, str | dict | list):
        raw = document.raw_scalars.get(path)
        wanted = error.validator_value
        if raw is not None and "string" in (wanted if isinstance(wanted, list) else [wanted]):
            return path, f"YAML reads {raw} as {type(error.instance).__name__}: quote it ({raw!r})"
    if error.validator == "propertyNames":
        return path, f"bad name {error.instance!r}: {error.message}"
    return path, error.message


def _allowed_keys(schema_part: dict[str, Any]) -> set[str]:
    """Return the property names a schema object (with its $ref'd common part) allows."""
    allowed = set(schema_part.get("properties", {}))
    reference = schema_part.get("$ref", "")
    if reference.startswith("#/$defs/"):
        allowed |= _allowed_keys(schema()["$defs"][reference.removeprefix("#/$defs/")])
    return allowed


def _check_ids(documents: list[YamlDocument]) -> None:
    """Raise `VectorLoadError` for an id used twice, or a retired id used again, across files."""
    retired: dict[str, str] = {}
    for document in documents:
        for index, old in enumerate(document.data.get("retired", [])):
            retired.setdefault(old, f"{document.file}:{document.line_of(('retired', index))}")
    first_seen: dict[str, str] = {}
    for document in documents:
        for path, vector_id in _ids(document):
            if vector_id in retired:
                raise document.error(path, f"{vector_id!r} is retired (at {retired[vector_id]})")
            if vector_id in first_seen:
                raise document.error(
                    path, f"duplicate id {vector_id!r} (first at {first_seen[vector_id]})"
                )
            first_seen[vector_id] = f"{document.file}:{document.line_of(path)}"


def _ids(document: YamlDocument) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """Yield the path and value of every vector id of a (schema-valid) document, in file order."""
    items = [
        ((section, index, "id"), item["id"])
        for section in ("decode", "encode")
        for index, item in enumerate(document.data.get(section, []))
    ]
    yield from sorted(items, key=lambda entry: document.line_of(entry[0]))
