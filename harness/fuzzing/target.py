"""Start an atheris campaign on one codec: the whole body of a `*_fuzzer.py` fuzz target.

    #!/usr/bin/env python3
    from utf8cert.harness.fuzzing.target import run

    run("mypkg.codec:Utf8")      # libFuzzer flags come from sys.argv

The codec's own module is imported inside `atheris.instrument_imports`, and the reference's
deciding functions are instrumented (COVERED), so that their branches are the coverage that
guides libFuzzer. A codec in C (or behind `cmd:`) gets no coverage of its own but the same
differential oracle, guided by the reference's branches and the structure-aware mutator; a
`native:` library built with clang's -fsanitize=fuzzer-no-link is loaded in this process, under
the sanitizer runtime (the process starts itself again with it preloaded), and its own branches
guide libFuzzer too (codec/native.py).
"""

from __future__ import annotations

import importlib
import os
import sys
import time
from collections.abc import Callable, Iterable, MutableMapping, Sequence
from pathlib import Path
from types import FunctionType, ModuleType
from typing import Final

from utf8cert.harness.check.behaviour import Behaviour, Direction
from utf8cert.harness.check.profiles import profile_named
from utf8cert.harness.codec.interface import Capability, Codec
from utf8cert.harness.codec.spec import DEFAULT_SPEC, CodecSpecError
from utf8cert.harness.fuzzing.differential import DifferentialTarget, watch_interrupts
from utf8cert.harness.fuzzing.mutator import Mutator
from utf8cert.harness.fuzzing.recorder import Recorder, channel_from_environment
from utf8cert.harness.fuzzing.signatures import describe
from utf8cert.harness.vectors.model import LEVELS
from utf8cert.harness.world.spec import load_codec

NATIVE: Final = "native:"
ATHERIS_MISSING = "atheris is not installed: pip install 'utf8cert[fuzz]'"


def import_atheris() -> ModuleType:
    """Return the atheris module; exit with one line saying how to install it if it is absent."""
    try:
        return importlib.import_module("atheris")
    except ImportError:
        sys.exit(f"utf8cert fuzz: {ATHERIS_MISSING}")


COVERED: Final = ("sequence_at", "decode", "decode_legacy", "encode")
"""The reference's functions whose branches guide libFuzzer: how each ill-formed sequence is
classified (row, narrowed second byte, truncation), where strict decoding stops, how a value-only
sequence reads the RFC 2279 way, which values the encoder refuses.

Instrumented one by one (in place, so wherever they are called from), not by importing the whole
reference under instrumentation. Measured 2026-11-23 against CPython's codec, max-len 64, seed 1,
10 s: the whole reference instrumented, 6,500 exec/s (110 edges, 542 features): its walk over
runs and maximal subparts and its text assembly reward inputs for their number of runs and
chunks, and the corpus drifts to longer, slower inputs; these four functions, 8,400 exec/s (48
edges, 231 features); nothing instrumented, 18,600 exec/s, but no new coverage ever, so libFuzzer
keeps a one-byte corpus and the mutator works from that alone. Seconds to the first finding of
each codec of tests/support/fuzz_codecs.py (median of 5 seeds), these four functions against the
earlier
design (the whole of utf8cert instrumented, every input fully probed): 0.04 / 0.05, 0.16 / 0.70,
0.10 / 0.08, 0.04 / 0.04, 0.03 / 0.04 (bench/README.md, "## fuzz"). The harness itself is never
instrumented: its branches say how utf8cert compares, not how one input differs from another.
"""


ADAPTER_LIBRARIES: Final = {
    "pyyaml-pure": ("yaml",),
    "msgpack-fallback": ("msgpack",),
    "simplejson": ("simplejson",),
    "cbor2": ("cbor2",),
    "json": ("json",),
}
"""The Python packages behind `adapter:` specs whose decoding is (or may be) Python code: their
branches guide the campaign as a MODULE:ATTR codec's do. The other adapters wrap C (libyaml,
glibc, SQLite, orjson…), which atheris cannot see into."""


