"""The reference walks each input once in a whole check: its reading is handed to every judge.

The reference's walk (`utf8cert.reference.decoder.pieces`, which `errors` also takes) is
counted over a whole `run_check` of every built-in vector, on every capability, and over
`check_one_input`. A vector is one input: its variants are its bytes between ASCII padding, read
off its walk, and every capability, chunking, judge and dialect profile reads that one walk. So
a byte string is walked at most as often as there are vectors with exactly those bytes (two
vectors may share their bytes: each is an expectation of its own), and an input never more than
once. Written against the public entry points only, so that it runs on a tree without
reading.py too (and fails there: the judges walk each variant, slice and window themselves).
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import suppress

import pytest

import utf8cert.reference.decoder as decoder
from utf8cert.harness.check.reuse import ONE_SHOT_PROBES, PROBES
from utf8cert.harness.check.run import check_one_input, run_check
from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.fuzzing.conformance import assert_conforms
from utf8cert.harness.fuzzing.screen import conforms
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import DecodeVector
from utf8cert.reference import ErrorKind

Walks = dict[bytes, list[str]]
"""Each byte string walked, and where from: 'module.py:line function' per walk."""


@pytest.fixture
def walks(monkeypatch: pytest.MonkeyPatch) -> Walks:
    """Return the walks of the reference made from now on in this test, by input."""
    seen: Walks = defaultdict(list)
    real = decoder.pieces

    def counted(data: bytes) -> Iterator[str | tuple[int, int, ErrorKind]]:
        caller = sys._getframe(1)
        if caller.f_code.co_name == "errors" and caller.f_back is not None:
            caller = caller.f_back  # decoder.errors walks for its caller
        where = caller.f_code.co_filename.rsplit("/", 1)[-1]
        seen[bytes(data)].append(f"{where}:{caller.f_lineno} {caller.f_code.co_name}")
        return real(data)

    # The walk is imported by name where it is used: every such name is counted too.
    for name, module in list(sys.modules.items()):
        if name.startswith("utf8cert.") and getattr(module, "pieces", None) is real:
            monkeypatch.setattr(module, "pieces", counted)
    monkeypatch.setattr(decoder, "pieces", counted)
    return seen


def over(walks: Walks, allowed: Callable[[bytes], int]) -> list[str]:
    """Return each input walked more often than `allowed`, with the call sites that walked it."""
    return [
        f"{data[:24].hex(' ')} ({len(data)} bytes) walked {len(sites)} times, "
        f"{allowed(data)} allowed: "
        + "; ".join(f"{site} x{count}" for site, count in Counter(sites).items())
        for data, sites in walks.items()
        if len(sites) > allowed(data)
    ]


@pytest.mark.parametrize("spec", ["codec:utf-8", "codec:utf-8:surrogatepass"])
@pytest.mark.slow
def test_a_whole_check_walks_each_vector_once_for_every_variant_and_capability(
    spec: str, walks: Walks
) -> None:
    # CPython's codec is conformant (every right answer is rejudged by the dialect profiles not
    # yet ruled out); with surrogatepass it has must differences, each rejudged by every
    # dialect profile and its error offset judged: every judge is asked.
    vectors = load_vectors()  # loading puts each vector to the reference: not the check's walks
    walks.clear()
    vector_bytes = Counter(v.data for v in vectors if isinstance(v, DecodeVector))
    # The reuse questions' inputs (check/reuse.py) are inputs of their own: each once more.
    probes = {b"".join(chunks) for chunks in PROBES} | set(ONE_SHOT_PROBES)
    report = run_check(load_codec(spec), vectors)
    assert report.checked["incremental"] == sum(vector_bytes.values())  # every decoding vector
    assert walks, "the check walks the vectors it judges"
    assert over(walks, lambda data: vector_bytes[data] + (data in probes)) == []


@pytest.mark.parametrize(
    "data",
    [b"A\xed\xa0\x80\xf4\x90\x80\x80\xe2\x82", b"\xef\xbb\xbf\xc0\xaf" * 3000, b""],
    ids=["value-only errors", "long, signed", "empty"],
)
def test_one_input_is_walked_once_for_every_capability_and_its_answers(
    data: bytes, walks: Walks
) -> None:
    # `--input HEX`: every capability, the encoder's code points read the RFC 2279 way, a long
    # input cut where the fuzzer cuts it, and each answer shown beside the expected one.
    report = check_one_input(load_codec("codec:utf-8:surrogatepass"), data)
    assert report.answers
    assert over(walks, lambda _: 1) == []


@pytest.mark.parametrize(
    "spec", ["codec:utf-8", "codec:utf-8:surrogatepass", "support.broken_codecs:LateErrorDecoder"]
)
def test_the_property_and_the_fuzzers_screen_walk_each_input_once(spec: str, walks: Walks) -> None:
    # The property asks the input and its parts with one kind of error each (kinds.py); the
    # screen asks every capability, an incremental decoder's calls judged for timeliness.
    codec = load_codec(spec)
    for data in (b"A\xed\xa0\x80\xc0\xaf\xf4\x90\x80\x80\xe2\x82", b"\xe2\x82\xacA\xe2"):
        with suppress(AssertionError):  # a difference: walked all the same
            assert_conforms(codec, data, fail_on="should")
        conforms(codec, data)
    assert over(walks, lambda _: 2) == []  # the property's walk, and the screen's
