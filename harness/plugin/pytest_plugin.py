"""The pytest plugin (entry point `pytest11: utf8cert`): hooks that return nothing and, without
`--utf8-codec`, do nothing.

    pytest --utf8-codec SPEC [--utf8-vectors PATH] [--utf8-fail-on must|should|may]
                             [--utf8-baseline FILE] [--utf8-profile NAME]
                             [--utf8-isolate] [--utf8-timeout S] [--utf8-memory MIB]
                             [--utf8-sandbox-writable PATH] [--utf8-sandbox-env NAME]
                             [--utf8-require-sandbox]
                             [--utf8-depth default|full]

collects the conformance suite, from any directory, as one test item per vector and capability
(`utf8cert::THEME/VECTOR-ID[CAPABILITY]`) and one per capability
(`utf8cert::coverage[CAPABILITY]`, failing when it is not certified), so -k (by theme or id),
-x, --lf, --sw, --collect-only, --junitxml, -n (xdist) and naming an item on the command line
apply. Each option has an ini key of the same name with underscores (`utf8_codec = ...` in
`[tool.pytest.ini_options]`), so that `pytest` alone certifies a project's codec (and `pytest
tests/test_x.py` runs that file alone); the command line wins over the ini file. This module
imports only pytest: the suite itself (harness/plugin/suite.py, items.py) is imported when it is
asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeVar

import pytest

if TYPE_CHECKING:
    from utf8cert.harness.codec.interface import Codec

CODEC = "--utf8-codec"
VECTORS = "--utf8-vectors"
FAIL_ON = "--utf8-fail-on"
BASELINE = "--utf8-baseline"
ISOLATE = "--utf8-isolate"
TIMEOUT = "--utf8-timeout"
MEMORY = "--utf8-memory"
DEPTH = "--utf8-depth"
PROFILE = "--utf8-profile"
SANDBOX_WRITABLE = "--utf8-sandbox-writable"
SANDBOX_ENV = "--utf8-sandbox-env"
REQUIRE_SANDBOX = "--utf8-require-sandbox"
PLUGIN_NAME = "utf8cert-suite"
DEFAULT_TIMEOUT = 10.0
DEFAULT_MEMORY_MB = 2048
"""As harness/codec/children.py's (this module imports only pytest; a test keeps them equal)."""
Number = TypeVar("Number", int, float)


def ini_name(option: str) -> str:
    """Return the ini key of a command-line option: '--utf8-fail-on' -> 'utf8_fail_on'."""
    return option.lstrip("-").replace("-", "_")


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add the --utf8-* options, the CLI's `check` options under pytest names."""
    group = parser.getgroup("utf8cert", "UTF-8 conformance suite (utf8cert)")
    group.addoption(
        CODEC,
        metavar="SPEC",
        help="collect utf8cert's conformance suite for this codec "
        "(MODULE:ATTR, codec:NAME[:ERRORS], cmd:COMMAND)",
    )
    group.addoption(
        VECTORS,
        action="append",
        default=[],
        metavar="PATH",
        help="extra vector file or directory (repeatable)",
    )
    group.addoption(
        FAIL_ON,
        choices=("must", "should", "may"),
        help="the least binding level that fails an item (default: must)",
    )
    group.addoption(
        BASELINE, metavar="FILE", help="known deviations: xfail, and XPASS(strict) once fixed"
    )
    group.addoption(PROFILE, metavar="NAME", help="the profile the codec is checked under")
    group.addoption(
        ISOLATE,
        action="store_true",
        default=None,
        help="run a Python codec in a child process, where nothing it does reaches the verdict "
        "(without it the codec runs in pytest's process and is trusted: use it for untrusted "
        "code)",
    )
    group.addoption(
        TIMEOUT,
        type=float,
        metavar="S",
        help=f"seconds allowed per call in a child process (default: {DEFAULT_TIMEOUT:g})",
    )
    group.addoption(
        MEMORY,
        type=int,
        metavar="MIB",
        help="MiB a codec in a child process may allocate (--utf8-isolate, cmd:; default: 2048)",
    )
    group.addoption(
        SANDBOX_WRITABLE,
        action="append",
        default=[],
        metavar="PATH",
        help="a path the codec's child process may write (repeatable; the OS sandbox keeps the "
        "rest of the filesystem read-only: docs/sandbox.md)",
    )
    group.addoption(
        SANDBOX_ENV,
        action="append",
        default=[],
        metavar="NAME",
        help="a variable of this environment the codec's child process gets (repeatable; it "
        "gets only those its runtime needs otherwise: docs/sandbox.md)",
    )
    group.addoption(
        REQUIRE_SANDBOX,
        action="store_true",
        default=None,
        help="a usage error where no OS sandbox can be made (or the codec runs in process), "
        "instead of running the codec behind the process boundary only",
    )
    group.addoption(
        DEPTH,
        choices=("default", "full"),
        help="full: every variant of every vector (default: the variants spread over them)",
    )

    def ini(
        option: str, kind: Literal["string", "paths", "bool", "linelist"], default: object
    ) -> None:
        parser.addini(
            ini_name(option), f"as {option} (the command line wins)", type=kind, default=default
        )

    for option in (CODEC, FAIL_ON, BASELINE, PROFILE, TIMEOUT, MEMORY, DEPTH):
        ini(option, "string", None)
    ini(VECTORS, "paths", [])
    ini(SANDBOX_WRITABLE, "paths", [])
    ini(SANDBOX_ENV, "linelist", [])
    ini(ISOLATE, "bool", False)
    ini(REQUIRE_SANDBOX, "bool", False)


