"""Proof of `utf8cert fuzz`: short deterministic campaigns (-seed, -runs) find each planted bug.

Each broken codec of tests/support/fuzz_codecs.py hides its bug where the vectors alone do not look
(alignment, input length, block boundaries, chunking, the encoder); the campaign must stop with
a finding whose vector file loads, fails the broken codec and passes CPython's, and a conformant
codec must give none. Campaigns run as `python -m utf8cert.harness fuzz` in a child process.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.samples import few_of_each_kind, options
from support.tiers import first_of_each

from utf8cert.harness.check.run import capabilities_for, check_vector
from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.vectors.load import load_vectors

TESTS = Path(__file__).resolve().parents[1]
TIMEOUT = 300  # generous: a loaded 2-core machine; a campaign usually takes a few seconds


def utf8cert(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the utf8cert command with tests/ importable (for the fuzz_codecs specs)."""
    path = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "utf8cert.harness", *arguments],
        cwd=cwd,
        env=dict(os.environ, PYTHONPATH=path),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def fuzz(tmp_path: Path, spec: str, *extra: str) -> subprocess.CompletedProcess[str]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    return utf8cert(
        "fuzz",
        spec,
        "--artifacts",
        str(tmp_path / "artifacts"),
        "--seed",
        "1",
        *extra,
        cwd=tmp_path,
    )


def reproducer_in(artifacts: Path) -> list[str]:
    """Return the words of the reproducer of the one finding under `artifacts`."""
    [explained] = artifacts.glob("*.txt")
    return shlex.split(explained.read_text().splitlines()[-1].removeprefix("reproduce: "))


def assert_fails(reproducer: list[str], cwd: Path) -> str:
    """Run a reproducer (`utf8cert check …`); assert it reports a difference; return its output."""
    replayed = utf8cert(*reproducer[1:], cwd=cwd)
    assert replayed.returncode == 1, replayed.stdout + replayed.stderr
    return replayed.stdout


PLANTED = [
    ("AlignedAsciiFastPath", "decode-"),
    ("LongInputValidator", "decode-accepted-ill-formed-input"),
    ("BlockBufferedDecoder", "decode-rejected-well-formed-input"),
    ("ForgetfulIncremental", "incremental-rejected-well-formed-input"),
    ("SurrogateWritingEncoder", "encode-encoded-a-surrogate"),
]


# One planted bug of each capability in the default tier (a campaign of 30,000 runs each), the
# other decoders' in the slow tier.
@pytest.mark.parametrize(
    ("name", "kind"),
    first_of_each(
        PLANTED, [name for name, _ in PLANTED], [kind.split("-")[0] for _, kind in PLANTED]
    ),
)
@pytest.mark.slow
def test_a_short_campaign_finds_the_planted_bug_and_writes_a_vector_that_catches_it(
    tmp_path: Path, name: str, kind: str
) -> None:
    spec = f"support.fuzz_codecs:{name}"
    done = fuzz(tmp_path, spec, "--runs", "30000")
    assert done.returncode == 1, done.stdout + done.stderr
    [vector_file] = (tmp_path / "artifacts").glob("*.yaml")
    assert vector_file.stem.startswith(kind)
    assert "1 finding(s)" in done.stdout and str(vector_file) in done.stdout

    [vector] = list(load_vectors([vector_file], builtin=False))
    broken, cpython = load_codec(spec), load_codec("codec:utf-8")
    assert check_vector(broken, vector, capabilities_for(vector, broken.capabilities))
    assert not check_vector(cpython, vector, capabilities_for(vector, cpython.capabilities))

    # The one-line reproducer (one input, every capability, encode included) fails the broken
    # codec and passes CPython's.
    reproducer = reproducer_in(tmp_path / "artifacts")
    assert reproducer[:2] == ["utf8cert", "check"] and "--input" in reproducer
    assert_fails(reproducer, tmp_path)
    reproducer[2] = "codec:utf-8"
    assert utf8cert(*reproducer[1:], cwd=tmp_path).returncode == 0

    data = vector_file.with_suffix(".bin").read_bytes()
    if name == "LongInputValidator":
        assert len(data) >= 64  # the bug is only on long inputs: the minimizer kept it so
    if name == "BlockBufferedDecoder":
        assert len(data) > 4096


