"""Every subcommand that prints to a pipe ends quietly when the reader stops reading (exit 141,
as a shell reports SIGPIPE, never a traceback); every option taking an output path is checked
before the run and takes `-` for standard output; --vectors takes one path (not the SPEC after
it); a program that fails to start is quoted by the line of its stderr that says why; --memory
is in MiB."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.cli_runs import check
from support.user_vectors import EXTRA_VECTOR

from utf8cert.harness.cli.main import BROKEN_PIPE, main

UTF8CERT = [sys.executable, "-m", "utf8cert.harness"]


def to_a_closed_pipe(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Return `utf8cert ARGUMENTS` run with its standard output a pipe whose reading end is
    closed before it starts (as `| head -1` after its line): every write fails, EPIPE."""
    reading, writing = os.pipe()
    os.close(reading)
    try:
        return subprocess.run(
            [*UTF8CERT, *arguments],
            cwd=cwd,
            stdout=writing,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    finally:
        os.close(writing)


@pytest.mark.parametrize(
    "arguments",
    [
        ["vectors", "list"],
        ["vectors", "export"],
        ["adapters"],
        ["check", "--vector", "sur-1"],
        ["check", "--vector", "sur-1", "--json", "-"],
        ["check", "--vector", "sur-1", "--github", "codec:utf-8:surrogatepass"],
        ["matrix", "cpython-strict"],
        ["corpus", "build", "--out", "seeds"],
        ["--help"],
    ],
)
def test_a_reader_that_stops_reading_ends_the_command_quietly(
    arguments: list[str], tmp_path: Path
) -> None:
    done = to_a_closed_pipe(*arguments, cwd=tmp_path)
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr
    assert done.returncode == BROKEN_PIPE or (arguments == ["--help"] and done.returncode == 0)


@pytest.mark.slow
def test_vectors_takes_one_path_and_leaves_the_spec_to_be_checked(tmp_path: Path) -> None:
    extra = tmp_path / "extra.yaml"
    extra.write_text(EXTRA_VECTOR, encoding="utf-8")
    # The user's vector alone (--vector): what is parsed is the point, not a whole check.
    spec = "codec:utf-8:surrogatepass"
    run = check("--vectors", str(extra), spec, "--json", "-", "--vector", "extra-1")
    document = run.json()
    assert document["codec"] == "codec:utf-8:surrogatepass"
    assert run.status == 1
    ids = {difference["vector"] for difference in document["differences"]}
    assert "extra-1" in ids, sorted(ids)[:5]


def matrix(*arguments: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["matrix", "cpython-strict", *arguments])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("option", ["--markdown", "--json", "--html"])
def test_a_matrix_path_that_cannot_be_written_stops_it_before_the_run(
    option: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "docs" / "x.md"
    status, out, err = matrix(option, str(missing), capsys=capsys)
    # No adapter was run: its line of progress would come first.
    assert (status, out) == (2, "")
    assert err == f"utf8cert: error: {option} {missing}: no directory {missing.parent}\n"


@pytest.mark.slow
def test_a_matrix_written_to_dash_goes_to_standard_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, _ = matrix("--json", "-", capsys=capsys)
    assert status == 0
    assert [column["name"] for column in json.loads(out)["columns"]] == ["cpython-strict"]
    assert list(tmp_path.iterdir()) == []
    status, out, err = matrix("--json", "-", "--markdown", "-", capsys=capsys)
    assert (status, out) == (2, "")
    assert err == (
        "utf8cert: error: --markdown - and --json - both write to standard output: choose one\n"
    )


def test_vectors_export_to_dash_is_standard_output_and_a_link_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["vectors", "export", "-o", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["files"]
    link = tmp_path / "vectors.json"
    link.symlink_to(tmp_path / "elsewhere")
    assert main(["vectors", "export", "-o", str(link)]) == 2
    assert "is a symbolic link" in capsys.readouterr().err
    assert not (tmp_path / "elsewhere").exists()


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_a_node_program_that_does_not_start_is_quoted_by_why_not_by_its_version(
    tmp_path: Path,
) -> None:
    # Node.js ends its stderr with its version: the line that says why is above it.
    run = check(f"cmd:node {tmp_path / 'nosuch.js'}")
    assert run.status == 2
    assert "its stderr ends: Node.js v" in run.err
    assert f"its stderr says: Error: Cannot find module '{tmp_path / 'nosuch.js'}'" in run.err


def test_any_program_whose_stderr_ends_in_a_banner_is_quoted_by_its_error(tmp_path: Path) -> None:
    program = tmp_path / "banner.py"
    program.write_text(
        "import sys\n"
        "sys.stderr.write('loading\\nFatal: the table file is missing\\n  at line 3\\n\\n"
        "myruntime 1.2.3\\n')\n"
        "sys.exit(1)\n"
    )
    run = check(f"cmd:{sys.executable} {program}")
    assert run.status == 2
    assert run.err.rstrip("\n").endswith(
        "before the handshake; its stderr ends: myruntime 1.2.3; its stderr says: "
        "Fatal: the table file is missing"
    )


def test_memory_is_in_mib_wherever_it_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--memory MIB" in help_text and "in MiB" in help_text and " MB" not in help_text
    with pytest.raises(SystemExit) as refused:
        main(["check", "--memory", "0"])
    assert refused.value.code == 2
    assert "argument --memory: must be from 1 to 1073741824 MiB, not 0" in capsys.readouterr().err
    protocol = Path(__file__).parents[2] / "harness" / "PROTOCOL.md"
    assert "--memory MIB" in protocol.read_text(encoding="utf-8")
