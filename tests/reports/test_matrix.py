"""The conformance matrix: its views, and the committed docs/matrix.md regenerated here."""

from __future__ import annotations

import json
import os
import pty
import re
import runpy
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from support.samples import few_of_each_kind

from utf8cert.harness import load_codec, load_vectors, run_check
from utf8cert.harness.check.run import only_these
from utf8cert.harness.cli.main import main
from utf8cert.harness.reports.matrix import (
    Column,
    build,
    checked_column,
    pruned,
    to_html,
    to_json,
    to_markdown,
)
from utf8cert.harness.reports.matrix_pages import pages, summary
from utf8cert.harness.world.catalog import PYTHON_ADAPTERS, registry

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "docs" / "matrix.md"
SUMMARY_LIMIT = 400 * 1024
"""The summary stays well under what GitHub renders of a Markdown file (issue 33)."""
COMMITTED_LIMIT = 1024 * 1024
"""No file under docs/ is larger: the matrix's pages, JSON and HTML are CI's artefact (issue 41)."""
REGENERATE = "utf8cert matrix --python --markdown docs/matrix.md"
"""The command of docs/adapters.md for the Python adapters (the test reruns them)."""
PUBLISH = "scripts/build-matrix"
"""What made the committed summary (every adapter) and the artefact beside it."""


@cache
def two_codecs() -> tuple[Column, ...]:
    """Return columns for CPython's strict and surrogatepass codecs and one skipped codec,
    checked once for the tests of this module (build() makes a new matrix of them each time),
    on a few vectors of each kind (support.samples: every file, so every theme, has its rows)."""
    vectors = only_these(load_vectors(), few_of_each_kind())
    return (
        *(
            checked_column(name, name, "1", run_check(load_codec(spec), vectors))
            for name, spec in (("strict", "codec:utf-8"), ("pass", "codec:utf-8:surrogatepass"))
        ),
        Column("absent", "absent", "unknown", skipped="No module named 'absent'"),
    )


@pytest.mark.slow
def test_cells_are_pass_or_the_kind_of_difference_and_pruning_keeps_disagreements() -> None:
    matrix = build(two_codecs())
    surrogates = matrix.behaviours["ill-formed-surrogates · decode"]
    assert surrogates["strict"] == "pass"
    # The cell names the behaviour, in the words of the check report's groups.
    assert surrogates["pass"].startswith("must: let ill-formed input through (surrogate)")
    assert matrix.vectors["sur-1 · decode"]["pass"] == (
        "must: let ill-formed input through (surrogate)"
    )
    assert "ill-formed-surrogates · decode" in pruned(matrix.behaviours)
    assert "well-formed · decode" not in pruned(matrix.behaviours)  # both pass
    assert all(cells["strict"] == "pass" for cells in matrix.vectors.values())


def test_the_markdown_lists_by_vector_only_the_codecs_that_depart() -> None:
    # CPython's surrogatepass decodes ED A0 80 (sur-1); its strict codec refuses it.
    markdown = to_markdown(build(two_codecs()))
    vectors = markdown.partition("## Vectors on which the codecs disagree (pruned)")[2]
    [row] = [line for line in vectors.splitlines() if line.startswith("| sur-1 · decode |")]
    assert row == "| sur-1 · decode | **must: let ill-formed input through (surrogate)**: pass |"
    assert "| strict" not in vectors and " strict" not in row  # it passes every vector


def test_json_and_html_carry_versions_fingerprints_and_skips_and_html_stands_alone() -> None:
    matrix = build(two_codecs())
    data = to_json(matrix)
    columns = {column["name"]: column for column in data["columns"]}
    assert columns["absent"]["skipped"] == "No module named 'absent'"
    assert columns["strict"]["fingerprint"] != columns["pass"]["fingerprint"]
    page = to_html(matrix)
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page
    assert not re.search(r"(src|href)=", page)  # nothing to fetch: one self-contained page


