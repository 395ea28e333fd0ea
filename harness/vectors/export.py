"""The vectors as one JSON document, for harnesses written in languages without a YAML reader.

    export_json(vector_set) -> str

The format is documented in vectors/README.md ("The JSON export"). Everything a vector file
says is there, in a stable order: files in load order, vectors in file order, keys in a fixed
order; bytes as lower-case hex without spaces, code points as integers; every level resolved.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring_ascii
from pathlib import PurePath
from typing import Any, Final

from utf8cert.harness.vectors.model import (
    DecodeVector,
    EncodeVector,
    ExpectedError,
    VectorFile,
    VectorSet,
)

EXPORT_FORMAT: Final = "utf8cert-vectors"
EXPORT_VERSION: Final = "1.0"
"""The version of the export format; a consumer of 1.x reads every 1.y document."""


def export_json(vector_set: VectorSet) -> str:
    """Return the JSON document of `vector_set` (ASCII only, ends with a newline).

    An empty set gives a document with no files and zero counts.
    """
    decode = sum(isinstance(vector, DecodeVector) for vector in vector_set)
    document = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "counts": {
            "files": len(vector_set.files),
            "decode": decode,
            "encode": len(vector_set) - decode,
        },
        "files": [_file(vector_file) for vector_file in vector_set.files],
    }
    return _dumps(document, "\n") + "\n"


def _dumps(value: Any, pad: str) -> str:
    """Return `value` as `json.dumps(value, indent=1, ensure_ascii=True)` writes it, `pad` being
    the newline and indentation of its own line: the same text, in a third of the time (the
    suite's digest, identity.py, is taken of it on every check, and json's pure-Python
    indenting encoder was a tenth of a default check of CPython's codec)."""
    if isinstance(value, str):
        return encode_basestring_ascii(value)
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, int):
        return int.__repr__(value)
    inner = pad + " "
    if isinstance(value, dict) and value:
        items = [
            inner + encode_basestring_ascii(k) + ": " + _dumps(v, inner) for k, v in value.items()
        ]
        return "{" + ",".join(items) + pad + "}"
    if isinstance(value, list) and value:
        if set(map(type, value)) == {int}:  # code points: most of the document
            return "[" + inner + ("," + inner).join(map(int.__repr__, value)) + pad + "]"
        return "[" + ",".join([inner + _dumps(item, inner) for item in value]) + pad + "]"
    return json.dumps(value)  # {} and [] (and, should one appear, a float)


def _file(vector_file: VectorFile) -> dict[str, Any]:
    """Return one vector file as a JSON object; `file` is its name only (stable across machines)."""
    notes = {
        flag: {"defect": note.defect, "attack": note.attack}
        for flag, note in vector_file.flag_notes.items()
    }
    for flag, text in vector_file.notes.items():  # a VectorFile built without its note parts
        notes.setdefault(flag, {"defect": text, "attack": None})
    return {
        "file": PurePath(vector_file.path).name,
        "schema_version": vector_file.schema_version,
        "theme": vector_file.theme,
        "description": vector_file.description,
        "sources": list(vector_file.sources),
        "notes": notes,
        "retired": list(vector_file.retired),
        "vectors": [
            _decode(vector) if isinstance(vector, DecodeVector) else _encode(vector)
            for vector in vector_file.vectors
        ],
    }


def _common(vector: DecodeVector | EncodeVector, kind: str) -> dict[str, Any]:
    return {
        "type": kind,
        "id": vector.id,
        "description": vector.description,
        "source": vector.source,
        "flags": list(vector.flags),
        "line": vector.origin.line,
    }


def _decode(vector: DecodeVector) -> dict[str, Any]:
    return _common(vector, "decode") | {
        "bytes": vector.data.hex(),
        "valid": vector.valid,
        "scalars": None if vector.scalars is None else list(vector.scalars),
        "errors": [_error(error) for error in vector.errors],
        "replaced": list(map(ord, vector.replaced)),
        "legacy": None if vector.legacy is None else list(vector.legacy),
        "levels": {
            name: vector.levels[name] for name in ("valid", "scalars", "errors", "replaced")
        },
    }


def _error(error: ExpectedError) -> dict[str, Any]:
    return {
        "offset": error.offset,
        "length": error.length,
        "kind": str(error.kind),
        "incomplete": error.incomplete,
    }


def _encode(vector: EncodeVector) -> dict[str, Any]:
    return _common(vector, "encode") | {
        "scalars": list(vector.scalars),
        "bytes": None if vector.expected is None else vector.expected.hex(),
        "error": None
        if vector.error is None
        else {"index": vector.error.index, "kind": str(vector.error.kind)},
        "legacy": None if vector.legacy is None else vector.legacy.hex(),
        "level": vector.level,
    }
