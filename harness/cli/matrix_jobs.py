"""The matrix's adapters checked side by side in worker processes: returns a column per adapter,
in the order asked, each checked or skipped with its reason.

A worker checks one adapter at a time and sends back the column's cells (plain data). An
adapter that kills its worker (a crash in a C library called in process) breaks the pool for
every adapter then in flight: those are checked again one by one in a pool of their own, so
that only the adapter that crashes again is marked, and the matrix goes on.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool

from utf8cert.harness.reports.matrix import Column
from utf8cert.harness.world.catalog import registry

Progress = Callable[[Column, float], None]
"""Told of each column as it is done, with the seconds it took."""


def check_spec(spec: str) -> Column:
    """Return the column of any other codec spec (the user's `MODULE:ATTR`, `cmd:…`,
    `codec:NAME`), named by the spec: checked over the built-in vectors in a child process,
    as `utf8cert check` runs it by default, or skipped with the reason its spec fails."""
    from utf8cert.harness.check.run import run_check
    from utf8cert.harness.codec.spec import CodecSpecError
    from utf8cert.harness.reports.matrix import checked_column
    from utf8cert.harness.vectors.load import load_vectors
    from utf8cert.harness.world.spec import load_codec

    try:
        codec = load_codec(spec, isolate=True)
    except CodecSpecError as error:
        return Column(spec, "", "", skipped=error.problem)
    try:
        report = run_check(codec, load_vectors())
    finally:
        codec.close()
    return checked_column(spec, report.description or spec, "", report)


def check_adapter(name: str, isolate: bool) -> Column:
    """Return the column of `adapter:NAME`: checked over the built-in vectors, or skipped with
    the reason it cannot run here (a package or runtime missing, a spec that fails to load); a
    name that is no adapter is a codec spec (`check_spec`)."""
    from utf8cert.harness.check.run import run_check
    from utf8cert.harness.codec.spec import CodecSpecError
    from utf8cert.harness.reports.matrix import checked_column
    from utf8cert.harness.vectors.load import load_vectors
    from utf8cert.harness.world.spec import load_codec

    if name not in registry():
        return check_spec(name)
    entry = registry()[name]
    version = entry.version()
    reason = entry.unavailable()
    if reason is not None:
        return Column(name, entry.description, version, skipped=reason)
    try:
        codec = load_codec(f"adapter:{name}", isolate=isolate or getattr(entry, "isolated", False))
    except CodecSpecError as error:
        return Column(name, entry.description, version, skipped=error.problem)
    try:
        report = run_check(codec, load_vectors())
    finally:
        codec.close()
    return checked_column(name, entry.description, version, report)


def _timed(name: str, isolate: bool) -> tuple[Column, float]:
    started = time.perf_counter()
    column = check_adapter(name, isolate)
    return column, time.perf_counter() - started


def _pool(jobs: int) -> ProcessPoolExecutor:
    # A fresh interpreter per worker: forking the judge, threads and all, is not safe.
    return ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"))


def _run(names: Sequence[str], jobs: int, isolate: bool, progress: Progress) -> list[str]:
    """Check `names` in a pool of `jobs` workers, telling `progress` of each; return the names
    whose worker died under them."""
    broken: list[str] = []
    with _pool(jobs) as pool:
        futures: dict[Future[tuple[Column, float]], str] = {
            pool.submit(_timed, name, isolate): name for name in names
        }
        for future in as_completed(futures):
            try:
                column, seconds = future.result()
            except BrokenProcessPool:
                broken.append(futures[future])
                continue
            progress(column, seconds)
    return broken


def check_adapters(
    names: Sequence[str], jobs: int, isolate: bool, progress: Progress
) -> list[Column]:
    """Return the column of each adapter named, in the order named, checked `jobs` at a time."""
    done: dict[str, Column] = {}

    def keep(column: Column, seconds: float) -> None:
        done[column.name] = column
        progress(column, seconds)

    for name in _run(names, jobs, isolate, keep):
        for crashed in _run([name], 1, isolate, keep):
            entry = registry().get(crashed)
            spec = crashed if entry is None else f"adapter:{crashed}"
            column = Column(
                crashed,
                "" if entry is None else entry.description,
                "" if entry is None else entry.version(),
                skipped=f"crashed the process that checked it (run `utf8cert check {spec}` "
                "to see where)",
            )
            keep(column, 0.0)
    return [done[name] for name in names]
