"""The default depth spreads the variants over the vectors and loses nothing the broken codecs
are caught with at full depth; the full depth is the whole cross product."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from functools import cache

import pytest

from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.recheck import SOAK
from utf8cert.harness.check.run import run_check
from utf8cert.harness.check.schedule import (
    ALIGNMENT,
    BUDGET,
    EVERY_CUT,
    PROBE,
    PROBE_PLAN,
    SPREAD_LAYOUTS,
    WINDOW,
    first_non_ascii,
    schedule,
    traits,
    workload,
)
from utf8cert.harness.check.variants import FULL, decode_variants, layouts
from utf8cert.harness.codec.interface import CAPABILITIES, Capability, Outcome
from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import DecodeVector, EncodeVector, Vector, VectorSet

BROKEN = [
    ("support.broken_codecs:AlignedFastPath", ("decode", "replace", "validate")),
    ("support.broken_codecs:Block64Decoder", ("decode",)),
    ("support.broken_codecs:BomStripper", ("decode",)),
    ("support.broken_codecs:BytesReturningDecoder", ("decode",)),
    ("support.broken_codecs:Cesu8Decoder", ("decode",)),
    ("support.broken_codecs:ChunkBoundaryDecoder", ("incremental",)),
    ("support.broken_codecs:CrashingDecoder", ("decode",)),
    ("support.broken_codecs:LaxRangeValidator", ("validate",)),
    ("support.broken_codecs:NaiveBitDecoder", ("decode",)),
    ("support.broken_codecs:NormalizingDecoder", ("decode",)),
    ("support.broken_codecs:OneFffdPerBadRun", ("replace",)),
    ("support.broken_codecs:OneFffdPerByte", ("replace",)),
    ("support.broken_codecs:Page4096Decoder", ("decode", "replace")),
    ("support.broken_codecs:SurrogateWritingEncoder", ("encode",)),
    ("support.broken_codecs:TruncatedTailDropper", ("decode", "replace")),
    ("support.fuzz_codecs:AlignedAsciiFastPath", ("decode",)),
    ("support.fuzz_codecs:BlockBufferedDecoder", ("decode",)),
    ("support.fuzz_codecs:ForgetfulIncremental", ("incremental",)),
    ("support.fuzz_codecs:LongInputValidator", ("decode",)),
]
"""Every broken codec of the test suite that runs in process, on the capabilities its defect
is in (the hanging and the dying ones are caught the same at any depth: on their first
ill-formed input)."""


@cache
def vectors() -> VectorSet:
    return load_vectors()


def spread(vector: DecodeVector | EncodeVector) -> bool:
    """Return whether the schedule spreads variants over `vector` (neither a probe of the
    automaton nor a window vector, which run as they are)."""
    return PROBE not in vector.flags and WINDOW not in vector.flags


def decoding() -> list[DecodeVector]:
    """Return the decoding vectors the schedule spreads variants over (all but the probes and
    the window vectors)."""
    return [v for v in vectors() if isinstance(v, DecodeVector) and v.data and spread(v)]


def encoding() -> list[EncodeVector]:
    return [v for v in vectors() if isinstance(v, EncodeVector) and v.scalars and spread(v)]


def caught(differences: Iterable[Difference]) -> set[tuple[str, str, str]]:
    return {(d.capability, d.level, d.what) for d in differences}


# Each item is a check at full depth (the whole cross product: 10 times the default's bytes), up to
# 3 CPU minutes for an incremental codec: the exhaustive tier (.ci/exhaustive, weekly), not every
# change's CI; a change to the schedule or the variants runs it (docs/versions.md, "Test tiers").
@pytest.mark.exhaustive
@pytest.mark.parametrize(("spec", "capabilities"), BROKEN)
def test_each_broken_codec_shows_every_kind_of_difference_at_the_default_depth(
    spec: str, capabilities: tuple[Capability, ...]
) -> None:
    codec = load_codec(spec)
    # The automaton's probes run as they are at the default depth, by design (schedule.py): each
    # reads one table entry, which no shift moves. Moved about at full depth, a probe can meet a
    # fast-path bug in a new place (AlignedFastPath: `E1 00` at offset 7 refused at 9); the
    # claim here is of the spread vectors, whose every kind the default depth must keep.
    spread = VectorSet(
        tuple(
            dataclasses.replace(file, vectors=tuple(v for v in file.vectors if spread(v)))
            for file in vectors().files
        )
    )
    full = run_check(codec, spread, only=capabilities, depth="full")
    default = run_check(codec, spread, only=capabilities)
    assert full.differences, "a broken codec passes: the proof proves nothing"
    assert caught(default.differences) == caught(full.differences)
    # By key and level: a crash's answer also counts the questions skipped after it, more at
    # full depth.
    assert {(d.key, d.level) for d in default.differences} <= {
        (d.key, d.level) for d in full.differences
    }


def test_every_vector_runs_as_is_mid_stream_and_byte_by_byte() -> None:
    plans = schedule(vectors())
    for vector in decoding():
        variants = {v.name: v for v in decode_variants(vector, plans.plan(vector))}
        assert {"as-is", "mid-stream"} <= set(variants), vector.id
        assert variants["as-is"].bytewise and variants["mid-stream"].bytewise


def test_every_probe_runs_as_is_whole_and_byte_by_byte_on_every_capability() -> None:
    """vectors/automaton.yaml: one automaton entry a vector, read as it is (whole and with a chunk
    boundary before each byte); tests/vectors/test_automaton_coverage.py holds the entries."""
    plans = schedule(vectors())
    probes = [v for v in vectors() if PROBE in v.flags]
    assert len(probes) > 200
    for vector in probes:
        assert isinstance(vector, DecodeVector) and plans.plan(vector) == PROBE_PLAN
        variants = list(decode_variants(vector, plans.plan(vector)))
        assert [(v.name, v.bytewise, v.cuts) for v in variants] == [("as-is", True, ())]
    full = schedule(vectors(), "full")
    assert all(full.plan(v) == FULL for v in probes)


@pytest.mark.parametrize(
    ("group", "items"),
    [(decoding, (*SPREAD_LAYOUTS, EVERY_CUT)), (encoding, SPREAD_LAYOUTS)],
    ids=["decoding", "encoding"],
)
def test_every_flag_meets_every_spread_variant_and_chunking_on_good_and_bad_input(
    group: Sequence[Vector], items: Sequence[str]
) -> None:
    plans = schedule(vectors())
    everything = set().union(*map(traits, group()))  # type: ignore[operator]
    assert len({flag for flag, _ in everything}) > 10
    for item in items:
        given = [
            vector
            for vector in group()  # type: ignore[operator]
            if item in (plans.plan(vector).layouts or ())
            or (item == EVERY_CUT and plans.plan(vector).every_cut)
        ]
        assert set().union(*map(traits, given)) == everything, item
        assert len(given) < len(group()) / 2, item  # type: ignore[operator]


def test_every_flag_has_its_first_non_ascii_byte_at_every_offset_modulo_16() -> None:
    plans = schedule(vectors())
    for group in (decoding(), encoding()):
        met = set()
        for vector in group:
            layouts = plans.plan(vector).layouts or ()
            for shift in [0] + [int(n[6:]) for n in layouts if n.startswith("shift-")]:
                residue = (first_non_ascii(vector) + shift) % ALIGNMENT
                met |= {(trait, residue) for trait in traits(vector)}
        for trait in set().union(*map(traits, group)):
            assert {residue for t, residue in met if t == trait} == set(range(ALIGNMENT)), trait


def test_the_full_depth_gives_every_vector_every_variant() -> None:
    plans = schedule(vectors(), "full")
    for vector in decoding():
        assert plans.plan(vector) == FULL
        names = [variant.name for variant in decode_variants(vector, plans.plan(vector))]
        assert names == [layout.name for layout in layouts(len(vector.data))]


def test_the_schedule_is_the_same_every_time() -> None:
    assert schedule(vectors()).plans == schedule(load_vectors()).plans


class Counting:
    """A correct codec with every capability, counting the calls, bytes and code points fed."""

    def __init__(self) -> None:
        self.inner = load_codec("support.hand_rolled:HandRolled")
        self.spec, self.description = "counting", "HandRolled, counting"
        self.capabilities = self.inner.capabilities
        self.calls = self.bytes = self.code_points = 0

    def fed(self, size: int = 0, points: int = 0) -> None:
        self.calls, self.bytes, self.code_points = (
            self.calls + 1,
            self.bytes + size,
            self.code_points + points,
        )

    def decode(self, data: bytes) -> Outcome:
        self.fed(len(data))
        return self.inner.decode(data)

    def decode_replace(self, data: bytes) -> Outcome:
        self.fed(len(data))
        return self.inner.decode_replace(data)

    def validate(self, data: bytes) -> Outcome:
        self.fed(len(data))
        return self.inner.validate(data)

    def encode(self, scalars: Sequence[int]) -> Outcome:
        self.fed(points=len(scalars))
        return self.inner.encode(scalars)

    def decode_chunks(self, chunks: Sequence[bytes], final_empty: bool) -> Outcome:
        self.fed(sum(map(len, chunks)))
        return self.inner.decode_chunks(chunks, final_empty)

    def close(self) -> None:
        self.inner.close()


def test_a_check_feeds_the_codec_what_the_workload_says_within_the_budget() -> None:
    counting = Counting()
    assert tuple(c for c in CAPABILITIES if c in counting.capabilities) == CAPABILITIES
    run_check(counting, vectors())
    default = workload(vectors(), "default", CAPABILITIES)
    full = workload(vectors(), "full", CAPABILITIES)
    assert (counting.calls, counting.bytes, counting.code_points) == (
        default.calls,
        default.bytes,
        default.code_points,
    )
    assert default.bytes <= BUDGET
    asked_once = default.calls - default.again
    assert default.bytes * 10 < full.bytes and asked_once * 3 < full.calls - full.again
    # Every capability is asked again until the run has asked it recheck.SOAK times.
    assert default.calls >= SOAK * len(CAPABILITIES) > asked_once
