"""Turning a codec spec string into the codec under test, or one line saying why it cannot be.

    MODULE:ATTR             a Python object (ATTR may be dotted; MODULE alone is the module)
    codec:NAME[:ERRORS]     a codec from Python's registry, e.g. codec:utf-8:surrogatepass
    cmd:COMMAND ...         a program speaking harness/PROTOCOL.md on stdin/stdout
    adapter:NAME            a shipped adapter (harness/codec/adapters/): `utf8cert adapters`
    native:LIB.so [ARG]     a shared library speaking the protocol in process (codec/native.py)

No spec means CPython's own codec, `codec:utf-8`.
"""

from __future__ import annotations

import codecs
import importlib
import os
import shlex
import sys
from operator import methodcaller
from types import ModuleType
from typing import Any

from utf8cert.harness.codec.children import DEFAULT_MEMORY_MB
from utf8cert.harness.codec.interface import Capability, Codec, IncrementalMode, declared_mode
from utf8cert.harness.codec.isolate import ProcessCodec, isolated_codec
from utf8cert.harness.codec.protocol import GREETING
from utf8cert.harness.codec.python_codec import PythonCodec
from utf8cert.harness.codec.raised import describe_exception
from utf8cert.harness.codec.reading import BYTES, C_STRING_NOTE, input_model
from utf8cert.harness.codec.start_error import StartError
from utf8cert.harness.codec.strings import DEFAULT as DEFAULT_STRINGS
from utf8cert.harness.codec.strings import string_model

DEFAULT_SPEC = "codec:utf-8"

ATTRIBUTES: dict[Capability, tuple[str, ...]] = {
    "decode": ("decode",),
    "replace": ("decode_replace",),
    "validate": ("validate",),
    "encode": ("encode",),
    # IncrementalDecoder: the name the codecs module and utf8cert.reference give the class.
    "incremental": ("incremental_decoder", "IncrementalDecoder"),
}
"""The attributes that offer each capability, in order of preference."""

USAGE = "expected MODULE:ATTR, codec:NAME[:ERRORS], cmd:COMMAND, adapter:NAME or native:LIB.so"


class CodecSpecError(ValueError):
    """A spec that names no usable codec; str() is one line naming the spec and the problem."""

    def __init__(self, spec: str, problem: str) -> None:
        self.spec = spec
        self.problem = " ".join(problem.split())
        super().__init__(f"codec spec {spec!r}: {self.problem}")


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
    spec = DEFAULT_SPEC if spec is None else spec
    if not timeout > 0:
        raise CodecSpecError(spec, f"the timeout must be a positive number of seconds: {timeout}")
    if memory_mb is not None and memory_mb < 0:
        raise CodecSpecError(spec, f"the memory limit must be a number of MiB: {memory_mb}")
    if "\x00" in spec:
        raise CodecSpecError(spec, "a NUL character names no module, codec, adapter or program")
    if not spec.isprintable() and any("\udc80" <= char <= "\udcff" for char in spec):
        # What Python's argv decoding makes of a byte that is not UTF-8 ($'codec:\xff').
        raise CodecSpecError(spec, "a byte that is not UTF-8 (the command line's encoding)")
    if spec.startswith("adapter:"):
        return adapter_codec(spec, isolate=isolate, timeout=timeout, memory_mb=memory_mb)
    if spec.startswith("cmd:"):
        return command_codec(spec, timeout=timeout, memory_mb=memory_mb)
    if spec.startswith("native:"):
        return native_codec(spec, timeout=timeout, memory_mb=memory_mb)
    if not isolate:
        return python_codec(spec)
    # Isolated, a module is imported by the child alone: importing it here would let its
    # import-time code (a segfault, an exit, a 3 GB allocation, a patch of the judge) act on
    # utf8cert itself. The child's handshake says what the codec offers.
    if spec.startswith("codec:"):
        description = python_codec(spec).description  # Python's registry: no user code runs
    else:
        module_name, colon, attribute = spec.partition(":")
        if not module_name or (colon and not attribute):
            raise CodecSpecError(spec, USAGE)
        description = f"Python {'object' if attribute else 'module'} {spec.replace(':', '.')}"
    try:
        return isolated_codec(spec, description, timeout=timeout, memory_mb=memory_mb)
    except StartError as error:
        # The child's own load error (serve.py) is the line an in-process load would give.
        _, said, problem = str(error).partition(f"codec spec {spec!r}: ")
        problem = problem if said else f"cannot run it in a child process: {error}"
        raise CodecSpecError(spec, problem) from None


def adapter_codec(
    spec: str, *, isolate: bool, timeout: float, memory_mb: int | None = DEFAULT_MEMORY_MB
) -> Codec:
    """Return the codec of a shipped adapter, named by its spec; CodecSpecError for an unknown
    name or one that cannot run here (the reason: a package or runtime missing)."""
    from utf8cert.harness.codec.adapters import registry

    name = spec.removeprefix("adapter:")
    entries = registry()
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
                spec, entry.description, timeout=timeout, memory_mb=memory_mb
            )
        except StartError as error:
            raise CodecSpecError(spec, f"cannot run it in a child process: {error}") from None
        return codec
    try:
        codec = load_codec(target, timeout=timeout, memory_mb=memory_mb)
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


