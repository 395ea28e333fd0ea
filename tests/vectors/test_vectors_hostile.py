"""Hostile vector files are refused, not survived: nesting, aliases, tags and unreadable scalars
each stop the load with one line at the right place; and a vector that contradicts the
reference on its own input is a load error naming both answers."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from support.user_vectors import HEADER

from utf8cert.harness.vectors.compose import MAX_DEPTH
from utf8cert.harness.vectors.load import VectorLoadError, load_vectors

"""Seven lines: the first vector's `id` is on line 9 (after `decode:` or `encode:`)."""


def decoding(body: str) -> str:
    """Return a file of one decoding vector whose fields after `source` are `body`."""
    return (
        HEADER + "decode:\n  - id: mine-1\n    description: A vector under test.\n"
        "    source: RFC 3629 §4\n    flags: [odd]\n" + body
    )


def encoding(body: str) -> str:
    """Return a file of one encoding vector whose fields after `source` are `body`."""
    return (
        HEADER + "encode:\n  - id: mine-1\n    description: A vector under test.\n"
        "    source: RFC 3629 §3\n    flags: [odd]\n" + body
    )


def load_error(tmp_path: Path, text: str) -> str:
    """Return the one-line message of loading `text` (no built-in files), without the path."""
    path = tmp_path / "mine.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(VectorLoadError) as raised:
        load_vectors([path], builtin=False)
    message = str(raised.value)
    assert "\n" not in message and message.startswith(f"{path}:")
    return message.removeprefix(f"{path}:")


def test_nesting_500_and_25000_deep_is_refused_at_the_first_level_too_deep(
    tmp_path: Path,
) -> None:
    """PyYAML's composer raised RecursionError at 500 and crashed the interpreter at 25,000."""
    for depth in (500, 25_000):
        assert load_error(tmp_path, "[" * depth + "]" * depth) == (
            f"1: yaml: nested deeper than {MAX_DEPTH} lists and mappings"
        )
    block = "".join(f"{'  ' * level}- \n" for level in range(MAX_DEPTH + 5))
    assert load_error(tmp_path, block) == (
        f"{MAX_DEPTH + 1}: yaml: nested deeper than {MAX_DEPTH} lists and mappings"
    )


def test_nesting_up_to_the_limit_reaches_the_schema(tmp_path: Path) -> None:
    """The file's mapping is one level: under it, MAX_DEPTH - 1 lists are read, and the
    schema says what is wrong with them."""
    nested = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)
    assert load_error(tmp_path, f"theme: {nested}\n") == (
        f"1: theme: {nested} is not of type 'string'"
    )


BILLION_LAUGHS = "\n".join(
    [
        'a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]',
        *(
            f"{name}: &{name} [{', '.join([f'*{previous}'] * 9)}]"
            for previous, name in zip("abcdefghi", "bcdefghij", strict=True)
        ),
    ]
)


def test_an_alias_is_refused_where_it_stands(tmp_path: Path) -> None:
    assert load_error(tmp_path, BILLION_LAUGHS) == (
        "2: yaml: alias *a: a vector file has no use for aliases"
    )
    assert load_error(tmp_path, decoding('    bytes: &b "41"\n    valid: *b\n')) == (
        "14: yaml: alias *b: a vector file has no use for aliases"
    )


def test_a_billion_laughs_costs_nothing_in_memory(tmp_path: Path) -> None:
    """In a child held to 1 GiB of address space (expanding the file would take about 30 GiB
    as nested lists), the load fails with the one-line error, not MemoryError."""
    path = tmp_path / "laughs.yaml"
    path.write_text(BILLION_LAUGHS, encoding="utf-8")
    program = (
        "import resource, sys\n"
        f"resource.setrlimit(resource.RLIMIT_AS, ({1 << 30}, {1 << 30}))\n"
        "from utf8cert.harness.vectors.load import VectorLoadError, load_vectors\n"
        "try:\n    load_vectors([sys.argv[1]], builtin=False)\n"
        "except VectorLoadError as error:\n    print(error)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", program, str(path)], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == f"{path}:2: yaml: alias *a: a vector file has no use for aliases\n"


