"""Mutation analysis: how many single-point defects of a hand-written codec the check misses.

    python bench/mutants.py [--parent subject|dfa|swar|lookup] [-j 2] [--timeout 60]
                            [--only m001,m002] [--sample N [--seed S]] [--compare-timeout S]
                            [--json FILE] [--figure FILE] [--keep FILE] [--probes-first] [--warm]
                            [--compare FILE]

Makes every single-point mutant of a parent codec (a clean, independent, conformant codec with
all five capabilities, each of another design: bench/mutation/subject.py reads a byte at a time
against RFC 3629 §4's ranges, dfa.py is table-driven, swar.py reads machine words, lookup.py
validates with Keiser and Lemire's three nibble tables (issue 44: a design nobody here wrote);
the tables are mutated cell by cell as well as the code; mutation/mutate.py lists the kinds of
change), or a seeded sample of them (`--sample`), has
`utf8cert check --fail-on may` judge each in a child process with a time limit
(mutation/trial.py), and compares each survivor with the original codec on every short input,
every code point and a Hypothesis campaign (mutation/equivalence.py) to tell the equivalent
mutants and those that differ only in a choice the standard leaves to a codec (conformant
codecs, rightly passed) from the defects the suite misses. Prints a markdown table: mutants,
equivalents, choices, killed at each level, and the survivors and choices, each with the
shortest input that shows it. `--json` writes every mutant's verdict (bench/mutation/results.json
is the one tests/bench/test_mutation.py samples from). Exit 0, or 2 on a bad option.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: bench/ is on the path, the repository is not
    sys.path.insert(0, str(ROOT))

from bench.mutation.mutate import Mutant, mutants  # noqa: E402
from bench.mutation.trial import LEVELS, Verdict, Warm, equivalence, judge  # noqa: E402

SUBJECT = ROOT / "bench" / "mutation" / "subject.py"
PARENTS = ("subject", "dfa", "swar", "lookup")
"""The parent codecs, each bench/mutation/NAME.py with a class `Subject`."""


def table(found: Sequence[Mutant], verdicts: dict[str, Verdict]) -> str:
    """Return the markdown result table, then the survivors and the choices with the shortest
    input that tells each from the parent."""
    levels = Counter(v.level for v in verdicts.values())
    hung = sum(v.how.startswith("timeout") for v in verdicts.values())
    unloadable = sum(v.how.startswith("does not load") for v in verdicts.values())
    killed = sum(levels[level] for level in LEVELS)
    # A choice is a conformant codec: passing it is the right verdict, not a miss.
    score = killed / max(1, len(found) - levels["equivalent"] - levels["choice"])
    lines = [
        "| mutants | equivalent | a choice | killed at must | at should | at may | survivors"
        " | score |",
        "|--:|--:|--:|--:|--:|--:|--:|--:|",
        f"| {len(found)} | {levels['equivalent']} | {levels['choice']} | {levels['must']}"
        f" ({hung} hang, {unloadable} do not load) | {levels['should']} | {levels['may']}"
        f" | {levels['survived']} | {score:.1%} |",
        "",
        "| kind | mutants | equivalent | a choice | must | should | may | survivors |",
        "|---|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for kind in sorted({m.kind for m in found}):
        of_kind = Counter(verdicts[m.id].level for m in found if m.kind == kind)
        counts = [of_kind[k] for k in ("equivalent", "choice", *LEVELS, "survived")]
        lines.append(f"| {kind} | {sum(of_kind.values())} | " + " | ".join(map(str, counts)) + " |")
    differing = [m for m in found if verdicts[m.id].level in ("survived", "choice")]
    if differing:
        lines += ["", "| mutant | verdict | line | change | shortest input | original | mutant |"]
        lines.append("|---|---|--:|---|---|---|---|")
    for mutant in differing:
        verdict = verdicts[mutant.id]
        change = mutant.description.replace("|", "\\|")
        shown = verdict.difference or {"capability": verdict.how, "input": "", "original": ""}
        lines.append(
            f"| {mutant.id} | {verdict.level} | {mutant.line} | {change} "
            f"| {shown['capability']}: `{shown['input']}` | {shown['original']} "
            f"| {shown.get('mutant', '')} |"
        )
    return "\n".join(lines)


def options(argv: Sequence[str] | None) -> argparse.Namespace:
    """Return the parsed command line."""
    parser = argparse.ArgumentParser(prog="bench/mutants.py", description=__doc__.splitlines()[0])
    parser.add_argument("-j", "--jobs", type=int, default=1, help="mutants checked at once")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds a check may take")
    parser.add_argument("--only", default="", help="comma-separated mutant ids (default: all)")
    parser.add_argument("--parent", choices=PARENTS, default="subject", help="the codec mutated")
    parser.add_argument("--sample", type=int, default=0, help="judge N mutants drawn at random")
    parser.add_argument("--seed", type=int, default=30, help="the draw of --sample")
    parser.add_argument(
        "--compare-timeout",
        type=float,
        default=600.0,
        help="seconds a survivor's comparison may take",
    )
    parser.add_argument(
        "--probes-first",
        action="store_true",
        help="check each mutant on the automaton's probes alone first; a kill at must there is"
        " its verdict (trial.judge)",
    )
    parser.add_argument(
        "--warm",
        action="store_true",
        help="fork each check from a process that has loaded utf8cert (mutation/warm.py)",
    )
    parser.add_argument(
        "--compare",
        metavar="FILE",
        help="judge nothing: compare the survivors of FILE (an earlier --json) with the parent",
    )
    parser.add_argument(
        "--without-flag",
        metavar="FLAG",
        help="judge with the built-in vectors that lack FLAG only (`window`: the check before"
        " vectors/windows.yaml, for docs/mutation.md's before-and-after figure)",
    )
    parser.add_argument("--json", metavar="FILE", help="write every verdict as JSON")
    parser.add_argument(
        "--figure", metavar="FILE", help="write the score the certificate quotes (all mutants)"
    )
    parser.add_argument(
        "--keep",
        metavar="FILE",
        help="with --only: every other mutant's verdict from FILE (an earlier --json)",
    )
    arguments = parser.parse_args(argv)
    if arguments.jobs < 1 or arguments.timeout <= 0 or arguments.sample < 0:
        parser.error("--jobs and --timeout must be positive, --sample not negative")
    return arguments


def main(argv: Sequence[str] | None = None) -> int:
    """Print the result table of the mutation analysis; return 0."""
    arguments = options(argv)
    parent = SUBJECT.with_name(f"{arguments.parent}.py")
    found = mutants(parent.read_text(encoding="utf-8"))
    if arguments.only:
        wanted = set(arguments.only.split(","))
        unknown = wanted - {m.id for m in found}
        if unknown:
            print(f"bench/mutants.py: no mutant {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        found = [m for m in found if m.id in wanted]
    if arguments.sample:
        drawn = random.Random(arguments.seed).sample(
            range(len(found)), min(arguments.sample, len(found))
        )
        found = [found[index] for index in sorted(drawn)]
    every = mutants(parent.read_text(encoding="utf-8"))
    if arguments.compare:
        return compare_recorded(arguments, parent, every)
    kept = kept_verdicts(arguments.keep, {m.id for m in found}) if arguments.keep else {}
    with tempfile.TemporaryDirectory(prefix="utf8cert-mutants-") as scratch:
        directory = Path(scratch)
        with ThreadPoolExecutor(arguments.jobs) as pool:
            first = probes() if arguments.probes_first else ()
            chosen = without(arguments.without_flag) if arguments.without_flag else ()
            judges: dict[int, Warm] = {}

            def judged_by_thread(mutant: Mutant) -> Verdict:
                warm = None
                if arguments.warm:
                    warm = judges.setdefault(threading.get_ident(), Warm())
                return judge(mutant, directory, arguments.timeout, first, warm, chosen)

            judged = pool.map(judged_by_thread, found)
            verdicts: dict[str, Verdict] = {}
            for mutant, verdict in zip(found, judged, strict=True):  # in order, as they finish
                verdicts[mutant.id] = verdict
                print(f"{mutant.id} {verdict.level:8} {mutant.description}", file=sys.stderr)
            for warm in judges.values():
                warm.close()
            survivors = [m for m in found if verdicts[m.id].level == "survived"]
            compared = pool.map(
                lambda m: equivalence(parent, m, directory, arguments.compare_timeout), survivors
            )
            verdicts.update(zip([m.id for m in survivors], compared, strict=True))
    if kept:  # the mutants rerun, and the others as FILE has them, in source order
        verdicts = {m.id: verdicts.get(m.id) or kept[m.id] for m in every}
        found = every
    print(table(found, verdicts))
    if arguments.json:
        write_json(arguments.json, found, verdicts)
    if len(found) == len(every):
        write_figure(arguments, list(verdicts.values()))
    return 0


def write_figure(arguments: argparse.Namespace, verdicts: list[Verdict]) -> None:
    """Write the parent's entry of --figure FILE (if asked) from `verdicts`, its every mutant's,
    keeping the other parents' entries."""
    if not arguments.figure:
        return
    path = Path(arguments.figure)
    earlier = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    path.write_text(figure(arguments.parent, verdicts, earlier), encoding="utf-8")


