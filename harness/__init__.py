"""utf8cert.harness: check any UTF-8 codec against the reference; the public API.

    from utf8cert.harness import load_codec, run_check, load_vectors

    codec = load_codec("mypkg.codec:Utf8")          # a spec string, as on the command line
    report = run_check(codec, load_vectors())       # every vector, variant and capability
    report.conformant, report.verdict()

`conformance_suite` puts the suite in a project's own pytest tests; `assert_conforms` and the
Hypothesis strategies check one input or a property. Everything else is private to its wing
(`codec`, `vectors`, `check`, `world`, `reports`, `fuzzing`, `plugin`, `cli`; each `__init__` says
what it owns). The names are imported on first use, so `import utf8cert.harness` stays light.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from utf8cert.harness.check.report import Report
    from utf8cert.harness.check.run import run_check
    from utf8cert.harness.codec.interface import (
        Codec,
        Failed,
        Inapplicable,
        Outcome,
        Refused,
        Returned,
    )
    from utf8cert.harness.codec.raised import NotApplicable, Refusal
    from utf8cert.harness.codec.spec import CodecSpecError
    from utf8cert.harness.codec.wrappers import (
        CBOR_TEXT,
        JSON_STRING,
        MSGPACK_STR,
        XML_ELEMENT,
        YAML_SCALAR,
        wrapped_decoder,
    )
    from utf8cert.harness.fuzzing.conformance import assert_conforms, conformance_test
    from utf8cert.harness.fuzzing.strategies import (
        chunkings,
        code_points,
        ill_formed,
        scalars,
        utf8_inputs,
        well_formed,
    )
    from utf8cert.harness.plugin.pytest_plugin import conformance_suite
    from utf8cert.harness.vectors.load import VectorLoadError, load_vectors
    from utf8cert.harness.world.spec import load_codec

_HOME = {
    "Codec": "codec.interface",
    "Outcome": "codec.interface",
    "Returned": "codec.interface",
    "Refused": "codec.interface",
    "Failed": "codec.interface",
    "Inapplicable": "codec.interface",
    "NotApplicable": "codec.raised",
    "Refusal": "codec.raised",
    "load_codec": "world.spec",
    "JSON_STRING": "codec.wrappers",
    "MSGPACK_STR": "codec.wrappers",
    "CBOR_TEXT": "codec.wrappers",
    "XML_ELEMENT": "codec.wrappers",
    "YAML_SCALAR": "codec.wrappers",
    "wrapped_decoder": "codec.wrappers",
    "CodecSpecError": "codec.spec",
    "load_vectors": "vectors.load",
    "VectorLoadError": "vectors.load",
    "run_check": "check.run",
    "Report": "check.report",
    "conformance_suite": "plugin.pytest_plugin",
    "assert_conforms": "fuzzing.conformance",
    "conformance_test": "fuzzing.conformance",
    "utf8_inputs": "fuzzing.strategies",
    "well_formed": "fuzzing.strategies",
    "ill_formed": "fuzzing.strategies",
    "scalars": "fuzzing.strategies",
    "chunkings": "fuzzing.strategies",
    "code_points": "fuzzing.strategies",
}
"""Each public name and the module, under utf8cert.harness, that defines it."""

__all__ = [
    "CBOR_TEXT",
    "JSON_STRING",
    "MSGPACK_STR",
    "XML_ELEMENT",
    "YAML_SCALAR",
    "Codec",
    "CodecSpecError",
    "Failed",
    "Inapplicable",
    "NotApplicable",
    "Outcome",
    "Refusal",
    "Refused",
    "Report",
    "Returned",
    "VectorLoadError",
    "assert_conforms",
    "chunkings",
    "code_points",
    "conformance_suite",
    "conformance_test",
    "ill_formed",
    "load_codec",
    "load_vectors",
    "run_check",
    "scalars",
    "utf8_inputs",
    "well_formed",
    "wrapped_decoder",
]


def __getattr__(name: str) -> Any:
    """Return a public name, importing its module on first use (AttributeError for others)."""
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{_HOME[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """Return the public names."""
    return __all__