def python_codec(spec: str) -> PythonCodec:
    """Return the in-process codec of a `codec:`, `MODULE:ATTR` or (Python) `adapter:` spec;
    CodecSpecError if none."""
    if spec.startswith("adapter:"):
        codec = adapter_codec(spec, isolate=False, timeout=10.0)
        if not isinstance(codec, PythonCodec):
            raise CodecSpecError(spec, "it is a program, not a Python codec")
        return codec
    if spec.startswith("codec:"):
        return registry_codec(spec)
    return object_codec(spec)


def command_codec(
    spec: str, *, timeout: float, memory_mb: int | None = DEFAULT_MEMORY_MB
) -> ProcessCodec:
    """Return the codec of a `cmd:` spec, its program started and its handshake read."""
    try:
        argv = shlex.split(spec.removeprefix("cmd:"))
    except ValueError as error:
        raise CodecSpecError(spec, f"cannot split the command: {error}") from None
    if not argv:
        raise CodecSpecError(spec, f"no command after 'cmd:' ({USAGE})")
    try:
        codec = ProcessCodec(spec, argv, timeout=timeout, description="", memory_mb=memory_mb)
    except StartError as error:
        raise CodecSpecError(spec, str(error)) from None
    codec.description = f"program `{shlex.join(argv)}` speaking {GREETING} {codec.version}"
    if codec.strings != DEFAULT_STRINGS:
        codec.description += f", its strings {codec.strings}"
    return codec


def native_codec(
    spec: str, *, timeout: float, memory_mb: int | None = DEFAULT_MEMORY_MB
) -> ProcessCodec:
    """Return the codec of a `native:` spec, served by a child process that loads the library
    under the sanitizer runtime (codec/native.py); `memory_mb` is ASan's limit there."""
    from utf8cert.harness.codec import native_runtime
    from utf8cert.harness.codec.native import NativeError, child_argv

    try:
        # The runtime is built here, once: not by each child, nor in a sandbox.
        argv = child_argv(spec, native_runtime.runtime())
    except (NativeError, native_runtime.RuntimeMissing) as error:
        raise CodecSpecError(spec, str(error)) from None
    env = native_runtime.options(os.environ, memory_mb)
    try:
        codec = ProcessCodec(spec, argv, timeout=timeout, description="", env=env, memory_mb=None)
    except StartError as error:
        # The child's own load error (native.main) is the line an in-process load would give.
        _, said, problem = str(error).partition(f"codec spec {spec!r}: ")
        raise CodecSpecError(spec, problem if said else str(error)) from None
    library = spec.removeprefix("native:")
    codec.description = f"library `{library}` speaking {GREETING} 2, under AddressSanitizer"
    return codec


def registry_codec(spec: str) -> PythonCodec:
    """Return the codec a codec:NAME[:ERRORS] spec names; CodecSpecError for an unknown one.

    ERRORS (default strict) serves encode and incremental, and decoding in the slot it fills
    (`decoding_slot`): errors='replace' is a replacing decoder, judged as `replace`; any other
    handler is judged as `decode`, beside which `replace` uses 'replace'. So
    codec:utf-8:surrogatepass both reads ED A0 80 and writes U+D800.
    """
    name, _, errors = spec.removeprefix("codec:").partition(":")
    errors = errors or "strict"
    if not name:
        raise CodecSpecError(spec, "no codec name (codec:NAME[:ERRORS], e.g. codec:utf-8)")
    try:
        info = codecs.lookup(name)
    except LookupError:
        raise CodecSpecError(spec, f"unknown codec {name!r} (Python's registry has none)") from None
    if not info._is_text_encoding:  # the flag bytes.decode checks: hex, base64 map bytes to bytes
        raise CodecSpecError(spec, f"{info.name!r} is not a text encoding (bytes to bytes)")
    try:
        codecs.lookup_error(errors)
    except LookupError:
        raise CodecSpecError(spec, f"unknown error handler {errors!r}") from None
    # A handler may serve one direction only ('namereplace' raises TypeError when decoding).
    for direction, probe in (("decoding", b"\xff".decode), ("encoding", "\udc80".encode)):
        try:
            probe(info.name, errors)
        except ValueError:
            pass
        except Exception as error:
            problem = f"error handler {errors!r} fails {direction}: {describe_exception(error)}"
            raise CodecSpecError(spec, problem) from None
    slot = decoding_slot(errors)
    if slot == "replace":
        serves = f"errors={errors!r}: a replacing decoder, judged as replace; encode and"
        serves += " incremental use it too"
    else:
        serves = f"errors={errors!r} for decode, encode and incremental; replace uses 'replace'"
    return PythonCodec(
        spec,
        f"Python's {info.name} codec ({serves})",
        decode=methodcaller("decode", info.name, errors) if slot == "decode" else None,
        decode_replace=methodcaller("decode", info.name, "replace"),
        encode=methodcaller("encode", info.name, errors),
        incremental_decoder=(
            None if info.incrementaldecoder is None else lambda: info.incrementaldecoder(errors)
        ),
        incremental_mode="replace"
        if slot == "replace"
        else "strict"
        if errors == "strict"
        else None,
    )


