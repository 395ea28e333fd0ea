"""From a schema-valid vector document to the immutable objects of `model`, checking consistency.

The schema checks each field alone; this module checks what only the fields together can say:
a well-formed input has scalars and no errors, an error lies inside the input, a flag is one
the file's notes define, and so on. Each problem is a `VectorLoadError` at the field's line.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Any, cast

from utf8cert.harness.vectors.agreement import disagreement
from utf8cert.harness.vectors.model import (
    DEFAULT_DECODE_LEVELS,
    DecodeExpectation,
    DecodeVector,
    EncodeFailure,
    EncodeVector,
    ExpectedError,
    Level,
    Note,
    Origin,
    Vector,
    VectorFile,
)
from utf8cert.harness.vectors.reader import YamlDocument
from utf8cert.reference import ErrorKind

Path = tuple[str | int, ...]

REPLACEMENT = 0xFFFD
SURROGATES = range(0xD800, 0xDFFF + 1)  # RFC 3629 §3: never the value of a UTF-8 character
_SURROGATE_SET = frozenset(SURROGATES)  # tested against a whole list at once


def build_file(document: YamlDocument, agree: bool = True) -> VectorFile:
    """Return the `VectorFile` of a schema-valid document; `VectorLoadError` if inconsistent,
    or (unless `agree` is False: a file of the release, whose every vector
    tests/vectors/test_vectors_agreement.py held to the reference) if a vector contradicts the
    reference (agreement.py) on its own input."""
    data = document.data
    notes = {flag: Note(note["defect"], note.get("attack")) for flag, note in data["notes"].items()}
    built: list[tuple[int, Vector]] = []
    for index, item in enumerate(data.get("decode", [])):
        vector = _decode_vector(document, ("decode", index), item, notes)
        if agree:
            _agreeing(document, ("decode", index), vector)
        built.append((vector.origin.line, vector))
    for index, item in enumerate(data.get("encode", [])):
        encode_vector = _encode_vector(document, ("encode", index), item, notes)
        if agree:
            _agreeing(document, ("encode", index), encode_vector)
        built.append((encode_vector.origin.line, encode_vector))
    if not built:
        raise document.error((), "no vectors: give a decode list, an encode list or both")
    return VectorFile(
        path=document.file,
        schema_version=data["schema_version"],
        theme=data["theme"],
        description=" ".join(data["description"].split()),
        sources=tuple(data["sources"]),
        notes=MappingProxyType({flag: str(note) for flag, note in notes.items()}),
        vectors=tuple(vector for _, vector in sorted(built, key=lambda pair: pair[0])),
        retired=tuple(data.get("retired", ())),
        flag_notes=MappingProxyType(notes),
    )


def _agreeing(document: YamlDocument, path: Path, vector: Vector) -> Vector:
    """Return the vector if the reference agrees with it; `VectorLoadError` at the field it
    contradicts, naming both answers, if not."""
    found = disagreement(vector)
    if found is not None:
        field, problem = found
        raise document.error((*path, field), f"contradicts the reference: {problem}")
    return vector


def _common(
    document: YamlDocument, path: Path, item: dict[str, Any], notes: dict[str, Note]
) -> dict[str, Any]:
    """Return the fields every vector has, checking that each flag is defined in the notes."""
    flags = tuple(item.get("flags", ()))
    for index, flag in enumerate(flags):
        if flag not in notes:
            raise document.error(
                (*path, "flags", index), f"unknown flag {flag!r} (not defined in this file's notes)"
            )
    return {
        "id": item["id"],
        "description": item["description"],
        "source": item["source"],
        "flags": flags,
        "origin": Origin(document.file, document.line_of((*path, "id"))),
    }


def code_points(names: Sequence[str]) -> tuple[int, ...]:
    """Return the values of 'U+XXXX' names, each 'U+XXXX*N' giving N copies (() for none)."""
    return _expanded([_name_and_repeat(name) for name in names])


def _expanded(named: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """Return the values of (value, repeat) pairs, each repeated (() for none)."""
    if all(repeat == 1 for _, repeat in named):  # the usual list: one value a name
        return tuple(value for value, _ in named)
    values: list[int] = []
    for value, repeat in named:
        values.extend([value] * repeat)
    return tuple(values)


def _name_and_repeat(name: str) -> tuple[int, int]:
    value, _, repeat = name.removeprefix("U+").partition("*")
    return int(value, 16), int(repeat or "1")


def _code_points(
    document: YamlDocument, path: Path, item: dict[str, Any], name: str
) -> tuple[int, ...]:
    """Return the code points of list `name` of a decoding vector, no more than it has bytes.

    Each byte decodes to at most one character (or U+FFFD), which also bounds a '*N' repeat.
    """
    named = [_name_and_repeat(entry) for entry in item.get(name, ())]  # each read once
    size = len(item["bytes"].split())
    count = sum(repeat for _, repeat in named)
    if count > size:
        raise document.error((*path, name), f"holds {count} code points for {size} bytes")
    return _expanded(named)


def _decode_vector(
    document: YamlDocument, path: Path, item: dict[str, Any], notes: dict[str, Note]
) -> DecodeVector:
    """Return one decoding vector; `VectorLoadError` where its fields contradict each other."""
    common = _common(document, path, item, notes)
    data = bytes.fromhex(item["bytes"])
    valid: bool = item["valid"]
    wanted: tuple[str, ...] = ("scalars",)
    unwanted: tuple[str, ...] = ("errors", "replaced", "legacy")
    if not valid:
        wanted, unwanted = ("errors", "replaced"), ("scalars",)
    verdict = "well-formed" if valid else "ill-formed"
    for name in unwanted:
        if name in item:
            raise document.error(
                (*path, name), f"not allowed for {verdict} input (valid: {str(valid).lower()})"
            )
    for name in wanted:
        if name not in item:
            raise document.error((*path, "valid"), f"{verdict} input needs {name}")
    points: dict[str, tuple[int, ...]] = {}
    for name in ("scalars", "replaced"):
        points[name] = _code_points(document, path, item, name)  # read once, used below
        if _SURROGATE_SET.isdisjoint(points[name]):
            continue
        for index, value in enumerate(points[name]):
            if value in SURROGATES:
                raise document.error(
                    (*path, name),
                    f"item {index} is U+{value:04X}, a surrogate: no decoder outputs one",
                )
    errors = _errors(document, path, item, len(data))
    levels = dict(DEFAULT_DECODE_LEVELS)
    ungraded = "errors" if valid else "scalars"  # valid input has no errors, invalid no scalars
    for expectation, level in item.get("levels", {}).items():
        if expectation == ungraded:
            raise document.error(
                (*path, "levels", expectation), f"{verdict} input has no {expectation} to grade"
            )
        levels[cast(DecodeExpectation, expectation)] = cast(Level, level)
    scalars = points["scalars"] if valid else None
    replaced = scalars if scalars is not None else points["replaced"]
    if replaced.count(REPLACEMENT) < len(errors):
        raise document.error(
            (*path, "replaced"),
            f"holds {replaced.count(REPLACEMENT)} U+FFFD for {len(errors)} errors",
        )
    legacy = _code_points(document, path, item, "legacy") if "legacy" in item else None
    return DecodeVector(
        **common,
        data=data,
        valid=valid,
        scalars=scalars,
        errors=errors,
        replaced="".join(map(chr, replaced)),
        legacy=legacy,
        levels=MappingProxyType(levels),
    )


def _errors(
    document: YamlDocument, path: Path, item: dict[str, Any], size: int
) -> tuple[ExpectedError, ...]:
    """Return the errors of a vector, checking they lie in order inside its `size` bytes."""
    errors: list[ExpectedError] = []
    end_of_previous = 0
    for index, error in enumerate(item.get("errors", ())):
        here = (*path, "errors", index)
        offset, length, kind = error["offset"], error["length"], ErrorKind(error["kind"])
        incomplete = error.get("incomplete", False)
        if offset + length > size:
            raise document.error(
                here, f"bytes {offset}..{offset + length - 1} lie past the end of {size} bytes"
            )
        if offset < end_of_previous:
            raise document.error(here, f"offset {offset} overlaps or precedes the error before it")
        if (kind is ErrorKind.TRUNCATED) != incomplete:
            problem = "kind truncated needs incomplete: true"
            if incomplete:
                problem = "incomplete: true is only for kind truncated"
            raise document.error(here, problem)
        if incomplete and offset + length != size:
            raise document.error(here, "a truncated sequence must end where the input ends")
        errors.append(ExpectedError(offset, length, kind, incomplete))
        end_of_previous = offset + length
    return tuple(errors)


def _encode_vector(
    document: YamlDocument, path: Path, item: dict[str, Any], notes: dict[str, Note]
) -> EncodeVector:
    """Return one encoding vector; `VectorLoadError` unless it has exactly one outcome."""
    common = _common(document, path, item, notes)
    scalars = tuple(
        value if isinstance(value, int) else int(value.removeprefix("U+"), 16)
        for value in item["scalars"]
    )
    if ("bytes" in item) == ("error" in item):
        problem = "give bytes (the encoding) or error (the refusal), not both"
        if "bytes" not in item:
            problem = "needs bytes (the encoding) or error (the refusal)"
        raise document.error((*path, "bytes" if "bytes" in item else "scalars"), problem)
    failure = None
    if "error" in item:
        index, kind = item["error"]["index"], ErrorKind(item["error"]["kind"])
        if index >= len(scalars):
            raise document.error(
                (*path, "error", "index"), f"index {index} is past the {len(scalars)} scalars"
            )
        failure = EncodeFailure(index, kind)
    elif "legacy" in item:
        raise document.error((*path, "legacy"), "only for values RFC 3629 refuses (with error)")
    return EncodeVector(
        **common,
        scalars=scalars,
        expected=bytes.fromhex(item["bytes"]) if "bytes" in item else None,
        error=failure,
        level=item.get("level", "must"),
        legacy=bytes.fromhex(item["legacy"]) if "legacy" in item else None,
    )
