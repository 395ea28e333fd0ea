"""Known deviations of a codec, kept in a file, so that CI fails only on new differences.

A baseline is a JSON document:

    {"utf8cert-baseline": 1, "codec": "codec:utf-8-sig",
     "deviations": [{"vector": "...", "variant": "...", "capability": "...",
                     "level": "may", "what": "signature stripped"}, ...]}

A difference is known when its vector, variant, capability and `what` match a deviation; a codec
that starts failing a vector in a new way is therefore a new difference.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

from utf8cert.harness.check.compare import Difference
from utf8cert.harness.codec.interface import CAPABILITIES

FORMAT: Final = 1
MARKER: Final = "utf8cert-baseline"
FIELDS: Final = ("vector", "variant", "capability", "what")

Key = tuple[str, str, str, str]


class BaselineError(ValueError):
    """A baseline file that cannot be read; str() is one line naming the file and the problem."""


def _deviation(path: Path, index: int, item: Any) -> Key:
    """Return the key of one deviation; BaselineError naming its place if it is malformed."""
    where = f"{path}: deviations[{index}]"
    if not isinstance(item, dict):
        raise BaselineError(f"{where}: expected an object, found {type(item).__name__}")
    for name in FIELDS:
        if not isinstance(item.get(name), str):
            raise BaselineError(f"{where}: '{name}' must be a string")
    if item["capability"] not in CAPABILITIES:
        raise BaselineError(f"{where}: unknown capability {item['capability']!r}")
    return (item["vector"], item["variant"], item["capability"], item["what"])


def load_baseline(path: str | Path) -> frozenset[Key]:
    """Return the keys of the known deviations in a baseline file (empty for no deviations).

    Raises BaselineError (one line: file, place, problem) for a malformed file, OSError for one
    that cannot be read.
    """
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise BaselineError(f"{path}:{error.lineno}: not JSON: {error.msg}") from None
    if not isinstance(document, dict) or document.get(MARKER) != FORMAT:
        raise BaselineError(f'{path}: not a utf8cert baseline (no "{MARKER}": {FORMAT})')
    deviations = document.get("deviations")
    if not isinstance(deviations, list):
        raise BaselineError(f"{path}: 'deviations' must be a list")
    return frozenset(_deviation(path, index, item) for index, item in enumerate(deviations))


def baseline_text(spec: str, differences: Iterable[Difference]) -> str:
    """Return the baseline document listing `differences` as known deviations (sorted, stable)."""
    keys = sorted({difference.key: difference.level for difference in differences}.items())
    deviations = [dict(zip(FIELDS, key, strict=True)) | {"level": level} for key, level in keys]
    document = {MARKER: FORMAT, "codec": spec, "deviations": deviations}
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def write_baseline(path: str | Path, spec: str, differences: Iterable[Difference]) -> None:
    """Write the baseline of `differences` to `path` (OSError if it cannot be written)."""
    Path(path).write_text(baseline_text(spec, differences), encoding="utf-8")
