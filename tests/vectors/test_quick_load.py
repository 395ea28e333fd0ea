"""The quick way of loading vector files (quick_yaml, quick_schema) accepts nothing the careful
way refuses, reads the same data with the same lines where it keeps them, and leaves every error
to the careful way, which names its file and line."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from utf8cert.harness.vectors.load import _validator, builtin_files, load_vectors
from utf8cert.harness.vectors.quick_schema import draft7, quick_valid
from utf8cert.harness.vectors.quick_yaml import quick_parse
from utf8cert.harness.vectors.reader import VectorLoadError, parse_yaml


def typed(value: Any) -> Any:
    """Return `value` with the type of every part spelled out (1, 1.0 and True differ)."""
    if isinstance(value, dict):
        return {key: typed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [typed(item) for item in value]
    return (type(value).__name__, value)


@pytest.mark.parametrize("entry", builtin_files(), ids=lambda entry: entry.name)
def test_a_shipped_file_reads_the_same_quickly_with_the_same_lines_kept(entry: Any) -> None:
    text = entry.read_text(encoding="utf-8")
    quick, careful = quick_parse(entry.name, text), parse_yaml(entry.name, text)
    assert quick is not None and not quick.every_line
    assert typed(quick.data) == typed(careful.data)
    assert quick.key_lines and quick.value_lines
    for path, line in quick.key_lines.items():
        assert careful.key_lines[path] == line
    for path, line in quick.value_lines.items():
        assert careful.value_lines[path] == line
    ids = {path for path in careful.key_lines if len(path) == 3 and path[2] == "id"}
    assert {path for path in ids if path[0] in ("decode", "encode")} <= set(quick.key_lines)
    valid = quick_valid()
    assert valid is not None and valid(quick.data)


HOSTILE = [
    "a: &x 1\nb: *x\n",  # an alias
    "a: !!binary aGk=\n",  # a tag no vector field takes
    "a: 1\na: 2\n",  # a duplicate key
    "<<: {a: 1}\n",  # a merge key
    "1: a\n",  # a key that is no string
    "[a]: b\n",  # a collection as a key
    "a: 1\n---\nb: 2\n",  # two documents
    "a: " + "[" * 40 + "]" * 40 + "\n",  # nested deeper than 32
    "a: !!int x\n",  # not what its tag says
    "a: [b\n",  # no YAML
    "a: !!seq [b]\n",  # an explicit collection tag (the careful reader allows it)
]


@pytest.mark.parametrize("text", HOSTILE)
def test_the_quick_reader_gives_up_on_what_the_careful_one_must_look_at(text: str) -> None:
    assert quick_parse("f.yaml", text) is None


def test_the_rewrite_refuses_what_it_cannot_carry_over() -> None:
    with pytest.raises(ValueError, match="prefixItems"):
        draft7({"prefixItems": [{}]})
    with pytest.raises(ValueError, match="unevaluatedProperties"):
        draft7({"unevaluatedProperties": False})  # no $ref to close over


def shipped_data() -> dict[str, Any]:
    """Return the truncated vectors' file (errors marked incomplete, flags, notes) with the
    encoding vectors added to it: every kind of value the schema checks, in one valid file."""
    data: dict[str, Any] = {}
    for entry in builtin_files():
        if entry.name in ("ill-formed-truncated.yaml", "encoding.yaml"):
            document = parse_yaml(entry.name, entry.read_text(encoding="utf-8"))
            data = document.data | data if entry.name == "encoding.yaml" else data | document.data
    # A few of each: every value is changed in turn below, each change checked by jsonschema.
    data["decode"] = [v for v in data["decode"] if any("incomplete" in e for e in v["errors"])][:2]
    data["encode"] = [v for v in data["encode"] if "error" in v][:1] + data["encode"][:1]
    assert len(data["decode"]) == 2 and _validator().is_valid(data)
    return data


SHIPPED = shipped_data()
VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 5)
    | st.floats(-1, 4, allow_nan=False)
    | st.sampled_from(["", "C0 80", "c0 80", "U+0041", "U+D800", "x\ny", "ovl-1", "A" * 201])
    | st.sampled_from(["truncated", "overlong", "must", "should", "maybe", "RFC 3629"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=6,
)


def places(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Return the path of every value in `data` (the root excepted)."""
    found: list[tuple[Any, ...]] = []
    if isinstance(data, dict | list):
        for key, value in data.items() if isinstance(data, dict) else enumerate(data):
            found.append((*path, key))
            found.extend(places(value, (*path, key)))
    return found


