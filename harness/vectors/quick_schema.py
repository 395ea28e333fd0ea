"""A compiled check that a vector file is valid against its JSON Schema: True only for a file
jsonschema would find valid too, False for any other (then jsonschema itself names the error).

jsonschema walks the schema for every value it checks (about 300 µs a vector; 200,000 vectors
took a minute); fastjsonschema compiles the schema into Python code once. It reads draft-07, so
the schema (draft 2020-12) is rewritten into a draft-07 schema that accepts no more than it:

- `$ref` beside other keywords (ignored by draft-07) goes into an `allOf` with them;
- `unevaluatedProperties: false` beside a `$ref` to an object with `properties` (a vector and
  its common fields) becomes `additionalProperties: false` over both property lists.

Anything else 2020-12 only stops the rewrite (ValueError): `quick_valid` is then None and every
file is checked by jsonschema alone. Since a False only sends the file to jsonschema, the
rewrite may be stricter than the schema, never laxer (tests/vectors/test_quick_load.py: the
shipped files, and every value of a file changed in turn).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import cache
from typing import Any, Final

DRAFT7: Final = "http://json-schema.org/draft-07/schema#"
ONLY_2020: Final = frozenset(
    {"unevaluatedItems", "prefixItems", "dependentSchemas", "dependentRequired", "$dynamicRef"}
)
"""Keywords draft-07 does not know (besides those rewritten): the rewrite gives up on them."""


def draft7(schema: dict[str, Any]) -> dict[str, Any]:
    """Return a draft-07 schema accepting no more than the draft 2020-12 `schema`; ValueError
    for a keyword this rewrite does not know how to carry over."""
    definitions = schema.get("$defs", {})
    rewritten: dict[str, Any] = _rewrite(copy.deepcopy(schema), definitions)
    rewritten["$schema"] = DRAFT7
    rewritten.pop("$id", None)  # an urn: id would be fetched by fastjsonschema's resolver
    return rewritten


def _rewrite(part: Any, definitions: dict[str, Any]) -> Any:
    """Return `part` (a schema or a collection of schemas) rewritten for draft-07."""
    if isinstance(part, list):
        return [_rewrite(item, definitions) for item in part]
    if not isinstance(part, dict):
        return part
    unknown = ONLY_2020 & set(part)
    if unknown:
        raise ValueError(f"no draft-07 equivalent for {sorted(unknown)[0]}")
    part = {key: _rewrite(value, definitions) for key, value in part.items()}
    if "unevaluatedProperties" in part:
        part = _closed(part, definitions)
    if "$ref" in part and len(part) > 1:
        reference = {"$ref": part.pop("$ref")}
        part = {"allOf": [reference, part]}
    return part


def _closed(part: dict[str, Any], definitions: dict[str, Any]) -> dict[str, Any]:
    """Return a schema with `unevaluatedProperties: false` and a `$ref` to an object with
    `properties` as one with `additionalProperties: false` over both lists of properties."""
    if part.pop("unevaluatedProperties") is not False:
        raise ValueError("unevaluatedProperties other than false")
    reference = part.get("$ref", "")
    target = definitions.get(reference.removeprefix("#/$defs/")) if reference else None
    if not reference.startswith("#/$defs/") or not isinstance(target, dict):
        raise ValueError("unevaluatedProperties without a $ref to a definition")
    if set(target) & {"$ref", "allOf", "anyOf", "oneOf", "if", "patternProperties"}:
        raise ValueError("unevaluatedProperties over a definition that is not a plain object")
    own = part.get("properties", {})
    part["properties"] = {name: {} for name in target.get("properties", {})} | own
    part["additionalProperties"] = False
    return part


@cache
def quick_valid() -> Callable[[Any], bool] | None:
    """Return the compiled check of a vector file's data (True: valid), or None where it cannot
    be had (fastjsonschema missing, or a schema keyword the rewrite does not carry over)."""
    from utf8cert.harness.vectors.load import schema

    try:
        import fastjsonschema
    except ImportError:
        return None
    try:
        validate = fastjsonschema.compile(draft7(schema()))
    except (ValueError, fastjsonschema.JsonSchemaDefinitionException):
        return None

    def valid(data: Any) -> bool:
        try:
            validate(data)
        except fastjsonschema.JsonSchemaValueException:
            return False
        return True

    return valid
