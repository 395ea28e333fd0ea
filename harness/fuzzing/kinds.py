"""An ill-formed input taken apart: its text alone, and one input per kind of error it holds.

A validator that misses one kind of error (F4 90 80 80 passed as well-formed) is right about
any input that also holds an error of another kind: the input is ill-formed either way; and a
decoder that mangles well-formed text (composes a combining mark) hides it behind the refusal of
any error. So the property (`assert_conforms`) also asks about the input with no error kept and
with the errors of each kind alone kept, every other one replaced by U+FFFD's UTF-8 (EF BF BD,
well-formed, so no new error appears).
"""

from __future__ import annotations

from collections.abc import Iterable

from utf8cert.harness.check.decided import Walked
from utf8cert.harness.check.probe import VALUE_ONLY, legacy_reading
from utf8cert.harness.check.reading import Reading
from utf8cert.reference import ErrorKind

REPLACEMENT_BYTES = "\ufffd".encode()


def error_spans(
    data: bytes, walked: Iterable[Walked] | None = None
) -> list[tuple[int, int, ErrorKind]]:
    """Return (start, end, kind) of each ill-formed unit of `data`, in order ([] for
    well-formed input): each maximal subpart, except that a sequence ill-formed only for its
    value (ED A0 80, F4 90 80 80) is one unit, its RFC 2279 reading, tails included. `walked`
    is the reference's walk of `data` (an Expected's `reading.pieces`), when already made."""
    spans: list[tuple[int, int, ErrorKind]] = []
    covered = 0
    for piece in Reading(data).pieces if walked is None else walked:
        if isinstance(piece, str):
            continue
        offset, length, kind = piece
        if offset < covered:
            continue  # a tail of the value-only sequence just spanned
        end = offset + length
        reading = legacy_reading(data, offset) if kind in VALUE_ONLY else None
        if reading is not None:
            end = reading[1]
        spans.append((offset, end, kind))
        covered = end
    return spans


def one_kind_each(data: bytes, walked: Iterable[Walked] | None = None) -> list[bytes]:
    """Return, for ill-formed `data`, `data` with every error replaced by EF BF BD (well-formed:
    a decoder wrong on its text is caught even if it is strict), and when it holds errors of two
    kinds or more, for each kind `data` with only that kind's units kept and every other unit
    replaced; [] for well-formed input. `walked`: as for `error_spans`."""
    spans = error_spans(data, walked)
    kinds = sorted({kind for _, _, kind in spans}, key=list(ErrorKind).index)
    if not kinds:
        return []
    inputs = []
    for kept in [None, *kinds] if len(kinds) > 1 else [None]:
        parts, position = [], 0
        for start, end, kind in spans:
            parts += [data[position:start], data[start:end] if kind is kept else REPLACEMENT_BYTES]
            position = end
        inputs.append(b"".join([*parts, data[position:]]))
    return inputs
