"""Random and adversarial files given to the vector loader: it loads them or refuses them in one
line naming the file, a line and a field, and never raises anything else (nor crashes)."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from hypothesis import given, settings
from support.hostile_files import vector_files

from utf8cert.harness.vectors.load import VectorLoadError, load_vectors

ONE_LINE = re.compile(r"[^\n]*:[1-9][0-9]*: [^\n]+: [^\n]+")
"""`file:line: field: problem`, all on one line (a field's name may hold any character but a
line break)."""


@settings(max_examples=300)
@given(vector_files)
def test_a_hostile_file_loads_or_is_refused_in_one_line(content: bytes) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "hostile.yaml"
        path.write_bytes(content)
        try:
            vectors = load_vectors([path], builtin=False)
        except VectorLoadError as error:
            message = str(error)
            assert message.startswith(f"{path}:")
            assert ONE_LINE.fullmatch(message), message
            return
        assert all(vector.origin.file == str(path) for vector in vectors)