def probes() -> tuple[str, ...]:
    """Return the ids of the built-in vectors flagged `state-transition` (check/schedule.py
    plans each alike, whatever else is checked)."""
    from utf8cert.harness.check.schedule import PROBE
    from utf8cert.harness.vectors.load import load_vectors

    return tuple(vector.id for vector in load_vectors() if PROBE in vector.flags)


def without(flag: str) -> tuple[str, ...]:
    """Return `--vector ID` options naming every built-in vector that lacks `flag`."""
    from utf8cert.harness.vectors.load import load_vectors

    kept = [vector.id for vector in load_vectors() if flag not in vector.flags]
    return tuple(option for vector_id in kept for option in ("--vector", vector_id))


def write_json(path: str, found: Sequence[Mutant], verdicts: dict[str, Verdict]) -> None:
    """Write every mutant's verdict to `path` (the mutant's source left out)."""
    records = [{**asdict(m), **asdict(verdicts[m.id])} for m in found]
    for record in records:
        del record["source"]
    Path(path).write_text(json.dumps(records, indent=1) + "\n", encoding="utf-8")


def compare_recorded(arguments: argparse.Namespace, parent: Path, every: list[Mutant]) -> int:
    """Compare with `parent` each survivor of an earlier --json (--compare FILE): one a run
    stopped before comparing, or one compared before equivalence.py told a choice apart; keep
    every other verdict; write --json after each comparison, so that a run cut short keeps
    what it found; return 0."""
    verdicts = kept_verdicts(arguments.compare, set())
    whole = len(every)
    every = [m for m in every if m.id in verdicts]  # FILE may hold some mutants only
    pending = [m for m in every if verdicts[m.id].level == "survived"]
    with tempfile.TemporaryDirectory(prefix="utf8cert-mutants-") as scratch:
        directory = Path(scratch)
        with ThreadPoolExecutor(arguments.jobs) as pool:
            compared = pool.map(
                lambda m: equivalence(parent, m, directory, arguments.compare_timeout), pending
            )
            for mutant, verdict in zip(pending, compared, strict=True):
                verdicts[mutant.id] = verdict
                print(f"{mutant.id} {verdict.level:10} {verdict.how}", file=sys.stderr)
                if arguments.json:
                    write_json(arguments.json, every, verdicts)
    print(table(every, verdicts))
    if len(every) == whole:
        write_figure(arguments, [verdicts[m.id] for m in every])
    return 0


