"""What a Python codec's call did, as an outcome: the adapter kit's exceptions (`Refusal`,
`NotApplicable`), a refusal and where it places the error, a crash or a `memory` failure, a
result of the wrong type, and code points beyond U+10FFFF (python_codec.py makes the calls)."""

from __future__ import annotations

import errno
from collections.abc import Callable
from typing import TypeGuard

from utf8cert.harness.codec import interrupts
from utf8cert.harness.codec.interface import Failed, Outcome, Refused, Returned

LARGEST_CODE_POINT = 0x10FFFF
FULL_FILES = frozenset({errno.ENOSPC, errno.EFBIG})
"""The errors of a write past the temporary file system or file size a child is given."""

OffsetReader = Callable[[BaseException], "int | None"]
"""Returns where a refusal places the error (the byte or code point index), or None."""


class NotApplicable(Exception):
    """Raised by a codec's function: this request cannot be put to the codec, because `reason`.

    The outcome is `Inapplicable(reason)`, never a finding: e.g. a JSON or XML adapter asked to
    carry a character its format forbids.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Refusal(ValueError):
    """Raised by a codec's function: the input is refused, the error at `start` (None: unsaid).

    For adapters that work the offset out themselves (a wrapped payload, a C library's pointer).
    """

    def __init__(self, message: str, start: int | None = None) -> None:
        super().__init__(message)
        self.start = start


def start_of(error: BaseException) -> int | None:
    """Return the error's `start` attribute when it is an int (UnicodeError's), else None."""
    start = getattr(error, "start", None)
    return int.__int__(start) if isinstance(start, int) and not isinstance(start, bool) else None


def end_of(error: BaseException, offset: int | None) -> int | None:
    """Return the error's `end` when it is an int and the error's `start` is `offset` (so that
    the two count alike: an offset reader may count otherwise), else None."""
    end = getattr(error, "end", None)
    if offset is None or start_of(error) != offset:
        return None
    return int.__int__(end) if isinstance(end, int) and not isinstance(end, bool) else None


def describe_exception(error: BaseException) -> str:
    """Return 'TypeName: message' for an exception, even one whose message cannot be printed."""
    try:
        message = str.__str__(str(error))  # exact: a str subclass formats itself as it likes
    except Exception:  # a codec's own exception class may have a broken __str__
        message = "<message cannot be printed>"
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def refusal(error: BaseException, offset_of: OffsetReader = start_of) -> Refused:
    """Return the refusal an exception stands for: a `Refusal` at its own `start`, any other at
    the offset `offset_of` reads from it, else at its `start` (as UnicodeError has), else None."""
    if isinstance(error, Refusal):
        return Refused(str(error), error.start)
    try:
        offset = offset_of(error)
    except Exception:  # an offset reader tripping on an odd exception: the offset is unknown
        offset = None
    if not isinstance(offset, int) or isinstance(offset, bool):
        offset = start_of(error)
    offset = None if offset is None else int.__int__(offset)
    generic = type(error) is ValueError
    return Refused(describe_exception(error), offset, end_of(error, offset), generic=generic)


def crash(error: BaseException) -> Failed:
    """Return the failure an exception other than a refusal stands for: `memory` for a
    MemoryError, and for a file that outgrew the child's temporary file system or file size,
    which are sized by its memory limit (ENOSPC, EFBIG: docs/sandbox.md), else a crash
    (KeyboardInterrupt, SystemExit and GeneratorExit included).

    A KeyboardInterrupt that the user's Ctrl-C caused (interrupts.py) is raised again: it stops
    utf8cert, not the codec.
    """
    if isinstance(error, KeyboardInterrupt) and interrupts.came_from_user():
        raise error
    if isinstance(error, MemoryError) or (isinstance(error, OSError) and error.errno in FULL_FILES):
        return Failed("memory", describe_exception(error))
    return Failed("crash", describe_exception(error))


def wrong_type(function: str, result: object, expected: str) -> Failed:
    """Return the failure of `function` returning `result` instead of an `expected`."""
    try:
        shown = repr(result)
    except BaseException as error:  # a result of the codec's own class
        shown = f"<{crash(error).message} in its repr>"
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return Failed(
        "wrong-type", f"{function} returned {type(result).__name__} {shown}, not {expected}"
    )


def ord_or_value(item: str | int) -> int:
    """Return the code point of a character, or the value itself."""
    return item if isinstance(item, int) else ord(item)


def beyond_unicode(result: object) -> TypeGuard[tuple[int, ...]]:
    """Return whether a decoder's result is code points some of which are above U+10FFFF: the
    one way a Python decoder can say it read such a value (no str holds one)."""
    return (
        isinstance(result, tuple)
        and all(isinstance(value, int) and value >= 0 for value in result)
        and bool(result)
        and max(result) > LARGEST_CODE_POINT
    )


def exact(result: object) -> object:
    """Return a codec's result as a value of its exact built-in type: a subclass of str, bytes,
    bytearray, int or tuple is copied by the built-in type's own code, so that nothing it
    overrides (`__eq__`, `__len__`, `__hash__`, `__iter__`, `__bytes__`) can lie to the judge;
    any other object comes back as it is (and is then the wrong type)."""
    if type(result) in (str, bytes, bool, int):  # the common case: nothing to copy
        return result
    if isinstance(result, str):
        return str.__str__(result)
    if isinstance(result, bytes):
        return bytes.__getitem__(result, slice(None))
    if isinstance(result, bytearray):
        return bytes(bytearray.__getitem__(result, slice(None)))
    if isinstance(result, int) and not isinstance(result, bool):
        return int.__int__(result)
    if isinstance(result, tuple):
        return tuple(exact(value) for value in tuple.__iter__(result))
    return result


def decoded(function: str, result: object) -> Outcome:
    """Return the outcome of a decoder's result, of its exact type (`exact`): text, code points
    beyond Unicode, or else the wrong type."""
    result = exact(result)
    if isinstance(result, str) or beyond_unicode(result):
        return Returned(result)
    return wrong_type(function, result, "str")