def decoding_slot(errors: str) -> Capability:
    """Return the capability a decoder with the error handler `errors` is judged as: `replace`
    for 'replace' (it never refuses: judged as strict, every replacement would be "accepted
    ill-formed input"), else `decode`. A handler that neither refuses nor substitutes U+FFFD
    (ignore, surrogateescape, surrogatepass, backslashreplace) is a dialect of the strict
    decoder: judged against RFC 3629 there, where a dialect profile may explain it."""
    return "replace" if errors == "replace" else "decode"


def object_codec(spec: str) -> PythonCodec:
    """Return the codec of a MODULE:ATTR (or MODULE) spec: the object's capability attributes,
    or the object itself as a strict decoder when it has none and is callable.

    A class is instantiated with no arguments first. MODULE is imported from sys.path, to which
    the current directory is added, as `python -m` would.
    """
    module_name, colon, attribute = spec.partition(":")
    if not module_name or (colon and not attribute):
        raise CodecSpecError(spec, USAGE)
    target: Any = import_module(spec, module_name)
    path = module_name
    for part in attribute.split(".") if attribute else ():
        try:
            target = getattr(target, part)
        except AttributeError:
            raise CodecSpecError(spec, f"{path} has no attribute {part!r}") from None
        except Exception as error:
            problem = describe_exception(error)
            raise CodecSpecError(spec, f"cannot get {path}.{part}: {problem}") from None
        path = f"{path}.{part}"
    if isinstance(target, str | bytes | bytearray):  # their decode/encode methods are no codec
        raise CodecSpecError(spec, f"{path} is a {type(target).__name__}, not a codec")
    kind = "module" if isinstance(target, ModuleType) else type(target).__name__
    if isinstance(target, type):
        try:
            target = target()
        except Exception as error:
            problem = f"cannot make a {path} with no arguments: {describe_exception(error)}"
            raise CodecSpecError(spec, problem) from None
        kind = f"{path} object"
    found: dict[str, Any] = {}
    for capability, names in ATTRIBUTES.items():
        functions = (getattr(target, name, None) for name in names)
        found[capability] = next((f for f in functions if callable(f)), None)
    description = f"Python {kind} {path}"
    if any(found.values()):
        return PythonCodec(
            spec,
            description,
            decode=found["decode"],
            decode_replace=found["replace"],
            validate=found["validate"],
            encode=found["encode"],
            incremental_decoder=found["incremental"],
            incremental_mode=declared_incremental_mode(spec, target, path),
            **declared_refusals(spec, target, path),
        )
    if callable(target):
        return PythonCodec(spec, f"{description}, as a strict decoder", decode=target)
    wanted = ", ".join(name for names in ATTRIBUTES.values() for name in names)
    raise CodecSpecError(spec, f"{path} is not callable and has none of {wanted}")


def declared_incremental_mode(spec: str, target: object, path: str) -> IncrementalMode | None:
    """Return the mode a codec object declares for its incremental decoder (its
    `incremental_mode`, 'strict' or 'replace'; None when it declares none: check/modes.py then
    infers it); CodecSpecError for another value."""
    declared = getattr(target, "incremental_mode", None)
    if declared is None:
        return None
    mode = declared_mode(target)
    if mode is None:
        raise CodecSpecError(
            spec, f"{path}.incremental_mode must be 'strict' or 'replace', not {declared!r}"
        )
    return mode


def declared_refusals(spec: str, target: object, path: str) -> dict[str, Any]:
    """Return the `refusals` (exception classes besides ValueError meaning "refused") and
    `refusal_offset` (reads the offset from one) a codec object declares; CodecSpecError when
    they are not a tuple of exception classes and a callable."""
    refusals = getattr(target, "refusals", ())
    offset = getattr(target, "refusal_offset", None)
    if not isinstance(refusals, tuple) or not all(
        isinstance(kind, type) and issubclass(kind, BaseException) for kind in refusals
    ):
        raise CodecSpecError(spec, f"{path}.refusals must be a tuple of exception classes")
    if offset is not None and not callable(offset):
        raise CodecSpecError(spec, f"{path}.refusal_offset must be callable")
    return {"refusals": refusals, "refusal_offset": offset}


def import_module(spec: str, name: str) -> ModuleType:
    """Return the module `name`, imported from sys.path and the current directory."""
    try:
        here = os.getcwd()
    except OSError:  # the working directory was deleted: it holds no module any more
        here = ""
    if "" not in sys.path and here and here not in sys.path:
        sys.path.append(here)
    try:
        return importlib.import_module(name)
    except (Exception, SystemExit) as error:
        problem = f"cannot import module {name!r}: {describe_exception(error)}"
    if _is_codec_name(name):
        problem += f" (for Python's codec, write codec:{name})"
    raise CodecSpecError(spec, problem)


def _is_codec_name(name: str) -> bool:
    try:
        codecs.lookup(name)
    except LookupError:
        return False
    return True