def setting(config: pytest.Config, option: str) -> object:
    """Return an option's value: from the command line if given there, else from the ini file
    (paths there are relative to the ini file)."""
    given = config.getoption(option)
    if given not in (None, []):
        return given
    return config.getini(ini_name(option))


def pytest_configure(config: pytest.Config) -> None:
    """Load the codec, vectors and baseline when --utf8-codec is given (UsageError if bad)."""
    spec = setting(config, CODEC)
    if not spec:
        return
    from utf8cert.harness.plugin.session import SuitePlugin, sandboxed, take_suite_arguments

    isolate = bool(setting(config, ISOLATE))
    sandboxed(
        [str(path) for path in setting(config, SANDBOX_WRITABLE)],  # type: ignore[attr-defined]
        [str(name) for name in setting(config, SANDBOX_ENV)],  # type: ignore[attr-defined]
        required=bool(setting(config, REQUIRE_SANDBOX)),
        in_process=not isolate and not str(spec).startswith("cmd:"),
    )
    collected, named = take_suite_arguments(config)
    seconds = _number(config, TIMEOUT, DEFAULT_TIMEOUT, float)
    memory = _number(config, MEMORY, DEFAULT_MEMORY_MB, int)
    config.pluginmanager.register(
        SuitePlugin.from_options(
            str(spec),
            vectors=[str(path) for path in setting(config, VECTORS)],  # type: ignore[attr-defined]
            fail_on=str(setting(config, FAIL_ON) or "must"),
            baseline=str(setting(config, BASELINE) or "") or None,
            profile=str(setting(config, PROFILE) or "") or None,
            isolate=isolate,
            timeout=seconds,
            depth=str(setting(config, DEPTH) or "default"),
            memory_mb=memory,
            collected=collected,
            named=named,
        ),
        PLUGIN_NAME,
    )


def _number(config: pytest.Config, option: str, default: Number, kind: type[Number]) -> Number:
    """Return a numeric option's value (`default` when not set); UsageError if not a number."""
    value = setting(config, option)
    if value in (None, "", []):  # pytest < 8.0 gives [] for an unset string ini key
        return default
    try:
        return kind(str(value))
    except ValueError:
        raise pytest.UsageError(f"utf8cert: {ini_name(option)} = {value!r}: not a number") from None


def pytest_unconfigure(config: pytest.Config) -> None:
    """Release the codec under test (a child process, for cmd: and --utf8-isolate)."""
    plugin = config.pluginmanager.get_plugin(PLUGIN_NAME)
    if plugin is not None:
        plugin.close()


def conformance_suite(
    codec: str | Codec,
    *,
    vectors: Sequence[str | Path] = (),
    fail_on: str = "must",
    baseline: str | Path | None = None,
) -> Callable[..., None]:
    """Return a test function that runs the whole suite, parametrized by vector and capability.

    One line in a project's own tests puts the suite there:

        test_utf8_conformance = conformance_suite("mypackage.codec:Utf8Codec")

    `codec` is a spec string or a Codec. Each failing item shows the same explanation as
    `utf8cert check`.
    """
    from utf8cert.harness.plugin.items import suite_function

    return suite_function(codec, vectors=vectors, fail_on=fail_on, baseline=baseline)
