"""The campaign driver's parts: the target script, libFuzzer's command line, its status lines."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from utf8cert import reference
from utf8cert.harness.cli.main import build_parser, main, split_passed
from utf8cert.harness.fuzzing.campaign import (
    DEFAULT_MAX_LEN,
    Campaign,
    default_dictionary,
    libfuzzer_argv,
    write_script,
)
from utf8cert.harness.fuzzing.differential import PENDING
from utf8cert.harness.fuzzing.driver import Progress, forwarding
from utf8cert.harness.fuzzing.flags import LIBFUZZER_FLAGS, pass_through
from utf8cert.harness.fuzzing.inflight import InFlight
from utf8cert.harness.fuzzing.target import COVERED, instrumented_packages
from utf8cert.harness.fuzzing.workers import Workers


def test_the_default_max_len_straddles_the_64_kib_boundary() -> None:
    assert DEFAULT_MAX_LEN > 65536 + 64


def test_the_target_script_is_executable_and_names_this_interpreter(tmp_path: Path) -> None:
    campaign = Campaign(spec="codec:utf-8", artifacts=tmp_path, capabilities=("decode",))
    script = write_script(campaign)
    assert os.access(script, os.X_OK)
    text = script.read_text()
    assert text.splitlines()[0] == f"#!{sys.executable}"
    assert "'codec:utf-8'" in text and "capabilities=('decode',)" in text
    compile(text, str(script), "exec")  # valid Python


def test_libfuzzer_gets_the_corpus_the_seeds_and_every_option(tmp_path: Path) -> None:
    campaign = Campaign(
        spec="codec:utf-8",
        artifacts=tmp_path,
        max_len=4096,
        max_time=30,
        runs=1000,
        jobs=2,
        seed=7,
        keep_going=True,
        dictionary=tmp_path / "utf8.dict",
        libfuzzer_flags=("-only_ascii=1", "-max_len=64"),
    )
    argv = libfuzzer_argv(campaign)
    assert argv[:4] == [
        str(campaign.script),
        str(campaign.corpus),
        str(campaign.seeds),
        str(campaign.straddles),
    ]
    for flag in (
        "-max_len=4096",
        "-max_total_time=30",
        "-runs=1000",
        "-seed=7",
        f"-dict={tmp_path / 'utf8.dict'}",
        f"-artifact_prefix={campaign.crashes}{os.sep}",
    ):
        assert flag in argv
    assert argv[-2:] == ["-only_ascii=1", "-max_len=64"]  # last, so that they win
    # --jobs runs independent processes (workers.py), not libFuzzer's fork mode.
    assert not any(flag.startswith(("-fork", "-jobs", "-ignore_crashes")) for flag in argv)


def test_one_job_means_no_fork_mode(tmp_path: Path) -> None:
    argv = libfuzzer_argv(Campaign(spec="codec:utf-8", artifacts=tmp_path))
    assert not any(flag.startswith(("-fork", "-runs", "-seed", "-dict")) for flag in argv)


def test_progress_is_read_from_the_in_flight_records_and_the_corpus_not_from_output(
    tmp_path: Path,
) -> None:
    # Two fuzzing processes' records (as fork mode has): their executions add up; the seed
    # pass is over once one of them has been asked for a mutation.
    campaign = Campaign(spec="codec:utf-8", artifacts=tmp_path)
    campaign.corpus.mkdir()
    for name in ("a", "b", "c"):
        (campaign.corpus / name).write_bytes(name.encode())
    first = InFlight(campaign.crashes, 64)
    for _ in range(5):
        first.start(b"x")
        first.done()
    progress = Progress()
    progress.refresh(campaign)
    assert (progress.executions, progress.corpus, progress.mutating) == (5, 3, False)
    (campaign.crashes / "inflight-1").write_bytes((campaign.crashes / first.path.name).read_bytes())
    first.mutated()
    first.start(b"y")
    progress.refresh(campaign)
    assert (progress.executions, progress.mutating) == (11, True)
    assert "3 new corpus inputs; 0 finding(s)" in progress.summary(0, None)


def test_only_libfuzzer_flags_pass_through() -> None:
    assert pass_through(["-only_ascii=1", "-dict=a"]) == ("-only_ascii=1", "-dict=a")
    for bad in ("runs=5", "--runs=5", "-runs", "corpus_dir"):
        with pytest.raises(ValueError, match="is not a libFuzzer flag"):
            pass_through([bad])
    with pytest.raises(ValueError, match="libFuzzer has no flag -bogus_flag"):
        pass_through(["-bogus_flag=1"])


def test_the_flags_known_are_the_ones_libfuzzer_lists(tmp_path: Path) -> None:
    # libFuzzer's own -help=1, from a bare atheris target: the independent list.
    script = tmp_path / "bare.py"
    script.write_text("import sys, atheris\natheris.Setup(sys.argv, len)\natheris.Fuzz()\n")
    listed = subprocess.run(
        [sys.executable, str(script), "-help=1"], capture_output=True, text=True, timeout=120
    )
    names = {
        line.split()[0]
        for line in (listed.stdout + listed.stderr).splitlines()
        if line.startswith(" ") and line.split() and line.split()[0].isidentifier()
    }
    assert names == LIBFUZZER_FLAGS


@pytest.mark.parametrize(
    "argv",
    [
        ["fuzz", "codec:utf-8", "--max-time", "5", "--", "-seed=1", "-only_ascii=1"],
        ["fuzz", "--max-time", "5", "codec:utf-8", "--", "-seed=1", "-only_ascii=1"],
        ["fuzz", "--max-time", "5", "--", "-seed=1", "-only_ascii=1"],
    ],
)
def test_libfuzzer_flags_pass_through_wherever_the_options_stand(argv: list[str]) -> None:
    own, passed = split_passed(argv)
    arguments = build_parser().parse_args(own)
    assert arguments.max_time == 5 and passed == ["-seed=1", "-only_ascii=1"]
    assert arguments.spec == ("codec:utf-8" if "codec:utf-8" in argv else None)


def test_other_subcommands_keep_argparses_own_double_dash() -> None:
    assert split_passed(["check", "--", "codec:utf-8"]) == (["check", "--", "codec:utf-8"], [])
    assert split_passed(["fuzz", "codec:utf-8"]) == (["fuzz", "codec:utf-8"], [])


def test_flags_after_options_after_the_spec_reach_the_flag_check(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Checked before any campaign starts: the bad flag proves the words after `--` got there.
    assert main(["fuzz", "codec:utf-8", "--max-time", "5", "--", "runs=5"]) == 2
    assert "'runs=5' is not a libFuzzer flag" in capsys.readouterr().err


def test_coverage_comes_from_the_references_deciding_functions_and_the_codecs_package() -> None:
    assert all(callable(getattr(reference, name, None)) for name in COVERED)
    assert instrumented_packages("codec:utf-8") == instrumented_packages("cmd:./codec") == []
    assert instrumented_packages("mypkg.codec:Utf8") == ["mypkg"]


def test_the_dictionary_is_found_in_the_source_tree() -> None:
    found = default_dictionary()
    assert found is not None and found.name == "utf8.dict"


def test_the_target_script_replays_one_input(tmp_path: Path) -> None:
    campaign = Campaign(spec="codec:utf-8", artifacts=tmp_path)
    campaign.seeds.mkdir()
    (campaign.seeds / "seed").write_bytes("€".encode())
    script = write_script(campaign)
    replay = tmp_path / "input"
    replay.write_bytes(b"\xf0\x9f\x98\x80 ok")
    done = subprocess.run([str(script), str(replay)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "no difference" in done.stdout


def test_replaying_a_finding_prints_the_difference_and_exits_1(tmp_path: Path) -> None:
    campaign = Campaign(spec="codec:utf-8:surrogatepass", artifacts=tmp_path)
    campaign.seeds.mkdir()
    script = write_script(campaign)
    replay = tmp_path / "input"
    replay.write_bytes(b"\xed\xa0\x80")  # U+D800, which RFC 3629 §3 leaves out
    done = subprocess.run([str(script), str(replay)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr[-2000:]
    assert "decode: accepted ill-formed input (must)" in done.stdout
    assert "ED A0 80" in done.stdout


def test_a_signal_after_the_campaign_ended_by_itself_is_for_the_making_of_findings(
    tmp_path: Path,
) -> None:
    # libFuzzer has exited (a finding stops it): a signal now is not a stop of the campaign
    # (nothing to pass on) but of what comes next; so too once a finding is recorded and the
    # fuzzing process is about to exit.
    campaign = Campaign(spec="codec:utf-8", artifacts=tmp_path)
    ended = subprocess.Popen(["true"], text=True)
    ended.wait()
    progress = Progress()
    with forwarding(watching(campaign, ended), progress, campaign):
        os.kill(os.getpid(), signal.SIGINT)
    assert (progress.late, progress.interrupted) == (signal.SIGINT, None)
    with subprocess.Popen(["sleep", "60"], start_new_session=True, text=True) as alive:
        progress = Progress()
        with forwarding(watching(campaign, alive), progress, campaign):
            os.kill(os.getpid(), signal.SIGTERM)
        assert (progress.late, progress.interrupted, alive.wait()) == (None, "SIGTERM", -15)
        (tmp_path / PENDING).mkdir()
        (tmp_path / PENDING / "decode-crashed.bin").write_bytes(b"\xc0")
    with subprocess.Popen(["sleep", "60"], start_new_session=True, text=True) as alive:
        progress = Progress()
        with forwarding(watching(campaign, alive), progress, campaign):
            os.kill(os.getpid(), signal.SIGHUP)
        assert (progress.late, progress.interrupted) == (signal.SIGHUP, None)
        alive.kill()


def watching(campaign: Campaign, process: subprocess.Popen[str]) -> Workers:
    """Return the campaign's Workers with `process` as its one running process, started."""
    workers = Workers(campaign, {}, io.StringIO(), lambda: 0.0)
    workers.running[1] = process
    workers.started = True
    return workers
