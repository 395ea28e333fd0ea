"""The dictionary (corpus/utf8.dict) and the seed corpus (corpus/seeds, `utf8cert corpus build`).

Every dictionary entry says by its name what it is; CPython's codec checks the verdict and the
reference names the kind of error.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from utf8cert.harness.fuzzing.corpus import build_corpus, named_seeds, seed_inputs, straddling_seeds
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import DecodeVector, EncodeVector, VectorSet
from utf8cert.reference import ErrorKind, decode_legacy, errors

ROOT = Path(__file__).resolve().parents[2]
DICTIONARY = ROOT / "corpus" / "utf8.dict"
SEEDS = ROOT / "corpus" / "seeds"
ENTRY = re.compile(r'^([a-z0-9_]+)="((?:[^"\\]|\\x[0-9a-f]{2}|\\\\|\\")*)"$')


def dictionary() -> dict[str, bytes]:
    """Return the entries of corpus/utf8.dict, in libFuzzer's syntax, by name."""
    entries = {}
    for line in DICTIONARY.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        match = ENTRY.match(line)
        assert match, f"not a libFuzzer dictionary line: {line!r}"
        value = re.sub(
            rb"\\x([0-9a-f]{2})|\\(.)",
            lambda m: bytes.fromhex(m.group(1).decode()) if m.group(1) else m.group(2),
            match.group(2).encode("ascii"),
        )
        assert match.group(1) not in entries
        entries[match.group(1)] = value
    return entries


def test_dictionary_entries_are_what_their_names_say() -> None:
    entries = dictionary()
    assert len(entries) >= 50
    kinds = {kind.value.replace("-", "_"): kind for kind in ErrorKind}
    for name, value in entries.items():
        if name.startswith("valid_"):
            value.decode("utf-8")  # CPython accepts it
            continue
        with pytest.raises(UnicodeDecodeError):
            value.decode("utf-8")
        kind = next(kinds[prefix] for prefix in kinds if name.startswith(prefix + "_"))
        assert errors(value)[0].kind is kind, name


def test_dictionary_holds_both_ends_of_every_row_of_the_rfc_3629_table() -> None:
    entries = dictionary().items()
    values = {ord(value.decode("utf-8")) for name, value in entries if name.startswith("valid_u")}
    ends = {0x0, 0x7F, 0x80, 0x7FF, 0x800, 0xFFF, 0x1000, 0xCFFF, 0xD000, 0xD7FF, 0xE000}
    ends |= {0xFFFF, 0x10000, 0x3FFFF, 0x40000, 0xFFFFF, 0x100000, 0x10FFFF}
    assert ends <= values


@pytest.fixture(scope="module")
def vectors() -> VectorSet:
    return load_vectors()


def test_seeds_are_the_vectors_inputs_and_encodings_written_the_rfc_2279_way(
    vectors: VectorSet,
) -> None:
    seeds = named_seeds(vectors)
    by_id = {vector.id: vector for vector in vectors}
    for name, data in seeds.items():
        vector = by_id[name]
        if isinstance(vector, DecodeVector):
            assert data == vector.data
        else:
            assert isinstance(vector, EncodeVector)
            assert decode_legacy(data) == list(vector.scalars)
    assert len(set(seeds.values())) == len(seeds)  # one file per distinct input
    assert seed_inputs(vectors) == list(seeds.values())


def test_building_twice_changes_nothing_and_prunes_only_seeds_of_gone_vectors(
    tmp_path: Path, vectors: VectorSet
) -> None:
    first = build_corpus(vectors, tmp_path)
    assert first.written == len(named_seeds(vectors)) and first.removed == 0
    (tmp_path / "old-vector-1").write_bytes(b"gone")
    (tmp_path / "notes.txt").write_text("not a seed")
    again = build_corpus(vectors, tmp_path)
    assert (again.written, again.removed, again.unchanged) == (0, 1, first.written)
    assert (tmp_path / "notes.txt").exists()
    assert build_corpus(VectorSet(()), tmp_path, prune=False).removed == 0


def test_the_committed_seed_corpus_is_up_to_date_with_the_vectors(vectors: VectorSet) -> None:
    expected = named_seeds(vectors)
    committed = {path.name: path.read_bytes() for path in SEEDS.iterdir()}
    stale = sorted(set(expected.items()) ^ set(committed.items()))
    assert not stale, f"run `utf8cert corpus build`: {len(stale)} seed(s) differ"


@pytest.mark.slow
def test_corpus_build_command_reports_what_it_did(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "utf8cert.harness", "corpus", "build", "--out", "seeds"]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, env=os.environ)
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"seeds: \d+ written, 0 removed, 0 unchanged\n", done.stdout)
    bad = subprocess.run(
        [*command, "--vectors", "nowhere.yaml"], cwd=tmp_path, capture_output=True, text=True
    )
    assert bad.returncode == 2 and "nowhere.yaml" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


def test_corpus_build_writes_the_source_trees_seeds_wherever_it_is_run(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "utf8cert.harness", "corpus", "build"]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, env=os.environ)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{SEEDS}: 0 written, 0 removed, ")  # up to date, and there
    assert not (tmp_path / "corpus").exists()


def test_straddling_seeds_cut_a_character_at_64_and_4096() -> None:
    seeds = straddling_seeds(66048)
    errors = {name: seeds.pop(name) for name in list(seeds) if "-error-" in name}
    for data in errors.values():
        with pytest.raises(UnicodeDecodeError) as refused:
            data.decode("utf-8")  # CPython refuses it, at the sequence across 64
        assert refused.value.start == 63
    for data in seeds.values():
        text = data.decode("utf-8")  # well-formed (CPython)
        cut = [b for b in (64, 4096) if len(data) > b and data[b - 1] >= 0x80 <= data[b]]
        assert len(cut) == 1, data[-8:]
        assert len(text) < len(data)  # a multi-byte character in it
    assert all(len(data) <= 70 for data in straddling_seeds(100).values())
