"""Latin-1 decoders that attack a fuzz campaign's judge from the process they are loaded in
(issue 39: in-process, one ran 1,043,113 executions to "0 finding(s)", exit 0).

`PatchesJudge` replaces, at import, every function of utf8cert that decides whether an input is
a finding (the differential target's judgement, the screen, the probe) with one that finds
nothing, wherever they are reachable from this process. `ForgesAnswers` does the same, and also
replaces the recorder's answers (what the codec's process sends the judge) with the
reference's: the judge then sees a conformant codec, unless it asks the codec again itself.

Each decodes every byte as its Latin-1 character: wrong on every input with a byte above 7F.
Never import this module in a test's own process: it patches utf8cert there.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from support.plain_latin1 import Latin1


def _nothing(*args: object, **kwargs: object) -> None:
    return None


def _conforms(*args: object, **kwargs: object) -> bool:
    return True


def _no_differences(*args: object, **kwargs: object) -> list[object]:
    return []


def _patch_judge() -> None:
    """Make every judge function utf8cert has in this process find nothing."""
    from utf8cert.harness.check import probe
    from utf8cert.harness.fuzzing import differential, screen

    differential.DifferentialTarget.judge = _nothing  # type: ignore[method-assign]
    differential.DifferentialTarget.found = _no_differences  # type: ignore[method-assign,assignment]
    screen.conforms = _conforms
    probe.probe = _no_differences  # type: ignore[assignment]
    differential.conforms = _conforms  # type: ignore[attr-defined]
    differential.probe = _no_differences  # type: ignore[attr-defined,assignment]
    for name in ("utf8cert.harness.fuzzing.judge",):
        module = sys.modules.get(name)
        if module is not None:  # loaded here: in the judge's own process
            module.DifferentialTarget.judge = _nothing


def _forge_answers() -> None:
    """Make the recorder send the answers of a correct codec (CPython's) instead of ours."""
    from utf8cert.harness.codec.python_codec import PythonCodec
    from utf8cert.harness.fuzzing import recorder
    from utf8cert.harness.world.spec import load_codec

    honest = load_codec("codec:utf-8")
    assert isinstance(honest, PythonCodec)
    original = recorder.answers_of

    def forged(codec: Any, asked: Sequence[Any], data: bytes, *rest: Any) -> Any:
        return original(honest, asked, data, *rest)

    recorder.answers_of = forged  # type: ignore[assignment]


class PatchesJudge(Latin1):
    """Latin-1, with every judge function in its process patched at import to find nothing."""


class ForgesAnswers(Latin1):
    """Latin-1, with the judge patched and, once loaded, the answers sent to the judge forged."""

    def __init__(self) -> None:
        _forge_answers()


_patch_judge()


class GarblesChannel(Latin1):
    """Latin-1, that writes a forged frame header and then garbage into the judge's pipe once
    loaded (in the codec's process, where the pipe is open)."""

    def __init__(self) -> None:
        import os

        channel = os.environ.get("UTF8CERT_FUZZ_CHANNEL", "")
        if channel.isdigit():
            os.write(int(channel), b"U8FJ" + (1 << 30).to_bytes(4, "little") + b"\0" * 4)
