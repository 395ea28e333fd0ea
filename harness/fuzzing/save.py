"""A fuzzing finding made durable: its files, each written atomically (a temporary file renamed
into place).

For each finding three files are written under one stem named after the kind of difference
(`decode-rejected-well-formed-input`): `.bin` the input's raw bytes (a libFuzzer reproducer),
`.txt` the difference and a one-line `utf8cert check` reproducer, `.yaml` a vector file that
`load_vectors` reads (finding_vector.py).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from utf8cert.harness.fuzzing.finding import Finding, explanation, reproducer
from utf8cert.harness.fuzzing.finding_vector import vector_document


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


def save(finding: Finding, directory: Path, boundary: str = "") -> Path:
    """Write the finding's .bin, .txt and .yaml under `directory`; return the .yaml's path.
    The .txt names the `boundary` the campaign kept the codec behind, when given.

    The .yaml is written last: its presence means the finding is complete.
    """
    directory.mkdir(parents=True, exist_ok=True)
    stem = directory / finding.stem
    vector_file = stem.with_suffix(".yaml")
    summary = explanation(finding) + (f"boundary: {boundary}\n" if boundary else "")
    summary += f"reproduce: {reproducer(finding)}\n"  # the last line: fuzz_view shows it
    write_atomically(stem.with_suffix(".bin"), finding.data)
    write_atomically(stem.with_suffix(".txt"), summary.encode("utf-8"))
    write_atomically(vector_file, vector_document(finding).encode("utf-8"))
    return vector_file
