"""The JSON Schema of a vector file (`vectors/schema.json`), and the check of a user's file
against it, whose error names the file and line of the value at fault.

    check_schema(document)   # VectorLoadError 'file:line: field: problem' at the topmost error
    quick_validator().is_valid(data)   # the same verdict, compiled: fast on a valid file

The files shipped in `utf8cert.vectors` are not checked at load time: their digests are the
release's (release.py), and each was checked against this schema when the digests were made
(tests/vectors/test_vectors_files.py checks every shipped file; the schema's own digest is
recorded with theirs).
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING, Any, Final

from utf8cert.harness.vectors.reader import VectorLoadError, YamlDocument
from utf8cert.harness.vectors.release import PACKAGE

if TYPE_CHECKING:
    import jsonschema
    import jsonschema_rs

SCHEMA_VERSION: Final = "1.0"
"""The schema version this loader writes to and reads (it reads every 1.x file)."""


@cache
def schema() -> dict[str, Any]:
    """Return the JSON Schema of a vector file, as shipped in `utf8cert.vectors`."""
    loaded: dict[str, Any] = json.loads((files(PACKAGE) / "schema.json").read_text())
    return loaded


@cache
def validator() -> jsonschema.Draft202012Validator:
    """Return the schema's validator, made once."""
    # Imported here: jsonschema takes 0.1 s to import, which a load of the shipped files alone
    # (`utf8cert check` with no vector file of the user's) never needs.
    import jsonschema

    return jsonschema.Draft202012Validator(schema())


@cache
def quick_validator() -> jsonschema_rs.Validator:
    """Return the schema compiled by jsonschema-rs, made once: it says whether a file is valid
    in a fraction of jsonschema's time (a file of 200,000 vectors: seconds, not a minute), and
    only a file it finds invalid is walked by jsonschema, for the error at its line."""
    import jsonschema_rs

    return jsonschema_rs.validator_for(schema())


def check_schema(document: YamlDocument) -> None:
    """Return when the document is valid; `VectorLoadError` for the first (topmost in the file)
    schema violation, or for a document that is no mapping (an empty file too)."""
    if not isinstance(document.data, dict):
        raise VectorLoadError(
            document.file,
            1,
            "file",
            "expected a mapping with schema_version, theme, ... at the top",
        )
    explained = [_explain(document, error) for error in validator().iter_errors(document.data)]
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
