"""The runtime a native codec (`native:LIB.so`) runs under: AddressSanitizer with libFuzzer linked
in, preloaded (LD_PRELOAD) into the Python process that loads the library.

A library built with clang's `-fsanitize=fuzzer-no-link,address` calls AddressSanitizer's checks
and the sanitizer-coverage callbacks, which neither CPython nor atheris' wheel defines. ASan must
be the first library of the process (it intercepts malloc), so it is preloaded; and its runtime
defines the coverage callbacks too, weakly, so that a libFuzzer loaded later (atheris' own) would
never get the library's coverage: libFuzzer goes into the preloaded library with ASan, and atheris
then runs on that libFuzzer ("Using preloaded libfuzzer"). atheris builds this library at install
time when clang is there (atheris.path()/asan_with_fuzzer.so; its wheels have none); else it is
built here from clang's runtime archives, as atheris' setup does, once, into utf8cert's cache.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, MutableMapping
from pathlib import Path
from typing import Final

from utf8cert.harness.codec.cache import cache_root

RUNTIME_NAME: Final = "asan_with_fuzzer.so"
ASAN_ARCHIVE: Final = "libclang_rt.asan-x86_64.a"
FUZZER_ARCHIVE: Final = "libclang_rt.fuzzer_no_main-x86_64.a"
PREINIT: Final = "asan_preinit.cpp.o"
"""ASan's .preinit_array entry: allowed in an executable only, so taken out of a shared one."""
LOADED: Final = "UTF8CERT_NATIVE_RUNTIME"
"""Set in a process started with the runtime preloaded: the runtime it runs under."""
MISSING: Final = (
    "native codecs need clang's AddressSanitizer and libFuzzer runtimes:"
    " apt-get install clang (x86-64 Linux)"
)
ASAN_DEFAULTS: Final = {
    # CPython keeps memory to its end: no leak report at exit.
    "detect_leaks": "0",
}


class RuntimeMissing(RuntimeError):
    """No runtime can be found or built here; str() is one line saying what to install."""


