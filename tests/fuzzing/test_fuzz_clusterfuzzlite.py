"""The ClusterFuzzLite / OSS-Fuzz layout, tested in parts (there is no Docker engine here).

build.sh runs with stand-ins for the base image's `pip3` and `compile_python_fuzzer` that record
their arguments; the fuzz targets run for real with `-runs=`; the user-project example of
docs/fuzzing.md is run as written.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
LAYOUT = ROOT / ".clusterfuzzlite"
TARGETS = sorted((ROOT / "fuzz").glob("*_fuzzer.py"))


def stand_in(directory: Path, name: str, body: str) -> None:
    path = directory / name
    path.write_text(f'#!/bin/bash\necho "$0 $*" >> {directory}/calls.log\n{body}\n')
    path.chmod(0o755)


def test_project_yaml_and_dockerfile_describe_a_python_project() -> None:
    assert yaml.safe_load((LAYOUT / "project.yaml").read_text()) == {"language": "python"}
    dockerfile = (LAYOUT / "Dockerfile").read_text()
    assert "FROM gcr.io/oss-fuzz-base/base-builder-python" in dockerfile
    assert "COPY .clusterfuzzlite/build.sh $SRC/" in dockerfile


def test_build_script_compiles_each_target_with_its_seed_corpus_and_dictionary(
    tmp_path: Path,
) -> None:
    bin_dir, src, out = tmp_path / "bin", tmp_path / "src", tmp_path / "out"
    for directory in (bin_dir, src, out):
        directory.mkdir()
    (src / "utf8cert").symlink_to(ROOT)
    stand_in(bin_dir, "pip3", "")
    # The base image's compile_python_fuzzer packages a target with PyInstaller into $OUT.
    stand_in(bin_dir, "compile_python_fuzzer", 'cp "$1" "$OUT/$(basename "$1" .py)"')
    environment = dict(os.environ, SRC=str(src), OUT=str(out))
    # python3 is this interpreter's (the image's has utf8cert installed by `pip3 install .`).
    here = Path(sys.executable).parent
    environment["PATH"] = os.pathsep.join([str(bin_dir), str(here), environment["PATH"]])
    done = subprocess.run(
        ["bash", str(LAYOUT / "build.sh")], env=environment, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    calls = (bin_dir / "calls.log").read_text().splitlines()
    assert calls[0].endswith("pip3 install .")
    for target in TARGETS:
        name = target.stem
        assert any(
            call.endswith(
                f"compile_python_fuzzer fuzz/{name}.py --hidden-import=atheris "
                "--collect-submodules=utf8cert.harness.codec --collect-data=utf8cert.vectors "
                "--exclude-module=pytest --exclude-module=_pytest --exclude-module=hypothesis "
                "--exclude-module=rich --exclude-module=pygments"
            )
            for call in calls
        )
        assert (out / name).is_file()
        with zipfile.ZipFile(out / f"{name}_seed_corpus.zip") as archive:
            seeds = {Path(entry).name: archive.read(entry) for entry in archive.namelist()}
        committed = {path.name: path.read_bytes() for path in (ROOT / "corpus/seeds").iterdir()}
        assert {name: seeds[name] for name in committed} == committed
        # Seeds that straddle each boundary: well-formed text with a character cut by it.
        for boundary in (64, 4096, 65536):
            assert any(
                len(data) > boundary
                and 0x80 <= data[boundary] <= 0xBF
                and data.decode("utf-8", "replace").encode("utf-8") == data
                for data in seeds.values()
            ), boundary
        assert (out / f"{name}.dict").read_bytes() == (ROOT / "corpus/utf8.dict").read_bytes()
        options = (out / f"{name}.options").read_text()
        assert re.search(r"^\[libfuzzer\]$", options, re.MULTILINE)
        assert re.search(r"^max_len = 66048$", options, re.MULTILINE)


@pytest.mark.slow
def test_each_target_is_executable_and_starts_and_stops_with_runs(tmp_path: Path) -> None:
    assert TARGETS
    for target in TARGETS:
        assert os.access(target, os.X_OK)
        assert target.read_text().startswith("#!/usr/bin/env python3\n")
        done = subprocess.run(
            [str(target), "-runs=300", "-seed=1", f"-dict={ROOT / 'corpus/utf8.dict'}"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        assert re.search(r"Dictionary: \d+ entries", done.stderr)
        assert "Done 300 runs" in done.stderr


@pytest.mark.slow
def test_the_documented_user_target_fuzzes_its_own_codec(tmp_path: Path) -> None:
    guide = (ROOT / "docs" / "fuzzing.md").read_text()
    example = re.search(r"```python\n(#!/usr/bin/env python3\n.*?)```", guide, re.DOTALL)
    assert example, "docs/fuzzing.md shows a fuzz target"
    script = example.group(1)
    assert 'run("mycodec:Utf8Codec"' in script
    target = tmp_path / "mycodec_fuzzer.py"
    target.write_text(script.replace("mycodec:Utf8Codec", "support.fuzz_codecs:Conformant"))
    target.chmod(0o755)
    environment = dict(os.environ, PYTHONPATH=str(TESTS))
    done = subprocess.run(
        [sys.executable, str(target), "-runs=200", "-seed=1"],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    broken = target.read_text().replace(
        "support.fuzz_codecs:Conformant", "support.fuzz_codecs:ForgetfulIncremental"
    )
    target.write_text(broken)
    done = subprocess.run(
        [sys.executable, str(target), "-runs=20000", "-seed=1"],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode != 0
    output = done.stdout + done.stderr  # atheris prints the exception on stdout
    assert output.count("incremental: rejected well-formed input (must)") == 1  # printed once
    assert "CodecDiffers_decode_rejected_well_formed_input: decode: rejected" in output


def test_the_documented_target_is_the_one_corpus_target_writes(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "utf8cert.harness", "corpus", "target", "mycodec:Utf8Codec"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    written = tmp_path / "fuzz" / "mycodec_fuzzer.py"
    assert done.stdout.strip() == str(Path("fuzz") / "mycodec_fuzzer.py")
    assert os.access(written, os.X_OK)
    guide = (ROOT / "docs" / "fuzzing.md").read_text()
    assert f"```python\n{written.read_text()}```" in guide


def test_a_target_name_that_is_no_file_stem_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "utf8cert.harness", "corpus", "target", "m:C", "--name", "../x"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "not a fuzz target name" in done.stderr
    assert not list(tmp_path.rglob("*.py"))
