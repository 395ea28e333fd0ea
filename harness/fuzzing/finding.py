"""A fuzzing finding made durable: the smallest input that keeps the difference, saved as a vector.

For each finding three files are written, each atomically (a temporary file renamed into place),
under one stem named after the kind of difference (`decode-rejected-well-formed-input`):
`.bin` the input's raw bytes (a libFuzzer reproducer), `.txt` the difference and a one-line
`utf8cert check` reproducer, `.yaml` a vector file that `load_vectors` reads, its expected values
from the reference, ready to drop into a project's vectors directory as a regression test.
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from utf8cert.harness.check.compare import Difference
from utf8cert.harness.check.expected import as_code_points, expectation_for
from utf8cert.harness.check.probe import code_points_of, encoding_expectation
from utf8cert.harness.fuzzing.kinds import error_spans
from utf8cert.harness.vectors.model import Level
from utf8cert.reference import sequence_at
from utf8cert.reference.encoder import refusal

MAX_TRIES: Final = 2000
"""Probes a minimization may spend; a 64 KiB input needs about a thousand."""
MAX_SECONDS: Final = 20.0
"""Seconds a minimization may take (it stops with the smallest input found so far)."""
CHARACTERWISE: Final = 1024
"""Inputs up to this size are also minimized one character at a time."""

DOING: Final = {
    "decode": "decoding strictly",
    "replace": "decoding with U+FFFD",
    "validate": "validating",
    "encode": "encoding",
    "incremental": "decoding in chunks",
}


def slug(difference: Difference) -> str:
    """Return the kind of a difference as a file-name stem: capability and what, hyphenated."""
    words = re.sub(r"[^a-z0-9]+", "-", difference.what.lower()).strip("-")
    return f"{difference.capability}-{words}"


def minimize(
    data: bytes,
    keeps: Callable[[bytes], bool],
    *,
    max_tries: int = MAX_TRIES,
    max_seconds: float = MAX_SECONDS,
) -> bytes:
    """Return the shortest, most ASCII version of `data` found for which `keeps` stays True.

    First whole slices are deleted (halves, then quarters, down to single bytes), then whole
    characters (in inputs up to CHARACTERWISE bytes), then each ill-formed sequence is
    overwritten with ASCII "a" (the stray errors), then slices are overwritten so too (both keep
    offsets: a bug at byte 4096 stays at 4096). Stops after `max_tries` calls of
    `keeps` or `max_seconds`; `data` itself if nothing helps.
    """
    tries, deadline = 0, time.monotonic() + max_seconds

    def attempt(candidate: bytes) -> bool:
        nonlocal tries
        if tries >= max_tries or time.monotonic() > deadline:
            return False
        tries += 1
        return keeps(candidate)

    for edit in (_deleted, _overwritten):
        size = max(1, len(data) // 2)
        while size >= 1:
            start = 0
            while start < len(data):
                candidate = edit(data, start, size)
                if candidate != data and attempt(candidate):
                    data = candidate  # keep `start`: the next slice has moved into its place
                    if edit is _overwritten:
                        start += size
                else:
                    start += size
            size //= 2
        if edit is _deleted:
            if len(data) <= CHARACTERWISE:
                data = _delete_characters(data, attempt)
            data = _quiet_errors(data, attempt)
    return data


def _quiet_errors(data: bytes, attempt: Callable[[bytes], bool]) -> bytes:
    """Return `data` with each ill-formed unit whose overwriting with ASCII `attempt` accepts
    overwritten (offsets kept): the stray errors beside the one that matters, one try each."""
    for start, end, _ in reversed(error_spans(data)):
        candidate = data[:start] + b"a" * (end - start) + data[end:]
        if attempt(candidate):
            data = candidate
    return data


def _delete_characters(data: bytes, attempt: Callable[[bytes], bool]) -> bytes:
    """Return `data` less each character (or maximal subpart) whose deletion `attempt` accepts."""
    start = 0
    while start < len(data):
        length, _ = sequence_at(data, start)
        candidate = data[:start] + data[start + length :]
        if attempt(candidate):
            data = candidate
        else:
            start += length
    return data


def _deleted(data: bytes, start: int, size: int) -> bytes:
    return data[:start] + data[start + size :]


def _overwritten(data: bytes, start: int, size: int) -> bytes:
    return data[:start] + b"a" * len(data[start : start + size]) + data[start + size :]


@dataclass(frozen=True)
class Reproduce:
    """What `utf8cert check` must be told, beyond the codec and the input, to fail as the
    campaign did."""

    fail_on: Level = "must"
    """The campaign's --fail-on: a `should` finding passes `check` at the default level."""
    isolate: bool = False
    """The finding was replayed in a separate process (a crash or a hang): in-process, `check`
    would die with the codec."""
    timeout: float | None = None
    """Seconds one call may take (with isolate), for a hang."""
    profile: str = "rfc3629"
    """The dialect the codec was judged by."""

    def options(self) -> list[str]:
        """Return the `utf8cert check` options, as separate arguments."""
        options = [] if self.fail_on == "must" else ["--fail-on", self.fail_on]
        if self.profile != "rfc3629":
            options += ["--profile", self.profile]
        if self.isolate:
            options.append("--isolate")
            if self.timeout is not None:
                options += ["--timeout", f"{self.timeout:g}"]
        return options