@pytest.mark.slow
def test_a_conformant_codec_gives_no_finding(tmp_path: Path) -> None:
    done = fuzz(tmp_path, "support.fuzz_codecs:Conformant", "--runs", "1000")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 finding(s)" in done.stdout
    assert not list((tmp_path / "artifacts").glob("*.yaml"))


@pytest.mark.slow
def test_keep_going_collects_each_behaviour_once_one_finding_for_all_its_capabilities(
    tmp_path: Path,
) -> None:
    done = fuzz(tmp_path, "codec:utf-8:surrogatepass", "--runs", "2000", "--keep-going")
    assert done.returncode == 1, done.stdout + done.stderr
    vector_files = sorted((tmp_path / "artifacts").glob("*.yaml"))
    # surrogatepass reads ED A0 80 as U+D800 and writes it back: decoding, chunked decoding and
    # encoding each differ from RFC 3629 §3, in one finding.
    assert "decode-accepted-ill-formed-input-surrogate" in {path.stem for path in vector_files}
    assert "on decode, incremental, encode" in done.stdout
    assert not any(path.stem.startswith("encode-encoded-a-surrogate") for path in vector_files)
    assert f"{len(vector_files)} finding(s)" in done.stdout
    load_vectors(vector_files, builtin=False)


@pytest.mark.slow
def test_capability_limits_the_campaign(tmp_path: Path) -> None:
    done = fuzz(tmp_path, "codec:utf-8:surrogatepass", "--runs", "200", "--capability", "replace")
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(
    ("name", "death"),
    [
        ("NullPointerOnOverlong", "SIGSEGV"),
        # An exit of the process as a finding with an --isolate reproducer: in the default tier
        # in tests/fuzzing/test_fuzz_hostile.py (os._exit); here slow.
        pytest.param("ExitsOnOverlong", "exited with status 3", marks=pytest.mark.slow),
        ("InterruptsOnOverlong", "KeyboardInterrupt"),
    ],
)
def test_a_codec_that_kills_the_process_is_a_crash_finding_reproduced_in_isolation(
    tmp_path: Path, name: str, death: str
) -> None:
    done = fuzz(tmp_path, f"support.fuzz_codecs:{name}", "--runs", "2000")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    artifacts = tmp_path / "artifacts"
    # Named after its behaviour: a crash, and the exception when one was raised.
    [found] = artifacts.glob("decode-crashed*.yaml")
    assert found.stem == (
        "decode-crashed-keyboardinterrupt" if death == "KeyboardInterrupt" else "decode-crashed"
    )
    assert found.with_suffix(".bin").read_bytes() == b"\xc0"
    assert death in found.with_suffix(".txt").read_text()
    # The reproducer runs the codec in a child process: pasted, it reports the crash. A death
    # of the process says so (--isolate); a KeyboardInterrupt, which the codec's process
    # catches as the codec's crash (judged apart), needs nothing more: `check` isolates.
    reproducer = reproducer_in(artifacts)
    assert ("--isolate" in reproducer) == (death != "KeyboardInterrupt")
    assert "crash" in assert_fails(reproducer, tmp_path)


