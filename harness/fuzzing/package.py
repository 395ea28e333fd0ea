"""What a ClusterFuzzLite or OSS-Fuzz fuzz target ships: the target script for a codec, and beside
the built fuzzer its `.options`, dictionary and seed corpus zip.

The services run a Python target as libFuzzer runs any other: the flags come from NAME.options
(`[libfuzzer]` section), a NAME.dict beside the fuzzer is its dictionary, and
NAME_seed_corpus.zip its first corpus. Left to themselves they run with libFuzzer's default
max_len of 4096 and seeds no longer than the vectors, where no input reaches the 4096- and
65536-byte boundaries; so the options give utf8cert's default max_len, and the zip holds the
straddling seeds beside the vectors' inputs (corpus.py).
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

from utf8cert.harness.check.behaviour import Behaviour
from utf8cert.harness.fuzzing.campaign import DEFAULT_MAX_LEN, default_dictionary
from utf8cert.harness.fuzzing.corpus import named_seeds, straddling_seeds
from utf8cert.harness.vectors.model import Level

TARGET: Final = '''#!/usr/bin/env python3
"""Fuzz target (ClusterFuzzLite, OSS-Fuzz): {spec} against the utf8cert reference.

Written by `utf8cert corpus target{written}`. Every input goes to every capability of
the codec; a difference raises its behaviour's own exception (the input and both answers
printed first), which the service records as one crash per behaviour.
"""

import sys

import atheris  # noqa: F401  # imported by name so that PyInstaller packages it

from utf8cert.harness.fuzzing.target import run


def _bundled() -> None:
    """Never called: names the codec's module for PyInstaller (compile_python_fuzzer), which
    packages what a script imports; `run` imports it itself, under atheris' instrumentation."""
{bundled}

def main() -> None:
{call}


if __name__ == "__main__":
    main()
'''
OPTIONS: Final = """[libfuzzer]
# Past the 65536-byte boundary (libFuzzer's default max_len, 4096, stops at the first one).
max_len = {max_len}
"""
PACKED_BOUNDARIES: Final = (64, 4096, 65536)
"""The boundaries the packed seeds straddle: 65536 too (a service's campaign runs for hours, and a
seed of 64 KiB costs a pure-Python codec a tenth of a second once)."""
_NAME: Final = re.compile(r"^[A-Za-z0-9_]+$")


_NO_MODULE: Final = ("codec:", "cmd:", "adapter:")
"""Spec prefixes naming no Python module of the user's (utf8cert finds the codec itself)."""


def target_script(
    spec: str,
    *,
    known: Iterable[Behaviour] = (),
    fail_on: Level = "must",
    profile: str = "rfc3629",
    written: str = "",
) -> str:
    """Return the text of a fuzz target for the codec of `spec` (a `*_fuzzer.py`): the `known`
    behaviours (a baseline's: known.py) no crash, a difference below `fail_on` none, answers
    judged by the dialect `profile` names; `written`: the options it was written with, for its
    docstring."""
    module = "" if spec.startswith(_NO_MODULE) else spec.partition(":")[0]
    bundled = f"    import {module}  # noqa: F401\n" if module else "    return\n"
    # JSON's quoting is a Python string literal too, in the double quotes of ruff's style.
    arguments = [json.dumps(spec), "sys.argv"]
    if fail_on != "must":
        arguments.append(f"fail_on={json.dumps(fail_on)}")
    if profile != "rfc3629":
        arguments.append(f"profile={json.dumps(profile)}")
    rows = sorted(dataclasses.astuple(behaviour) for behaviour in known)
    if rows:
        listed = "".join(f"            ({', '.join(map(json.dumps, row))}),\n" for row in rows)
        arguments.append(f"known=[  # the baseline's deviations: no crash\n{listed}        ]")
    call = f"    run({', '.join(arguments)})"
    if len(arguments) > 2:
        call = "    run(\n" + "".join(f"        {argument},\n" for argument in arguments) + "    )"
    return TARGET.format(spec=spec, bundled=bundled, call=call, written=written)


def target_name(spec: str) -> str:
    """Return the file stem of the target for `spec`, `_fuzzer` added: its module for
    MODULE:ATTR (`mypkg.codec:Utf8` → `mypkg_codec_fuzzer`), else what follows the prefix
    (`adapter:pyyaml-pure` → `pyyaml_pure_fuzzer`)."""
    named = spec.partition(":")[2] if spec.startswith(_NO_MODULE) else spec.partition(":")[0]
    stem = re.sub(r"[^A-Za-z0-9]+", "_", named).strip("_").lower()
    return f"{stem or 'codec'}_fuzzer"


def write_target(spec: str, directory: Path, name: str | None = None, **options: Any) -> Path:
    """Write the fuzz target of `spec` into `directory` (created), executable, with the
    `options` of `target_script`; return its path. Raises ValueError for a `name` that is not a
    plain file stem."""
    name = target_name(spec) if name is None else name
    if not _NAME.match(name):
        raise ValueError(f"not a fuzz target name (letters, digits, _): {name!r}")
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.py"
    path.write_text(target_script(spec, **options), encoding="utf-8")
    path.chmod(0o755)
    return path


def write_pack(directory: Path, name: str, max_len: int = DEFAULT_MAX_LEN) -> list[Path]:
    """Write NAME.options, NAME.dict and NAME_seed_corpus.zip (the vectors' inputs and the
    straddling seeds of `max_len`, flat) into `directory`; return their paths. Raises
    ValueError for a `name` that is not a plain file stem."""
    from utf8cert.harness.vectors.load import load_vectors

    if not _NAME.match(name):
        raise ValueError(f"not a fuzz target name (letters, digits, _): {name!r}")
    directory.mkdir(parents=True, exist_ok=True)
    options = directory / f"{name}.options"
    options.write_text(OPTIONS.format(max_len=max_len), encoding="utf-8")
    written = [options]
    dictionary = default_dictionary()
    if dictionary is not None:
        written.append(Path(shutil.copyfile(dictionary, directory / f"{name}.dict")))
    straddling = straddling_seeds(max_len, boundaries=PACKED_BOUNDARIES)
    seeds = {**named_seeds(load_vectors()), **straddling}
    archive = directory / f"{name}_seed_corpus.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        for seed, data in sorted(seeds.items()):
            zipped.writestr(seed, data)
    return [*written, archive]
