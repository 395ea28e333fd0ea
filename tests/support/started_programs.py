"""The shipped programs (harness/world/programs/) started once per test module, and what their
tests ask of them: the differences utf8cert finds on one input (tests/codec/test_*programs*.py,
test_c_libraries.py, test_c_icu_and_parsers.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from utf8cert.harness.check.compare import compare, compare_encode
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.expected import encoding_for, expectation_for
from utf8cert.harness.codec.interface import Capability, Codec, Refused
from utf8cert.harness.world.programs import PROGRAMS
from utf8cert.harness.world.spec import load_codec

SURROGATE = b"\xed\xa0\x80"  # U+D800 in the form RFC 3629 §3 forbids; three maximal subparts
BEYOND = b"\xf4\x90\x80\x80"  # RFC 3629 §4: after F4 only 80..8F; four maximal subparts


class Started:
    """The programs started so far in a module, each once (skipped with the reason when its
    library is missing here)."""

    def __init__(self) -> None:
        self.codecs: dict[str, Codec] = {}

    def __call__(self, name: str) -> Codec:
        if name not in self.codecs:
            reason = PROGRAMS[name].unavailable()
            if reason is not None:
                pytest.skip(f"{name}: {reason}")
            self.codecs[name] = load_codec(f"adapter:{name}")
        return self.codecs[name]


def started() -> Iterator[Started]:
    """Yield a Started, then stop every program it started (the body of a module fixture)."""
    programs = Started()
    yield programs
    for codec in programs.codecs.values():
        codec.close()


def kinds(differences: list[Difference]) -> set[tuple[str, str, str]]:
    """Return the (capability, level, what) of each difference."""
    return {(d.capability, d.level, d.what) for d in differences}


def check(codec: Codec, capability: Capability, data: bytes) -> set[tuple[str, str, str]]:
    """Return the (capability, level, what) of each difference on `data`."""
    differences = compare(codec, capability, expectation_for(data))
    return {(d.capability, d.level, d.what) for d in differences}


def check_encode(codec: Codec, *values: int) -> set[tuple[str, str, str]]:
    """Return the (capability, level, what) of each difference on encoding `values`."""
    differences = compare_encode(codec, encoding_for(values), ("input", "as-is"))
    return {(d.capability, d.level, d.what) for d in differences}


def refused_at(outcome: object, offset: int | None, text: str = "") -> bool:
    """Return whether `outcome` is a refusal at `offset` whose message holds `text`."""
    return isinstance(outcome, Refused) and outcome.offset == offset and text in outcome.message
