"""The environment a codec's child process gets: the few variables its runtime needs, and those
the user names, never the rest of utf8cert's (a CI job's tokens and keys would otherwise be the
codec's to read, and to write into a report: docs/sandbox.md, "What the codec sees there").

    passed(given, named)  -> {name: value}   what of `given` reaches the child
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Final

LIBRARY_PATHS: Final = (
    # Python: utf8cert's own child (PYTHONPATH is the judge's sys.path) and a user's codec.
    "PYTHONPATH",
    "PYTHONHOME",
    # Other languages' runtimes and where they find their libraries.
    "JAVA_HOME",
    "CLASSPATH",
    "NODE_PATH",
    "GEM_HOME",
    "GEM_PATH",
    "RUBYLIB",
    "PERL5LIB",
    "ERL_LIBS",
    # Native codecs: the loader, and the sanitizer runtime utf8cert preloads (native_runtime).
    "LD_LIBRARY_PATH",
    "LD_PRELOAD",
)
"""The variables that name a runtime's libraries as paths (os.pathsep between them; LD_PRELOAD
also spaces): the sandbox shows each existing one (view.py)."""
NEEDED: Final = frozenset(
    {
        *LIBRARY_PATHS,
        # Finding programs, and where they may write (the sandbox points both at its /tmp).
        "PATH",
        "HOME",
        "TMPDIR",
        # The locale: a C codec's mbrtowc, a runtime's default encoding.
        "LANG",
        "LANGUAGE",
        # Python's settings.
        "PYTHONUTF8",
        "PYTHONIOENCODING",
        "PYTHONDONTWRITEBYTECODE",
        "PYTHONHASHSEED",
        # Lua's search paths: patterns with '?' and ';', not paths.
        "LUA_PATH",
        "LUA_CPATH",
        # The sanitizers' settings.
        "ASAN_OPTIONS",
        "UBSAN_OPTIONS",
        "LSAN_OPTIONS",
        "MSAN_OPTIONS",
    }
)
"""The variables a codec's runtime needs, passed whenever utf8cert has them."""
NEEDED_PREFIXES: Final = ("LC_", "UTF8CERT_")
"""The families of variables passed too: the locale's categories, and utf8cert's own settings
(none of them secret: the native runtime's, the sandbox's)."""
NAMED_VARIABLE: Final = "UTF8CERT_SANDBOX_ENV"
"""The environment variable naming more variables to pass (os.pathsep between them): the
equivalent of `--sandbox-env` for `utf8cert fuzz` and for test suites."""


def passed(given: Mapping[str, str], named: Iterable[str] = ()) -> dict[str, str]:
    """Return the variables of `given` a codec's child gets: NEEDED, those of NEEDED_PREFIXES,
    those `named` (`--sandbox-env`) and those NAMED_VARIABLE names (read from utf8cert's own
    environment, which no codec can change); an empty dict for an empty `given`."""
    more = {name for name in os.environ.get(NAMED_VARIABLE, "").split(os.pathsep) if name}
    wanted = NEEDED | more | set(named)
    return {
        name: value
        for name, value in given.items()
        if name in wanted or name.startswith(NEEDED_PREFIXES)
    }
