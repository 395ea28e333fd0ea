"""The JSON export holds everything the YAML files say, in a stable order.

The round trip reads the export back by the format documented in vectors/README.md (written
here from that description, not from export.py) and compares it with the loaded vectors.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path, PurePath
from types import MappingProxyType
from typing import Any

from support.shipped_vectors import shipped_vectors

from utf8cert.harness.vectors.export import export_json
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import (
    DecodeVector,
    EncodeFailure,
    EncodeVector,
    ExpectedError,
    Note,
    Origin,
    Vector,
    VectorFile,
    VectorSet,
)
from utf8cert.reference import ErrorKind

VECTORS = shipped_vectors()


def read_back(document: dict[str, Any]) -> VectorSet:
    """Return the vectors of an export document, as vectors/README.md describes its format."""
    assert document["format"] == "utf8cert-vectors"
    assert document["version"].startswith("1.")
    files = []
    for entry in document["files"]:
        notes = {flag: Note(n["defect"], n["attack"]) for flag, n in entry["notes"].items()}
        vectors: list[Vector] = []
        for item in entry["vectors"]:
            common: dict[str, Any] = {
                "id": item["id"],
                "description": item["description"],
                "source": item["source"],
                "flags": tuple(item["flags"]),
                "origin": Origin(entry["file"], item["line"]),
            }
            if item["type"] == "decode":
                vectors.append(
                    DecodeVector(
                        **common,
                        data=bytes.fromhex(item["bytes"]),
                        valid=item["valid"],
                        scalars=None if item["scalars"] is None else tuple(item["scalars"]),
                        errors=tuple(
                            ExpectedError(
                                e["offset"], e["length"], ErrorKind(e["kind"]), e["incomplete"]
                            )
                            for e in item["errors"]
                        ),
                        replaced="".join(map(chr, item["replaced"])),
                        legacy=None if item["legacy"] is None else tuple(item["legacy"]),
                        levels=MappingProxyType(item["levels"]),
                    )
                )
            else:
                error = item["error"]
                vectors.append(
                    EncodeVector(
                        **common,
                        scalars=tuple(item["scalars"]),
                        expected=None if item["bytes"] is None else bytes.fromhex(item["bytes"]),
                        error=None
                        if error is None
                        else EncodeFailure(error["index"], ErrorKind(error["kind"])),
                        level=item["level"],
                        legacy=None if item["legacy"] is None else bytes.fromhex(item["legacy"]),
                    )
                )
        files.append(
            VectorFile(
                path=entry["file"],
                schema_version=entry["schema_version"],
                theme=entry["theme"],
                description=entry["description"],
                sources=tuple(entry["sources"]),
                notes=MappingProxyType({flag: str(note) for flag, note in notes.items()}),
                vectors=tuple(vectors),
                retired=tuple(entry["retired"]),
                flag_notes=MappingProxyType(notes),
            )
        )
    return VectorSet(tuple(files))


def comparable(vector_set: VectorSet) -> list[Any]:
    """Return the content of a vector set, with each file path reduced to its name."""
    content: list[Any] = []
    for vector_file in vector_set.files:
        content.append(
            (
                PurePath(vector_file.path).name,
                vector_file.schema_version,
                vector_file.theme,
                vector_file.description,
                vector_file.sources,
                dict(vector_file.notes),
                dict(vector_file.flag_notes),
                vector_file.retired,
            )
        )
        for vector in vector_file.vectors:
            fields = dict(vars(vector))
            fields["origin"] = (PurePath(vector.origin.file).name, vector.origin.line)
            if isinstance(vector, DecodeVector):
                fields["levels"] = dict(vector.levels)
            content.append(fields)
    return content


def test_the_export_reads_back_to_the_same_vectors() -> None:
    document = json.loads(export_json(VECTORS))
    assert comparable(read_back(document)) == comparable(VECTORS)


def test_the_export_counts_its_contents() -> None:
    document = json.loads(export_json(VECTORS))
    decode = sum(isinstance(v, DecodeVector) for v in VECTORS)
    assert document["counts"] == {
        "files": len(VECTORS.files),
        "decode": decode,
        "encode": len(VECTORS) - decode,
    }


def test_the_export_is_stable_and_ascii() -> None:
    """Two loads give byte-identical documents, with no machine path in them."""
    text = export_json(VECTORS)
    assert text == export_json(load_vectors())
    assert text.isascii() and text.endswith("\n")
    assert str(Path(VECTORS.files[0].path).parent) not in text


def test_an_empty_set_exports_an_empty_document() -> None:
    document = json.loads(export_json(VectorSet(())))
    assert document["files"] == [] and document["counts"]["decode"] == 0


def test_the_export_is_what_json_dumps_writes_with_an_indent_of_one() -> None:
    """The export is written by a serializer of its own (for speed): its text is the one the
    standard library writes for the same document, so the suite's digest keeps its meaning
    (docs/reports.md: the SHA-256 of `utf8cert vectors export`)."""
    for vectors in (VECTORS, VectorSet(())):
        text = export_json(vectors)
        assert text == json.dumps(json.loads(text), indent=1, ensure_ascii=True) + "\n"


def test_the_exported_strings_escape_what_json_escapes() -> None:
    """Quotes, backslashes, control characters and non-ASCII text in a description, a note
    with no attack (null) and a file with no retired ids ([]) come out as json.dumps has them."""
    vector = dataclasses.replace(
        next(v for v in VECTORS if isinstance(v, DecodeVector)),
        description='a "quote", a \\ and a tab\t, é and \U0001f600',
    )
    first = dataclasses.replace(VECTORS.files[0], vectors=(vector,), retired=())
    text = export_json(VectorSet((first,)))
    assert text == json.dumps(json.loads(text), indent=1, ensure_ascii=True) + "\n"
    assert '\\"quote\\"' in text and "\\u00e9" in text and "\\ud83d\\ude00" in text
