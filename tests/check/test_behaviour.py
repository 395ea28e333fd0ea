"""Differences grouped by behaviour: each deliberately broken codec
(tests/support/broken_codecs.py) is
one group per bug it has, and the group's first example is its simplest vector."""

from __future__ import annotations

from functools import cache

import pytest
from support.broken_codecs import OneFffdPerByte, SurrogateWritingEncoder, TruncatedTailDropper
from support.samples import few_of_each_kind

from utf8cert.harness.check.behaviour import (
    LET_THROUGH,
    POSITION,
    Behaviour,
    Group,
    behaviour_of,
    group,
)
from utf8cert.harness.check.compare import compare_decode, compare_replace
from utf8cert.harness.check.expected import expectation_for
from utf8cert.harness.check.run import only_these, run_check, vector_index
from utf8cert.harness.codec.interface import FAILURE_WHAT, Failed, FailureKind
from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import VectorSet


class TwoBugs(OneFffdPerByte, SurrogateWritingEncoder):
    """One U+FFFD per byte of a truncated sequence, and an encoder that writes surrogates."""


class ThreeBugs(TruncatedTailDropper, SurrogateWritingEncoder):
    """Drops a truncated tail, writes surrogates; and crashes on validation of ill-formed input."""

    def validate(self, data: bytes) -> bool:
        if not super().validate(data):
            raise KeyError("no table entry")
        return True


CHOSEN = (*few_of_each_kind(), "sur-19", "sur-20")
"""The vectors the codecs are checked on: a few of each kind (a behaviour is grouped the same
whatever else is checked), and the two that show issue 42's bug only when moved."""


@cache
def vectors(whole: bool = False) -> VectorSet:
    """Return the built-in vectors: CHOSEN, or every one for `whole`."""
    return load_vectors() if whole else only_these(load_vectors(), CHOSEN)


@cache
def groups(spec: str, whole: bool = False) -> list[Group]:
    codec = load_codec(spec if ":" in spec else f"support.broken_codecs:{spec}")
    try:
        return group(run_check(codec, vectors(whole)).differences, vector_index(vectors(whole)))
    finally:
        codec.close()


def behaviours(spec: str) -> list[str]:
    return [str(each.behaviour) for each in groups(spec)]


@pytest.mark.parametrize(
    ("name", "behaviour"),
    [
        ("SurrogateWritingEncoder", "encode: encoded a surrogate"),
        ("LaxRangeValidator", f"decode: {LET_THROUGH} (out-of-range)"),
        ("OneFffdPerByte", "decode: wrong U+FFFD count"),
        ("OneFffdPerBadRun", "decode: wrong U+FFFD count"),
        ("CrashingDecoder", "decode: crashed (TypeError)"),
        ("BytesReturningDecoder", "decode: returned the wrong type"),
        ("ChunkBoundaryDecoder", f"decode: {POSITION} (cut into chunks)"),
        ("Page4096Decoder", f"decode: {POSITION} (across a boundary, cut into chunks)"),
    ],
)
def test_a_codec_with_one_bug_shows_one_behaviour(name: str, behaviour: str) -> None:
    assert behaviours(name) == [behaviour]


def test_a_codec_with_two_bugs_shows_two_behaviours() -> None:
    assert sorted(behaviours(f"{__name__}:TwoBugs")) == [
        "decode: wrong U+FFFD count",
        "encode: encoded a surrogate",
    ]


def test_a_codec_with_three_bugs_shows_each_and_the_must_ones_first() -> None:
    found = behaviours(f"{__name__}:ThreeBugs")
    assert set(found) >= {
        f"decode: {LET_THROUGH} (incomplete)",
        "decode: crashed (KeyError)",
        "encode: encoded a surrogate",
    }
    levels = [each.level for each in groups(f"{__name__}:ThreeBugs")]
    assert levels == sorted(levels, key=["must", "should", "may"].index)


def test_cpython_surrogatepass_is_one_decoding_and_one_encoding_behaviour() -> None:
    # CPython documents surrogatepass as letting D800..DFFF through in both directions.
    found = groups("codec:utf-8:surrogatepass")
    # In the order of the vectors each shows on (either may have more).
    assert sorted(str(each.behaviour) for each in found) == [
        f"decode: {LET_THROUGH} (surrogate)",
        "encode: encoded a surrogate",
    ]
    decoding = next(each for each in found if each.behaviour.direction == "decode")
    # Every vector in the group has a surrogate (ED A0..BF) in its bytes, and every vector of
    # the suite flagged `surrogate` that CPython's strict codec refuses is in the group.
    assert all("surrogate" in each.flags for each in vectors() if each.id in decoding.vectors)


def test_the_simplest_example_comes_first_as_is_and_short() -> None:
    overlong = groups("NaiveBitDecoder")[0]
    assert overlong.behaviour == Behaviour("decode", LET_THROUGH, "overlong")
    example = overlong.example
    assert example.variant == "as-is"
    shortest = min(len(d.input) for d in overlong.differences if d.variant == "as-is")
    assert len(example.input) == shortest == 2  # C0 80 or C0 AF: the plain two-byte overlong


def test_a_naive_decoder_lets_overlongs_and_surrogates_through_as_two_behaviours() -> None:
    found = {each.behaviour for each in groups("NaiveBitDecoder")}
    assert Behaviour("decode", LET_THROUGH, "overlong") in found
    assert Behaviour("decode", LET_THROUGH, "surrogate") in found


