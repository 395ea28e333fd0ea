"""The parent codecs of the mutation bench (bench/mutation/subject.py, dfa.py, swar.py) are
correct: each capability agrees with CPython's UTF-8 codec on every input of up to two bytes
(in the slow suite, every 2-byte input followed by each edge of a byte class, and every 4-byte
input built from those edges), on
every way to cut it in two for the incremental decoder, and on every code point to encode.

CPython's codec is the independent evidence here: it follows the same maximal-subpart practice
(one U+FFFD per maximal subpart, Unicode §3.9) and reports a strict error's start and end as
the subpart's, as every parent does.
"""

from __future__ import annotations

import codecs
import importlib
import itertools
import json
import random
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from support.tiers import tiered  # noqa: E402

from bench.mutants import probes  # noqa: E402
from bench.mutation.mutate import mutants  # noqa: E402
from bench.mutation.trial import Warm, judge  # noqa: E402

PARENTS = ("subject", "dfa", "swar", "lookup")
JUDGED = ("dfa", "swar")
"""The parents whose every mutant bench/mutants.py judged into results-NAME.json (the range
parent's, results.json, is tests/bench/test_mutation.py's)."""
EDGES = bytes.fromhex("00 41 7F 80 8F 90 9F A0 BF C0 C1 C2 DF E0 E1 EC ED EE EF F0 F1 F3 F4 F5 FF")
"""Both ends of every byte class of Table 3-7, and an ASCII letter."""


def parent(name: str) -> Any:
    return importlib.import_module(f"bench.mutation.{name}").Subject()


def strict(decode: Any, data: bytes) -> tuple[str, object]:
    """Return ("text", text) or ("error", (start, end)) of one strict decode."""
    try:
        return "text", decode(data)
    except UnicodeDecodeError as error:
        return "error", (error.start, error.end)


def fed(decoder: Any, data: bytes, cut: int) -> tuple[str, object]:
    """Return what a strict incremental decoder makes of `data` cut in two at `cut`: the text,
    or that it raised (its offsets count from bytes held back, so only the fact is compared)."""
    try:
        return "text", decoder.decode(data[:cut]) + decoder.decode(data[cut:], final=True)
    except UnicodeDecodeError:
        return "error", None


def disagreements(codec: Any, inputs: Iterable[bytes], cuts: bool) -> list[str]:
    """Return each input on which `codec` and CPython differ, with the capability."""
    found = []
    cpython = codecs.getincrementaldecoder("utf-8")
    for data in inputs:
        expected = strict(bytes.decode, data)
        if strict(codec.decode, data) != expected:
            found.append(f"decode {data.hex()}")
        if codec.decode_replace(data) != data.decode("utf-8", "replace"):
            found.append(f"decode_replace {data.hex()}")
        if codec.validate(data) is not (expected[0] == "text"):
            found.append(f"validate {data.hex()}")
        for cut in range(len(data) + 1) if cuts else ():
            if fed(codec.incremental_decoder(), data, cut) != fed(cpython(), data, cut):
                found.append(f"incremental {data.hex()} cut at {cut}")
    return found


def up_to(length: int) -> Iterable[bytes]:
    for size in range(length + 1):
        yield from map(bytes, itertools.product(range(256), repeat=size))


@pytest.mark.parametrize("name", PARENTS)
@pytest.mark.slow
def test_every_input_of_up_to_two_bytes_decodes_as_cpythons(name: str) -> None:
    assert disagreements(parent(name), up_to(2), cuts=True) == []


@pytest.mark.parametrize("name", PARENTS)
def test_the_edges_of_the_classes_encode_as_cpythons(name: str) -> None:
    codec = parent(name)
    for value in (0, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x10FFFF):
        text = "a" + chr(value) + "\x7f"
        assert codec.encode(text) == text.encode("utf-8"), hex(value)
    for text in ("\ud800", "a\udfff", "a\udc00\ud800b", "\ud83d\ude00"):
        with pytest.raises(UnicodeEncodeError) as ours:
            codec.encode(text)
        with pytest.raises(UnicodeEncodeError) as theirs:
            text.encode("utf-8")
        assert (ours.value.start, ours.value.end) == (theirs.value.start, theirs.value.end)


