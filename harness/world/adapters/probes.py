"""The probes of the Python adapters: each returns the version of what an adapter checks, or
raises ImportError or OSError naming what is missing (entry.py turns that into the reason)."""

from __future__ import annotations

import platform
from collections.abc import Callable
from importlib import import_module
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as distribution_version

from utf8cert.harness.world.adapters.jq import jq_version

__all__ = [
    "glibc",
    "jq_version",
    "libyaml",
    "package",
    "python_version",
    "pyyaml",
    "sqlite",
    "stdlib",
]


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
    from utf8cert.harness.world.adapters.native import glibc_version

    return f"glibc {glibc_version()}"


def sqlite() -> str:
    """Return the SQLite library's version; OSError when there is none."""
    from utf8cert.harness.world.adapters.native import sqlite_version

    return f"SQLite {sqlite_version()}"


def stdlib(module: str) -> Callable[[], str]:
    """Return a probe for a standard library module: CPython's version."""

    def probe() -> str:
        import_module(module)
        return python_version()

    return probe
