"""Coverage from the Python libraries behind `adapter:` specs (target.py): their branches guide a
campaign as a MODULE:ATTR codec's do. Run in child processes: atheris' instrumentation changes
the functions it touches for the rest of the process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from utf8cert.harness.fuzzing.target import ADAPTER_LIBRARIES, instrumented_packages
from utf8cert.harness.world.catalog import PYTHON_ADAPTERS

PROBE = """
import sys
import atheris
import {module} as library
from utf8cert.harness.fuzzing.target import load_instrumented

function = {function}
before = function.__code__
load_instrumented(atheris, {spec!r})
print(function.__code__ is not before)
"""


def changed_by_instrumenting(spec: str, module: str, function: str, tmp_path: Path) -> bool:
    """Return whether loading `spec` for a campaign instrumented `function` of `module`."""
    code = PROBE.format(spec=spec, module=module, function=function)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip().splitlines()[-1] == "True"


def test_each_listed_adapter_exists_and_its_library_is_what_it_imports() -> None:
    assert set(ADAPTER_LIBRARIES) <= set(PYTHON_ADAPTERS)
    assert instrumented_packages("adapter:pyyaml-pure") == ["yaml"]
    assert instrumented_packages("adapter:glibc-iconv") == []  # C: nothing atheris can see


def test_a_library_utf8cert_had_imported_is_instrumented_in_place(tmp_path: Path) -> None:
    # utf8cert imports json itself, so atheris' import hook would never see it load.
    assert changed_by_instrumenting(
        "adapter:json", "json.decoder", "library.JSONDecoder.raw_decode", tmp_path
    )


@pytest.mark.slow
def test_a_library_imported_for_the_adapter_is_instrumented(tmp_path: Path) -> None:
    # PyYAML's pure-Python scanner reads the scalar's characters: its branches now count.
    code = (
        "import atheris, sys\n"
        "from utf8cert.harness.fuzzing.target import load_instrumented\n"
        "assert 'yaml' not in sys.modules\n"
        "load_instrumented(atheris, 'adapter:pyyaml-pure')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Instrumenting yaml.scanner" in done.stdout + done.stderr
