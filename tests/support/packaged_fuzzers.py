"""The ClusterFuzzLite / OSS-Fuzz build emulated on this machine (no Docker engine here), for the
slow tests of packaged fuzz targets: a wheel of utf8cert as a clone of it builds one, the base
image's `compile_python_fuzzer` and `pip3` as stand-ins on PATH, and the packaged fuzzer run as
the services run it, with the options, dictionary and seed corpus the build shipped.

Shared by tests/fuzzing/test_fuzz_pyinstaller.py (this repository's own target) and
tests/fuzzing/test_fuzz_user_build.py (a project's own codec, as docs/fuzzing.md builds it).
"""

from __future__ import annotations

import configparser
import importlib.util
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The steps of the base-builder-python image's compile_python_fuzzer (oss-fuzz,
# infra/base-images/base-builder/compile_python_fuzzer), less its coverage, introspector and
# PySecSan branches: PyInstaller makes one executable NAME.pkg of the target in $OUT (the build's
# extra arguments passed on, its work under $SRC/pyfuzzworkdir/NAME), the package loses its
# executable bit (the services find targets by that bit), and NAME is a shell wrapper that gives
# it back and runs it with the sanitizer runtime preloaded (absent here: ld.so says so and goes
# on, as it does for a target with no native code of its own).
COMPILE_PYTHON_FUZZER = """#!/bin/bash -eu
fuzzer_path=$1
shift 1
fuzzer_basename=$(basename -s .py "$fuzzer_path")
fuzzer_package=$fuzzer_basename.pkg
PYFUZZ_WORKPATH=$SRC/pyfuzzworkdir/
FUZZ_WORKPATH=$PYFUZZ_WORKPATH/$fuzzer_basename
rm -rf "$FUZZ_WORKPATH"
mkdir -p "$PYFUZZ_WORKPATH" "$FUZZ_WORKPATH"
"$PYTHON" -m PyInstaller --distpath "$OUT" --workpath="$FUZZ_WORKPATH" \\
  --specpath "$FUZZ_WORKPATH" --onefile --name "$fuzzer_package" "$@" "$fuzzer_path"
chmod -x "$OUT/$fuzzer_package"
printf '#!/bin/sh\\n# LLVMFuzzerTestOneInput for fuzzer detection.\\nthis_dir=$(dirname "$0")\\n'\\
'chmod +x "$this_dir/%s"\\n'\\
'LD_PRELOAD=$this_dir/sanitizer_with_fuzzer.so '\\
'ASAN_OPTIONS=$ASAN_OPTIONS:symbolize=1:detect_leaks=0 "$this_dir/%s" "$@"\\n' \\
  "$fuzzer_package" "$fuzzer_package" > "$OUT/$fuzzer_basename"
chmod +x "$OUT/$fuzzer_basename"
"""

NOT_SOURCE = shutil.ignore_patterns(
    ".git", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis", ".venv",
    "venv*", "artifacts",
)  # fmt: skip
"""What a clone of utf8cert does not hold: what builds, installs and test runs leave behind."""


def require_pyinstaller() -> None:
    """Return when PyInstaller can be imported; fail the test with how to install it if not."""
    if importlib.util.find_spec("PyInstaller") is None:
        pytest.fail("PyInstaller is missing: pip install -e '.[dev]'")


def utf8cert_wheel(directory: Path) -> Path:
    """Return a wheel of utf8cert built in `directory` from a copy of this checkout, as from a
    clone (setuptools builds in its source tree: built from the checkout itself, two tests at
    once would share its build/, and a module deleted since the last build would still ship)."""
    source = directory / "utf8cert"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    wheels = directory / "wheels"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(source), "-w", str(wheels)],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-3000:]
    (wheel,) = wheels.glob("utf8cert-*.whl")
    return wheel


def image_stand_ins(bin_dir: Path, pip3: str) -> None:
    """Write into `bin_dir` (which goes first on PATH) the base image's `compile_python_fuzzer`,
    its `pip3` as the script `pip3`, and `python3` as this interpreter."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    (bin_dir / "compile_python_fuzzer").write_text(COMPILE_PYTHON_FUZZER)
    (bin_dir / "pip3").write_text(pip3)
    for script in ("compile_python_fuzzer", "pip3"):
        (bin_dir / script).chmod(0o755)
    (bin_dir / "python3").symlink_to(sys.executable)


def libfuzzer_flags(options: Path) -> list[str]:
    """Return the flags of a `.options` file's [libfuzzer] section, as the services pass them."""
    parser = configparser.ConfigParser()
    parser.read(options)
    return [f"-{key}={value}" for key, value in parser["libfuzzer"].items()]


def run_packaged(fuzzer: Path, *arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run a built fuzzer as the services run it: the bundle alone, no PYTHONPATH, no utf8cert
    source tree."""
    bare = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return subprocess.run(
        [str(fuzzer), *arguments], cwd=cwd, env=bare, capture_output=True, text=True, timeout=900
    )


def run_as_shipped(
    out: Path,
    name: str,
    work: Path,
    *arguments: str,
    seeds_kept: Callable[[bytes], bool] = lambda data: True,
) -> subprocess.CompletedProcess[str]:
    """Run the fuzzer NAME of `out` in `work` as the services run a campaign: its `.options`
    flags, its dictionary, an empty corpus, its seed corpus (the seeds `seeds_kept` keeps), then
    `arguments`; return the finished run. Checks first that the build shipped all of them."""
    fuzzer = out / name
    assert fuzzer.is_file() and (out / f"{name}.pkg").is_file()
    flags = libfuzzer_flags(out / f"{name}.options")
    assert "-max_len=66048" in flags
    seeds, corpus = work / "seeds", work / "corpus"
    corpus.mkdir()
    with zipfile.ZipFile(out / f"{name}_seed_corpus.zip") as archive:
        archive.extractall(seeds)
    for path in list(seeds.iterdir()):
        if not seeds_kept(path.read_bytes()):
            path.unlink()
    dictionary = f"-dict={out / f'{name}.dict'}"
    return run_packaged(fuzzer, *flags, dictionary, *arguments, str(corpus), str(seeds), cwd=work)
