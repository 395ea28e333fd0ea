"""The quick way of loading vector files (quick_yaml) accepts nothing the careful way refuses,
reads the same data with the same lines where it keeps them, and leaves every error to the
careful way, which names its file and line. A user's file is checked against the schema, the
shipped files (the release's, by their digests) are not checked again."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from utf8cert.harness.vectors.load import builtin_files, listed_ids, load_vectors
from utf8cert.harness.vectors.quick_yaml import quick_parse
from utf8cert.harness.vectors.reader import VectorLoadError, parse_yaml
from utf8cert.harness.vectors.schema import validator


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
    # The ids a run of some vectors finds the files to read by, without parsing: exactly the
    # parser's (an id the scan missed would be "no such vector" for `--vector ID`).
    parsed = [
        item["id"] for section in ("decode", "encode") for item in careful.data.get(section, [])
    ]
    assert listed_ids(text) == set(parsed) and len(parsed) == len(set(parsed))
    assert quick.key_lines and quick.value_lines
    for path, line in quick.key_lines.items():
        assert careful.key_lines[path] == line
    for path, line in quick.value_lines.items():
        assert careful.value_lines[path] == line
    ids = {path for path in careful.key_lines if len(path) == 3 and path[2] == "id"}
    assert {path for path in ids if path[0] in ("decode", "encode")} <= set(quick.key_lines)
    assert validator().is_valid(quick.data)  # what the load builds a shipped file from


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


def test_a_user_file_the_schema_refuses_is_refused_though_it_builds(tmp_path: Path) -> None:
    """An unknown field is the schema's alone to refuse (the vectors build without it)."""
    path = tmp_path / "many.yaml"
    path.write_text(many(3, 1, "unknown field"), encoding="utf-8")
    assert quick_parse(str(path), path.read_text(encoding="utf-8")) is not None
    with pytest.raises(VectorLoadError, match=r":8: decode\[1\]\.colour: unknown field"):
        load_vectors([path], builtin=False)


def test_the_shipped_files_load_without_the_schema_check() -> None:
    """Their digests are the release's: jsonschema, which a user's file needs, is never imported
    (a tenth of a second of every `utf8cert check`), nor the schema checked (most of a load)."""
    probe = (
        "import sys\n"
        "from utf8cert.harness.vectors.load import load_vectors\n"
        "assert len(load_vectors()) > 1000\n"
        "print(sorted(name for name in sys.modules if 'jsonschema' in name))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() == "[]"


def test_a_run_of_some_vectors_reads_only_the_files_that_hold_them() -> None:
    """`--vector ID` with no file of the user's: the vectors asked are the whole load's, from
    the files that hold them and no other."""
    every = {vector.id: vector for vector in load_vectors()}
    wanted = {"sec-1", "win-5", "rfc3629-7-1", "enc-3"}
    some = load_vectors(wanted=wanted)
    holding = {vector.id: file.path for file in load_vectors().files for vector in file.vectors}
    assert {file.path for file in some.files} == {holding[vector_id] for vector_id in wanted}
    assert {vector.id: vector for vector in some}.items() >= {i: every[i] for i in wanted}.items()
    assert len(load_vectors(wanted={"no-such-id"}).files) == 0
