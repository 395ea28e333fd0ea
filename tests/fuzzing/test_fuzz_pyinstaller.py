"""The ClusterFuzzLite / OSS-Fuzz build for real: PyInstaller packages a generated fuzz target as
the base image's `compile_python_fuzzer` does, and the packaged fuzzer runs as the services run
it, with the shipped options, dictionary and seed zip (there is no Docker engine here: the build
script runs on this machine with a stand-in for the image's `pip3` and that one script).

The target is the one a user gets from `utf8cert corpus target SPEC`, for a codec that drops a
character cut by a 4096-byte page: with libFuzzer's default max_len (4096) and the vectors' seeds
alone a service run found nothing in 60 s (issue 22).
"""

from __future__ import annotations

import configparser
import importlib.util
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
BUILD = ROOT / ".clusterfuzzlite" / "build.sh"

# What the base-builder-python image's compile_python_fuzzer does (its `pyinstaller` run as this
# interpreter's module, wherever pip put the script): PyInstaller makes one
# executable NAME.pkg of the target (the build's extra arguments passed on), and NAME is a shell
# wrapper running it (the services look for that name; the LD_PRELOAD of a sanitizer library is
# left out: the target has no native code of its own).
COMPILE_PYTHON_FUZZER = """#!/bin/bash -eu
fuzzer_path=$1
shift 1
name=$(basename -s .py "$fuzzer_path")
"$PYTHON" -m PyInstaller --distpath "$OUT" --workpath "$WORK/$name" --specpath "$WORK" --onefile \\
  --name "$name.pkg" "$@" "$fuzzer_path"
printf '#!/bin/sh\\n# LLVMFuzzerTestOneInput for fuzzer detection.\\nthis_dir=$(dirname "$0")\\n'\\
'"$this_dir/%s.pkg" "$@"\\n' "$name" > "$OUT/$name"
chmod +x "$OUT/$name"
"""


def libfuzzer_flags(options: Path) -> list[str]:
    """Return the flags of a `.options` file's [libfuzzer] section, as the services pass them."""
    parser = configparser.ConfigParser()
    parser.read(options)
    return [f"-{key}={value}" for key, value in parser["libfuzzer"].items()]


@pytest.mark.slow
def test_the_packaged_target_finds_a_4096_page_bug_with_the_shipped_options(
    tmp_path: Path,
) -> None:
    if importlib.util.find_spec("PyInstaller") is None:
        pytest.fail("PyInstaller is missing: pip install -e '.[dev]'")
    bin_dir, src, out, work = (tmp_path / name for name in ("bin", "src", "out", "work"))
    for directory in (bin_dir, src / "utf8cert", out, work):
        directory.mkdir(parents=True)
    # What the image's `pip3 install .` does: utf8cert installed for real (PyInstaller cannot
    # follow an editable install's import hook), with its vectors as package data.
    site = tmp_path / "site"
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), ROOT],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert installed.returncode == 0, installed.stderr[-3000:]
    environment = dict(
        os.environ,
        SRC=str(src),
        OUT=str(out),
        WORK=str(work),
        PYTHON=sys.executable,
        # utf8cert as installed, and the user's codec module (tests/), as if pip-installed too.
        PYTHONPATH=os.pathsep.join([str(site), str(TESTS)]),
        PATH=os.pathsep.join([str(bin_dir), str(Path(sys.executable).parent), os.environ["PATH"]]),
    )
    spec = "broken_codecs:Page4096Decoder"
    generated = subprocess.run(
        [sys.executable, "-m", "utf8cert.harness", "corpus", "target", spec],
        cwd=src / "utf8cert",
        env=environment,
        capture_output=True,
        text=True,
    )
    assert generated.returncode == 0, generated.stderr
    name = Path(generated.stdout.strip()).stem
    (bin_dir / "pip3").write_text("#!/bin/sh\n")  # installed above
    (bin_dir / "compile_python_fuzzer").write_text(COMPILE_PYTHON_FUZZER)
    for stand_in in bin_dir.iterdir():
        stand_in.chmod(0o755)
    built = subprocess.run(
        ["bash", str(BUILD)], env=environment, capture_output=True, text=True, timeout=900
    )
    assert built.returncode == 0, built.stderr[-3000:]
    fuzzer = out / name
    assert fuzzer.is_file() and (out / f"{name}.pkg").is_file()
    flags = libfuzzer_flags(out / f"{name}.options")
    assert "-max_len=66048" in flags
    seeds, corpus = tmp_path / "seeds", tmp_path / "corpus"
    corpus.mkdir()
    with zipfile.ZipFile(out / f"{name}_seed_corpus.zip") as archive:
        archive.extractall(seeds)
    # Run as the services run it: the bundle alone, no PYTHONPATH, no utf8cert source tree.
    bare = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    done = subprocess.run(
        [
            str(fuzzer),
            *flags,
            f"-dict={out / f'{name}.dict'}",
            "-max_total_time=60",
            "-seed=1",
            str(corpus),
            str(seeds),
        ],
        cwd=tmp_path,
        env=bare,
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = done.stdout + done.stderr
    assert done.returncode != 0, output[-3000:]
    assert "CodecDiffers_decode_wrong_text: decode: wrong text" in output, output[-3000:]
    # The service's crash file: a character cut by the 4096-byte page, dropped by the codec.
    (crash,) = tmp_path.glob("crash-*")
    data = crash.read_bytes()
    assert len(data) > 4096 and 0x80 <= data[4096] <= 0xBF
