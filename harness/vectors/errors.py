"""The one error of loading vectors: a malformed file, named with its line."""

from __future__ import annotations


class VectorLoadError(Exception):
    """A malformed vector file; the message is one line: `file:line: field: problem`."""

    def __init__(self, file: str, line: int, field: str, problem: str) -> None:
        self.file = file
        self.line = line
        self.field = field
        self.problem = " ".join(problem.split())  # always one line, whatever the cause said
        super().__init__(f"{file}:{line}: {field}: {self.problem}")