@pytest.mark.exhaustive
@pytest.mark.parametrize("name", PARENTS)
def test_every_three_byte_input_and_every_four_byte_edge_decodes_as_cpythons(name: str) -> None:
    codec = parent(name)
    # Every 2-byte string (so every state the automaton reaches in two bytes) followed by each
    # class edge: 1.6 million inputs a parent rather than 16.8, to keep CI within 20 minutes.
    three = map(bytes, itertools.product(range(256), range(256), EDGES))
    assert disagreements(codec, three, cuts=False) == []
    four = map(bytes, itertools.product(EDGES, repeat=4))
    assert disagreements(codec, four, cuts=True) == []


@pytest.mark.exhaustive
@pytest.mark.parametrize("name", PARENTS)
def test_every_scalar_value_encodes_as_cpythons(name: str) -> None:
    codec = parent(name)
    for value in itertools.chain(range(0xD800), range(0xE000, 0x110000)):
        assert codec.encode(chr(value)) == chr(value).encode("utf-8"), hex(value)


def recorded(name: str) -> list[dict[str, Any]]:
    """Return the verdicts `bench/mutants.py --parent NAME --json ...` recorded."""
    path = ROOT / "bench" / "mutation" / f"results-{name}.json"
    records: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return records


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=[pytest.mark.slow] if n != JUDGED[0] else []) for n in JUDGED]
)
@pytest.mark.slow
def test_the_recorded_results_are_of_todays_parent(name: str) -> None:
    """The mutants of `name` today are those its results file records (8-12 CPU-s a parent:
    every mutant's text is made to drop those equal to the original); the first judged parent
    in the default tier, the other slow, the range parent's in tests/bench/test_mutation.py."""
    found = mutants((ROOT / "bench" / "mutation" / f"{name}.py").read_text())
    assert [(m.id, m.line, m.description) for m in found] == [
        (r["id"], r["line"], r["description"]) for r in recorded(name)
    ], f"bench/mutation/{name}.py changed: rerun python bench/mutants.py --parent {name} ..."


def kill_sample(name: str) -> list[dict[str, Any]]:
    """Return five table or code mutants of `name` killed at must (drawn with a fixed seed, not
    those killed by the time limit), then every one killed at should or may."""
    records = recorded(name)
    must = [r for r in records if r["level"] == "must" and not r["how"].startswith("timeout")]
    drawn = random.Random(30).sample(must, min(5, len(must)))
    return drawn + [r for r in records if r["level"] in ("should", "may")]


KILLS = [(name, record) for name in JUDGED for record in kill_sample(name)]


@pytest.mark.parametrize(
    "kill",
    tiered(KILLS, [f"{n}-{r['id']}" for n, r in KILLS], [(n, r["level"]) for n, r in KILLS]),
)
def test_a_recorded_kill_is_still_killed_at_its_level(
    kill: tuple[str, dict[str, Any]], tmp_path: Path
) -> None:
    """Each mutant of the sample, judged again by the whole check, is killed at the level its
    record says: the score cannot fall unnoticed when vectors or judgements change."""
    name, record = kill
    found = {m.id: m for m in mutants((ROOT / "bench" / "mutation" / f"{name}.py").read_text())}
    verdict = judge(found[record["id"]], tmp_path, 300.0)
    assert verdict.level == record["level"], f"{record['description']}: {verdict.how}"


@pytest.mark.slow
def test_the_cheap_run_gives_the_whole_checks_verdicts(tmp_path: Path) -> None:
    """`bench/mutants.py --probes-first --warm` (docs/mutation.md, "A run made cheap"): a kill
    at must, a kill at should and a survivor of dfa.py get the verdict the whole check gives
    them in a fresh interpreter."""
    records = recorded("dfa")
    chosen = [
        next(r for r in records if r["level"] == "must" and "timeout" not in r["how"]),
        next(r for r in records if r["level"] == "should"),
        next(r for r in records if r["level"] in ("survived", "equivalent")),
    ]
    found = {m.id: m for m in mutants((ROOT / "bench" / "mutation" / "dfa.py").read_text())}
    warm = Warm()
    try:
        for record in chosen:
            mutant = found[record["id"]]
            cheap = judge(mutant, tmp_path, 300.0, probes(), warm)
            assert cheap.level == judge(mutant, tmp_path, 300.0).level, record["id"]
    finally:
        warm.close()