TAGS = {
    "python object": (
        "theme: !!python/object:os.system {}\n",
        "1: yaml: tag !!python/object:os.system: not a plain list or mapping",
    ),
    "python name": (
        "theme: !!python/name:os.system ''\n",
        "1: yaml: tag !!python/name:os.system: a vector file holds plain values",
    ),
    "set": ("theme: !!set {a: null}\n", "1: yaml: tag !!set: not a plain list or mapping"),
    "binary": ("theme: !!binary aGk=\n", "1: yaml: tag !!binary: a vector file holds plain values"),
    "local": ("theme: !mine x\n", "1: yaml: tag !mine: a vector file holds plain values"),
    "string tag on a list": (
        "theme: !!str [1]\n",
        "1: yaml: tag !!str: not a plain list or mapping",
    ),
}


@pytest.mark.parametrize("case", TAGS, ids=list(TAGS))
def test_a_tag_other_than_a_plain_values_is_refused(tmp_path: Path, case: str) -> None:
    text, expected = TAGS[case]
    assert load_error(tmp_path, text) == expected


UNREADABLE = {
    "impossible date": (
        "theme: 2001-13-45\n",
        "1: theme: '2001-13-45' is not a valid timestamp: month must be in 1..12",
    ),
    "empty int": (
        "theme: !!int ''\n",
        "1: theme: '' is not a valid int: string index out of range",
    ),
    "bad hex int": (
        "theme: !!int 0xZZ\n",
        "1: theme: '0xZZ' is not a valid int: invalid literal for int() with base 16: 'ZZ'",
    ),
    "not a bool": ("theme: !!bool maybe\n", "1: theme: 'maybe' is not a valid bool: 'maybe'"),
    "merge key": (
        "<<: {theme: mine}\n",
        "1: file: merge key '<<' is not allowed: write the fields out",
    ),
    "second document": (
        "theme: a\n---\ntheme: b\n",
        "2: yaml: a second YAML document: a file holds one",
    ),
    "NUL": (
        "theme: é\ndescription: a\x00b\n",
        "2: yaml: YAML syntax: character 0 is not allowed: control characters are not allowed",
    ),
}


@pytest.mark.parametrize("case", UNREADABLE, ids=list(UNREADABLE))
def test_a_scalar_yaml_cannot_read_is_one_line_at_its_place(tmp_path: Path, case: str) -> None:
    text, expected = UNREADABLE[case]
    assert load_error(tmp_path, text) == expected


def test_an_int_of_5000_digits_is_one_line(tmp_path: Path) -> None:
    """Python refuses to read an int of more than 4300 digits: that is a bad value, at its line."""
    message = load_error(tmp_path, 'schema_version: "1.0"\ntheme: ' + "7" * 5000 + "\n")
    assert message.startswith("2: theme: '7777777777")
    assert "is not a valid int: Exceeds the limit (4300 digits)" in message