def test_the_summary_has_a_level_a_cell_and_a_page_per_codec_and_per_theme() -> None:
    matrix = build(two_codecs())
    text = summary(matrix, "matrix")
    lines = text.splitlines()
    header = next(line for line in lines if line.startswith("| codec | automaton | bom |"))
    themes = [cell.strip() for cell in header.strip("|").split("|")]

    def levels(link: str) -> dict[str, str]:
        row = next(line for line in lines if line.startswith(f"| {link} |"))
        return dict(zip(themes, (cell.strip() for cell in row.strip("|").split("|")), strict=True))

    surrogatepass, strict = levels("[pass](matrix/pass.md)"), levels("[strict](matrix/strict.md)")
    assert surrogatepass["ill-formed-surrogates"] == "must"  # ED A0 80 read as U+D800
    assert surrogatepass["ill-formed-overlong"] == "pass"
    assert set(list(strict.values())[1:]) == {"pass"}
    assert "| `adapter:absent` |" in text  # skipped: no page
    written = pages(matrix)
    assert {"pass.md", "strict.md", "vectors-ill-formed-surrogates.md"} <= set(written)
    assert (
        "| sur-1 · decode | must: let ill-formed input through (surrogate) |" in written["pass.md"]
    )
    assert "## Vectors it departs on (0)" in written["strict.md"]
    assert (
        "| sur-1 · decode | **must: let ill-formed input through (surrogate)**: pass |"
        in written["vectors-ill-formed-surrogates.md"]
    )


ROW = re.compile(r"(?<!\\)\|")
"""A cell border of a Markdown table row (a `|` in a cell is escaped)."""


def table(text: str, head: str) -> dict[str, dict[str, str]]:
    """Return the rows of the summary's table whose header starts with `head`, by codec (its
    name without `adapter:` and backquotes), each a dict of the other columns by header."""
    lines = text.splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith(head))

    def cells(line: str) -> list[str]:
        return [cell.strip() for cell in ROW.split(line.strip())[1:-1]]

    names = cells(lines[start])
    rows = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        row = dict(zip(names, cells(line), strict=True))
        rows[row.pop("codec").strip("`").removeprefix("adapter:")] = row
    return rows


def test_the_summary_tables_are_read_back_as_written() -> None:
    text = summary(build(two_codecs()))
    codecs, levels = table(text, "| codec | version |"), table(text, "| codec | automaton |")
    assert set(codecs) == {"strict", "pass", "absent"}
    assert codecs["absent"]["verdict"] == "skipped: No module named 'absent'"
    assert codecs["pass"]["verdict"].startswith("NOT conformant")
    assert set(levels) == {"strict", "pass"}  # a skipped codec has no levels
    assert levels["pass"]["ill-formed-surrogates"] == "must"