@dataclass(frozen=True)
class Finding:
    """The differences on one (minimized) input, and the codec they were found on: one bug,
    every capability it shows on."""

    spec: str
    data: bytes
    difference: Difference
    """The difference the input was minimized for (the first capability that shows it)."""
    others: tuple[Difference, ...] = ()
    """The input's other differences at the failing level (other capabilities, mostly)."""
    reproduce: Reproduce = Reproduce()
    name: str = ""
    """The file-name stem, when not the kind of difference alone (a second input of that kind
    of difference showing another behaviour)."""

    @property
    def differences(self) -> tuple[Difference, ...]:
        """Return every difference of the finding, the one it was minimized for first."""
        return (self.difference, *self.others)

    @property
    def capabilities(self) -> list[str]:
        """Return the capabilities the finding shows on, in the order they were asked."""
        return list(dict.fromkeys(d.capability for d in self.differences))

    @property
    def stem(self) -> str:
        """Return the file-name stem of the finding: its name, else its kind of difference."""
        return self.name or slug(self.difference)

    @property
    def digest(self) -> str:
        """Return the first 12 hex digits of the SHA-1 of the input (the vector id's tail)."""
        return hashlib.sha1(self.data).hexdigest()[:12]


def reproducer(finding: Finding) -> str:
    """Return the one shell line that shows the finding again with `utf8cert check`: the one
    input on every capability (`--input HEX`: the encoder is offered the code points the fuzzer
    offered), with the options that make it fail as the campaign did."""
    options = finding.reproduce.options()
    return shlex.join(
        ["utf8cert", "check", finding.spec, *options, "--input", finding.data.hex().upper()]
    )


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


def _hex(data: bytes) -> str:
    return data.hex(" ").upper()


