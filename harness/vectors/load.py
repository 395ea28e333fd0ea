"""Loading vector files: the YAML shipped in `utf8cert.vectors` and the user's own files.

    load_vectors(paths=(), *, builtin=True) -> VectorSet

Each file is parsed (reader), checked against `vectors/schema.json` (schema.py), turned into the
immutable objects of `model` (build), and then checked as a set: ids unique across all files and
never a retired one. Any problem stops the load with one `VectorLoadError` whose message is
`file:line: field: problem`. A file is first read the quick way (quick_yaml: no line kept but
its vectors', and the schema checked by a compiled validator), and read again the careful way
(the line of every value, jsonschema's own messages, for the error's) only when that finds
something wrong. The shipped files are the release's (their digests: release.py)
and were checked against the schema and the reference when it was made (tests/vectors), so only
a user's file is checked against them at load.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Sequence
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

from utf8cert.harness.vectors.build import build_file
from utf8cert.harness.vectors.model import VectorFile, VectorSet
from utf8cert.harness.vectors.named_file import read_named
from utf8cert.harness.vectors.quick_yaml import quick_parse
from utf8cert.harness.vectors.reader import VectorLoadError, YamlDocument, parse_yaml
from utf8cert.harness.vectors.release import released_files
from utf8cert.harness.vectors.schema import check_schema, quick_validator

__all__ = ["VectorLoadError", "builtin_files", "load_vectors"]

BUILTIN_PACKAGE = "utf8cert.vectors"
_ID_LINE = re.compile(r"^  - id: (\S+)$", re.MULTILINE)


def builtin_files() -> list[Traversable]:
    """Return the vector files shipped in `utf8cert.vectors`, sorted by name."""
    package = files(BUILTIN_PACKAGE)
    return sorted(
        (entry for entry in package.iterdir() if entry.name.endswith(".yaml")),
        key=lambda entry: entry.name,
    )


def load_vectors(
    paths: Sequence[str | Path] = (), *, builtin: bool = True, wanted: Collection[str] = ()
) -> VectorSet:
    """Return every vector of the built-in files (unless `builtin` is False) and of `paths`.

    `paths` are YAML files or directories (their *.yaml files, sorted, not recursive), loaded
    after the built-in files in the order given. Returns an empty set when there is nothing to
    load. Raises `VectorLoadError` for the first malformed file, unknown path, duplicate id or
    reuse of a retired id, and for a built-in file that is not the release's (release.py).

    `wanted`, ids, when given with no `paths`: the built-in files that hold none of them are
    left unread (each is still checked against the release), so that a run of one vector does
    not parse 2,401. Every file is read when `paths` are given: a user's ids are checked
    against every built-in one.
    """
    sources: list[tuple[str, str, bool]] = []  # name, text, whether the release's
    if builtin:
        # Checked against the digests recorded at release (release.py): a gutted or edited
        # install is an error, never a smaller suite.
        released = [(str(entry), raw.decode("utf-8")) for entry, raw in released_files()]
        if wanted and not paths:
            released = [(name, text) for name, text in released if listed_ids(text) & {*wanted}]
        sources.extend((name, text, True) for name, text in released)
    for file in _user_files(paths):
        sources.append((str(file), _read(file), False))
    documents, vector_files = [], []
    for name, text, release in sources:
        document = quick_parse(name, text)
        built = _quickly_built(document, release) if document is not None else None
        if document is None or built is None:
            # Read again with every line, for the error at its line.
            document = parse_yaml(name, text)
            check_schema(document)
            built = build_file(document)
        documents.append(document)
        vector_files.append(built)
    _check_ids(documents)
    return VectorSet(tuple(vector_files))


def listed_ids(text: str) -> set[str]:
    """Return the ids of a built-in file's vectors, read off its `  - id: ID` lines without
    parsing it (every shipped file writes each id so: tests/vectors/test_quick_load.py checks
    that this finds exactly the ids the parser does, file by file)."""
    return set(_ID_LINE.findall(text))


def _quickly_built(document: YamlDocument, release: bool) -> VectorFile | None:
    """Return the vectors of a document read by quick_yaml when it is valid, under the schema
    (a file of the release was checked when its digest was recorded: schema.py) and the rules
    build_file enforces; None when it is not (the careful reader then says what is wrong, at its
    line)."""
    if not isinstance(document.data, dict):
        return None  # an empty file, or one that is no mapping: check_schema says so
    if not release and not quick_validator().is_valid(document.data):
        return None
    try:
        return build_file(document, agree=not release)
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