@pytest.mark.slow  # docs/adapters.md's command run as shown: every Python adapter, every vector
def test_the_committed_summary_is_what_the_python_adapters_do_here(tmp_path: Path) -> None:
    """Run docs/adapters.md's command; a verdict, fingerprint or level that changed for a
    library whose version did not is an unexplained change (a version that differs, or a
    library missing here, explains it)."""
    text = COMMITTED.read_text(encoding="utf-8")
    committed, committed_levels = (
        table(text, "| codec | version |"),
        table(text, "| codec | automaton |"),
    )
    assert set(committed) == set(registry()), f"run `{PUBLISH}`"
    assert COMMITTED.stat().st_size <= SUMMARY_LIMIT  # the summary renders on GitHub
    (tmp_path / "docs").mkdir()
    command = ["utf8cert", *REGENERATE.split()[1:], "--html", "matrix.html"]
    finished = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=False)
    assert finished.returncode == 0, finished.stderr
    assert (tmp_path / "matrix.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    fresh_text = (tmp_path / "docs" / "matrix.md").read_text(encoding="utf-8")
    fresh, fresh_levels = (
        table(fresh_text, "| codec | version |"),
        table(fresh_text, "| codec | automaton |"),
    )
    assert set(fresh) == set(PYTHON_ADAPTERS)
    comparable = [
        name
        for name, row in fresh.items()
        if not row["verdict"].startswith("skipped") and row["version"] == committed[name]["version"]
    ]
    if not comparable:
        pytest.skip("no Python adapter here has the version the committed summary shows")
    changed = [
        f"{name}: {committed[name]} -> {fresh[name]}"
        for name in comparable
        if fresh[name] != committed[name] or fresh_levels[name] != committed_levels.get(name)
    ]
    assert not changed, f"unexplained change; if intended, run `{PUBLISH}`: {changed[:5]}"


def test_no_file_under_docs_is_over_a_megabyte() -> None:
    large = [
        f"{path.relative_to(ROOT)}: {path.stat().st_size} bytes"
        for path in (ROOT / "docs").rglob("*")
        if path.is_file() and path.stat().st_size > COMMITTED_LIMIT
    ]
    assert not large, f"generated? `{PUBLISH}` writes the matrix's data outside docs/: {large}"


def test_the_build_script_writes_the_summary_the_matrix_command_would(tmp_path: Path) -> None:
    # scripts/build-matrix checks the adapters once, then renders docs/matrix.md from the JSON.
    from_json = runpy.run_path(str(ROOT / PUBLISH))["from_json"]  # not run as __main__
    matrix = build(two_codecs())
    matrix.measured = "2026-12-06 12:00 UTC"
    data = json.loads(json.dumps(to_json(matrix)))
    assert summary(from_json(data)) == summary(matrix)


THIRD_PARTY = ("orjson", "ujson", "simplejson", "rapidjson", "msgspec", "msgpack", "cbor2", "lxml")

WITHOUT_EXTRAS = """
import sys
for name in {modules!r}:
    sys.modules[name] = None  # what the import system does for a package that is not there
"""
"""A sitecustomize.py: run at the start of every Python process that has it on its path, the
matrix's worker processes too."""


@pytest.mark.slow
def test_with_only_the_core_installed_the_missing_adapters_are_skipped_with_reasons(
    tmp_path: Path,
) -> None:
    output = tmp_path / "matrix.json"
    names = ["cpython-strict", "json", "orjson", "msgspec-msgpack", "msgpack", "cbor2", "lxml"]
    (tmp_path / "sitecustomize.py").write_text(WITHOUT_EXTRAS.format(modules=THIRD_PARTY))
    command = [sys.executable, "-m", "utf8cert.harness", "matrix", *names, "--json", str(output)]
    environment = {**os.environ, "PYTHONPATH": str(tmp_path)}
    finished = subprocess.run(
        command, capture_output=True, text=True, timeout=300, check=False, env=environment
    )
    assert finished.returncode == 0, finished.stderr
    columns = {c["name"]: c for c in json.loads(output.read_text(encoding="utf-8"))["columns"]}
    assert columns["cpython-strict"]["verdict"].startswith("conformant")
    assert columns["json"]["skipped"] is None
    for name in ("orjson", "msgspec-msgpack", "msgpack", "cbor2", "lxml"):
        assert columns[name]["verdict"] is None
        assert "ModuleNotFoundError" in columns[name]["skipped"]
        assert "pip install 'utf8cert[adapters]'" in columns[name]["skipped"]
        assert f"{name}: ModuleNotFoundError" in finished.stderr


def _stderr_on_a_terminal(command: list[str], environment: dict[str, str]) -> tuple[int, str]:
    """Return the exit status of `command` and what it wrote to its standard error, a terminal
    (a pseudo-terminal this test reads), standard output a pipe."""
    reader, writer = pty.openpty()
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=writer, env=environment) as run:
        os.close(writer)
        chunks = []
        while True:
            try:
                chunk = os.read(reader, 65536)
            except OSError:  # EIO: the terminal's last writer has gone
                break
            if not chunk:
                break
            chunks.append(chunk)
        os.close(reader)
        assert run.stdout is not None
        run.stdout.read()
        status = run.wait(timeout=300)
    return status, b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.slow
def test_the_matrix_counts_the_adapters_n_of_n_on_a_terminal_and_not_in_a_log(
    tmp_path: Path,
) -> None:
    # Three adapters whose packages are made absent: each skipped at once, with its reason.
    (tmp_path / "sitecustomize.py").write_text(WITHOUT_EXTRAS.format(modules=THIRD_PARTY))
    names = ["orjson", "msgpack", "cbor2"]
    command = [sys.executable, "-m", "utf8cert.harness", "matrix", *names, "--jobs", "1"]
    environment = {**os.environ, "PYTHONPATH": str(tmp_path), "TERM": "xterm", "COLUMNS": "120"}
    environment.pop("NO_COLOR", None)
    status, shown = _stderr_on_a_terminal(command, environment)
    assert status == 0, shown
    assert "checking adapters" in shown and "3 of 3" in shown, shown
    for name in names:
        assert f"{name}: ModuleNotFoundError" in shown
    logged = subprocess.run(
        command, capture_output=True, text=True, timeout=300, check=False, env=environment
    )
    assert logged.returncode == 0, logged.stderr
    assert [line.split(":")[0] for line in logged.stderr.splitlines()] == names
    assert " of 3" not in logged.stderr


def test_an_unknown_adapter_name_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["matrix", "nonesuch"]) == 2
    assert "no adapter named nonesuch" in capsys.readouterr().err