def start_campaign(artifacts: Path) -> subprocess.Popen[str]:
    """Start a campaign on a conformant codec (nothing to find: it runs until stopped) and
    return it once libFuzzer has started fuzzing (its INITED line is in the log)."""
    command = [sys.executable, "-m", "utf8cert.harness", "fuzz", "support.fuzz_codecs:Conformant"]
    path = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    campaign = subprocess.Popen(
        [*command, "--artifacts", str(artifacts), "--seed", "1", "--max-time", "250"],
        cwd=artifacts.parent,
        env=dict(os.environ, PYTHONPATH=path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    log = artifacts / "libfuzzer.log"
    while campaign.poll() is None and "INITED" not in (log.read_text() if log.exists() else ""):
        time.sleep(0.1)
    return campaign


@pytest.mark.slow
def test_sigint_to_the_command_stops_libfuzzer_and_prints_the_summary(tmp_path: Path) -> None:
    artifacts = tmp_path / "artifacts"
    with start_campaign(artifacts) as campaign:
        campaign.send_signal(signal.SIGINT)  # to the command alone, not its process group
        out, err = campaign.communicate(timeout=TIMEOUT)
    assert campaign.returncode == 0, out + err
    assert "interrupted" in out and "0 finding(s)" in out
    assert "Traceback" not in err
    # libFuzzer says so from its SIGTERM handler, which can deadlock (it allocates); then the
    # driver kills it after the grace, and says that.
    log = (artifacts / "libfuzzer.log").read_text()
    assert "libFuzzer: run interrupted" in log or "after SIGTERM: killed" in log
    assert not list((artifacts / "libfuzzer").glob("*")), "an interruption is no crash"
    assert str(artifacts) not in _command_lines(), "libFuzzer left running"


@pytest.mark.slow
def test_a_killed_command_leaves_no_campaign_running(tmp_path: Path) -> None:
    artifacts = tmp_path / "artifacts"
    with start_campaign(artifacts) as campaign:
        assert str(artifacts / "corpus") in _command_lines()  # libFuzzer runs
        campaign.kill()  # SIGKILL: no handler runs; the kernel tells the child (PDEATHSIG)
        campaign.communicate(timeout=TIMEOUT)
    for _ in range(600):  # libFuzzer gets SIGKILL as the command dies: give it a moment
        if str(artifacts / "corpus") not in _command_lines():
            break
        time.sleep(0.1)
    assert str(artifacts / "corpus") not in _command_lines(), "libFuzzer left running"


def _command_lines() -> str:
    """Return the command lines of every process this user can see, one a line."""
    lines = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            lines.append(cmdline.read_bytes().replace(b"\0", b" ").decode(errors="replace"))
        except OSError:
            continue  # gone meanwhile
    return "\n".join(lines)


@pytest.mark.slow
def test_a_codec_that_hangs_is_a_timeout_finding(tmp_path: Path) -> None:
    done = fuzz(tmp_path, "support.fuzz_codecs:SignatureLoop", "--runs", "2000", "--timeout", "2")
    assert done.returncode == 1, done.stdout + done.stderr
    assert (tmp_path / "artifacts" / "decode-timed-out.yaml").is_file()
    explained = (tmp_path / "artifacts" / "decode-timed-out.txt").read_text()
    reproducer = shlex.split(explained.splitlines()[-1].removeprefix("reproduce: "))
    assert reproducer[reproducer.index("--isolate") + 1 : reproducer.index("--input")] == [
        "--timeout",
        "2",
    ]


@pytest.mark.slow
def test_two_jobs_run_two_processes_of_the_executable_target_script(tmp_path: Path) -> None:
    # With nothing to find, each process runs its share of --runs to the end (libFuzzer's
    # "Done N runs"), its lines in the one log after its job's number.
    done = fuzz(
        tmp_path / "clean", "support.fuzz_codecs:Conformant", "--jobs", "2", "--runs", "2000"
    )
    assert done.returncode == 0, done.stdout + done.stderr
    log = (tmp_path / "clean" / "artifacts" / "libfuzzer.log").read_text()
    assert "job 1: Done " in log and "job 2: Done " in log
    # With a bug, the first finding ends the campaign (the other process may be stopped before
    # it prints a line).
    done = fuzz(
        tmp_path, "support.fuzz_codecs:ForgetfulIncremental", "--jobs", "2", "--max-time", "120"
    )
    assert done.returncode == 1, done.stdout + done.stderr
    log = (tmp_path / "artifacts" / "libfuzzer.log").read_text()
    assert ("job 1: " in log or "job 2: " in log) and "exit 126" not in log
    assert (tmp_path / "artifacts" / "incremental-rejected-well-formed-input.yaml").is_file()
    script = tmp_path / "artifacts" / "utf8cert_fuzzer.py"
    assert os.access(script, os.X_OK)
    assert script.read_text().startswith(f"#!{sys.executable}\n")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["nosuchmodule:thing"], "cannot import module 'nosuchmodule'"),
        (["codec:utf-8", "--", "runs=5"], "is not a libFuzzer flag"),
        (["codec:utf-8", "--", "-bogus_flag=1"], "libFuzzer has no flag -bogus_flag"),
        (["codec:utf-8", "--artifacts", "/dev/null/artifacts"], "--artifacts /dev/null/artifacts"),
        (["codec:utf-8", "--baseline", "nowhere.json"], "nowhere.json"),
        (["support.fuzz_codecs:AlignedAsciiFastPath", "--capability", "encode"], "offers none of"),
        (["codec:utf-8", "--runs", "0"], "argument --runs: must be from 1 to"),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(
    tmp_path: Path, arguments: list[str], message: str
) -> None:
    done = utf8cert("fuzz", *arguments, cwd=tmp_path)
    assert done.returncode == 2
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_a_known_deviation_lets_the_campaign_go_on(tmp_path: Path) -> None:
    # The encoder writes surrogates, and a baseline of `check` says it is known: the campaign
    # runs its whole course past the seed pass with no finding.
    baseline = tmp_path / "baseline.json"
    spec = "support.fuzz_codecs:SurrogateWritingEncoder"
    # A few vectors of each kind (support.samples) hold its surrogates: a behaviour missing
    # from the baseline would be found by the campaign and fail this test.
    few = options(few_of_each_kind())
    checked = utf8cert("check", spec, *few, "--write-baseline", str(baseline), cwd=tmp_path)
    assert baseline.is_file(), checked.stdout + checked.stderr
    done = fuzz(tmp_path, spec, "--runs", "3000", "--baseline", str(baseline))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("3,000 executions") and "0 finding(s)" in done.stdout


@pytest.mark.slow
def test_a_should_finding_has_a_reproducer_that_fails_at_should(tmp_path: Path) -> None:
    # One U+FFFD per byte of a maximal subpart is a `should` difference (Unicode's practice):
    # at the default level the campaign says how to see it, at `should` it is a finding whose
    # reproducer fails too.
    spec = "support.broken_codecs:OneFffdPerByte"
    quiet = fuzz(tmp_path / "must", spec, "--runs", "2000")
    assert quiet.returncode == 0, quiet.stdout + quiet.stderr
    assert "rerun with --fail-on should" in quiet.stdout
    done = fuzz(tmp_path / "should", spec, "--runs", "2000", "--fail-on", "should")
    assert done.returncode == 1, done.stdout + done.stderr
    reproducer = reproducer_in(tmp_path / "should" / "artifacts")
    assert reproducer[reproducer.index("--fail-on") + 1] == "should"
    assert_fails(reproducer, tmp_path)


@pytest.mark.slow
def test_a_finding_of_the_seed_pass_is_counted_and_timed(tmp_path: Path) -> None:
    done = fuzz(tmp_path, "support.fuzz_codecs:SurrogateWritingEncoder", "--runs", "3000")
    assert done.returncode == 1, done.stdout + done.stderr
    summary = done.stdout.splitlines()[0]
    assert not summary.startswith("0 executions"), summary
    assert "in the seed pass" in summary and "the first after" in summary


@pytest.mark.slow
def test_progress_shows_off_a_terminal_and_the_log_is_timestamped(tmp_path: Path) -> None:
    # Past one PROGRESS_EVERY (5 s, harness/cli/fuzz_view.py) whatever the load: libFuzzer's
    # clock starts after utf8cert's.
    done = fuzz(tmp_path, "support.fuzz_codecs:Conformant", "--max-time", "6")
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"^\d\d:\d\d:\d\d \d+ s: [\d,]+ execs, ", done.stderr, re.MULTILINE), (
        done.stderr
    )
    log = (tmp_path / "artifacts" / "libfuzzer.log").read_text().splitlines()
    assert log and all(re.match(r" *\d+\.\d\d  ", line) for line in log)
    assert any(line.endswith("INFO: Seed: 1") for line in log)


@pytest.mark.slow
def test_a_codec_true_to_its_profile_gives_no_finding_and_one_more_deviation_does(
    tmp_path: Path,
) -> None:
    # CPython's surrogatepass is the python-surrogatepass dialect exactly (its published
    # definition); Cesu8Plus is the CESU-8 dialect that also accepts the overlong C0 AF.
    true = fuzz(
        tmp_path / "true",
        "codec:utf-8:surrogatepass",
        "--runs",
        "3000",
        "--profile",
        "python-surrogatepass",
    )
    assert true.returncode == 0, true.stdout + true.stderr
    assert true.stdout.startswith("3,000 executions") and "0 finding(s)" in true.stdout
    plus = fuzz(
        tmp_path / "plus",
        "support.dialect_codecs:Cesu8Plus",
        "--runs",
        "3000",
        "--profile",
        "cesu-8",
    )
    assert plus.returncode == 1, plus.stdout + plus.stderr
    reproducer = reproducer_in(tmp_path / "plus" / "artifacts")
    assert reproducer[reproducer.index("--profile") + 1] == "cesu-8"
    assert_fails(reproducer, tmp_path)
