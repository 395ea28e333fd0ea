"""The ranges of numeric options: argparse types that refuse a value outside them in one line
naming the option (`argument --timeout: must be more than 0 seconds, not -1`), before anything
runs, so that no bad number reaches a timer, a resource limit or libFuzzer as a traceback.

Each upper bound is where the layer below would fail: time and memory limits as codec/limits.py
says, libFuzzer's integer flags as C `int`s, its seed as an `unsigned int`.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import Final

from utf8cert.harness.codec.limits import MAX_SECONDS

MAX_INT: Final = (1 << 31) - 1
"""The largest value of a libFuzzer integer flag (a C int)."""
MAX_SEED: Final = (1 << 32) - 1
"""The largest libFuzzer seed (an unsigned int); 0 would ask libFuzzer to pick one."""


def seconds(text: str) -> float:
    """Return the number of seconds `text` says; ArgumentTypeError (one line) unless it is a
    finite number more than 0 and at most MAX_SECONDS."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {text}")
    if not math.isfinite(value) or value > MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"must be at most {MAX_SECONDS} seconds (a week), not {text}"
        )
    return value


def whole(low: int, high: int, unit: str = "") -> Callable[[str], int]:
    """Return an argparse type taking a whole number from `low` to `high` (`unit` names what it
    counts in the error); ArgumentTypeError (one line) for anything else."""
    counted, of = (f" {unit}", f" of {unit}") if unit else ("", "")

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number{of}: {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}{counted}, not {text}")
        return value

    parse.__name__ = "whole number"
    return parse
