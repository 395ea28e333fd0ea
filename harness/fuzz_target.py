"""Start an atheris campaign on one codec: the whole body of a `*_fuzzer.py` fuzz target.

    #!/usr/bin/env python3
    from utf8cert.harness.fuzz_target import run

    run("mypkg.codec:Utf8")      # libFuzzer flags come from sys.argv

Only the spec loader is imported with this module: the reference and the codec's own module
are imported afterwards, inside `atheris.instrument_imports`, so that their branches are the
coverage that guides libFuzzer. A codec in C (or behind `cmd:`) gets no coverage of its own but
the same differential oracle, guided by the reference's branches and the structure-aware mutator.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType

from .codec import Capability, Codec
from .spec import DEFAULT_SPEC, CodecSpecError, load_codec

ATHERIS_MISSING = "atheris is not installed: pip install 'utf8cert[fuzz]' (Python 3.11 or 3.12)"


def import_atheris() -> ModuleType:
    """Return the atheris module; exit with one line saying how to install it if it is absent."""
    try:
        return importlib.import_module("atheris")
    except ImportError:
        sys.exit(f"utf8cert fuzz: {ATHERIS_MISSING}")


def instrumented_packages(spec: str) -> list[str]:
    """Return the top-level packages whose modules are instrumented: utf8cert (for the
    reference) and, for a MODULE:ATTR spec, the codec's package."""
    packages = ["utf8cert"]
    if not spec.startswith(("codec:", "cmd:")):
        packages.append(spec.partition(":")[0].split(".")[0])
    return packages


def load_instrumented(atheris: ModuleType, spec: str | None) -> Codec:
    """Return the codec of `spec`, its module and the reference imported under instrumentation.

    Modules imported before (by the caller's own imports) stay uninstrumented; a note says so.
    Exits with the spec loader's one-line message if the spec names no codec.
    """
    spec = DEFAULT_SPEC if spec is None else spec
    if "utf8cert.reference" in sys.modules:
        print("utf8cert fuzz: the reference was imported earlier: no coverage from it", flush=True)
    with atheris.instrument_imports(include=instrumented_packages(spec)):
        importlib.import_module("utf8cert.reference")
        try:
            return load_codec(spec)
        except CodecSpecError as error:
            sys.exit(f"utf8cert fuzz: {error}")


def run(
    spec: str | None = None,
    argv: Sequence[str] | None = None,
    *,
    findings: str | None = None,
    capabilities: Iterable[Capability] | None = None,
    fail_on: str = "must",
    keep_going: bool = False,
    splices: str | None = None,
) -> None:
    """Fuzz the codec of `spec` (default CPython's) against the reference; return never.

    `argv` (default sys.argv) is handed to libFuzzer. With `findings`, a difference is saved
    under `findings`/pending/ for `utf8cert fuzz` to minimize (and the campaign stops unless
    `keep_going`); without, it is raised, as OSS-Fuzz expects. The mutator splices in the
    files of the directory `splices` (`utf8cert fuzz` passes the campaign's seeds), else the
    inputs of the built-in vectors.
    """
    atheris = import_atheris()
    codec = load_instrumented(atheris, spec)
    # Imported only now: they import the reference, which must come in instrumented (above).
    from .corpus import seed_inputs
    from .differential import DifferentialTarget
    from .model import LEVELS
    from .mutator import Mutator
    from .vectors import load_vectors

    if fail_on not in LEVELS:
        sys.exit(f"utf8cert fuzz: fail_on must be one of {', '.join(LEVELS)}, not {fail_on!r}")
    argv = list(sys.argv if argv is None else argv)
    # libFuzzer's merge passes (-fork mode starts with one) restart after every crash: there a
    # difference is recorded and fuzzing goes on, or each seed that shows it costs a restart.
    merging = any(flag.startswith("-merge_inner") for flag in argv)
    target = DifferentialTarget(
        codec,
        capabilities=capabilities,
        fail_on=fail_on,
        findings=None if findings is None else Path(findings),
        keep_going=keep_going or merging,
    )
    if not target.keep_going and target.already_found():
        target.stop()  # a -fork worker started after another one found something
    if splices is None:
        pieces = seed_inputs(load_vectors())
    else:
        pieces = [path.read_bytes() for path in sorted(Path(splices).iterdir()) if path.is_file()]
    # Looked up on each call: atheris binds `Mutate` to libFuzzer only once Fuzz() has started.
    mutator = Mutator(lambda data, size: atheris.Mutate(data, size), splices=pieces)

    def test_one_input(data: bytes) -> None:
        # A function, not the target object: atheris prints the exception (the input and both
        # answers) only for an uncaught exception raised from a plain function.
        target(data)

    atheris.Setup(
        argv,
        test_one_input,
        custom_mutator=mutator,
        custom_crossover=mutator.crossover,
    )
    atheris.Fuzz()
