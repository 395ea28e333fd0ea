"""Runs of `utf8cert check` in process for the report tests: exit status, standard output and
standard error, the built-in vectors parsed once."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from utf8cert.harness.cli.main import main
from utf8cert.harness.vectors import load as vectors_module
from utf8cert.harness.vectors.model import VectorSet

_real_load = vectors_module.load_vectors


@cache
def builtin() -> VectorSet:
    return _real_load()


def cached_load(
    paths: Sequence[str | Path] = (), *, builtin: bool = True, wanted: Collection[str] = ()
) -> VectorSet:
    """Return what load_vectors does, the built-in files parsed once a process (all of them,
    even where `wanted` names some: the caller keeps the vectors it asked for)."""
    if not paths and builtin:
        return _builtin()
    return _real_load(paths, builtin=builtin)


def _builtin() -> VectorSet:
    return builtin()  # the parameter of cached_load hides the function's name there


@dataclass
class Run:
    status: int
    out: str
    err: str

    def json(self) -> dict[str, Any]:
        document: dict[str, Any] = json.loads(self.out)
        return document


def check(*arguments: str) -> Run:
    """Return the exit status and output of `utf8cert check ARGUMENTS`, run in process."""
    out, err = io.StringIO(), io.StringIO()
    original = vectors_module.load_vectors
    vectors_module.load_vectors = cached_load
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["check", *arguments])
    finally:
        vectors_module.load_vectors = original
    return Run(status, out.getvalue(), err.getvalue())


@cache
def check_once(*arguments: str) -> Run:
    """Return `check(*arguments)`, run once for all the tests that ask: only for runs that write
    no file and read none but the built-in vectors."""
    return check(*arguments)