def _decode_vector(finding: Finding, vector_id: str, description: str) -> dict[str, Any]:
    expected = expectation_for(finding.data)
    vector: dict[str, Any] = {
        "id": vector_id,
        "description": description,
        "source": "RFC 3629 §4",
        "flags": ["fuzz-finding", finding.stem],
        "bytes": _hex(finding.data),
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


def _encode_vector(finding: Finding, difference: Difference, vector_id: str) -> dict[str, Any]:
    description = _described(difference)
    values = difference.input
    values = values if isinstance(values, tuple) else code_points_of(finding.data)
    expected = encoding_expectation(values)
    vector: dict[str, Any] = {
        "id": vector_id,
        "description": description,
        "source": "RFC 3629 §3",
        "flags": ["fuzz-finding", finding.stem],
        "scalars": [f"U+{value:04X}" for value in values],
    }
    if expected.encoded is not None:
        vector["bytes"] = _hex(expected.encoded)
    else:
        assert expected.error_index is not None
        kind = refusal(values[expected.error_index])
        vector["error"] = {"index": expected.error_index, "kind": str(kind)}
    return vector


def _described(d: Difference) -> str:
    description = f"{d.capability}: {d.what}; expected {d.expected}, got {d.actual}"
    return description if len(description) <= 200 else description[:199] + "…"


def vector_document(finding: Finding) -> str:
    """Return the text of a vector file holding the finding (schema 1.0): a decoding vector of
    its bytes when a decoding capability differs, an encoding vector of its code points when
    the encoder does."""
    # Imported here: the fuzz target imports this module, and YAML and the vector loader (with
    # its JSON Schema) would add a fifth of a second to every campaign's start.
    import yaml

    from utf8cert.harness.vectors.load import SCHEMA_VERSION

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
    if decoding:
        document["decode"] = [_decode_vector(finding, vector_id, _described(decoding[0]))]
    if encoding:
        encode_id = vector_id + "-encode" if decoding else vector_id
        document["encode"] = [_encode_vector(finding, encoding[0], encode_id)]
    header = (
        f"# Found by `utf8cert fuzz {finding.spec}`: {d.capability} {d.what} ({d.level}).\n"
        "# Expected values are the reference's (utf8cert.reference). Put this file in your\n"
        "# vectors directory (utf8cert check --vectors DIR) to keep the bug from coming back.\n"
    )
    body = yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=1 << 20)
    return header + body


SHOWN_WHOLE: Final = 256
"""Longer inputs are shown as a window around where the answers part (the .bin has them all)."""
WINDOW: Final = (16, 32)
"""Bytes shown before and after that offset."""


def _shown_input(finding: Finding) -> str:
    """Return the input in hex: whole up to SHOWN_WHOLE bytes, else its length and a window
    around the first byte a decoding difference points at (or the first error), with that
    offset, the bytes pointed at in brackets."""
    data = finding.data
    if len(data) <= SHOWN_WHOLE:
        return _hex(data) or "(no bytes)"
    decoding = [d for d in finding.differences if isinstance(d.input, bytes) and d.marks]
    marks = decoding[0].marks if decoding else ()
    spans = error_spans(data)
    at = marks[0][0] if marks else spans[0][0] if spans else 0
    start, end = max(0, at - WINDOW[0]), min(len(data), at + WINDOW[1])
    pointed = {index for mark_start, mark_end in marks for index in range(mark_start, mark_end)}
    shown = " ".join(
        f"[{data[index]:02X}]" if index in pointed else f"{data[index]:02X}"
        for index in range(start, end)
    )
    before = "… " if start else ""
    after = " …" if end < len(data) else ""
    return f"{len(data)} bytes; at offset {at}: {before}{shown}{after} (offsets {start}..{end - 1})"


def explanation(finding: Finding) -> str:
    """Return what the finding is, in lines: the codec, the input, and for each capability that
    differs what it did against what it should have."""
    d = finding.difference
    lines = [
        f"{d.capability}: {d.what} ({d.level}), on {', '.join(finding.capabilities)}",
        f"codec:    {finding.spec}",
        f"input:    {_shown_input(finding)}",
    ]
    for other in finding.differences:
        lines += [
            f"{other.capability}: {other.what} ({other.level})",
            f"  variant:  {other.variant}",
            f"  expected: {other.expected}",
            f"  actual:   {other.actual}",
        ]
    return "\n".join(lines) + "\n"


def write_atomically(path: Path, content: bytes) -> None:
    """Write `content` to `path` through a temporary file in the same directory and a rename."""
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(content)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def save(finding: Finding, directory: Path) -> Path:
    """Write the finding's .bin, .txt and .yaml under `directory`; return the .yaml's path.

    The .yaml is written last: its presence means the finding is complete.
    """
    directory.mkdir(parents=True, exist_ok=True)
    stem = directory / finding.stem
    vector_file = stem.with_suffix(".yaml")
    summary = explanation(finding) + f"reproduce: {reproducer(finding)}\n"
    write_atomically(stem.with_suffix(".bin"), finding.data)
    write_atomically(stem.with_suffix(".txt"), summary.encode("utf-8"))
    write_atomically(vector_file, vector_document(finding).encode("utf-8"))
    return vector_file
