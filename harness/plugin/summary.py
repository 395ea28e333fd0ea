"""The session's summary by behaviour: the differences of every item of the suite grouped as
`utf8cert check` groups them (check/behaviour.py), one line each, so that a failing session
ends on the few bugs behind its many failing items."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from utf8cert.harness.check.behaviour import group
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.run import vector_index
from utf8cert.harness.plugin.suite import Suite
from utf8cert.harness.reports.text import group_title
from utf8cert.harness.reports.view import moved_line, unplaced_fix

SHOWN: Final = 12
"""At most this many behaviours are listed; the others are counted."""


def summary_lines(suite: Suite, found: Sequence[Difference]) -> list[str]:
    """Return the lines of the summary: per behaviour its title (level, behaviour, vectors and
    differences), then its fix when it has one, else the command that reproduces its simplest
    example; a last line for those past SHOWN ([] for no differences)."""
    groups = group(found, vector_index(suite.vectors))
    lines: list[str] = []
    for index, each in enumerate(groups[:SHOWN], start=1):
        fix = unplaced_fix(each)
        lines.append(group_title(index, each))
        if fix is not None:
            lines.append(f"  fix: {fix}")
            continue
        moved = moved_line(each)
        lines += [moved] if moved is not None else []
        command = suite.rerun.command(each.example) if suite.rerun is not None else None
        lines.append(f"  reproduce: {command}" if command else f"  e.g. {each.example.vector}")
    if len(groups) > SHOWN:
        lines.append(f"… and {len(groups) - SHOWN} more behaviours (utf8cert check shows them)")
    return lines
