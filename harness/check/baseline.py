"""Known deviations of a codec, kept in a file, so that CI fails only on new differences.

A baseline is a JSON document:

    {"utf8cert-baseline": 2, "codec": "codec:utf-8-sig", "profile": null,
     "deviations": [{"vector": "...", "variant": "...", "capability": "...",
                     "level": "may", "what": "signature stripped"}, ...]}

A difference is known when its vector, variant, capability and `what` match a deviation; a codec
that starts failing a vector in a new way is therefore a new difference. A deviation of the
baseline that a run no longer shows is fixed when its question (vector, variant, capability)
no longer differs at all, and changed when it differs otherwise (its level rose or fell, or
what the codec did is another thing): either way the baseline is out of date. A baseline is recorded
for one codec spec and profile; `matching` refuses it for another. Format 1 (no profile) is read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from utf8cert.harness.check.difference import Difference
from utf8cert.harness.codec.interface import CAPABILITIES
from utf8cert.harness.vectors.named_file import read_named

FORMAT: Final = 2
READABLE: Final = (1, 2)
"""The formats `load_baseline` reads."""
MARKER: Final = "utf8cert-baseline"
FIELDS: Final = ("vector", "variant", "capability", "what")

MAX_DEPTH: Final = 16
"""Deepest nesting of arrays and objects read in a baseline (a baseline needs 3)."""
_NESTING: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')
"""A JSON string (skipped whole: brackets inside it do not nest), or a bracket."""

Key = tuple[str, str, str, str]


class BaselineError(ValueError):
    """A baseline file that cannot be read or used; str() is one line naming the file and the
    problem."""


@dataclass(frozen=True)
class Baseline:
    """The known deviations of one codec, as recorded in a file."""

    path: str
    codec: str | None
    """The spec the baseline was recorded for (None: not said, format 1 without one: then it
    is used only with --baseline-any-codec)."""
    profile: str | None
    keys: frozenset[Key]
    levels: dict[Key, str] = field(default_factory=dict, compare=False, hash=False)
    """The level each deviation was recorded at (a format 1 file, or a hand-written one, may
    not say: then it is missing here)."""

    def __iter__(self) -> Iterator[Key]:
        """Yield the keys of the deviations, sorted (a baseline read as the set it was)."""
        return iter(sorted(self.keys))

    def fixed(self, differences: Iterable[Difference]) -> list[Key]:
        """Return the deviations of the baseline that no longer occur: none of `differences`
        shows them, nor differs otherwise on the same question (sorted; [] when every known
        deviation still occurs). A question that differs otherwise is `changed`, not fixed."""
        differences = list(differences)
        seen = {difference.key for difference in differences}
        asked = {difference.key[:3] for difference in differences}
        return sorted(key for key in self.keys - seen if key[:3] not in asked)

    def changed(self, differences: Iterable[Difference]) -> list[tuple[Key, Difference]]:
        """Return the deviations of the baseline that a question still shows, but otherwise:
        (the known deviation, the difference the run found on its vector, variant and
        capability instead), sorted; [] when there is none. A codec that got worse (a `may`
        deviation now a `must` one) changed; it did not fix anything."""
        differences = list(differences)
        seen = {difference.key for difference in differences}
        now: dict[tuple[str, str, str], Difference] = {}
        for difference in differences:
            now.setdefault(difference.key[:3], difference)
        return [(key, now[key[:3]]) for key in sorted(self.keys - seen) if key[:3] in now]

    def matching(self, spec: str, profile: str | None, any_codec: bool = False) -> Baseline:
        """Return the baseline if it was recorded for `spec` and `profile` (or `any_codec`);
        BaselineError (one line) naming both codecs if not."""
        if any_codec:
            return self
        if self.codec is None:  # known deviations of no codec in particular: of which?
            raise BaselineError(
                f"{self.path}: records no codec, so not {spec} "
                "(--baseline-any-codec to use it anyway)"
            )
        if self.codec != spec:
            raise BaselineError(
                f"{self.path}: recorded for {self.codec}, not {spec} "
                "(--baseline-any-codec to use it anyway)"
            )
        if self.profile != profile and None not in (self.profile, profile):
            raise BaselineError(
                f"{self.path}: recorded with profile {self.profile}, not {profile} "
                "(--baseline-any-codec to use it anyway)"
            )
        return self


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


def _too_deep(text: str) -> int | None:
    """Return the offset of the first bracket nested deeper than MAX_DEPTH (None if none is)."""
    depth = 0
    for token in _NESTING.finditer(text):
        bracket = token.group()
        if bracket in ("[", "{"):
            depth += 1
            if depth > MAX_DEPTH:
                return token.start()
        elif bracket in ("]", "}"):
            depth -= 1
    return None


def _document(path: Path) -> Any:
    """Return the JSON value in a file; BaselineError (one line: file:line, the problem) for
    bytes that are not UTF-8, text that is not JSON, or JSON nested deeper than MAX_DEPTH. The
    depth is checked before parsing, so that no nesting costs more than reading the file."""
    raw = read_named(path)  # a regular file, bounded: a FIFO or a device would never end
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise BaselineError(
            f"{path}:{line}: not UTF-8 (byte {error.start}: {error.reason})"
        ) from None
    deep = _too_deep(text)
    if deep is not None:
        line = text[:deep].count("\n") + 1
        raise BaselineError(
            f"{path}:{line}: nested deeper than {MAX_DEPTH}: not a baseline"
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise BaselineError(f"{path}:{error.lineno}: not JSON: {error.msg}") from None
    except ValueError as error:  # e.g. an integer of more digits than Python converts
        raise BaselineError(f"{path}: not JSON: {' '.join(str(error).split())}") from None


def load_baseline(path: str | Path) -> Baseline:
    """Return the baseline in a file (its keys empty for no deviations).

    Raises BaselineError (one line: file, place, problem) for a malformed file, OSError for one
    that cannot be read.
    """
    path = Path(path)
    document = _document(path)
    marker = document.get(MARKER) if isinstance(document, dict) else None
    if type(marker) is not int or marker not in READABLE:  # true == 1, but is no format
        raise BaselineError(f'{path}: not a utf8cert baseline (no "{MARKER}": {FORMAT})')
    deviations = document.get("deviations")
    if not isinstance(deviations, list):
        raise BaselineError(f"{path}: 'deviations' must be a list")
    for name in ("codec", "profile"):
        if not isinstance(document.get(name), str | None):
            raise BaselineError(f"{path}: '{name}' must be a string")
    keys = [_deviation(path, index, item) for index, item in enumerate(deviations)]
    levels = {
        key: item["level"]
        for key, item in zip(keys, deviations, strict=True)
        if isinstance(item.get("level"), str)
    }
    codec, profile = document.get("codec"), document.get("profile")
    return Baseline(str(path), codec, profile, frozenset(keys), levels)


def baseline_text(spec: str, differences: Iterable[Difference], profile: str | None = None) -> str:
    """Return the baseline document listing `differences` as known deviations (sorted, stable)."""
    keys = sorted({difference.key: difference.level for difference in differences}.items())
    deviations = [dict(zip(FIELDS, key, strict=True)) | {"level": level} for key, level in keys]
    document = {MARKER: FORMAT, "codec": spec, "profile": profile, "deviations": deviations}
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def write_baseline(
    path: str | Path, spec: str, differences: Iterable[Difference], profile: str | None = None
) -> int:
    """Write the baseline of `differences` to `path`; return how many deviations it lists
    (OSError if it cannot be written)."""
    text = baseline_text(spec, differences, profile)
    Path(path).write_text(text, encoding="utf-8")
    return len({difference.key for difference in differences})
