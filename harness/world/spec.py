"""Turning any codec spec into its codec, `adapter:NAME` (an entry of the catalog) included.

The machinery's loader (codec/spec.py) takes every other kind of spec and knows nothing of the
catalog; this one is the loader of the harness facade, the command line, the plugin and the
fuzzer.
"""

from __future__ import annotations

from utf8cert.harness.codec import spec as machinery
from utf8cert.harness.codec.children import DEFAULT_MEMORY_MB
from utf8cert.harness.codec.interface import Codec
from utf8cert.harness.codec.isolate import ProcessCodec, isolated_codec
from utf8cert.harness.codec.python_codec import PythonCodec
from utf8cert.harness.codec.raised import describe_exception
from utf8cert.harness.codec.reading import BYTES, C_STRING_NOTE, input_model
from utf8cert.harness.codec.spec import CodecSpecError, checked_spec
from utf8cert.harness.codec.start_error import StartError
from utf8cert.harness.codec.strings import string_model

SERVER_MODULE = "utf8cert.harness.world.serve"
"""The child an isolated adapter runs in (world/serve.py): it resolves `adapter:NAME` again."""


def load_codec(
    spec: str | None,
    *,
    isolate: bool = False,
    timeout: float = 10.0,
    memory_mb: int | None = DEFAULT_MEMORY_MB,
) -> Codec:
    """Return the codec `spec` names (None: CPython's utf-8); raise CodecSpecError if it cannot.

    `isolate` runs a Python codec in a child process, where a hang is a `timeout`, a death a
    `crash` and a runaway allocation `memory` (`cmd:` codecs always run so). There, `timeout`
    is the most seconds a call may take (a call usually gets less: harness/codec/pace.py), and
    `memory_mb` the MiB the child may allocate (None or 0: no limit).
    """
    spec = checked_spec(spec, timeout=timeout, memory_mb=memory_mb)
    if spec.startswith("adapter:"):
        return adapter_codec(spec, isolate=isolate, timeout=timeout, memory_mb=memory_mb)
    return machinery.load_codec(spec, isolate=isolate, timeout=timeout, memory_mb=memory_mb)


def adapter_codec(
    spec: str, *, isolate: bool, timeout: float, memory_mb: int | None = DEFAULT_MEMORY_MB
) -> Codec:
    """Return the codec of a shipped adapter, named by its spec; CodecSpecError for an unknown
    name or one that cannot run here (the reason: a package or runtime missing)."""
    from utf8cert.harness.world import catalog  # read when called: a test may replace registry

    name = spec.removeprefix("adapter:")
    entries = catalog.registry()
    if name not in entries:
        raise CodecSpecError(spec, f"no such adapter (utf8cert adapters lists {len(entries)})")
    entry = entries[name]
    reason = entry.unavailable()
    if reason is not None:
        raise CodecSpecError(spec, f"unavailable here: {reason}")
    try:
        target = entry.spec()  # a program is built here, on first use
    except Exception as error:
        raise CodecSpecError(spec, f"cannot be made ready: {describe_exception(error)}") from None
    if isolate and not target.startswith("cmd:"):  # the child resolves the name again
        try:
            codec: Codec = isolated_codec(
                spec,
                entry.description,
                timeout=timeout,
                memory_mb=memory_mb,
                server=SERVER_MODULE,
            )
        except StartError as error:
            raise CodecSpecError(spec, f"cannot run it in a child process: {error}") from None
        return codec
    try:
        codec = machinery.load_codec(target, timeout=timeout, memory_mb=memory_mb)
    except CodecSpecError as error:
        raise CodecSpecError(spec, error.problem) from None
    declared, announced = string_model(entry), string_model(codec)
    if isinstance(codec, PythonCodec):
        codec.strings = declared
    elif declared != announced:
        codec.close()
        problem = f"the adapter's strings are {declared}, its program announces {announced}"
        raise CodecSpecError(spec, problem)
    codec.spec, codec.description = spec, f"{entry.description} ({entry.version()})"
    if input_model(entry) != BYTES and isinstance(codec, ProcessCodec):
        codec.reads = input_model(entry)
        codec.description += f"; {C_STRING_NOTE}"
    return codec