CONTRADICTIONS = {
    "E2 82 declared the euro sign": (
        decoding('    bytes: "E2 82"\n    valid: true\n    scalars: [U+20AC]\n'),
        "14: decode[0].valid: contradicts the reference: the vector says well-formed, U+20AC; "
        "the reference says ill-formed: truncated at 0 (2 bytes)",
    ),
    "41 declared B": (
        decoding('    bytes: "41"\n    valid: true\n    scalars: [U+0042]\n'),
        "15: decode[0].scalars: contradicts the reference: the vector says U+0042; "
        "the reference says U+0041",
    ),
    "E2 82 AC declared ill-formed": (
        decoding(
            '    bytes: "E2 82 AC"\n    valid: false\n'
            "    errors:\n      - {offset: 0, length: 3, kind: overlong}\n"
            "    replaced: [U+FFFD]\n"
        ),
        "14: decode[0].valid: contradicts the reference: the vector says ill-formed; "
        "the reference says well-formed, U+20AC",
    ),
    "C0 AF as one maximal subpart": (
        decoding(
            '    bytes: "C0 AF"\n    valid: false\n'
            "    errors:\n      - {offset: 0, length: 2, kind: overlong}\n"
            "    replaced: [U+FFFD]\n"
        ),
        "15: decode[0].errors: contradicts the reference: the vector says overlong at 0 "
        "(2 bytes); the reference says overlong at 0 (1 bytes), unexpected-continuation at 1 "
        "(1 bytes)",
    ),
    "B for A after the U+FFFD": (
        decoding(
            '    bytes: "C2 41"\n    valid: false\n'
            "    errors:\n      - {offset: 0, length: 1, kind: missing-continuation}\n"
            "    replaced: [U+FFFD, U+0042]\n"
        ),
        "17: decode[0].replaced: contradicts the reference: the vector says U+FFFD U+0042; "
        "the reference says U+FFFD U+0041",
    ),
    "a wrong RFC 2279 reading": (
        decoding(
            '    bytes: "ED A0 80"\n    valid: false\n    errors:\n'
            "      - {offset: 0, length: 1, kind: surrogate}\n"
            "      - {offset: 1, length: 1, kind: unexpected-continuation}\n"
            "      - {offset: 2, length: 1, kind: unexpected-continuation}\n"
            "    replaced: [U+FFFD*3]\n    legacy: [U+DC00]\n"
        ),
        "20: decode[0].legacy: contradicts the reference: the vector says U+DC00; "
        "the reference says U+D800 (RFC 2279)",
    ),
    "a wrong encoding": (
        encoding('    scalars: [U+20AC]\n    bytes: "E2 82 AD"\n'),
        "14: encode[0].bytes: contradicts the reference: the vector says E2 82 AD; "
        "the reference says E2 82 AC",
    ),
    "a refusal of an encodable value": (
        encoding("    scalars: [U+E000]\n    error: {index: 0, kind: surrogate}\n"),
        "14: encode[0].error: contradicts the reference: the vector says refused: surrogate "
        "at index 0; the reference says EE 80 80",
    ),
    "a surrogate encoded": (
        encoding('    scalars: [U+0041, 0xD800]\n    bytes: "41 ED A0 80"\n'),
        "14: encode[0].bytes: contradicts the reference: the vector says 41 ED A0 80; "
        "the reference says refused: surrogate at index 1",
    ),
}


@pytest.mark.parametrize("case", CONTRADICTIONS, ids=list(CONTRADICTIONS))
def test_a_vector_contradicting_the_reference_names_both_answers(tmp_path: Path, case: str) -> None:
    text, expected = CONTRADICTIONS[case]
    assert load_error(tmp_path, text) == expected


def test_the_same_vectors_told_right_load(tmp_path: Path) -> None:
    """The fixtures above differ from loadable vectors only in the contradicted field."""
    path = tmp_path / "right.yaml"
    path.write_text(
        decoding('    bytes: "E2 82 AC"\n    valid: true\n    scalars: [U+20AC]\n')
        + "  - id: mine-2\n    description: Two maximal subparts.\n    source: RFC 3629 §4\n"
        '    bytes: "C0 AF"\n    valid: false\n    errors:\n'
        "      - {offset: 0, length: 1, kind: overlong}\n"
        "      - {offset: 1, length: 1, kind: unexpected-continuation}\n"
        "    replaced: [U+FFFD*2]\n"
        "encode:\n  - id: mine-3\n    description: A surrogate refused.\n"
        "    source: RFC 3629 §3\n    scalars: [U+0041, 0xD800]\n"
        '    error: {index: 1, kind: surrogate}\n    legacy: "41 ED A0 80"\n',
        encoding="utf-8",
    )
    assert [vector.id for vector in load_vectors([path], builtin=False)] == [
        "mine-1",
        "mine-2",
        "mine-3",
    ]


def test_a_key_with_a_line_break_or_a_tab_is_quoted_in_its_one_line_error(tmp_path: Path) -> None:
    assert load_error(tmp_path, '"a\\nb": 1\n').startswith('1: "a\\nb": unknown field')
    assert load_error(tmp_path, "$\t!: 1\n").startswith('1: "$\\t!": unknown field')
