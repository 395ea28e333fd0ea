"""The shipped adapters: real codecs named `adapter:NAME`, each with its availability and version.

    utf8cert adapters                    # the list, with what is missing and why
    utf8cert check adapter:orjson        # one of them
    utf8cert matrix                      # all that are available, side by side

An entry (entry.py) is anything with a `name`, a `description`, `version()`, `unavailable()`
(None, or the reason it cannot run here: a package or runtime missing) and `spec()` (the spec it
stands for: a `codec:` spec, a MODULE:CLASS codec object in this package, or a `cmd:` program)
and `strings` (what the codec's strings hold: "utf-16" for JavaScript and Java, whose encoders are
then never asked what no UTF-16 string holds, codec/strings.py; a program must announce the same
in its handshake).
The Python adapters are in catalog.py; the programs of `utf8cert.harness.codec.programs`
(Node.js, Java, Rust), when that package is there, are merged in by `registry()`.
"""

from __future__ import annotations

from importlib import import_module

from utf8cert.harness.codec.adapters.catalog import PYTHON_ADAPTERS
from utf8cert.harness.codec.adapters.entry import Entry, PythonAdapter, Unversioned

__all__ = ["PYTHON_ADAPTERS", "Entry", "PythonAdapter", "registry"]


def registry() -> dict[str, Entry]:
    """Return every adapter by name: the Python ones, then the programs when that package exists
    (its PROGRAMS mapping of the same shape); an entry's own name wins over nothing else."""
    entries: dict[str, Entry] = dict(PYTHON_ADAPTERS)
    try:
        programs = import_module("utf8cert.harness.codec.programs")
    except ModuleNotFoundError as error:
        if error.name not in ("utf8cert.harness.codec.programs",):
            raise
        return entries
    for name, program in getattr(programs, "PROGRAMS", {}).items():
        entries.setdefault(name, program if hasattr(program, "version") else Unversioned(program))
    return entries
