"""Fork-mode jobs (target.fork_argv): libFuzzer gives job N N seconds, each job costing two starts
of the target script; a job runs at least FORK_JOB_FLOOR seconds, never past the campaign's end.
"""

from __future__ import annotations

from utf8cert.harness.fuzzing.target import FORK_JOB_FLOOR, fork_argv

PARENT = ["script.py", "corpus", "-max_len=66048", "-max_total_time=60", "-fork=2"]
JOB = [
    "script.py",
    "-max_len=66048",
    "-max_total_time=60",  # the campaign's, copied from the parent's flags
    "-reload=0",
    "-max_total_time=3",  # job 3's own, added by libFuzzer (the last flag wins)
    "-stop_file=/tmp/libFuzzerTemp.FuzzWithFork1.dir/STOP",
]


def job_seconds(argv: list[str]) -> int:
    return int([flag for flag in argv if flag.startswith("-max_total_time=")][-1].split("=")[1])


def test_the_parent_notes_when_the_campaign_started_and_leaves_its_flags() -> None:
    environ: dict[str, str] = {}
    assert fork_argv(PARENT, environ, 1000.0) == PARENT
    assert float(environ["UTF8CERT_FORK_STARTED"]) == 1000.0
    assert environ["UTF8CERT_FORK_FLOOR"] == str(FORK_JOB_FLOOR)


def test_a_short_job_runs_the_floor_but_not_past_the_campaigns_end() -> None:
    environ: dict[str, str] = {}
    fork_argv(PARENT, environ, 1000.0)
    assert job_seconds(fork_argv(JOB, environ, 1002.0)) == FORK_JOB_FLOOR
    assert job_seconds(fork_argv(JOB, environ, 1055.0)) == 5  # 5 s of the 60 left
    assert job_seconds(fork_argv(JOB, environ, 1070.0)) == 1  # past the end: as short as can be
    longer = [*JOB[:-2], "-max_total_time=40", JOB[-1]]
    assert job_seconds(fork_argv(longer, environ, 1002.0)) == 40  # job 40: its own time


def test_a_campaign_counted_in_runs_keeps_libfuzzers_short_jobs() -> None:
    environ: dict[str, str] = {}
    fork_argv([*PARENT[:-2], "-runs=5000", "-fork=2"], environ, 1000.0)
    job = [flag for flag in JOB if flag != "-max_total_time=60"]
    assert job_seconds(fork_argv(job, environ, 1001.0)) == 3


def test_a_process_that_is_no_fork_job_is_left_alone() -> None:
    environ = {"UTF8CERT_FORK_STARTED": "1000.0", "UTF8CERT_FORK_FLOOR": "10"}
    single = ["script.py", "corpus", "-max_total_time=60"]
    assert fork_argv(single, environ, 1001.0) == single
    merge = ["script.py", "-merge_inner=1", "-max_total_time=60"]
    assert fork_argv(merge, environ, 1001.0) == merge
    assert fork_argv(JOB, {}, 1001.0) == JOB  # no parent noted: not ours to change