def test_refusing_after_the_ill_formed_bytes_is_letting_them_through() -> None:
    codec = load_codec("support.broken_codecs:NaiveBitDecoder")
    # C0 AF then a lone continuation: the naive decoder reads C0 AF as '/' and refuses at 2.
    (difference,) = compare_decode(codec, expectation_for(b"\xc0\xaf\x80"), ("input", "as-is"))
    # Named and levelled by the graver of its two departures (issue 33): the overlong let
    # through, not the offset.
    assert (difference.level, difference.what) == (
        "must",
        "let ill-formed input through, then refused",
    )
    assert behaviour_of(difference) == Behaviour("decode", LET_THROUGH, "overlong")


@pytest.mark.parametrize(
    ("spec", "hex_input", "marks", "kind"),
    [
        # Takes ED A0 for the start of a surrogate: one U+FFFD for ED A0 61 where the reference
        # writes two (where the answers first part, at A0: a lone continuation byte with no
        # value to give), then U+DFFF for ED BF BF, the surrogate let through.
        ("two_bug_codecs:SurrogatesAndOverlongs", "ED A0 61 ED BF BF", [(3, 6)], "surrogate"),
        # Reads C0 80 as U+0000 before a U+0000: the texts without U+FFFD part only after that
        # U+0000, at ED 80 (cut short); the character is the overlong's.
        ("fuzz_codecs:TwoByteOverlongs", "61 C0 80 00 ED 80 32", [(1, 2), (2, 3)], "overlong"),
    ],
)
def test_characters_written_for_ill_formed_bytes_are_named_by_the_bytes_they_stand_for(
    spec: str, hex_input: str, marks: list[tuple[int, int]], kind: str
) -> None:
    data = bytes.fromhex(hex_input)
    codec = load_codec(f"support.{spec}")
    (difference,) = compare_replace(codec, expectation_for(data), ("input", "as-is"))
    assert difference.what == "decoded ill-formed bytes as characters"
    assert (difference.marks[0][0], difference.marks[-1][1]) == (marks[0][0], marks[-1][1])
    assert behaviour_of(difference) == Behaviour("decode", LET_THROUGH, kind)


def test_a_behaviour_has_a_stable_id() -> None:
    assert Behaviour("decode", LET_THROUGH, "out-of-range").id == (
        "decode/let-ill-formed-input-through/out-of-range"
    )


def test_no_differences_make_no_groups() -> None:
    assert group([]) == []


class FailsAs:
    """A codec whose every decoding call fails with one kind of failure."""

    def __init__(self, kind: FailureKind) -> None:
        self.kind = kind

    def decode(self, data: bytes) -> Failed:
        return Failed(self.kind, f"{self.kind} on {data.hex()}")


@pytest.mark.parametrize("kind", sorted(FAILURE_WHAT))
def test_every_kind_of_failure_is_its_own_behaviour_wherever_it_is_seen(kind: FailureKind) -> None:
    # A protocol breach or running out of memory seen only once the vector is moved is still
    # that failure, not "goes wrong only when the input is moved or cut".
    moved = compare_decode(FailsAs(kind), expectation_for(b"a\xe2\x82\xac"), ("v", "shift-3"))  # type: ignore[arg-type]
    (only,) = group(moved)
    assert only.behaviour.what == FAILURE_WHAT[kind]


# On every vector: the fold into the surrogate bug needs the vectors that show it as is. Placed
# refusals or plain ValueErrors group the same way; the second is slow.
@pytest.mark.parametrize(
    "name", ["Utf8BuggyPlaced", pytest.param("Utf8Buggy", marks=pytest.mark.slow)]
)
def test_a_bug_hidden_at_the_end_of_input_is_one_root_cause_with_where_it_shows_moved(
    name: str,
) -> None:
    """Issue 42: ED A0..BF taken for a lead pair, and the last continuation byte of three never
    checked. As is, ED A0 (sur-19) is cut short and refused; moved mid-stream, it takes the next
    byte and decodes as a surrogate. That is the surrogate bug, not a chunking bug: two bugs,
    two root causes, sur-19 and sur-20 under the surrogate one as seen only when moved; whether
    its refusals are placed or plain ValueErrors (those are a `may` of their own)."""
    found = {
        str(each.behaviour): each
        for each in groups(f"support.user_codecs:{name}", whole=True)
        if each.level == "must"
    }
    assert sorted(found) == [
        f"decode: {LET_THROUGH} (incomplete)",
        f"decode: {LET_THROUGH} (surrogate)",
    ]
    surrogate = found[f"decode: {LET_THROUGH} (surrogate)"]
    assert {"sur-19", "sur-20"} <= set(surrogate.moved) <= set(surrogate.vectors)
    assert surrogate.example.variant == "as-is"


def test_the_vectors_seen_only_when_moved_go_with_the_bug_whose_fix_clears_them() -> None:
    """The evidence for the grouping above: with the surrogate bug fixed, sur-19 and sur-20
    differ nowhere, in no variant."""
    fixed = groups("support.user_codecs:Utf8TailBugPlaced")
    differing = {vector for each in fixed for vector in each.vectors}
    assert differing and not differing & {"sur-19", "sur-20"}


def test_a_bug_seen_only_when_moved_and_never_as_is_stays_a_position_bug() -> None:
    """The fold never hides a fast path's bug: not every one of Block64Decoder's differences
    seen only once moved shows a behaviour seen as is, so they all stay one POSITION group."""
    found = groups("Block64Decoder")
    assert [each.behaviour.what for each in found].count(POSITION) == 1
    assert not any(each.moved for each in found)
