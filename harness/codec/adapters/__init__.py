"""The shipped adapters: real codecs named `adapter:NAME`, each with its availability and version.

    utf8cert adapters                    # the list, with what is missing and why
    utf8cert check adapter:orjson        # one of them
    utf8cert matrix                      # all that are available, side by side

An entry is anything with a `name`, a `description`, `version()`, `unavailable()` (None, or the
reason it cannot run here: a package or runtime missing) and `spec()` (the spec it stands for: a
`codec:` spec, a MODULE:CLASS codec object in this package, or a `cmd:` program). The Python
adapters are below; the programs of `utf8cert.harness.codec.programs` (Node.js, Java, Rust), when
that package is there, are merged in by `registry()` with the same shape.
"""

from __future__ import annotations

import platform
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import import_module
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as distribution_version
from typing import Any, Protocol

from utf8cert.harness.codec.python_codec import describe_exception

PACKAGE = __name__


class Entry(Protocol):
    """What `adapter:NAME` resolves through: a Python adapter or a program."""

    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...

    def version(self) -> str:
        """Return the version of what is checked ('unknown' if it cannot be told)."""
        ...

    def unavailable(self) -> str | None:
        """Return None when it can run here, else the reason in one line."""
        ...

    def spec(self) -> str:
        """Return the spec the entry stands for."""
        ...


MISSING = (ImportError, OSError)
"""What a version probe raises when the package, the shared library or the runtime is missing."""


@dataclass(frozen=True)
class PythonAdapter:
    """A codec in this process: a `codec:` spec or a codec object of this package."""

    name: str
    description: str
    target: str
    """The spec: codec:NAME[:ERRORS], or MODULE:CLASS relative to this package (.cpython:X)."""
    probe: Callable[[], str]
    """Returns the version; raises ImportError or OSError when what it needs is missing."""
    extra: str = "adapters"
    """The pip extra that installs it ('' for the standard library and the system)."""

    def version(self) -> str:
        """Return the version of the library checked ('unknown' when it cannot be told)."""
        try:
            return self.probe()
        except Exception:
            return "unknown"

    def unavailable(self) -> str | None:
        """Return None when the library loads here, else why not (and how to install it)."""
        try:
            self.probe()
        except MISSING as error:
            hint = f" (pip install 'utf8cert[{self.extra}]')" if self.extra else ""
            return f"{describe_exception(error)}{hint}"
        except Exception as error:
            return describe_exception(error)
        return None

    def spec(self) -> str:
        """Return the spec string load_codec takes for this adapter."""
        if self.target.startswith("."):
            return PACKAGE + self.target
        return self.target


def python_version() -> str:
    """Return CPython's version ('3.11.2')."""
    return f"{platform.python_implementation()} {platform.python_version()}"


def package(module: str, distribution: str) -> Callable[[], str]:
    """Return a probe that imports `module` and answers the installed `distribution`'s version."""

    def probe() -> str:
        import_module(module)
        try:
            return f"{distribution} {distribution_version(distribution)}"
        except PackageNotFoundError:
            return f"{distribution} (version unknown)"

    return probe


def libyaml() -> str:
    """Return PyYAML's and libyaml's versions; ImportError when PyYAML has no libyaml."""
    import yaml

    if not yaml.__with_libyaml__:
        raise ImportError("PyYAML was built without libyaml (no CSafeLoader)")
    from yaml import _yaml

    return f"PyYAML {yaml.__version__}, libyaml {_yaml.get_version_string()}"


def pyyaml() -> str:
    """Return PyYAML's version."""
    import yaml

    return f"PyYAML {yaml.__version__}"


def glibc() -> str:
    """Return glibc's version; OSError when the C library is not glibc."""
    from utf8cert.harness.codec.adapters.native import glibc_version

    return f"glibc {glibc_version()}"


def sqlite() -> str:
    """Return the SQLite library's version; OSError when there is none."""
    from utf8cert.harness.codec.adapters.native import sqlite_version

    return f"SQLite {sqlite_version()}"


def stdlib(module: str) -> Callable[[], str]:
    """Return a probe for a standard library module: CPython's version."""

    def probe() -> str:
        import_module(module)
        return python_version()

    return probe


def _adapters(*adapters: PythonAdapter) -> dict[str, PythonAdapter]:
    return {adapter.name: adapter for adapter in adapters}


CPYTHON = "CPython's utf-8 codec"

