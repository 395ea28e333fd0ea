"""One crash signature per behaviour: how a target run by ClusterFuzzLite or OSS-Fuzz raises a
difference, so that the services' deduplication gives one crash per root cause.

The services group the crashes of a Python target by the exception's type and the top frames of
its stack. Raised as one exception type from one place, every difference would be one crash
there, and the second bug of a codec hidden behind its first. So each behaviour (the grouped
report's key: check/behaviour.py) is raised as its own exception class, a subclass of
CodecDiffers named after the behaviour's id, from its own function, named likewise: the type and
the top frame both differ between behaviours, and neither changes between runs or builds.

    raise_difference(difference, data) -> NoReturn
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from functools import cache
from types import FunctionType
from typing import Final, NoReturn

from utf8cert.harness.check.behaviour import Behaviour, behaviour_of
from utf8cert.harness.check.difference import Difference

MODULE: Final = "utf8cert.differences"
"""The module the exception classes claim: a stable name in the crash text."""


class CodecDiffers(AssertionError):
    """Raised by a target without a findings directory: the codec and the reference differ."""


def identifier(behaviour: Behaviour) -> str:
    """Return the behaviour's id as a Python identifier ('decode_let_ill_formed_input_through_
    overlong'): letters, digits and underscores."""
    return re.sub(r"[^A-Za-z0-9]+", "_", behaviour.id).strip("_")


@cache
def exception_for(behaviour: Behaviour) -> type[CodecDiffers]:
    """Return the exception class of one behaviour: `CodecDiffers_<id>`, the same class for
    the same behaviour in one process, the same name in every process."""
    name = f"CodecDiffers_{identifier(behaviour)}"
    namespace = {"__module__": MODULE, "__qualname__": name, "behaviour": behaviour}
    return type(name, (CodecDiffers,), namespace)


def _raise(kind: type[CodecDiffers], message: str) -> NoReturn:
    raise kind(message)


@cache
def raiser_for(behaviour: Behaviour) -> Callable[[type[CodecDiffers], str], NoReturn]:
    """Return a function `(exception class, message)` that raises, named `differs_<id>` after
    the behaviour: the top frame of the crash's stack names it."""
    name = f"differs_{identifier(behaviour)}"
    code = _raise.__code__.replace(co_name=name, co_qualname=name)
    return FunctionType(code, _raise.__globals__, name)


def describe(difference: Difference, data: bytes) -> str:
    """Return a difference in a few lines: what, where, expected, actual, and the input."""
    return (
        f"{difference.capability}: {difference.what} ({difference.level})\n"
        f"  input:    {data.hex(' ').upper() if len(data) <= 256 else f'{len(data)} bytes'}\n"
        f"  variant:  {difference.variant}\n"
        f"  expected: {difference.expected}\n"
        f"  actual:   {difference.actual}"
    )


def raise_difference(difference: Difference, data: bytes) -> NoReturn:
    """Print the difference on `data` to stderr (once: the exception's message, which atheris
    prints twice, is its one-line behaviour), then raise the behaviour's exception from the
    behaviour's function."""
    behaviour = behaviour_of(difference)
    print(describe(difference, data), file=sys.stderr, flush=True)
    message = f"{behaviour} ({difference.capability}, {difference.level})"
    raiser_for(behaviour)(exception_for(behaviour), message)
