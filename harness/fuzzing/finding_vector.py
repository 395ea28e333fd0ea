"""A finding written as a vector file (schema 1.0) that `load_vectors` reads: its expected values
from the reference, ready to drop into a project's vectors directory as a regression test."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.expected import Expected, as_code_points, expectation_for
from utf8cert.harness.check.probe import code_points_of, encoding_expectation
from utf8cert.harness.fuzzing.finding import Finding, spaced_hex
from utf8cert.reference.encoder import refusal

DOING: Final = {
    "decode": "decoding strictly",
    "replace": "decoding with U+FFFD",
    "validate": "validating",
    "encode": "encoding",
    "incremental": "decoding in chunks",
}


def _scalars(values: Sequence[int]) -> list[str]:
    """Return values as U+ strings, a run of one value written once with *N (schema `scalar`)."""
    written: list[str] = []
    index = 0
    while index < len(values):
        run = index
        while run < len(values) and values[run] == values[index]:
            run += 1
        count = run - index
        written.append(f"U+{values[index]:04X}" + (f"*{count}" if count > 1 else ""))
        index = run
    return written


def _decode_vector(
    finding: Finding, expected: Expected, vector_id: str, description: str
) -> dict[str, Any]:
    vector: dict[str, Any] = {
        "id": vector_id,
        "description": description,
        "source": "RFC 3629 §4",
        "flags": ["fuzz-finding", finding.stem],
        "bytes": spaced_hex(finding.data),
        "valid": expected.valid,
    }
    if expected.text is not None:
        vector["scalars"] = _scalars(as_code_points(expected.text))
    else:
        vector["errors"] = [
            {"offset": e.offset, "length": e.length, "kind": str(e.kind)}
            | ({"incomplete": True} if e.incomplete else {})
            for e in expected.errors
        ]
        vector["replaced"] = _scalars(as_code_points(expected.replaced))
    return vector


def _encode_vector(
    finding: Finding, expected: Expected, difference: Difference, vector_id: str
) -> dict[str, Any]:
    description = _described(difference)
    values = difference.input
    if not isinstance(values, tuple):
        values = code_points_of(finding.data, expected.reading.pieces)
    encoding = encoding_expectation(values)
    vector: dict[str, Any] = {
        "id": vector_id,
        "description": description,
        "source": "RFC 3629 §3",
        "flags": ["fuzz-finding", finding.stem],
        "scalars": [f"U+{value:04X}" for value in values],
    }
    if encoding.encoded is not None:
        vector["bytes"] = spaced_hex(encoding.encoded)
    else:
        assert encoding.error_index is not None
        kind = refusal(values[encoding.error_index])
        vector["error"] = {"index": encoding.error_index, "kind": str(kind)}
    return vector


def _described(d: Difference) -> str:
    description = f"{d.capability}: {d.what}; expected {d.expected}, got {d.actual}"
    return description if len(description) <= 200 else description[:199] + "…"


def vector_document(finding: Finding) -> str:
    """Return the text of a vector file holding the finding (schema 1.0): a decoding vector of
    its bytes when a decoding capability differs, an encoding vector of its code points when
    the encoder does."""
    # Imported here: the fuzz target imports this module (through save.py), and YAML and the
    # vector schema's module would add a fifth of a second to every campaign's start.
    import yaml

    from utf8cert.harness.vectors.schema import SCHEMA_VERSION

    d = finding.difference
    vector_id = f"fuzz-{finding.stem}-{finding.digest}"
    notes = {
        "fuzz-finding": {"defect": "An input found by `utf8cert fuzz` on which a codec differed."},
        finding.stem: {"defect": f"A codec that {d.what} when {DOING[d.capability]}."},
    }
    decoding = [other for other in finding.differences if other.capability != "encode"]
    encoding = [other for other in finding.differences if other.capability == "encode"]
    document: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "theme": f"fuzz-{finding.stem}",
        "description": f"A finding of `utf8cert fuzz` on {finding.spec}: {d.what} ({d.level})"
        f", on {', '.join(finding.capabilities)}.",
        "sources": ["RFC 3629 §4"] * bool(decoding) + ["RFC 3629 §3"] * bool(encoding),
        "notes": notes,
    }
    expected = expectation_for(finding.data)  # the reference reads the input once, for both
    if decoding:
        document["decode"] = [_decode_vector(finding, expected, vector_id, _described(decoding[0]))]
    if encoding:
        encode_id = vector_id + "-encode" if decoding else vector_id
        document["encode"] = [_encode_vector(finding, expected, encoding[0], encode_id)]
    header = (
        f"# Found by `utf8cert fuzz {finding.spec}`: {d.capability} {d.what} ({d.level}).\n"
        "# Expected values are the reference's (utf8cert.reference). Put this file in your\n"
        "# vectors directory (utf8cert check --vectors DIR) to keep the bug from coming back.\n"
    )
    body = yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=1 << 20)
    return header + body