PYTHON_ADAPTERS: Mapping[str, PythonAdapter] = _adapters(
    PythonAdapter(
        "cpython-strict", f"{CPYTHON}, errors='strict'", "codec:utf-8", python_version, ""
    ),
    PythonAdapter(
        "cpython-replace", f"{CPYTHON}, errors='replace'", "codec:utf-8:replace", python_version, ""
    ),
    PythonAdapter(
        "cpython-surrogateescape",
        f"{CPYTHON}, errors='surrogateescape' (PEP 383)",
        "codec:utf-8:surrogateescape",
        python_version,
        "",
    ),
    PythonAdapter(
        "cpython-surrogatepass",
        f"{CPYTHON}, errors='surrogatepass'",
        "codec:utf-8:surrogatepass",
        python_version,
        "",
    ),
    PythonAdapter(
        "cpython-utf-8-sig", "CPython's utf-8-sig codec", "codec:utf-8-sig", python_version, ""
    ),
    PythonAdapter(
        "cpython-incremental",
        f"{CPYTHON}'s incremental decoder alone (codecs.getincrementaldecoder)",
        ".cpython:Incremental",
        python_version,
        "",
    ),
    PythonAdapter(
        "json",
        "json.loads on bytes, a JSON string",
        ".json_text:StdlibJson",
        stdlib("json"),
        "",
    ),
    PythonAdapter(
        "orjson",
        "orjson.loads and dumps, a JSON string",
        ".json_text:Orjson",
        package("orjson", "orjson"),
    ),
    PythonAdapter(
        "ujson", "ujson.loads, a JSON string", ".json_text:Ujson", package("ujson", "ujson")
    ),
    PythonAdapter(
        "simplejson",
        "simplejson.loads on bytes, a JSON string",
        ".json_text:Simplejson",
        package("simplejson", "simplejson"),
    ),
    PythonAdapter(
        "rapidjson",
        "python-rapidjson's loads on bytes, a JSON string",
        ".json_text:Rapidjson",
        package("rapidjson", "python-rapidjson"),
    ),
    PythonAdapter(
        "msgspec-json",
        "msgspec.json.decode and encode, a JSON string",
        ".json_text:MsgspecJson",
        package("msgspec", "msgspec"),
    ),
    PythonAdapter(
        "msgspec-msgpack",
        "msgspec.msgpack.decode and encode, a msgpack str",
        ".binary:MsgspecMsgpack",
        package("msgspec", "msgspec"),
    ),
    PythonAdapter(
        "msgpack",
        "msgpack.unpackb and packb (C extension), a msgpack str",
        ".binary:Msgpack",
        package("msgpack._cmsgpack", "msgpack"),
    ),
    PythonAdapter(
        "msgpack-fallback",
        "msgpack.fallback unpackb and Packer (pure Python), a msgpack str",
        ".binary:MsgpackFallback",
        package("msgpack.fallback", "msgpack"),
    ),
    PythonAdapter(
        "cbor2",
        "cbor2.loads and dumps, a CBOR text string",
        ".binary:Cbor2",
        package("cbor2", "cbor2"),
    ),
    PythonAdapter(
        "lxml",
        "lxml.etree.fromstring (libxml2), the text of an XML element",
        ".markup:Lxml",
        package("lxml.etree", "lxml"),
    ),
    PythonAdapter(
        "lxml-recover",
        "lxml.etree.fromstring with recover=True (libxml2), the text of an XML element",
        ".markup:LxmlRecover",
        package("lxml.etree", "lxml"),
    ),
    PythonAdapter(
        "pyyaml-libyaml",
        "PyYAML's CSafeLoader (libyaml), a double-quoted YAML scalar",
        ".markup:PyyamlLibyaml",
        libyaml,
        "",
    ),
    PythonAdapter(
        "pyyaml-pure",
        "PyYAML's pure-Python SafeLoader, a double-quoted YAML scalar",
        ".markup:PyyamlPure",
        pyyaml,
        "",
    ),
    PythonAdapter(
        "pyicu",
        "ICU's UTF-8 converter through PyICU (UnicodeString(bytes, 'utf-8'))",
        ".native:Pyicu",
        package("icu", "PyICU"),
        "",
    ),
    PythonAdapter(
        "glibc-iconv",
        "glibc iconv from UTF-8 to WCHAR_T, through ctypes",
        ".native:GlibcIconv",
        glibc,
        "",
    ),
    PythonAdapter(
        "glibc-mbrtowc",
        "glibc multibyte conversion in C.UTF-8 (mbsnrtowcs, restartable like mbrtowc), via ctypes",
        ".native:GlibcMbrtowc",
        glibc,
        "",
    ),
    PythonAdapter(
        "sqlite",
        "SQLite's UTF-8 to UTF-16 translation (bind_text, column_text16), through ctypes",
        ".native:Sqlite",
        sqlite,
        "",
    ),
)
"""The Python adapters, in the order the matrix shows them."""


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


@dataclass(frozen=True)
class Unversioned:
    """An entry whose version the entry itself does not tell (its description may)."""

    entry: Any

    @property
    def name(self) -> str:
        """Return the entry's name."""
        return str(self.entry.name)

    @property
    def description(self) -> str:
        """Return the entry's description."""
        return str(self.entry.description)

    def version(self) -> str:
        """Return 'unknown': the entry does not say."""
        return "unknown"

    def unavailable(self) -> str | None:
        """Return the entry's own answer."""
        reason = self.entry.unavailable()
        return None if reason is None else str(reason)

    def spec(self) -> str:
        """Return the entry's spec."""
        return str(self.entry.spec())