PLACES = places(SHIPPED)


TRICKY: list[Any] = [1, 0, -1, True, False, 1.0, 2.5, None, "", "x\ny", "U+0041", [], {}, ["a"] * 2]
"""Values a compiled check may take for others (1 for true, 1.0 for 1, a list for a set)."""


@pytest.mark.parametrize("value", TRICKY, ids=repr)
def test_no_value_anywhere_passes_the_compiled_check_and_not_jsonschema(value: Any) -> None:
    valid = quick_valid()
    assert valid is not None
    for place in PLACES:
        changed = replaced(place, value)
        if valid(changed):
            assert _validator().is_valid(changed), (place, value)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(PLACES), VALUES, st.text(max_size=6) | st.sampled_from(["id", "kind"]))
def test_the_compiled_check_accepts_nothing_jsonschema_refuses(
    place: tuple[Any, ...], value: Any, key: str
) -> None:
    for changed in (replaced(place, value), added(place, key, value)):
        if changed is not None and quick_valid()(changed):  # type: ignore[misc]
            assert _validator().is_valid(changed), json.dumps(changed)[:300]


def replaced(place: tuple[Any, ...], value: Any) -> Any:
    data = copy.deepcopy(SHIPPED)
    parent = data
    for step in place[:-1]:
        parent = parent[step]
    parent[place[-1]] = value
    return data


def added(place: tuple[Any, ...], key: str, value: Any) -> Any:
    data = copy.deepcopy(SHIPPED)
    target = data
    for step in place:
        target = target[step]
    if not isinstance(target, dict):
        return None
    target[key] = value
    return data


MANY = """schema_version: "1.0"
theme: many
description: Many vectors.
sources: [RFC 3629]
notes: {{}}
decode:
{vectors}"""


def many(count: int, broken: int, how: str) -> str:
    lines = []
    for index in range(count):
        fields = f'id: v-{index}, description: d, source: RFC 3629, bytes: "41", valid: true'
        scalars = "scalars: [U+0041]"
        if index == broken:
            fields = {
                "unknown field": fields + ", colour: red",
                "contradiction": fields.replace('"41"', '"C0 80"'),
                "duplicate id": fields.replace(f"v-{index}", "v-0"),
                "bad hex": fields.replace('"41"', '"4"'),
            }[how]
        lines.append(f"  - {{{fields}, {scalars}}}")
    return MANY.format(vectors="\n".join(lines) + "\n")


@pytest.mark.parametrize(
    ("how", "problem"),
    [
        ("unknown field", "decode[700].colour: unknown field"),
        ("contradiction", "decode[700]"),
        ("duplicate id", "decode[700].id: duplicate id 'v-0'"),
        ("bad hex", "decode[700].bytes: '4' is not spaced hex"),
    ],
)
def test_an_error_among_many_vectors_names_its_file_and_line(
    tmp_path: Path, how: str, problem: str
) -> None:
    path = tmp_path / "many.yaml"
    path.write_text(many(1000, 700, how), encoding="utf-8")
    with pytest.raises(VectorLoadError) as raised:
        load_vectors([path], builtin=False)
    assert str(raised.value).startswith(f"{path}:707: {problem}"), str(raised.value)


def test_many_valid_vectors_load_with_the_line_of_each(tmp_path: Path) -> None:
    path = tmp_path / "many.yaml"
    path.write_text(many(1000, -1, ""), encoding="utf-8")
    loaded = list(load_vectors([path], builtin=False))
    assert [vector.id for vector in loaded] == [f"v-{index}" for index in range(1000)]
    assert [vector.origin.line for vector in loaded] == list(range(7, 1007))
