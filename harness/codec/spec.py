"""Turning a codec spec string into the codec under test, or one line saying why it cannot be.

    MODULE:ATTR             a Python object (ATTR may be dotted; MODULE alone is the module)
    codec:NAME[:ERRORS]     a codec from Python's registry, e.g. codec:utf-8:surrogatepass
    cmd:COMMAND ...         a program speaking harness/PROTOCOL.md on stdin/stdout
    adapter:NAME            a shipped adapter: `utf8cert adapters` (loaded by the world wing)
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
from utf8cert.harness.codec.start_error import StartError
from utf8cert.harness.codec.strings import DEFAULT as DEFAULT_STRINGS

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


def checked_spec(spec: str | None, *, timeout: float, memory_mb: int | None) -> str:
    """Return the spec to load (None: CPython's utf-8); raise CodecSpecError for a timeout or
    memory limit out of range, or a spec no codec can be named by (a NUL, a byte not UTF-8)."""
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
    return spec


def load_codec(
    spec: str | None,
    *,
    isolate: bool = False,
    timeout: float = 10.0,
    memory_mb: int | None = DEFAULT_MEMORY_MB,
) -> Codec:
    """Return the codec `spec` names (None: CPython's utf-8); raise CodecSpecError if it cannot,
    `adapter:NAME` included: the shipped adapters are the world wing's, whose loader (the one the
    harness facade exports) resolves them and hands every other spec to this one.

    `isolate` runs a Python codec in a child process, where a hang is a `timeout`, a death a
    `crash` and a runaway allocation `memory` (`cmd:` codecs always run so). There, `timeout`
    is the most seconds a call may take (a call usually gets less: harness/codec/pace.py), and
    `memory_mb` the MiB the child may allocate (None or 0: no limit).
    """
    spec = checked_spec(spec, timeout=timeout, memory_mb=memory_mb)
    if spec.startswith("adapter:"):
        raise CodecSpecError(spec, "a shipped adapter: the world wing's load_codec loads it")
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


def python_codec(spec: str) -> PythonCodec:
    """Return the in-process codec of a `codec:` or `MODULE:ATTR` spec; CodecSpecError if none."""
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
        codec = PythonCodec(
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
        # A restriction (codec/restrictions.py) is a name the check holds the codec to.
        codec.restriction = getattr(target, "restriction", None)
        return codec
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
