"""A `utf8cert fuzz` campaign: what the user asked of it, and what it runs on — its directories
and seeds, its target script, libFuzzer's command line.

The target script is written into the artifacts directory, executable, its shebang naming this
interpreter (libFuzzer's -fork and -jobs modes, which ClusterFuzzLite may use, re-execute it, so
`python script.py` would not do). driver.py runs it (workers.py: --jobs processes of it);
triage.py turns what it left into findings.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Final

from utf8cert.harness.codec.interface import Capability
from utf8cert.harness.fuzzing.inflight import CRASHES
from utf8cert.harness.vectors.model import Level, VectorSet

if TYPE_CHECKING:
    from utf8cert.harness.check.behaviour import Behaviour

DEFAULT_MAX_LEN: Final = 65536 + 512
"""Room for an input to straddle the 65536-byte boundary with a few hundred bytes after it."""
DEFAULT_TIMEOUT: Final = 20
"""Seconds one execution may take before libFuzzer calls it a hang."""
INTERRUPTED: Final = 72
"""libFuzzer's exit status when it was sent SIGINT or SIGTERM (-interrupted_exitcode)."""
SCRIPT_NAME: Final = "utf8cert_fuzzer.py"

SCRIPT: Final = '''#!{python}
"""A utf8cert fuzz target for {spec}, written by `utf8cert fuzz`.

Run it with libFuzzer flags (and corpus directories) to fuzz again. Give it input files to
replay them: each difference is printed (capability, what, level, the input, expected and
actual), and it exits 0 when no input differs, 1 when one does. A crash or a hang kills the
replay: see the finding's .txt for the `utf8cert check --isolate` line.
"""

import sys

from utf8cert.harness.fuzzing.target import run

run(
    {spec!r},
    sys.argv,
    findings={findings!r},
    capabilities={capabilities!r},
    fail_on={fail_on!r},
    keep_going={keep_going!r},
    splices={splices!r},
    known={known!r},
    profile={profile!r},
    judged_elsewhere={judged_elsewhere!r},
)
'''


@dataclass(frozen=True)
class Campaign:
    """What the user asked of one campaign."""

    spec: str
    artifacts: Path
    capabilities: tuple[Capability, ...] | None = None
    fail_on: Level = "must"
    keep_going: bool = False
    max_len: int = DEFAULT_MAX_LEN
    max_time: int | None = None
    runs: int | None = None
    jobs: int = 1
    seed: int | None = None
    timeout: int = DEFAULT_TIMEOUT
    libfuzzer_flags: tuple[str, ...] = ()
    dictionary: Path | None = None
    profile: str = "rfc3629"
    """The dialect the codec is judged by (harness/check/profiles.py)."""
    known: frozenset[Behaviour] = frozenset()
    """The behaviours of known deviations (from a baseline, known.py): no findings."""
    in_process: bool = False
    """`--in-process`: the judge runs in the codec's process, which runs outside any sandbox
    (the user trusts the codec); else the codec's process runs in the OS sandbox and sends its
    answers to the judge in utf8cert's own process (judge.py)."""

    @property
    def corpus(self) -> Path:
        """Return the campaign's working corpus: every input libFuzzer keeps."""
        return self.artifacts / "corpus"

    built_seeds: Path | None = None
    """Seeds already built (corpus/seeds/ of the source tree, for the built-in vectors alone),
    used as they are; None: the campaign writes its own."""

    @property
    def seeds(self) -> Path:
        """Return the campaign's seeds: the vectors' inputs, read by libFuzzer and spliced by
        the mutator (ARTIFACTS/seeds, unless `built_seeds`)."""
        return self.artifacts / "seeds" if self.built_seeds is None else self.built_seeds

    @property
    def straddles(self) -> Path:
        """Return the campaign's seeds that straddle the 64- and 4096-byte boundaries."""
        return self.artifacts / "straddles"

    @property
    def crashes(self) -> Path:
        """Return where libFuzzer writes its crash-, timeout- and oom- files."""
        return self.artifacts / CRASHES

    @property
    def script(self) -> Path:
        """Return the path of the campaign's target script."""
        return self.artifacts / SCRIPT_NAME