def runtime() -> Path:
    """Return the path of asan_with_fuzzer.so: atheris' own when it was built with one, else
    one built from clang's archives into utf8cert's cache (once); RuntimeMissing if neither."""
    folder = _atheris_folder()
    if folder is not None and (folder.parent / RUNTIME_NAME).is_file():
        return folder.parent / RUNTIME_NAME  # atheris.path(): site-packages
    clang = shutil.which("clang")
    if clang is None:
        raise RuntimeMissing(MISSING)
    archives = [_clang_file(clang, name) for name in (ASAN_ARCHIVE, FUZZER_ARCHIVE)]
    if None in archives:
        raise RuntimeMissing(MISSING)
    asan, fuzzer = (Path(str(path)) for path in archives)
    # Keyed by the archives' directory (the clang version): another clang, another runtime.
    key = str(asan.parent).strip("/").replace("/", "_")
    target = cache_root() / "native-runtime" / key / RUNTIME_NAME
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as work:
        stripped = Path(work) / "asan.a"
        shutil.copyfile(asan, stripped)
        built = Path(work) / RUNTIME_NAME
        steps = (
            ["ar", "d", str(stripped), PREINIT],
            [
                clang + "++",
                "-shared",
                "-o",
                str(built),
                "-Wl,--whole-archive",
                str(fuzzer),
                str(stripped),
                "-Wl,--no-whole-archive",
                "-lpthread",
                "-ldl",
            ],
        )
        for step in steps:
            done = subprocess.run(step, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                last = (done.stderr.strip().splitlines() or ["no message"])[-1]
                raise RuntimeMissing(f"cannot build {RUNTIME_NAME}: {last}")
        os.replace(built, target)  # whole or not at all, for a concurrent campaign
    return target


def _clang_file(clang: str, name: str) -> str | None:
    """Return the path of one of clang's runtime files, None when clang has none of that name."""
    done = subprocess.run(
        [clang, f"-print-file-name={name}"], capture_output=True, text=True, check=False
    )
    path = done.stdout.strip()
    return path if done.returncode == 0 and os.path.isabs(path) and os.path.isfile(path) else None


def options(base: Mapping[str, str], memory_mb: int | None = None) -> dict[str, str]:
    """Return `base` with ASan's options (the user's ASAN_OPTIONS kept after ours, so that they
    win): with `memory_mb`, ASan's own limit on the process's memory (RLIMIT_DATA cannot be
    used: ASan maps terabytes of shadow memory)."""
    settings = dict(ASAN_DEFAULTS)
    if memory_mb:
        settings["hard_rss_limit_mb"] = str(memory_mb)
    ours = ":".join(f"{key}={value}" for key, value in settings.items())
    given = base.get("ASAN_OPTIONS", "")
    return {**base, "ASAN_OPTIONS": f"{ours}:{given}" if given else ours}


def preloading(base: Mapping[str, str], hooks: bool = False) -> dict[str, str]:
    """Return `base` with the runtime preloaded, before what it preloads already (ASan must come
    first), and with `hooks` atheris' mutator hooks after it (`atheris_hooks`); RuntimeMissing
    if there is no runtime."""
    path = str(runtime())
    preload = [path, *(atheris_hooks() if hooks else []), base.get("LD_PRELOAD", "")]
    return {**base, "LD_PRELOAD": " ".join(filter(None, preload)), LOADED: path}


HOOKS: Final = ("custom_mutator", "custom_crossover")


def atheris_hooks() -> list[str]:
    """Return the paths of atheris' extension modules that define libFuzzer's custom mutator and
    crossover ([] without atheris). They are preloaded with the runtime: libFuzzer takes its
    hooks from weak symbols, bound when its library is loaded, so a hook that atheris' import
    loads later is never seen, and the campaign's own mutator (fuzzing/mutator.py) never runs."""
    folder = _atheris_folder()
    if folder is None:
        return []
    return [str(path) for name in HOOKS for path in sorted(folder.glob(f"{name}.*.so"))[:1]]


def forget(environ: MutableMapping[str, str]) -> None:
    """Take the runtime and the hooks out of `environ` (os.environ: the C environment too), once
    they are loaded: the processes this one starts do not get them, llvm-symbolizer first (ASan
    starts it to name the lines of a report, and it cannot load atheris' hooks)."""
    ours = {environ.pop(LOADED, ""), *atheris_hooks()}
    kept = [path for path in environ.get("LD_PRELOAD", "").split() if path not in ours]
    if kept:
        environ["LD_PRELOAD"] = " ".join(kept)
    else:
        environ.pop("LD_PRELOAD", None)


def run_under_runtime(hooks: bool = False, said: str = "") -> None:
    """Return once this process runs with the runtime preloaded, the runtime then taken out of
    the environment its children get (`forget`: a -fork job of libFuzzer preloads it again);
    otherwise start this same command again with it preloaded (with `hooks`, atheris' too), or
    exit with one line (`said` before it) when there is no runtime."""
    if preloaded():
        forget(os.environ)
        return
    try:
        environment = preloading(options(os.environ), hooks=hooks)
    except RuntimeMissing as missing:
        sys.exit(f"{said}{missing}")
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, *sys.orig_argv[1:]], environment)


def preloaded() -> bool:
    """Return True if this process runs with the runtime preloaded (started by `preloading`)."""
    loaded = os.environ.get(LOADED)
    return bool(loaded) and loaded in os.environ.get("LD_PRELOAD", "").split()


def _atheris_folder() -> Path | None:
    """Return the directory of the atheris package, found without importing it (its import
    loads libFuzzer), None when it is not installed."""
    found = importlib.util.find_spec("atheris")
    return None if found is None or found.origin is None else Path(found.origin).parent
