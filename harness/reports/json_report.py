"""A report as one JSON document (`utf8cert check --json FILE|-`), described by the JSON Schema
shipped beside this module (`report.schema.json`, `schema()`); FORMAT is its version."""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any, Final

from utf8cert.harness.check.behaviour import Group
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.extent import UNPLACED, UNPLACED_FIX
from utf8cert.harness.reports.coverage import extra_json
from utf8cert.harness.reports.explain import focus
from utf8cert.harness.reports.view import View
from utf8cert.harness.vectors.model import LEVELS

FORMAT: Final = 1
"""The version of the document's layout: raised when a field changes meaning or goes away."""
SCHEMA_FILE: Final = "report.schema.json"
WHOLE_INPUT_UP_TO: Final = 1024
"""Inputs up to this length appear whole; of longer ones only the vector's part."""


@cache
def schema() -> dict[str, Any]:
    """Return the JSON Schema of the document `report_json` writes."""
    text = files("utf8cert.harness.reports").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    document: dict[str, Any] = json.loads(text)
    return document


def _input_fields(difference: Difference) -> dict[str, Any]:
    """Return the JSON fields of a difference's input: hex (or U+ code points for encoding);
    of a long input only the vector's part, with its offset and the whole length."""
    data = difference.input
    start, end = (0, len(data)) if len(data) <= WHOLE_INPUT_UP_TO else difference.window
    if end - start > WHOLE_INPUT_UP_TO:  # a long ad-hoc input: the part around the first mark
        start, end = focus((start, end), difference.marks, WHOLE_INPUT_UP_TO)
        padding = None
    else:
        padding = data[0] if start else data[-1] if end < len(data) else None
    part = data[start:end]
    shown = part.hex() if isinstance(part, bytes) else " ".join(f"U+{v:04X}" for v in part)
    fields: dict[str, Any] = {"input": shown}
    if (start, end) != (0, len(data)):
        fields |= {"input_offset": start, "input_length": len(data)}
    if padding is not None and (start, end) != (0, len(data)):
        fields["padding"] = padding
    return fields


def difference_json(view: View, difference: Difference, behaviour: str) -> dict[str, Any]:
    """Return one difference as a JSON object."""
    return {
        "vector": difference.vector,
        "variant": difference.variant,
        "capability": difference.capability,
        "level": difference.level,
        "what": difference.what,
        "behaviour": behaviour,
        **_input_fields(difference),
        "expected": difference.expected,
        "actual": difference.actual,
        "marks": [list(mark) for mark in difference.marks],
        "known": difference.key in view.known,
        "reproduce": view.reproduce(difference),
    }


def _behaviour_json(each: Group, known: bool, example: int) -> dict[str, Any]:
    behaviour = each.behaviour
    document: dict[str, Any] = {
        "id": behaviour.id,
        "direction": behaviour.direction,
        "what": behaviour.what,
        "detail": behaviour.detail,
        "level": each.level,
        "known": known,
        "vectors": each.vectors,
        "differences": len(each.differences),
        "capabilities": each.capabilities,
        "example": example,
    }
    if each.moved:
        document["moved"] = each.moved
    if behaviour.what == UNPLACED:
        document["fix"] = UNPLACED_FIX[behaviour.direction]
    return document


def _baseline_json(view: View) -> dict[str, Any] | None:
    if view.baseline is None:
        return None
    fields = ("vector", "variant", "capability", "what")
    levels = view.baseline.levels
    return {
        "path": view.baseline.path,
        "codec": view.baseline.codec,
        "profile": view.baseline.profile,
        "known": len(view.known),
        "hidden": {
            level: {"behaviours": behaviours, "differences": differences}
            for level, (behaviours, differences) in view.hidden().items()
        },
        "fixed": [dict(zip(fields, key, strict=True)) for key in view.fixed],
        "changed": [
            dict(zip(fields, key, strict=True))
            | {"level": levels.get(key), "now": {"level": now.level, "what": now.what}}
            for key, now in view.changed
        ],
    }


def report_document(view: View) -> dict[str, Any]:
    """Return the report as a JSON value: what was checked, the summary, the behaviours (new
    ones first), the baseline's known and fixed deviations, every difference."""
    report = view.report
    index = {id(difference): number for number, difference in enumerate(report.differences)}
    behaviours: list[dict[str, Any]] = []
    owner: dict[int, str] = {}
    for known, groups in ((False, view.groups), (True, view.known_groups)):
        for each in groups:
            behaviours.append(_behaviour_json(each, known, index[id(each.example)]))
            owner |= {id(difference): each.behaviour.id for difference in each.differences}
    counts = report.counts()
    return {
        "format": FORMAT,
        "utf8cert": report.version,
        "codec": report.codec,
        "description": report.description,
        "date": report.date,
        "boundary": report.boundary,
        "vectors": len(report.vectors),
        "suite": {
            "sha256": report.suite.sha256,
            "vectors": report.suite.vectors,
            "utf8cert": report.version,
        },
        "depth": report.depth,
        "complete": not report.incomplete,
        "stopped": report.incomplete,
        "capabilities": sorted(report.capabilities),
        "summary": {
            "conformant": report.conformant,
            "verdict": view.verdict(),
            "fail_on": view.fail_on,
            "failing": len(view.failing),
            "passed": view.passed,
            "gate": view.gate(),
            "checked": report.checked,
            "differences": {
                capability: {level: counts[capability][level][0] for level in LEVELS}
                for capability in counts
            },
            "vectors_differing": {
                capability: {level: counts[capability][level][1] for level in LEVELS}
                for capability in counts
            },
        },
        "behaviours": behaviours,
        "baseline": _baseline_json(view),
        "differences": [
            difference_json(view, difference, owner[id(difference)])
            for difference in report.differences
        ],
        **extra_json(report),
    }


def report_json(view: View) -> str:
    """Return the JSON document of a report (see `report_document`), indented, ending in a
    newline."""
    return json.dumps(report_document(view), indent=1, ensure_ascii=False) + "\n"
