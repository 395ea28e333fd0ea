"""One pytest item that checks every case of a long list, in place of one item per case.

pytest spends about a millisecond of its own on each item, and each xdist worker collects every
item: 7,000 vectors times a check that takes microseconds cost the default tier more in pytest
than in the checks. `@each(cases, name)` turns a test of one case into a test of all of them,
each case checked however many fail before it, the failures named.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import pytest

T = TypeVar("T")

SHOWN = 20
"""The failures a failed test names in full; the rest are counted."""


def failures(check: Callable[[T], None], cases: Sequence[T], name: Callable[[T], str]) -> list[str]:
    """Return one line per case `check` failed on: its name, then the error (an empty list when
    every case passes, and for no cases)."""
    failed = []
    for case in cases:
        try:
            check(case)
        except (Exception, pytest.fail.Exception) as error:  # pytest.raises fails with the latter
            failed.append(f"{name(case)}: {type(error).__name__}: {error}")
    return failed


def each(
    cases: Sequence[T] | Callable[[], Sequence[T]], name: Callable[[T], str]
) -> Callable[[Callable[[T], None]], Callable[[], None]]:
    """Return a decorator that makes `test(case)` one test of every case in `cases` (a list, or
    a function that reads it when the test runs, and may skip it: a peer file absent), each
    named by `name(case)` when it fails. The test fails after checking them all, naming each
    that failed; with no cases it is skipped, not passed."""

    def decorate(test: Callable[[T], None]) -> Callable[[], None]:
        def every_case() -> None:
            __tracebackhide__ = True  # the failures name the cases: this frame adds nothing
            listed = cases() if callable(cases) else cases
            if not listed:
                pytest.skip("no cases")
            failed = failures(test, listed, name)
            if failed:
                shown = "\n".join(failed[:SHOWN])
                more = f"\n… and {len(failed) - SHOWN} more" if len(failed) > SHOWN else ""
                pytest.fail(f"{len(failed)} of {len(listed)} cases failed:\n{shown}{more}")

        every_case.__name__ = every_case.__qualname__ = test.__name__
        every_case.__doc__ = test.__doc__
        every_case.__module__ = test.__module__
        return every_case

    return decorate