def instrumented_packages(spec: str) -> list[str]:
    """Return the top-level packages instrumented: the codec's own for a MODULE:ATTR spec, the
    library's for an adapter of ADAPTER_LIBRARIES ([] for codec:, cmd: and other adapters)."""
    if spec.startswith("adapter:"):
        return list(ADAPTER_LIBRARIES.get(spec.partition(":")[2], ()))
    if spec.startswith(("codec:", "cmd:", NATIVE)):
        return []
    return [spec.partition(":")[0].split(".")[0]]


def instrument_loaded(atheris: ModuleType, packages: Sequence[str]) -> int:
    """Instrument in place the functions and methods defined in the modules of `packages` that
    are already imported (atheris' import hook sees only later imports: utf8cert itself has
    imported `json`, for one); return how many were instrumented."""
    count = 0
    for name, module in list(sys.modules.items()):
        if module is None or name.partition(".")[0] not in packages:
            continue
        for value in list(vars(module).values()):
            if getattr(value, "__module__", None) != name:
                continue  # imported from elsewhere: instrumented where it is defined
            members = vars(value).values() if isinstance(value, type) else (value,)
            for member in members:
                if isinstance(member, FunctionType):
                    atheris.instrument_func(member)
                    count += 1
    return count


def under_native_runtime(spec: str | None) -> None:
    """Return when this process may load the codec of `spec`: at once, unless it is a native
    library and the sanitizer runtime is not preloaded; then the process is started again,
    the same command, with it preloaded (exit with one line when there is no runtime)."""
    from utf8cert.harness.codec import native_runtime

    if spec is not None and spec.startswith(NATIVE):
        native_runtime.run_under_runtime(hooks=True, said="utf8cert fuzz: ")


def load_instrumented(atheris: ModuleType, spec: str | None) -> Codec:
    """Return the codec of `spec`, its package imported under instrumentation, and the
    reference's COVERED functions instrumented in place (so wherever they are called from).

    Modules of the codec's package imported before (by the caller's own imports) stay
    uninstrumented; an adapter's library imported before (by utf8cert) is instrumented in place
    (`instrument_loaded`). Exits with the spec loader's one-line message if the spec names no codec.
    """
    spec = DEFAULT_SPEC if spec is None else spec
    reference = importlib.import_module("utf8cert.reference")
    for name in COVERED:
        atheris.instrument_func(getattr(reference, name))
    if spec.startswith(NATIVE):
        from utf8cert.harness.codec.native import NativeCodec, NativeError

        try:
            return NativeCodec(spec)  # in this process: its coverage is libFuzzer's
        except NativeError as error:
            sys.exit(f"utf8cert fuzz: {CodecSpecError(spec, str(error))}")
    packages = instrumented_packages(spec)
    if spec.startswith("adapter:"):
        # A library utf8cert imported itself (json) is instrumented where it is; a codec
        # package of the user's imported before stays as it was (as documented above).
        instrument_loaded(atheris, [name for name in packages if name in sys.modules])
    fresh = [name for name in packages if name not in sys.modules]
    try:
        if not fresh:
            return load_codec(spec)
        if getattr(sys, "frozen", False):
            # A PyInstaller bundle (compile_python_fuzzer) loads modules from its archive, a
            # loader atheris' import hook calls experimental (and warns of): the codec is
            # imported as it is, then its functions instrumented in place, the same branches.
            codec = load_codec(spec)
            instrument_loaded(atheris, fresh)
            return codec
        with atheris.instrument_imports(include=fresh):
            return load_codec(spec)
    except CodecSpecError as error:
        sys.exit(f"utf8cert fuzz: {error}")


FALLBACK_MAX_LEN: Final = 1 << 20
"""The longest input recorded in flight when libFuzzer is given no -max_len (it then takes the
longest corpus input, or 4096)."""


def last_flag(argv: Sequence[str], name: str) -> int | None:
    """Return the number the last `name=N` flag of `argv` gives (libFuzzer's last wins), None
    when there is none or it is no positive number."""
    given = [flag.partition("=")[2] for flag in argv if flag.startswith(f"{name}=")]
    return int(given[-1]) if given and given[-1].isdigit() and int(given[-1]) > 0 else None