def kept_verdicts(path: str, rerun: set[str]) -> dict[str, Verdict]:
    """Return the verdicts an earlier --json recorded for the mutants not rerun."""
    records = json.loads(Path(path).read_text(encoding="utf-8"))
    return {
        r["id"]: Verdict(r["level"], r["how"], r["difference"])
        for r in records
        if r["id"] not in rerun
    }


DESIGNS = {
    "subject": "range checks",
    "dfa": "table-driven",
    "swar": "machine words",
    "lookup": "lookup tables",
}
"""How each parent is written, in the words the certificate uses (harness/vectors/adequacy.py)."""


def figure(parent: str, verdicts: Sequence[Verdict], earlier: dict[str, Any]) -> str:
    """Return vectors/adequacy.json: the numbers harness/vectors/adequacy.py quotes, those of
    `parent` from `verdicts` (every mutant of it) and the other parents' from `earlier` (the
    file as it was), each parent's and their sums."""
    levels = Counter(verdict.level for verdict in verdicts)
    judged = len(verdicts) - levels["unjudged"]  # a run cut short, its records assembled by hand
    entry = {
        "parent": parent,
        "design": DESIGNS[parent],
        "mutants": judged,
        "total": len(verdicts),
        "equivalent": levels["equivalent"],
        "choice": levels["choice"],
        "killed": sum(levels[level] for level in LEVELS),
        "measured": time.strftime("%Y-%m-%d", time.gmtime()),
    }
    parents = {p["parent"]: p for p in earlier.get("parents", [])} | {parent: entry}
    ordered = [parents[name] for name in PARENTS if name in parents]
    document = {
        "about": ABOUT,
        **{
            key: sum(p[key] for p in ordered)
            for key in ("mutants", "equivalent", "choice", "killed")
        },
        "measured": max(p["measured"] for p in ordered),
        "parents": ordered,
    }
    return json.dumps(document, indent=1) + "\n"


ABOUT = (
    "The mutation analysis of bench/mutants.py over its parent codecs: each parent's entry"
    " written by `python bench/mutants.py --parent NAME --json bench/mutation/results[-NAME].json"
    " --figure vectors/adequacy.json`, the totals their sums; tests/bench/test_mutation.py holds"
    " it to the results files."
)


if __name__ == "__main__":
    sys.exit(main())
