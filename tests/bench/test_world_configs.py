"""bench/bench_world_configs.py reads the per-adapter seconds `utf8cert matrix` prints on stderr
(`NAME: verdict (S s)`) and holds issue 43's new configurations to 1.2 times the older ones'
mean: a log made here, with known seconds, gives the ratio and exit status they imply.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.bench_world_configs import NEW, main


def log(tmp_path: Path, new_seconds: float) -> Path:
    """Return a matrix log: two older adapters of 10 s and 20 s, two new ones of `new_seconds`,
    a skipped new one (not counted) and a line of other output."""
    first, second = sorted(NEW)[:2]
    lines = [
        "cpython-strict: conformant to RFC 3629 (10.0 s)",
        "orjson: NOT conformant to RFC 3629: 1 behaviour (20.0 s)",
        f"{first}: conformant to RFC 3629 ({new_seconds} s)",
        f"  {second}: NOT conformant to RFC 3629 ({new_seconds} s)",
        f"{sorted(NEW)[2]}: skipped, its library is not installed (0.0 s)",
        "writing docs/matrix.md",
    ]
    path = tmp_path / "matrix.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(("new_seconds", "status", "ratio"), [(18.0, 0, "1.20"), (18.1, 1, "1.21")])
def test_the_new_configurations_are_held_to_1_2_times_the_older_mean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], new_seconds: float, status: int, ratio: str
) -> None:
    assert main(log(tmp_path, new_seconds)) == status
    out = capsys.readouterr().out
    assert f"new / older mean: {ratio}" in out
    assert "| older | 2 | 15.0 | 15.0 |" in out
    assert f"| issue 43 | 2 | {new_seconds:.1f} |" in out


def test_a_log_without_timed_lines_of_both_sets_is_status_2(tmp_path: Path) -> None:
    path = tmp_path / "matrix.log"
    path.write_text("cpython-strict: conformant to RFC 3629 (10.0 s)\n", encoding="utf-8")
    assert main(path) == 2
