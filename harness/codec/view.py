"""What a codec's child may read: the system's programs and libraries, the interpreter, the
codec's own code and its libraries, and nothing else of the machine (not the home directory,
not /root, not /etc/shadow, not the rest of the user's repository: docs/sandbox.md, "What the
codec sees there"). Both sandboxes show the same view: bubblewrap binds it read-only into an
empty root (sandbox.py), Landlock allows reading it alone (landlock.py).

    readable(argv, env, here) -> [path, ...]   what the program `argv` is shown, read-only
    hidden_in_etc() -> [path, ...]             the secrets of /etc, which stay hidden
"""

from __future__ import annotations

import contextlib
import functools
import importlib.machinery
import importlib.util
import os
import re
import shutil
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from utf8cert.harness.codec.cache import cache_root
from utf8cert.harness.codec.child_environment import LIBRARY_PATHS

SYSTEM: Final = (
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/opt",
    "/nix/store",
    "/gnu/store",
    "/etc",
    "/sys",
)
"""The system's programs, libraries and configuration: what any runtime needs to start (the
loader and its cache, the locale, the time zone, a JVM's or Node's installation under /usr or
/opt). /etc without its secrets (SECRETS)."""

ETC: Final = "/etc"
SECRETS: Final = (
    "shadow",
    "shadow-",
    "gshadow",
    "gshadow-",
    "sudoers",
    "sudoers.d",
    "ssh",
    "ssl/private",
    "security/opasswd",
    "krb5.keytab",
    "credstore",
    "credstore.encrypted",
    "NetworkManager/system-connections",
    "wireguard",
    "ppp/chap-secrets",
    "ppp/pap-secrets",
    "libvirt/secrets",
)
"""What of /etc holds passwords and keys (relative to /etc): hidden from every codec."""

MODULE_WORD: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?::.*)?")
"""A word of a Python child's command line that may name a codec's module (MODULE[:ATTR])."""


def readable(argv: Sequence[str], env: Mapping[str, str], here: str) -> list[str]:
    """Return the existing absolute paths the program `argv`, started in `here` with `env`, is
    shown read-only, shortest first, none inside another: SYSTEM, the interpreter's prefixes,
    utf8cert's own packages and cache, the libraries `env` names (LIBRARY_PATHS), the program and
    the files its words name, and for a Python child the codec's module. A file named there is
    shown with its directory (a script's modules are its neighbours), but in `here`, usually the
    user's repository, alone."""
    paths = [*SYSTEM, *_python(), *_own_packages(), str(cache_root())]
    paths += _listed(env, here)
    paths += _program(argv, env, here)
    if "-m" in argv[1:]:
        paths += _codec_module(argv[argv.index("-m", 1) + 2 :], here)
    shown: list[str] = []
    for path in paths:
        with contextlib.suppress(OSError, ValueError):
            absolute = os.path.abspath(os.path.join(here, path))
            if os.path.lexists(absolute):
                shown.append(absolute)
    kept: list[str] = []
    for path in sorted(dict.fromkeys(shown), key=len):
        if not any(path.startswith(outer.rstrip(os.sep) + os.sep) for outer in kept):
            kept.append(path)
    return kept


@functools.cache
def _python() -> list[str]:
    """Return the interpreter's prefixes (a virtual environment's and the installation it was
    made from) and the installation its executable's link leads to (`bin/..`); looked up
    once."""
    real = os.path.dirname(os.path.dirname(os.path.realpath(sys.executable)))
    return [sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix, real]


def _own_packages() -> list[str]:
    """Return the directories of utf8cert's packages this process has loaded, which the child
    loads from the same places (an editable install keeps them in its source tree, outside the
    environment's prefix)."""
    root = __name__.partition(".")[0]
    found: list[str] = []
    for name, module in list(sys.modules.items()):
        if name.startswith(root + ".") and name.count(".") == 1:
            found += [entry for entry in getattr(module, "__path__", []) if isinstance(entry, str)]
    return found


def _listed(env: Mapping[str, str], here: str) -> list[str]:
    """Return the paths LIBRARY_PATHS name in `env`, but the working directory (the judge's own
    import path holds it: the codec's module there is shown alone, `_codec_module`)."""
    found = []
    for name in LIBRARY_PATHS:
        for entry in re.split(rf"[{re.escape(os.pathsep)} ]", env.get(name, "")):
            # Joined to `here`, not made absolute: a deleted working directory has no path.
            if entry and os.path.normpath(os.path.join(here, entry)) != here:
                found.append(entry)
    return found


def _program(argv: Sequence[str], env: Mapping[str, str], here: str) -> list[str]:
    """Return the program (a runtime PATH finds by name with its installation, `bin/..`, where
    it is in a `bin` directory: its libraries are beside it) and the files the words of `argv`
    name, each with its directory but in `here`."""
    found: list[str] = []
    program = shutil.which(argv[0], path=env.get("PATH")) if argv else None
    if program is not None and os.sep not in argv[0]:
        for place in {program, os.path.realpath(program)}:
            directory = os.path.dirname(place)
            installation = os.path.basename(directory) == "bin"
            found.append(os.path.dirname(directory) if installation else place)
    for word in argv:
        path = os.path.join(here, word)
        with contextlib.suppress(OSError, ValueError):  # a word too long, or with a NUL
            if os.path.exists(path):
                found += _with_neighbours(path, here)
    return found


def _with_neighbours(path: str, here: str) -> list[str]:
    """Return `path` and, for a file outside `here`, its directory (and where links lead)."""
    found = []
    for place in {os.path.abspath(path), os.path.realpath(path)}:
        directory = os.path.dirname(place)
        found.append(place if os.path.isdir(place) or directory == here else directory)
    return found


def _codec_module(words: Iterable[str], here: str) -> list[str]:
    """Return where the modules the words of a Python child's command line name (its codec's
    spec, MODULE[:ATTR]) are: a package's directories, a lone module's file (with its
    directory outside `here`). Found as the child finds them, on sys.path and in `here`,
    without importing anything (a top-level name's spec runs no code)."""
    found: list[str] = []
    for word in words:
        if not MODULE_WORD.fullmatch(word):
            continue
        top = word.partition(":")[0].partition(".")[0]
        spec = None
        # OSError: sys.path's '' is the working directory, and a deleted one cannot be read.
        with contextlib.suppress(ImportError, ValueError, OSError):
            spec = importlib.util.find_spec(top) or importlib.machinery.PathFinder.find_spec(
                top, [here]
            )
        if spec is None:
            continue
        if spec.submodule_search_locations:
            found += list(spec.submodule_search_locations)
        elif spec.origin and os.path.isabs(spec.origin):
            found += _with_neighbours(spec.origin, here)
    return found


def hidden_in_etc() -> list[str]:
    """Return the secrets of /etc that exist here (SECRETS), to be hidden."""
    return [path for name in SECRETS if os.path.lexists(path := os.path.join(ETC, name))]


def etc_without_secrets(directory: str = ETC) -> list[str]:
    """Return the entries of `directory` (under /etc) but SECRETS, the directories that hold a
    secret listed entry by entry; [] where it cannot be read."""
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    inner = os.path.relpath(directory, ETC)
    found = []
    for name in names:
        relative = name if inner == "." else f"{inner}/{name}"
        if relative in SECRETS:
            continue
        path = os.path.join(directory, name)
        if any(secret.startswith(relative + "/") for secret in SECRETS) and os.path.isdir(path):
            found += etc_without_secrets(path)
        else:
            found.append(path)
    return found