def max_len_of(argv: Sequence[str]) -> int:
    """Return the -max_len libFuzzer is given in `argv` (the last one wins), else
    FALLBACK_MAX_LEN."""
    given = [flag.partition("=")[2] for flag in argv if flag.startswith("-max_len=")]
    return int(given[-1]) if given and given[-1].isdigit() else FALLBACK_MAX_LEN


FORK_JOB_FLOOR: Final = 10
"""Seconds a -fork worker job runs at least (never past the campaign's -max_total_time).

libFuzzer's fork mode gives job N N seconds (up to 300), and each job costs two starts of this
script, the job and then a merge of what it found, each importing, instrumenting and reading
seeds again: with jobs of 1, 2, 3… seconds, --jobs 2 on two cores ran fewer executions in a
minute than one process (bench/README.md, "## fuzz: past the seeds")."""
_FORK_STARTED: Final = "UTF8CERT_FORK_STARTED"
_FORK_FLOOR: Final = "UTF8CERT_FORK_FLOOR"


def fork_argv(argv: Sequence[str], environ: MutableMapping[str, str], now: float) -> list[str]:
    """Return `argv`, for a -fork worker job with its -max_total_time raised to FORK_JOB_FLOOR
    but not past what is left of the campaign's own. In the -fork parent, note in `environ`
    (which the jobs inherit) when the campaign started, and the floor: 0 under -runs, a limit
    the parent counts only as jobs end, so that short jobs stop it on time."""
    flags = list(argv)
    if any(flag.startswith("-fork=") and flag != "-fork=0" for flag in flags):
        environ[_FORK_STARTED] = repr(now)
        runs = any(flag.startswith("-runs=") for flag in flags)
        environ[_FORK_FLOOR] = "0" if runs else str(FORK_JOB_FLOOR)
        return flags
    # A job: the parent's flags, then its own -max_total_time and -stop_file (last wins).
    times = [flag.partition("=")[2] for flag in flags if flag.startswith("-max_total_time=")]
    is_job = any(flag.startswith("-stop_file=") for flag in flags)
    started, floor = environ.get(_FORK_STARTED), environ.get(_FORK_FLOOR)
    if not is_job or not times or started is None or floor is None:
        return flags
    try:
        job, least, since = int(times[-1]), int(floor), float(started)
        total = int(times[0]) if len(times) > 1 else 0
    except ValueError:
        return flags
    seconds = max(job, least)
    if total > 0:
        seconds = min(seconds, max(1, int(since + total - now)))
    return [*flags, f"-max_total_time={seconds}"]


def replay(target: DifferentialTarget, paths: Sequence[Path]) -> int:
    """Put each file's bytes to the codec and print each difference (capability, what, level,
    the input, expected and actual); return 1 if any input differs, else 0: the exit status of
    a replay. A codec that kills the process kills the replay: replay it with `utf8cert check
    SPEC --isolate --input HEX`."""
    differs = False
    for path in paths:
        data = path.read_bytes()
        differences = target.differences(data)
        print(f"{path}: {len(data)} bytes, {len(differences) or 'no'} difference(s)")
        for difference in differences:
            print(describe(difference, data))
        differs = differs or bool(differences)
    return 1 if differs else 0


