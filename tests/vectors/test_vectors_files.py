"""The shipped vector files: schema-valid as written, ids unique, flags and notes in order.

These read the YAML files directly (PyYAML's safe loader and `jsonschema`, not the loader),
so they hold for any consumer of the files, and then check what the loader gives.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from importlib.resources import files
from pathlib import Path
from typing import Any, Final

import jsonschema
import pytest
import yaml
from support.shipped_vectors import shipped_vectors

from utf8cert.harness.vectors.load import builtin_files
from utf8cert.harness.vectors.model import DecodeVector, EncodeVector
from utf8cert.harness.vectors.schema import SCHEMA_VERSION

SCHEMA: Final = json.loads((files("utf8cert.vectors") / "schema.json").read_text())
# libyaml's safe loader where PyYAML has it (8 times faster here), else the pure-Python one.
SAFE_LOADER: Final = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
FILES: Final = {entry.name: yaml.load(entry.read_text(), SAFE_LOADER) for entry in builtin_files()}
VECTORS: Final = shipped_vectors()
README: Final = Path(__file__).resolve().parents[2] / "vectors" / "README.md"


def items(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [*data.get("decode", []), *data.get("encode", [])]


def test_there_are_vector_files() -> None:
    assert len(FILES) >= 10


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$id"].endswith(f":{SCHEMA_VERSION}")


def subschemas(node: Any, where: str = "#") -> list[tuple[str, dict[str, Any]]]:
    """Return every object schema in the schema document, with a JSON-pointer-like place."""
    found = []
    if isinstance(node, dict):
        if "type" in node or "$ref" in node or "enum" in node or "const" in node:
            found.append((where, node))
        for key, value in node.items():
            found += subschemas(value, f"{where}/{key}")
    return found


def test_the_schema_is_strict_and_describes_every_field() -> None:
    """Wycheproof's rule: no unknown property anywhere, and every field says what it is."""
    definitions = SCHEMA["$defs"]
    for where, part in subschemas(SCHEMA):
        target = part
        if "$ref" in part:
            target = definitions[part["$ref"].removeprefix("#/$defs/")]
        assert "description" in part or "description" in target, where
        if where == "#/$defs/common":  # open itself: each vector closes it, see below
            continue
        if part.get("type") == "object" and "additionalProperties" not in part:
            assert part.get("unevaluatedProperties") is False, where
        if part.get("$ref") == "#/$defs/common":
            assert part.get("unevaluatedProperties") is False, where
        if part.get("type") == "object" and isinstance(part.get("additionalProperties"), bool):
            assert part["additionalProperties"] is False, where


@pytest.mark.parametrize("name", sorted(FILES))
def test_each_file_is_valid_under_the_schema(name: str) -> None:
    jsonschema.Draft202012Validator(SCHEMA).validate(FILES[name])


@pytest.mark.parametrize("name", sorted(FILES))
def test_each_file_names_its_theme_after_itself(name: str) -> None:
    assert FILES[name]["theme"] == name.removesuffix(".yaml")
    assert FILES[name]["schema_version"] == SCHEMA_VERSION


def test_every_id_is_unique_across_files_and_none_is_retired() -> None:
    ids = Counter(item["id"] for data in FILES.values() for item in items(data))
    assert [vector_id for vector_id, count in ids.items() if count > 1] == []
    retired = {old for data in FILES.values() for old in data.get("retired", [])}
    assert retired.isdisjoint(ids)


@pytest.mark.parametrize("name", sorted(FILES))
def test_ids_follow_the_files_own_prefix_and_numbering(name: str) -> None:
    """Convention of vectors/README.md: one prefix per file, numbers in file order."""
    numbered = [re.fullmatch(r"([a-z0-9]+)-([0-9]+)", item["id"]) for item in items(FILES[name])]
    if name == "rfc-examples.yaml":  # ids name the RFC section instead: rfc3629-7-1(-enc)
        assert all(
            re.fullmatch(r"rfc[0-9]+-[0-9]+-[0-9]+(-enc)?", i["id"]) for i in items(FILES[name])
        )
        return
    assert all(numbered)
    prefixes = {match.group(1) for match in numbered if match}
    numbers = sorted(int(match.group(2)) for match in numbered if match)
    assert len(prefixes) == 1
    assert numbers == list(range(1, len(numbers) + 1))


@pytest.mark.parametrize("name", sorted(FILES))
def test_every_flag_is_defined_and_every_note_is_used(name: str) -> None:
    data = FILES[name]
    used = {flag for item in items(data) for flag in item.get("flags", [])}
    assert used <= set(data["notes"])
    assert set(data["notes"]) <= used


def test_a_flag_means_the_same_in_every_file() -> None:
    meanings: dict[str, set[str]] = defaultdict(set)
    for data in FILES.values():
        for flag, note in data["notes"].items():
            meanings[flag].add(json.dumps(note, sort_keys=True))
    assert {flag: len(texts) for flag, texts in meanings.items() if len(texts) > 1} == {}


def test_vectors_with_the_same_input_expect_the_same() -> None:
    """The same bytes (or scalars) in two vectors, e.g. an example in two RFCs, agree fully."""
    decoded: dict[bytes, set[object]] = defaultdict(set)
    encoded: dict[tuple[int, ...], set[object]] = defaultdict(set)
    for vector in VECTORS:
        if isinstance(vector, DecodeVector):
            outcome = (vector.valid, vector.scalars, vector.errors, vector.replaced, vector.legacy)
            decoded[vector.data].add(outcome)
        else:
            encoded[vector.scalars].add((vector.expected, vector.error, vector.legacy))
    assert [data.hex(" ") for data, outcomes in decoded.items() if len(outcomes) > 1] == []
    assert [scalars for scalars, outcomes in encoded.items() if len(outcomes) > 1] == []


def test_the_loader_reads_every_vector_of_every_file() -> None:
    assert len(VECTORS) == sum(len(items(data)) for data in FILES.values())
    assert [f.theme for f in VECTORS.files] == [d["theme"] for _, d in sorted(FILES.items())]


def test_every_vector_says_why_it_matters() -> None:
    """A description is one line that says more than the bytes, and a source is cited."""
    for vector in VECTORS:
        assert len(vector.description.split()) >= 5, vector.id
        assert re.search(r"RFC \d+|Unicode|Kuhn|UAX", vector.source), vector.id


def test_a_must_level_decoding_vector_keeps_every_u_feff_not_at_the_start() -> None:
    """RFC 3629 §6: U+FEFF anywhere but at the start is a character (the `must` level)."""
    for vector in VECTORS:
        if isinstance(vector, DecodeVector) and b"\xef\xbb\xbf" in vector.data[1:]:
            kept = vector.replaced.count("\ufeff")
            assert kept >= vector.data[1:].count(b"\xef\xbb\xbf"), vector.id


def test_the_readme_counts_match_the_files() -> None:
    """vectors/README.md states the number of vectors per theme; it must not go stale."""
    text = README.read_text(encoding="utf-8")
    for vector_file in VECTORS.files:
        decode = sum(isinstance(v, DecodeVector) for v in vector_file.vectors)
        encode = sum(isinstance(v, EncodeVector) for v in vector_file.vectors)
        row = f"| {vector_file.theme} | {decode} | {encode} | {decode + encode} |"
        assert row in text, row
    total = f"| **total** | **{sum(isinstance(v, DecodeVector) for v in VECTORS)}** |"
    assert total in text
