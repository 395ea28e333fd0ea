"""The loader: user files and directories load next to the built-in ones, and every kind of
malformed file stops the load with one exact line, `file:line: field: problem`."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

import pytest

from utf8cert.harness.vectors.load import VectorLoadError, load_vectors
from utf8cert.harness.vectors.model import DecodeVector, EncodeVector, ExpectedError, Note, Origin
from utf8cert.reference import ErrorKind

HEADER = """\
schema_version: "1.0"
theme: mine
description: A user's own vectors.
sources: [RFC 3629 §4]
notes:
  odd:
    defect: Marks an odd case.
    attack: Lets an attacker do odd things.
"""

DECODE_OK = """\
decode:
  - id: mine-1
    description: C2 then "A" is cut short.
    source: RFC 3629 §4
    flags: [odd]
    bytes: "C2 41"
    valid: false
    errors:
      - {offset: 0, length: 1, kind: missing-continuation}
    replaced: [U+FFFD, U+0041]
"""


def write(tmp_path: Path, text: str, name: str = "mine.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def load_error(tmp_path: Path, text: str) -> str:
    """Return the one-line message of loading `text` as mine.yaml (with no built-in files)."""
    path = write(tmp_path, text)
    with pytest.raises(VectorLoadError) as raised:
        load_vectors([path], builtin=False)
    message = str(raised.value)
    assert "\n" not in message
    prefix = f"{path}:"
    assert message.startswith(prefix)
    return message.removeprefix(prefix)


def test_a_user_file_loads_into_typed_immutable_vectors(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + DECODE_OK)
    vector_set = load_vectors([path], builtin=False)
    [vector_file] = vector_set.files
    assert vector_file.theme == "mine"
    assert vector_file.flag_notes == {
        "odd": Note("Marks an odd case.", "Lets an attacker do odd things.")
    }
    assert vector_file.notes == {
        "odd": "Marks an odd case. Attack: Lets an attacker do odd things."
    }
    [vector] = vector_set
    assert isinstance(vector, DecodeVector)
    assert vector.origin == Origin(str(path), 10)
    assert vector.data == b"\xc2A"
    assert vector.errors == (ExpectedError(0, 1, ErrorKind.MISSING_CONTINUATION),)
    assert vector.replaced == "\ufffdA"
    assert vector.levels == {
        "valid": "must",
        "scalars": "must",
        "errors": "should",
        "replaced": "should",
    }
    assert isinstance(vector.levels, MappingProxyType)
    assert vector_set.note("odd").startswith("Marks an odd case.")


def test_a_directory_adds_its_yaml_files_after_the_built_in_ones(tmp_path: Path) -> None:
    write(tmp_path, HEADER + DECODE_OK, "b.yaml")
    write(tmp_path, HEADER + DECODE_OK.replace("mine-1", "mine-2"), "a.yaml")
    write(tmp_path, "not: yaml of ours", "ignored.txt")
    builtin = load_vectors()
    both = load_vectors([tmp_path])
    assert len(both) == len(builtin) + 2
    assert [f.path for f in both.files[-2:]] == [str(tmp_path / "a.yaml"), str(tmp_path / "b.yaml")]


def test_levels_and_encode_vectors_and_repeats_are_read(tmp_path: Path) -> None:
    text = (
        HEADER
        + DECODE_OK.replace(
            "    replaced: [U+FFFD, U+0041]\n",
            "    replaced: [U+FFFD*1, U+0041]\n    levels: {errors: may}\n",
        )
        + (
            "encode:\n"
            "  - id: mine-2\n"
            "    description: A value above U+10FFFF given as an int is refused.\n"
            "    source: RFC 3629 §3\n"
            "    scalars: [U+0041, 0x110000]\n"
            "    error: {index: 1, kind: out-of-range}\n"
            '    legacy: "41 F4 90 80 80"\n'
        )
    )
    decode, encode = load_vectors([write(tmp_path, text)], builtin=False)
    assert isinstance(decode, DecodeVector) and isinstance(encode, EncodeVector)
    assert decode.level("errors") == "may"
    assert decode.replaced == "\ufffdA"
    assert encode.scalars == (0x41, 0x110000)
    assert encode.legacy == b"A\xf4\x90\x80\x80"
    assert encode.expected is None and encode.error is not None


MALFORMED = {
    "yaml-syntax": (
        HEADER + DECODE_OK.replace('    bytes: "C2 41"', '    bytes: "C2 41'),
        "19: yaml: YAML syntax: found unexpected end of stream "
        "(while scanning a quoted scalar on line 14)",
    ),
    "duplicate-key": (
        HEADER + DECODE_OK.replace("    valid: false\n", "    valid: false\n    valid: true\n"),
        "16: decode[0].valid: duplicate key (first on line 15)",
    ),
    "missing-field": (
        HEADER.replace("theme: mine\n", "") + DECODE_OK,
        "1: file: 'theme' is a required property",
    ),
    "unknown-field": (
        HEADER + DECODE_OK.replace("    valid: false\n", "    valid: false\n    colour: red\n"),
        "16: decode[0].colour: unknown field (allowed here: bytes, description, errors, flags, "
        "id, legacy, levels, replaced, scalars, source, valid)",
    ),
    "bad-kind": (
        HEADER + DECODE_OK.replace("kind: missing-continuation", "kind: missing"),
        "17: decode[0].errors[0].kind: 'missing' is not one of ['unexpected-continuation', "
        "'overlong', 'surrogate', 'out-of-range', 'legacy-form', 'invalid-byte', "
        "'missing-continuation', 'truncated']",
    ),
    "bad-hex": (
        HEADER + DECODE_OK.replace('"C2 41"', '"C2 4G"'),
        "14: decode[0].bytes: 'C2 4G' is not spaced hex (two upper-case hex digits per byte, "
        'one space between bytes, e.g. "C0 80"; "" for no bytes)',
    ),
    "unquoted-hex": (
        HEADER + DECODE_OK.replace('"C2 41"', "00"),
        "14: decode[0].bytes: YAML reads 00 as int: quote it ('00')",
    ),
    "bad-scalar": (
        HEADER + DECODE_OK.replace("[U+FFFD, U+0041]", "[U+FFFD, U+41]"),
        "18: decode[0].replaced[1]: 'U+41' is not a Unicode scalar value as U+ and 4 to 6 "
        "upper-case hex digits without excess leading zeros (U+0041, U+1F600, U+10FFFF), "
        "optionally *N to repeat it N times",
    ),
    "unknown-flag": (
        HEADER + DECODE_OK.replace("flags: [odd]", "flags: [odd, even]"),
        "13: decode[0].flags[1]: unknown flag 'even' (not defined in this file's notes)",
    ),
    "valid-with-errors": (
        HEADER + DECODE_OK.replace("valid: false", "valid: true"),
        "16: decode[0].errors: not allowed for well-formed input (valid: true)",
    ),
    "invalid-without-replaced": (
        HEADER + DECODE_OK.replace("    replaced: [U+FFFD, U+0041]\n", ""),
        "15: decode[0].valid: ill-formed input needs replaced",
    ),
    "error-past-the-end": (
        HEADER + DECODE_OK.replace("{offset: 0, length: 1,", "{offset: 1, length: 2,"),
        "17: decode[0].errors[0]: bytes 1..2 lie past the end of 2 bytes",
    ),
    "truncated-not-incomplete": (
        HEADER + DECODE_OK.replace("kind: missing-continuation", "kind: truncated"),
        "17: decode[0].errors[0]: kind truncated needs incomplete: true",
    ),
    "too-few-replacements": (
        HEADER + DECODE_OK.replace("[U+FFFD, U+0041]", "[U+0041]"),
        "18: decode[0].replaced: holds 0 U+FFFD for 1 errors",
    ),
    "too-many-code-points": (
        HEADER + DECODE_OK.replace("[U+FFFD, U+0041]", "[U+FFFD*99999999, U+0041]"),
        "18: decode[0].replaced: holds 100000000 code points for 2 bytes",
    ),
    "level-of-nothing": (
        HEADER + DECODE_OK + "    levels: {scalars: may}\n",
        "19: decode[0].levels.scalars: ill-formed input has no scalars to grade",
    ),
    "encode-legacy-with-bytes": (
        HEADER + "encode:\n  - id: mine-1\n    description: A legacy form is only for a refusal.\n"
        '    source: RFC 3629 §3\n    scalars: [U+0041]\n    bytes: "41"\n    legacy: "41"\n',
        "15: encode[0].legacy: only for values RFC 3629 refuses (with error)",
    ),
    "surrogate-scalar": (
        HEADER + DECODE_OK.replace("[U+FFFD, U+0041]", "[U+FFFD, U+D800]"),
        "18: decode[0].replaced: item 1 is U+D800, a surrogate: no decoder outputs one",
    ),
    "encode-bytes-and-error": (
        HEADER
        + "encode:\n  - id: mine-1\n    description: Both outcomes at once is inconsistent.\n"
        "    source: RFC 3629 §3\n    scalars: [U+D800]\n"
        '    bytes: "ED A0 80"\n    error: {index: 0, kind: surrogate}\n',
        "14: encode[0].bytes: give bytes (the encoding) or error (the refusal), not both",
    ),
    "encode-index-past-the-end": (
        HEADER + "encode:\n  - id: mine-1\n    description: The index points past the input here.\n"
        "    source: RFC 3629 §3\n    scalars: [U+D800]\n    error: {index: 1, kind: surrogate}\n",
        "14: encode[0].error.index: index 1 is past the 1 scalars",
    ),
    "no-vectors": (HEADER, "1: file: no vectors: give a decode list, an encode list or both"),
    "not-a-mapping": (
        "- just\n- a list\n",
        "1: file: expected a mapping with schema_version, theme, ... at the top",
    ),
}


@pytest.mark.parametrize("kind", sorted(MALFORMED))
def test_a_malformed_file_gives_one_exact_line(tmp_path: Path, kind: str) -> None:
    text, expected = MALFORMED[kind]
    assert load_error(tmp_path, text) == expected


def test_a_duplicate_id_names_both_places(tmp_path: Path) -> None:
    first = write(tmp_path, HEADER + DECODE_OK, "a.yaml")
    second = write(tmp_path, HEADER + DECODE_OK, "b.yaml")
    with pytest.raises(VectorLoadError) as raised:
        load_vectors([first, second], builtin=False)
    assert (
        str(raised.value)
        == f"{second}:10: decode[0].id: duplicate id 'mine-1' (first at {first}:10)"
    )


def test_a_user_file_cannot_reuse_a_built_in_id(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER + DECODE_OK.replace("mine-1", "sec-1"))
    with pytest.raises(VectorLoadError) as raised:
        load_vectors([path])
    assert str(raised.value).startswith(f"{path}:10: decode[0].id: duplicate id 'sec-1' (first at ")


def test_a_retired_id_cannot_come_back(tmp_path: Path) -> None:
    retiring = write(
        tmp_path, HEADER + "retired: [mine-1]\n" + DECODE_OK.replace("mine-1", "mine-2"), "a.yaml"
    )
    reusing = write(tmp_path, HEADER + DECODE_OK, "b.yaml")
    with pytest.raises(VectorLoadError) as raised:
        load_vectors([retiring, reusing], builtin=False)
    assert str(raised.value) == f"{reusing}:10: decode[0].id: 'mine-1' is retired (at {retiring}:9)"


def test_a_missing_path_an_empty_directory_and_a_non_utf8_file_are_load_errors(
    tmp_path: Path,
) -> None:
    with pytest.raises(VectorLoadError) as raised:
        load_vectors([tmp_path / "nowhere.yaml"], builtin=False)
    assert str(raised.value) == f"{tmp_path / 'nowhere.yaml'}:1: file: no such file or directory"
    (tmp_path / "empty").mkdir()
    with pytest.raises(VectorLoadError) as raised:
        load_vectors([tmp_path / "empty"], builtin=False)
    assert str(raised.value) == f"{tmp_path / 'empty'}:1: file: directory holds no *.yaml file"
    latin1 = tmp_path / "latin1.yaml"
    latin1.write_bytes(b"theme: mine\ndescription: caf\xe9\n")
    with pytest.raises(VectorLoadError) as raised:
        load_vectors([latin1], builtin=False)
    assert str(raised.value) == f"{latin1}:2: file: not UTF-8: invalid continuation byte"


def test_nothing_to_load_is_an_empty_set() -> None:
    assert len(load_vectors(builtin=False)) == 0
