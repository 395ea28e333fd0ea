"""Continuous fuzzing of a project's own codec, built as docs/fuzzing.md says (issue 42): the
guide's `build.sh`, as written there, on a project that commits a wheel of utf8cert (utf8cert is
not on PyPI), run with the image's `pip3` (pip itself) and `compile_python_fuzzer` (its steps,
as test_fuzz_pyinstaller.py runs them for this repository's own target); then the packaged
fuzzer as the services run it: quiet on the codec the baseline was recorded for, a crash named
after the behaviour once the codec regresses."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from fuzzing.test_fuzz_pyinstaller import COMPILE_PYTHON_FUZZER, libfuzzer_flags, run_packaged

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "fuzzing.md"

CONFORMANT = '''
class Utf8Codec:
    """The project's codec: CPython's, strict."""

    def decode(self, data: bytes) -> str:
        return data.decode("utf-8")
'''
REGRESSED = CONFORMANT.replace('"utf-8"', '"utf-8", "surrogatepass"')  # ED A0 80 read as U+D800

PYPROJECT = """[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "mycodec"
version = "1.0"

[tool.setuptools]
packages = ["mycodec"]
"""


def documented_build_script() -> str:
    """Return the `.clusterfuzzlite/build.sh` docs/fuzzing.md gives a project."""
    found = re.search(
        r"`\.clusterfuzzlite/build\.sh` \(the target written again.*?```sh\n(.*?)```",
        GUIDE.read_text(),
        re.DOTALL,
    )
    assert found, "docs/fuzzing.md shows a project's build.sh"
    return found.group(1)


def run(argv: list[str], **options: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=1800, **options)  # type: ignore[call-overload]
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    return done  # type: ignore[no-any-return]


def build_project(tmp_path: Path, codec: str) -> Path:
    """Lay out the project `mycodec` with `codec` as its module, its wheel of utf8cert and its
    baseline (recorded on the conformant codec), run the guide's build.sh; return $OUT."""
    src, out, work, bin_dir, site = (
        tmp_path / name for name in ("src", "out", "work", "bin", "site")
    )
    project = src / "mycodec"
    for directory in (project / "mycodec", project / "third_party", out, work, bin_dir):
        directory.mkdir(parents=True)
    (project / "pyproject.toml").write_text(PYPROJECT)
    (project / "mycodec" / "__init__.py").write_text(CONFORMANT)
    # The guide's step: a wheel of utf8cert built from a clone (here: this checkout).
    run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(ROOT), "-w",
         str(project / "third_party")])  # fmt: skip
    environment = dict(
        os.environ,
        SRC=str(src),
        OUT=str(out),
        WORK=str(work),
        PYTHON=sys.executable,
        SITE=str(site),
        PYTHONPATH=str(site),  # what pip3 installs, and nothing of this checkout
        PATH=os.pathsep.join([str(bin_dir), os.environ["PATH"]]),
    )
    # The image's pip3: pip, into the site directory (the dependencies are here already, as
    # atheris and PyInstaller are in the image); its python3: this interpreter.
    (bin_dir / "pip3").write_text(
        '#!/bin/sh\nexec "$PYTHON" -m pip "$@" -q --no-deps --target "$SITE"\n'
    )
    (bin_dir / "python3").symlink_to(sys.executable)
    (bin_dir / "compile_python_fuzzer").write_text(COMPILE_PYTHON_FUZZER)
    for stand_in in bin_dir.iterdir():
        if not stand_in.is_symlink():
            stand_in.chmod(0o755)
    build = tmp_path / "build.sh"
    build.write_text(documented_build_script())
    # The baseline the guide commits: recorded by the installed utf8cert on the codec as it was.
    run(["bash", "-c", f'pip3 install "$(ls {project}/third_party/utf8cert-*.whl)" {project}'],
        env=environment)  # fmt: skip
    run([sys.executable, "-m", "utf8cert.harness", "check", "mycodec:Utf8Codec", "--quiet",
         "--write-baseline", "utf8cert-baseline.json"], cwd=project, env=environment)  # fmt: skip
    (project / "mycodec" / "__init__.py").write_text(codec)
    run(["bash", str(build)], cwd=project, env=environment)
    return out


@pytest.mark.slow
@pytest.mark.parametrize(("codec", "crashes"), [(CONFORMANT, False), (REGRESSED, True)])
def test_the_documented_build_of_a_projects_own_codec_packages_a_fuzzer_that_runs(
    tmp_path: Path, codec: str, crashes: bool
) -> None:
    out = build_project(tmp_path, codec)
    name = "mycodec_fuzzer"
    fuzzer = out / name
    assert fuzzer.is_file() and (out / f"{name}.pkg").is_file()
    flags = libfuzzer_flags(out / f"{name}.options")
    assert "-max_len=66048" in flags
    seeds, corpus = tmp_path / "seeds", tmp_path / "corpus"
    corpus.mkdir()
    with zipfile.ZipFile(out / f"{name}_seed_corpus.zip") as archive:
        archive.extractall(seeds)
    done = run_packaged(
        fuzzer, *flags, f"-dict={out / f'{name}.dict'}", "-runs=3000", "-seed=1", str(corpus),
        str(seeds), cwd=tmp_path,
    )  # fmt: skip
    output = done.stdout + done.stderr
    if crashes:
        assert done.returncode != 0, output[-3000:]
        assert "CodecDiffers_decode_let_ill_formed_input_through_surrogate" in output
    else:
        assert done.returncode == 0, output[-3000:]
        assert "Done 3000 runs" in output
