"""Continuous fuzzing of a project's own codec, built as docs/fuzzing.md says (issue 42): the
guide's `build.sh`, as written there, on a project that commits a wheel of utf8cert (utf8cert is
not on PyPI) and a baseline recorded before its codec regressed, run with the image's `pip3`
(pip itself) and `compile_python_fuzzer` (its steps, as test_fuzz_pyinstaller.py runs them for
this repository's own target); then the packaged fuzzer as the services run it: quiet on every
seed the regression leaves alone, then a crash named after the behaviour.

One build (PyInstaller took two minutes here, eight on a loaded machine): the regression found
by mutation from seeds that do not hold it shows the package runs the judge, the instrumented
codec and the custom mutator."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support.packaged_fuzzers import (
    image_stand_ins,
    require_pyinstaller,
    run_as_shipped,
    utf8cert_wheel,
)

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "fuzzing.md"

CONFORMANT = '''
class Utf8Codec:
    """The project's codec: CPython's, strict."""

    def decode(self, data: bytes) -> str:
        return data.decode("utf-8")
'''
REGRESSED = CONFORMANT.replace('"utf-8"', '"utf-8", "surrogatepass"')  # ED A0 80 read as U+D800
SURROGATE = re.compile(rb"\xed[\xa0-\xbf]")
"""What every input the regression changes holds: the lead and second byte of an encoded
surrogate (strict and surrogatepass decoding differ nowhere else)."""

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


def build_project(tmp_path: Path) -> Path:
    """Lay out the project `mycodec` with its wheel of utf8cert and its baseline, recorded on
    the conformant codec; let the codec regress, run the guide's build.sh; return $OUT."""
    require_pyinstaller()
    src, out, work, bin_dir, site = (
        tmp_path / name for name in ("src", "out", "work", "bin", "site")
    )
    project = src / "mycodec"
    for directory in (project / "mycodec", project / "third_party", out, work):
        directory.mkdir(parents=True)
    (project / "pyproject.toml").write_text(PYPROJECT)
    codec = project / "mycodec" / "__init__.py"
    codec.write_text(CONFORMANT)
    # The guide's step: a wheel of utf8cert built from a clone (here: a copy of this checkout).
    wheel = utf8cert_wheel(tmp_path)
    (project / "third_party" / wheel.name).write_bytes(wheel.read_bytes())
    # The baseline the guide commits, recorded in the developer's environment (this one) on the
    # codec as it was.
    run([sys.executable, "-m", "utf8cert", "check", "mycodec:Utf8Codec", "--quiet",
         "--write-baseline", "utf8cert-baseline.json"], cwd=project,
        env=dict(os.environ, PYTHONPATH=str(project)))  # fmt: skip
    codec.write_text(REGRESSED)
    # The image's pip3: pip, into an empty site directory (the dependencies are here already,
    # as atheris and PyInstaller are in the image); its python3: this interpreter.
    image_stand_ins(
        bin_dir, pip3='#!/bin/sh\nexec "$PYTHON" -m pip "$@" -q --no-deps --target "$SITE"\n'
    )
    build = tmp_path / "build.sh"
    build.write_text(documented_build_script())
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
    run(["bash", str(build)], cwd=project, env=environment)
    return out


@pytest.mark.slow
def test_the_documented_build_of_a_projects_own_codec_packages_a_fuzzer_that_finds_its_regression(
    tmp_path: Path,
) -> None:
    out = build_project(tmp_path)
    # The seeds that hold the regression left out: the campaign has to find it by mutation.
    done = run_as_shipped(
        out, "mycodec_fuzzer", tmp_path, "-runs=100000", "-seed=1",
        seeds_kept=lambda data: SURROGATE.search(data) is None,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode != 0, output[-3000:]
    assert "CodecDiffers_decode_let_ill_formed_input_through_surrogate:" in output, output[-3000:]
    # Every seed ran quiet (libFuzzer says INITED once it has run them all), then the crash.
    inited = re.search(r"^#(\d+)\s+INITED", done.stderr, re.MULTILINE)
    assert inited and int(inited.group(1)) > 900, output[-3000:]
    assert "ERROR: libFuzzer: fuzz target exited" in done.stderr[inited.end() :], output[-3000:]
    (found,) = tmp_path.glob("crash-*")
    assert SURROGATE.search(found.read_bytes()), found.read_bytes()
    # utf8cert packaged from what pip3 installed (the wheel, in $SITE): nothing of this
    # checkout. (Its dependencies come from this environment, which may lie inside the
    # checkout, as CI's .ci/venv does.)
    bundled = tmp_path / "src" / "pyfuzzworkdir" / "mycodec_fuzzer" / "mycodec_fuzzer.pkg"
    toc = (bundled / "PYZ-00.toc").read_text()
    packaged = dict(re.findall(r"\('(utf8cert(?:\.[\w.]+)?)',\s*'([^']*)'", toc))
    assert "utf8cert.harness.fuzzing.target" in packaged, toc[:2000]
    site = f"{tmp_path / 'site'}{os.sep}"
    # A package with no file of its own ('-': utf8cert's top level) comes from nowhere.
    outside = {n: path for n, path in packaged.items() if path != "-" and not path.startswith(site)}
    assert not outside, outside
