"""The mutation analysis of bench/mutants.py: its mutator, its subject codec, and its score.

The fast tests hold the mutator to the mutants it says it makes, in a fixed order, and hold
bench/mutation/results.json (the measured verdicts docs/mutation.md reports) to the mutants the
subject codec gives today. The slow ones rerun the measure: the subject is conformant, a fixed
sample of killed mutants is still killed at the level recorded (so the score cannot fall
unnoticed when vectors or judgements change), and the equivalence check still tells a recorded
choice, a defect and an equivalent mutant apart.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from support.tiers import tiered  # noqa: E402

from bench.mutation.equivalence import choice  # noqa: E402
from bench.mutation.mutate import mutants  # noqa: E402
from bench.mutation.trial import LEVELS, equivalence, judge  # noqa: E402
from utf8cert.harness.vectors.adequacy import adequacy, statement  # noqa: E402

SUBJECT = ROOT / "bench" / "mutation" / "subject.py"
RESULTS = ROOT / "bench" / "mutation" / "results.json"
SAMPLE = 20
SEED = 20  # issue 20: a fixed sample, the same every run

SNIPPET = '''def f(x):
    """Doc."""
    if not x < 0x80:
        return x | 1
    return 0
'''


def recorded() -> list[dict[str, Any]]:
    """Return the verdicts bench/mutants.py measured, one record per mutant."""
    records: list[dict[str, Any]] = json.loads(RESULTS.read_text(encoding="utf-8"))
    return records


def test_the_mutator_makes_one_change_per_site_in_source_order() -> None:
    found = mutants(SNIPPET)
    assert [(m.id, m.kind, m.line, m.description) for m in found] == [
        ("m001", "statement deleted", 3, "`if not x < 0x80:` deleted"),
        ("m002", "not removed", 3, "`not x < 0x80` -> `x < 0x80`"),
        ("m003", "relational", 3, "< -> <="),
        ("m004", "constant", 3, "0x80 -> 0x81"),
        ("m005", "constant", 3, "0x80 -> 0x7F"),
        ("m006", "statement deleted", 4, "`return x | 1` deleted"),
        ("m007", "operator", 4, "| -> &"),
        ("m008", "constant", 4, "1 -> 2"),
        ("m009", "constant", 4, "1 -> 0"),
        ("m010", "statement deleted", 5, "`return 0` deleted"),
        ("m011", "constant", 5, "0 -> 1"),
        ("m012", "constant", 5, "0 -> -1"),
    ]
    assert "if x < 128:" in found[1].source
    assert "return x & 1" in found[6].source
    assert "return x | 1" not in found[5].source and "pass" in found[5].source


def test_a_mutant_behaves_as_its_change_says() -> None:
    original: dict[str, Any] = {}
    changed: dict[str, Any] = {}
    exec(SNIPPET, original)
    exec(mutants(SNIPPET)[2].source, changed)  # < -> <=: 0x80 itself now counts as below
    assert original["f"](0x80) == 0x81 and changed["f"](0x80) == 0


@pytest.mark.slow
def test_the_mutants_of_the_subject_are_the_same_every_time() -> None:
    """Two runs of the mutator on the subject give the same mutants (5 CPU-s a run; the default
    tier holds the mutator to its exact list on a snippet, and the subject's to its record)."""
    assert mutants(SUBJECT.read_text(encoding="utf-8")) == mutants(
        SUBJECT.read_text(encoding="utf-8")
    )


@pytest.mark.slow
def test_the_recorded_results_are_of_todays_subject() -> None:
    found = mutants(SUBJECT.read_text(encoding="utf-8"))
    records = recorded()
    assert [(m.id, m.line, m.description) for m in found] == [
        (r["id"], r["line"], r["description"]) for r in records
    ], "bench/mutation/subject.py changed: rerun python bench/mutants.py -j 2 --json ..."
    assert {r["level"] for r in records} <= {*LEVELS, "equivalent", "choice", "survived"}


RESULTS_OF = {
    "subject": RESULTS,
    "dfa": RESULTS.with_name("results-dfa.json"),
    "swar": RESULTS.with_name("results-swar.json"),
    "lookup": RESULTS.with_name("results-lookup.json"),
}
"""The verdicts bench/mutants.py recorded for every mutant of each parent."""


def test_the_figure_the_certificate_quotes_is_that_of_the_recorded_results() -> None:
    """vectors/adequacy.json (harness/vectors/adequacy.py) says what the results files
    measured: each parent's counts, and their sums."""
    figure = adequacy()
    assert [p.name for p in figure.parents] == list(RESULTS_OF)
    for parent in figure.parents:
        every = json.loads(RESULTS_OF[parent.name].read_text(encoding="utf-8"))
        records = [r for r in every if r["level"] != "unjudged"]  # a run cut short
        assert (parent.mutants, parent.total) == (len(records), len(every)), parent.name
        assert parent.equivalent == sum(r["level"] == "equivalent" for r in records)
        assert parent.choice == sum(r["level"] == "choice" for r in records)
        assert parent.killed == sum(r["level"] in LEVELS for r in records)
        assert f"{parent.design}: {parent.killed} of {parent.defective}" in statement()
    for key in ("mutants", "equivalent", "choice", "killed"):
        assert getattr(figure, key) == sum(getattr(p, key) for p in figure.parents), key
    codecs = {3: "three", 4: "four"}[len(RESULTS_OF)]
    assert statement().startswith(
        f"the built-in vectors kill {figure.killed} of {figure.defective} defective mutants"
        f" of {codecs} hand-written codecs ("
    )


@pytest.mark.slow
def test_an_unknown_mutant_is_a_one_line_error() -> None:
    command = [sys.executable, str(ROOT / "bench" / "mutants.py"), "--only", "m001,m999"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "bench/mutants.py: no mutant m999\n"


@pytest.mark.slow
def test_the_subject_codec_is_conformant_at_every_level() -> None:
    command = [sys.executable, "-m", "utf8cert.harness", "check"]
    command += ["bench.mutation.subject:Subject", "--fail-on", "may", "--quiet"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "follows recommended practice throughout" in done.stdout


def killed_sample() -> list[dict[str, Any]]:
    """Return the fixed sample of mutants recorded as killed: every one killed at should or may
    (the few the lower levels catch), then a seeded draw of those killed at must."""
    records = recorded()
    lower = [r for r in records if r["level"] in LEVELS[1:]]
    # A hang costs the whole time limit: the sample keeps to mutants the check answers for.
    must = [r for r in records if r["level"] == "must" and not r["how"].startswith("timeout")]
    drawn = random.Random(SEED).sample(must, min(len(must), max(0, SAMPLE - len(lower))))
    return lower + sorted(drawn, key=lambda r: str(r["id"]))


KILLED = killed_sample()


@pytest.mark.parametrize(
    "record", tiered(KILLED, [str(r["id"]) for r in KILLED], [r["level"] for r in KILLED])
)
def test_a_killed_mutant_is_still_killed_at_its_level(
    record: dict[str, Any], tmp_path: Path
) -> None:
    mutant = {m.id: m for m in mutants(SUBJECT.read_text(encoding="utf-8"))}[record["id"]]
    verdict = judge(mutant, tmp_path, timeout=300.0)
    assert verdict.level == record["level"], f"{mutant.description}: {verdict.how}"


@pytest.mark.exhaustive
def test_the_equivalence_check_tells_a_choice_a_defect_and_an_equivalent_apart(
    tmp_path: Path,
) -> None:
    """Compared again with the subject on every input, a mutant recorded as a choice is one
    (with the recorded difference), an equivalent one is equivalent, and a mutant whose
    encoder ends the error past the text (killed at should) differs: the choice is no
    licence for a wrong error end."""
    records = recorded()
    chosen = next(r for r in records if r["level"] == "choice")
    same = next(r for r in records if r["level"] == "equivalent")
    wrong_end = next(r for r in records if r["how"] == "encode/wrong-error-end")
    by_id = {m.id: m for m in mutants(SUBJECT.read_text(encoding="utf-8"))}
    found = equivalence(SUBJECT, by_id[chosen["id"]], tmp_path, timeout=600.0)
    assert (found.level, found.difference) == ("choice", chosen["difference"])
    assert equivalence(SUBJECT, by_id[same["id"]], tmp_path, timeout=600.0).level == "equivalent"
    found = equivalence(SUBJECT, by_id[wrong_end["id"]], tmp_path, timeout=600.0)
    assert found.level == "survived" and found.difference is not None, wrong_end["id"]
    assert found.difference["capability"] == "encode" and "choice" not in found.difference


def encode_outcome(text: str, end: int | None = None) -> tuple[object, ...]:
    """Return equivalence.outcome of CPython's strict encode of `text`, or of one that raises
    the same error with its end at `end`."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        error.end = error.end if end is None else end
        return ("raises", "UnicodeEncodeError", error.start, error.end)
    return ("returns", text.encode("utf-8"))


@pytest.mark.parametrize(
    ("text", "end", "is_choice"),
    [
        ("\ud800\ud800", 1, True),  # each surrogate its own error (tests/support/hand_rolled.py)
        ("a\udc00\udfff\ud800b", 2, True),
        ("a\udc00\udfff\ud800b", 3, True),
        ("\ud800\ud800", 0, False),  # an error that covers nothing
        ("\ud800", 2, False),  # past the text
        ("\ud800\ud800a", 3, False),  # over an encodable character
        ("\ud800", 1, False),  # CPython's own answer is no difference at all
    ],
)
def test_a_choice_is_an_encode_error_ending_sooner_inside_cpythons_surrogate_run(
    text: str, end: int, is_choice: bool
) -> None:
    assert choice(encode_outcome(text), encode_outcome(text, end), text) is is_choice