def default_dictionary() -> Path | None:
    """Return the path of corpus/utf8.dict as installed (package data), None if it is missing."""
    candidate = Path(str(files("utf8cert.corpus").joinpath("utf8.dict")))
    return candidate if candidate.is_file() else None


def max_len_notes(max_len: int) -> list[str]:
    """Return one line for a `max_len` that leaves out block boundaries the mutator aims at
    (64, 4096, 65536: no input can cross them, so block bugs there are out of reach); [] when
    it leaves none out."""
    from utf8cert.harness.fuzzing.mutator import BLOCK_BOUNDARIES

    # A character across boundary B starts before it and ends after it: B + 1 bytes at least.
    beyond = [boundary for boundary in BLOCK_BOUNDARIES if max_len <= boundary]
    if not beyond:
        return []
    sizes = [f"{boundary}-" for boundary in beyond]
    named = (", ".join(sizes[:-1]) + " and " if len(sizes) > 1 else "") + f"{sizes[-1]}byte"
    which, them = ("boundaries", "them") if len(beyond) > 1 else ("boundary", "it")
    return [
        f"--max-len {max_len} rules out the {named} block {which}: no input crosses {them}"
        f" (the default, {DEFAULT_MAX_LEN}, crosses each)"
    ]


def write_script(campaign: Campaign) -> Path:
    """Write the campaign's target script, executable; return its path."""
    text = SCRIPT.format(
        python=sys.executable,
        spec=campaign.spec,
        findings=str(campaign.artifacts),
        capabilities=campaign.capabilities,
        fail_on=campaign.fail_on,
        keep_going=campaign.keep_going,
        splices=str(campaign.seeds),
        known=sorted(dataclasses.astuple(behaviour) for behaviour in campaign.known),
        profile=campaign.profile,
        judged_elsewhere=not campaign.in_process,
    )
    campaign.script.write_text(text, encoding="utf-8")
    campaign.script.chmod(0o755)
    return campaign.script


def libfuzzer_argv(campaign: Campaign) -> list[str]:
    """Return the command line of the campaign: the script, its corpus, then libFuzzer flags
    (the user's pass-through flags last, so that they win)."""
    argv = [
        str(campaign.script),
        str(campaign.corpus),  # libFuzzer writes new inputs into its first directory only
        str(campaign.seeds),
        str(campaign.straddles),
        f"-max_len={campaign.max_len}",
        f"-timeout={campaign.timeout}",
        f"-artifact_prefix={campaign.crashes}{os.sep}",
        "-print_final_stats=1",
    ]
    if campaign.dictionary is not None:
        argv.append(f"-dict={campaign.dictionary}")
    if campaign.runs is not None:
        argv.append(f"-runs={campaign.runs}")
    if campaign.max_time is not None:
        argv.append(f"-max_total_time={campaign.max_time}")
    if campaign.seed is not None:
        argv.append(f"-seed={campaign.seed}")
    return argv + list(campaign.libfuzzer_flags)


def seed_corpus(campaign: Campaign, vectors: VectorSet | None) -> None:
    """Create the campaign's directories, write the vectors' inputs as its seeds (None: the
    campaign's `built_seeds` are used as they are), and the straddling seeds."""
    from utf8cert.harness.fuzzing.corpus import build_corpus, straddling_seeds
    from utf8cert.harness.fuzzing.save import write_atomically

    for directory in (campaign.crashes, campaign.corpus, campaign.straddles):
        directory.mkdir(parents=True, exist_ok=True)
    if vectors is not None:
        build_corpus(vectors, campaign.seeds)
    for name, data in straddling_seeds(campaign.max_len).items():
        if not (campaign.straddles / name).is_file():
            write_atomically(campaign.straddles / name, data)
