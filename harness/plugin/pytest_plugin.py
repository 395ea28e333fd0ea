"""The pytest plugin (entry point `pytest11: utf8cert`): hooks that return nothing and, without
`--utf8-codec`, do nothing.

    pytest --utf8-codec SPEC [--utf8-vectors PATH] [--utf8-fail-on must|should|may]
                             [--utf8-baseline FILE] [--utf8-isolate] [--utf8-timeout S]
                             [--utf8-depth default|full]

collects the conformance suite, from any directory, as one test item per vector and capability
(`utf8cert::VECTOR-ID[CAPABILITY]`), so -k, -x, --junitxml and -n (xdist) apply. This module
imports only pytest: the suite itself (harness/plugin/suite.py) is imported when it is asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from utf8cert.harness.codec.interface import Codec

CODEC = "--utf8-codec"
VECTORS = "--utf8-vectors"
FAIL_ON = "--utf8-fail-on"
BASELINE = "--utf8-baseline"
ISOLATE = "--utf8-isolate"
TIMEOUT = "--utf8-timeout"
DEPTH = "--utf8-depth"
PLUGIN_NAME = "utf8cert-suite"


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
        default="must",
        help="the least binding level that fails an item (default: must)",
    )
    group.addoption(BASELINE, metavar="FILE", help="known deviations: only new ones fail")
    group.addoption(ISOLATE, action="store_true", help="run a Python codec in a child process")
    group.addoption(
        TIMEOUT,
        type=float,
        default=10.0,
        metavar="S",
        help="seconds allowed per call in a child process (default: 10)",
    )
    group.addoption(
        DEPTH,
        choices=("default", "full"),
        default="default",
        help="full: every variant of every vector (default: the variants spread over them)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Load the codec, vectors and baseline when --utf8-codec is given (UsageError if bad)."""
    spec = config.getoption(CODEC)
    if spec is None:
        return
    from utf8cert.harness.plugin.suite import SuitePlugin

    config.pluginmanager.register(
        SuitePlugin.from_options(
            spec,
            vectors=config.getoption(VECTORS),
            fail_on=config.getoption(FAIL_ON),
            baseline=config.getoption(BASELINE),
            isolate=config.getoption(ISOLATE),
            timeout=config.getoption(TIMEOUT),
            depth=config.getoption(DEPTH),
        ),
        PLUGIN_NAME,
    )


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
    from utf8cert.harness.plugin.suite import suite_function

    return suite_function(codec, vectors=vectors, fail_on=fail_on, baseline=baseline)