def run(
    spec: str | None = None,
    argv: Sequence[str] | None = None,
    *,
    findings: str | None = None,
    capabilities: Iterable[Capability] | None = None,
    fail_on: str = "must",
    keep_going: bool = False,
    splices: str | None = None,
    known: Iterable[tuple[Direction, str, str]] = (),
    profile: str = "rfc3629",
    judged_elsewhere: bool = False,
) -> None:
    """Fuzz the codec of `spec` (default CPython's) against the reference; return never.

    `judged_elsewhere` (a `utf8cert fuzz` campaign not --in-process): this process only asks
    the codec and sends its answers down the pipe the driver gave it (recorder.py); the judge
    is utf8cert's own process, out of the codec's reach (judge.py). Started without that pipe
    (by hand, to fuzz again), it judges here, trusting the codec, and says so.

    `argv` (default sys.argv) is handed to libFuzzer. With `findings`, a difference is saved
    under `findings`/pending/ for `utf8cert fuzz` to minimize (and the campaign stops unless
    `keep_going`); without, it is raised, as OSS-Fuzz expects. The mutator splices in the
    files of the directory `splices` (`utf8cert fuzz` passes the campaign's seeds), else the
    inputs of the built-in vectors. A campaign's script (with `findings`) given only input files
    replays them (`replay`) instead of starting libFuzzer; an OSS-Fuzz target (without) leaves
    a replay to libFuzzer, which reports the raised difference as a crash. The `known`
    behaviours (known.py, from a baseline; each as its fields, so a script can carry them) are no
    findings; answers are judged by the dialect
    `profile` names (default RFC 3629).
    """
    under_native_runtime(spec)
    atheris = import_atheris()
    codec = load_instrumented(atheris, spec)
    if fail_on not in LEVELS:
        sys.exit(f"utf8cert fuzz: fail_on must be one of {', '.join(LEVELS)}, not {fail_on!r}")
    argv = list(sys.argv if argv is None else argv)
    behaviours = frozenset(Behaviour(*fields) for fields in known)
    inputs = [word for word in argv[1:] if not word.startswith("-")]
    if findings is not None and inputs and all(Path(word).is_file() for word in inputs):
        judge = DifferentialTarget(
            codec,
            capabilities=capabilities,
            fail_on=fail_on,
            known=behaviours,
            profile=profile_named(profile),
        )
        sys.exit(replay(judge, [Path(word) for word in inputs]))
    channel = channel_from_environment() if judged_elsewhere else None
    if judged_elsewhere and channel is None:
        print(
            "utf8cert fuzz: no judge's pipe: judging in this process, which trusts the codec"
            " (run `utf8cert fuzz` to judge out of its reach)",
            file=sys.stderr,
        )
    # libFuzzer's merge passes (-fork mode starts with one) restart after every crash: there a
    # difference is recorded and fuzzing goes on, or each seed that shows it costs a restart.
    merging = any(flag.startswith("-merge_inner") for flag in argv)
    target = DifferentialTarget(
        codec,
        capabilities=capabilities,
        fail_on=fail_on,
        findings=None if findings is None else Path(findings),
        keep_going=keep_going or merging,
        max_len=max_len_of(argv),
        known=behaviours,
        profile=profile_named(profile),
    )
    watch_interrupts()
    if not target.keep_going and target.already_found():
        target.stop()  # a -fork worker started after another one found something
    if splices is None:
        # Imported only here: the vector loader and its schema cost a fifth of a second.
        from utf8cert.harness.fuzzing.corpus import seed_inputs
        from utf8cert.harness.vectors.load import load_vectors

        pieces = seed_inputs(load_vectors())
    else:
        pieces = [path.read_bytes() for path in sorted(Path(splices).iterdir()) if path.is_file()]
    # Looked up on each call: atheris binds `Mutate` to libFuzzer only once Fuzz() has started.
    mutator = Mutator(lambda data, size: atheris.Mutate(data, size), splices=pieces)

    inflight = target.inflight
    judged: Callable[[bytes], None] = target
    if channel is not None:
        # A codec with coverage of its own (its instrumented package, a native library's
        # branches) is guided by it; the reference reads each input only for one with none.
        guided = not instrumented_packages(spec or DEFAULT_SPEC) and not (spec or "").startswith(
            NATIVE
        )
        judged = Recorder(
            codec,
            channel,
            capabilities=target.capabilities,
            inflight=inflight,
            guided=guided,
            runs=last_flag(argv, "-runs"),
            seconds=last_flag(argv, "-max_total_time"),
        )

    def test_one_input(data: bytes) -> None:
        # A function, not the target object: atheris prints the exception (the input and both
        # answers) only for an uncaught exception raised from a plain function.
        judged(data)

    def mutate(data: bytes, max_size: int, seed: int) -> bytes:
        # The seed pass is over: the driver reads it from the in-flight file (inflight.py).
        if inflight is not None and not inflight.mutating:
            inflight.mutated()
        return mutator(data, max_size, seed)

    atheris.Setup(
        fork_argv(argv, os.environ, time.time()),
        test_one_input,
        custom_mutator=mutate,
        custom_crossover=mutator.crossover,
    )
    atheris.Fuzz()
