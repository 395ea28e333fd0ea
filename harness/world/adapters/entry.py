"""What an adapter is: an entry of `adapter:NAME`, and the Python adapters' kind of entry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from utf8cert.harness.codec.raised import describe_exception
from utf8cert.harness.codec.strings import DEFAULT, StringModel, string_model

PACKAGE = "utf8cert.harness.world.adapters"


class Entry(Protocol):
    """What `adapter:NAME` resolves through: a Python adapter or a program."""

    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...

    @property
    def strings(self) -> StringModel:
        """Return what the codec's strings hold (codec/strings.py): "utf-16" for JS, Java."""
        ...

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
    strings: StringModel = DEFAULT
    """What the codec's strings hold: a Python str holds code points, lone surrogates too."""
    isolated: bool = False
    """Always checked in a child process (the matrix too): a library whose answers can break
    the interpreter that reads them (pyjson5 builds str objects CPython cannot index)."""

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

    @property
    def strings(self) -> StringModel:
        """Return the entry's strings ("code points" when it does not say)."""
        return string_model(self.entry)

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