@pytest.mark.slow
def test_the_users_own_codec_spec_is_a_column_beside_the_adapters(tmp_path: Path) -> None:
    """Issue 42: `utf8cert matrix mypkg.codec:Utf8Buggy cpython-strict` was 'no adapter named'.
    Its column is named by its spec, and its verdict is the one `check` gives it (the two bugs
    of tests/support/user_codecs.py let surrogates and bad third bytes through)."""
    written = tmp_path / "m.json"
    spec = "support.user_codecs:Utf8Buggy"
    assert main(["matrix", spec, "--jobs", "1", "--json", str(written)]) == 0
    (column,) = json.loads(written.read_text(encoding="utf-8"))["columns"]
    assert column["name"] == spec and column["skipped"] is None
    assert column["verdict"].startswith("NOT conformant to RFC 3629: 2 behaviours")


def test_pages_are_written_beside_a_summary_that_links_to_them(tmp_path: Path) -> None:
    summary_file, folder = tmp_path / "matrix.md", tmp_path / "matrix"
    arguments = ["matrix", "cpython-strict", "--markdown", str(summary_file), "--jobs", "1"]
    assert main([*arguments, "--pages", str(folder), "--json", str(tmp_path / "m.json")]) == 0
    text = summary_file.read_text(encoding="utf-8")
    assert "[adapter:cpython-strict](matrix/cpython-strict.md)" in text
    assert (
        (folder / "cpython-strict.md")
        .read_text(encoding="utf-8")
        .startswith("# adapter:cpython-strict")
    )
    assert (folder / "vectors-unencodable-runs.md").is_file()
    assert json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))["measured"].endswith("UTC")


def test_pages_in_a_place_that_cannot_be_a_folder_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    assert main(["matrix", "cpython-strict", "--pages", str(tmp_path / "file" / "pages")]) == 2
    assert "--pages" in capsys.readouterr().err


def test_adapters_lists_each_with_its_version_or_why_not(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["adapters"]) == 0
    listing = capsys.readouterr().out
    for name in PYTHON_ADAPTERS:
        assert f"adapter:{name} " in listing
    assert "CPython 3." in listing


WITH_A_CRASHING_ADAPTER = """
import sys
sys.path.insert(0, {tests!r})
from utf8cert.harness.world import catalog
from utf8cert.harness.world.adapters.entry import PythonAdapter

everything = catalog.registry


def registry():
    entries = everything()
    entries["segfault"] = PythonAdapter(
        "segfault",
        "dies of SIGSEGV on C0",
        "support.hostile_codecs:SegfaultOnC0",
        lambda: "planted 1",
    )
    return entries


catalog.registry = registry
"""
"""A sitecustomize.py adding `adapter:segfault` (tests/support/hostile_codecs.py) to the matrix's
parent and workers alike."""


@pytest.mark.slow
def test_an_adapter_that_kills_its_worker_is_marked_and_the_others_are_checked(
    tmp_path: Path,
) -> None:
    tests = str(Path(__file__).resolve().parents[1])
    (tmp_path / "sitecustomize.py").write_text(WITH_A_CRASHING_ADAPTER.format(tests=tests))
    output = tmp_path / "matrix.json"
    names = ["cpython-strict", "segfault", "cpython-surrogatepass", "json"]
    command = [sys.executable, "-m", "utf8cert.harness", "matrix", *names, "--jobs", "2"]
    environment = {**os.environ, "PYTHONPATH": str(tmp_path)}
    finished = subprocess.run(
        [*command, "--json", str(output)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env=environment,
    )
    assert finished.returncode == 0, finished.stderr
    columns = [c for c in json.loads(output.read_text(encoding="utf-8"))["columns"]]
    assert [c["name"] for c in columns] == names
    by_name = {c["name"]: c for c in columns}
    assert by_name["segfault"]["verdict"] is None
    assert by_name["segfault"]["skipped"].startswith("crashed the process that checked it")
    # Whatever was in flight beside it when it crashed is checked again, not lost.
    assert by_name["cpython-strict"]["verdict"].startswith("conformant")
    assert by_name["cpython-surrogatepass"]["verdict"].startswith("NOT conformant")
    assert by_name["json"]["verdict"].startswith("NOT conformant")


def test_jobs_must_be_a_positive_number(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["matrix", "cpython-strict", "--jobs", "0"])
    assert stopped.value.code == 2
    assert "expected a number of workers (1 or more), got '0'" in capsys.readouterr().err
