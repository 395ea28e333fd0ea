"""Spec strings: which codec each names, what it can do, and the one line each bad spec gets."""

from __future__ import annotations

import codecs
import itertools
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from utf8cert.harness.codec.interface import Codec, Inapplicable, Outcome, Refused, Returned
from utf8cert.harness.codec.spec import CodecSpecError, load_codec

# Well-formed, and ill-formed in each way RFC 3629 §4 rules out; CPython's decoder is the judge.
INPUTS = [
    b"",
    b"plain ASCII",
    "aé€😀".encode(),
    b"\xef\xbb\xbfsigned",
    b"\xc0\xaf",
    b"\xe0\x80\xaf",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\xf8\x88\x80\x80\x80",
    b"\xff",
    b"ab\x80cd",
    b"ab\xe2\x82",
    b"\xe2\x82a",
    b"x\xf0\x9f\x98",
]

MODULE_COUNT = itertools.count()

USAGE_LINE = "expected MODULE:ATTR, codec:NAME[:ERRORS], cmd:COMMAND, adapter:NAME or native:LIB.so"


@pytest.fixture
def module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], str]:
    """Return a function that writes Python source as a fresh importable module, naming it."""
    monkeypatch.syspath_prepend(str(tmp_path))

    def write(source: str) -> str:
        name = f"spec_codec_{next(MODULE_COUNT)}"
        (tmp_path / f"{name}.py").write_text(source)
        return name

    return write


def cpython_decode(data: bytes, errors: str = "strict") -> Outcome:
    try:
        return Returned(data.decode("utf-8", errors))
    except UnicodeDecodeError as error:
        return Refused("", error.start)


def same(outcome: Outcome) -> Outcome:
    """Return the outcome without its message, which may be worded in many ways."""
    return Refused("", outcome.offset) if isinstance(outcome, Refused) else outcome


def test_no_spec_is_cpythons_utf8_codec_with_four_capabilities() -> None:
    codec = load_codec(None)
    assert codec.spec == "codec:utf-8"
    assert codec.capabilities == {"decode", "replace", "encode", "incremental"}


@pytest.mark.parametrize("data", INPUTS, ids=bytes.hex)
def test_codec_utf8_decodes_as_cpython_does(data: bytes) -> None:
    codec = load_codec("codec:utf-8")
    assert same(codec.decode(data)) == cpython_decode(data)
    assert codec.decode_replace(data) == cpython_decode(data, "replace")
    one_byte_at_a_time = [data[i : i + 1] for i in range(len(data))]
    assert same(codec.decode_chunks(one_byte_at_a_time, True)) == cpython_decode(data)
    assert same(codec.decode_chunks([data], False)) == cpython_decode(data)


def test_codec_utf8_encode_refuses_a_lone_surrogate_at_its_index() -> None:
    codec = load_codec("codec:utf-8")
    assert codec.encode([0x41, 0x20AC]) == Returned("A€".encode())
    refused = codec.encode([0x41, 0xD800])
    assert isinstance(refused, Refused)
    assert refused.offset == 1
    assert isinstance(codec.encode([0x110000]), Inapplicable)


def test_codec_utf8_surrogatepass_reads_and_writes_surrogates() -> None:
    codec = load_codec("codec:utf-8:surrogatepass")
    assert codec.decode(b"\xed\xa0\x80") == Returned("\ud800")
    assert codec.encode([0xD800]) == Returned(b"\xed\xa0\x80")
    assert codec.decode_chunks([b"\xed", b"\xa0", b"\x80"], False) == Returned("\ud800")
    # replace always uses 'replace', as CPython's own decoder does
    assert codec.decode_replace(b"\xed\xa0\x80") == cpython_decode(b"\xed\xa0\x80", "replace")


@pytest.mark.parametrize(
    ("errors", "slots"),
    [
        ("strict", {"decode", "replace", "encode", "incremental"}),
        ("replace", {"replace", "encode", "incremental"}),
        # Neither refusing nor replacing: dialects of the strict decoder, judged in its slot.
        ("ignore", {"decode", "replace", "encode", "incremental"}),
        ("backslashreplace", {"decode", "replace", "encode", "incremental"}),
        ("surrogateescape", {"decode", "replace", "encode", "incremental"}),
        ("surrogatepass", {"decode", "replace", "encode", "incremental"}),
    ],
)
def test_an_error_handler_fills_the_slot_it_decodes_in(errors: str, slots: set[str]) -> None:
    codec = load_codec(f"codec:utf-8:{errors}")
    assert codec.capabilities == slots
    # What the handler itself makes of C0 AF fills its slot; replace is always 'replace'.
    slot = "replace" if errors == "replace" else "decode"
    ask = codec.decode_replace if slot == "replace" else codec.decode
    assert same(ask(b"a\xc0\xaf")) == cpython_decode(b"a\xc0\xaf", errors)
    assert codec.decode_replace(b"a\xc0\xaf") == cpython_decode(b"a\xc0\xaf", "replace")
    assert f"errors={errors!r}" in codec.description
    assert ("judged as replace" in codec.description) == (slot == "replace")
    # The incremental decoder is the handler's too: a replacing one for errors='replace'.
    chunks = codec.decode_chunks([b"a\xc0", b"\xaf"], False)
    assert same(chunks) == cpython_decode(b"a\xc0\xaf", errors)


def test_codec_utf8_sig_drops_and_writes_the_signature() -> None:
    codec = load_codec("codec:utf-8-sig")
    assert codec.decode(b"\xef\xbb\xbfA") == Returned("A")
    assert codec.encode([0x41]) == Returned(b"\xef\xbb\xbfA")


def test_codec_surrogateescape_returns_lone_surrogates_for_bad_bytes() -> None:
    assert load_codec("codec:utf-8:surrogateescape").decode(b"a\xff") == Returned("a\udcff")


def test_the_reference_module_offers_all_five_capabilities() -> None:
    codec = load_codec("utf8cert.reference")
    assert codec.capabilities == {"decode", "replace", "validate", "encode", "incremental"}
    for data in INPUTS:
        # CPython places the first error where the reference does: at the first ill-formed byte.
        assert same(codec.decode(data)) == cpython_decode(data)
        expected_valid = isinstance(cpython_decode(data), Returned)
        assert codec.validate(data) == Returned(expected_valid)


def test_a_plain_callable_is_a_strict_decoder(module: Callable[[str], str]) -> None:
    name = module("def decode_latin1(data):\n    return data.decode('latin-1')\n")
    codec = load_codec(f"{name}:decode_latin1")
    assert codec.capabilities == {"decode"}
    assert codec.decode(b"\xff") == Returned("ÿ")
    assert "function" in getattr(codec, "description", "")


def test_an_object_offers_exactly_the_methods_it_has(module: Callable[[str], str]) -> None:
    name = module(
        "class Codec:\n"
        "    def validate(self, data):\n        return True\n"
        "    def encode(self, text):\n        return text.encode('utf-8')\n"
        "CODEC = Codec()\n"
    )
    codec = load_codec(f"{name}:CODEC")
    assert codec.capabilities == {"validate", "encode"}
    assert codec.encode([0x20AC]) == Returned(b"\xe2\x82\xac")
    assert isinstance(codec.decode(b"a"), Inapplicable)


def test_a_class_is_instantiated_and_a_dotted_attribute_followed(
    module: Callable[[str], str],
) -> None:
    name = module(
        "import codecs\n"
        "class Holder:\n"
        "    class Codec:\n"
        "        def decode_replace(self, data):\n"
        "            return data.decode('utf-8', 'replace')\n"
        "        def incremental_decoder(self):\n"
        "            return codecs.getincrementaldecoder('utf-8')()\n"
    )
    codec = load_codec(f"{name}:Holder.Codec")
    assert codec.capabilities == {"replace", "incremental"}
    assert codec.decode_replace(b"a\xff") == Returned("a\ufffd")
    assert codec.decode_chunks([b"\xe2\x82", b"\xac"], False) == Returned("€")


def test_a_module_in_the_current_directory_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "codec_in_cwd.py").write_text("def decode(data):\n    return 'seen'\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    assert load_codec("codec_in_cwd").decode(b"") == Returned("seen")


def test_isolate_runs_the_same_codec_in_a_child_process() -> None:
    codec: Codec = load_codec("codec:utf-8", isolate=True)
    try:
        assert codec.capabilities == load_codec("codec:utf-8").capabilities
        assert "child process" in getattr(codec, "description", "")
        assert same(codec.decode(b"a\xc0\xaf")) == cpython_decode(b"a\xc0\xaf")
    finally:
        codec.close()


BROKEN_MODULE = (
    "def failing_class_init():\n    pass\n"
    "class NeedsArguments:\n    def __init__(self, x):\n        pass\n"
    "NOT_A_CODEC = 42\n"
    "TEXT = 'a str has an encode method'\n"
    "class Boom:\n    @property\n    def prop(self):\n        raise RuntimeError('no')\n"
    "BOOM = Boom()\n"
)


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ("", USAGE_LINE),
        (":decode", USAGE_LINE),
        ("{m}:", USAGE_LINE),
        (
            "no_such_module_here:decode",
            "cannot import module 'no_such_module_here': "
            "ModuleNotFoundError: No module named 'no_such_module_here'",
        ),
        (
            "utf-8",
            "cannot import module 'utf-8': ModuleNotFoundError: No module named 'utf-8' "
            "(for Python's codec, write codec:utf-8)",
        ),
        ("{m}:missing", "{m} has no attribute 'missing'"),
        ("{m}:BOOM.prop", "cannot get {m}.BOOM.prop: RuntimeError: no"),
        (
            "{m}:NeedsArguments",
            "cannot make a {m}.NeedsArguments with no arguments: TypeError: "
            "NeedsArguments.__init__() missing 1 required positional argument: 'x'",
        ),
        (
            "{m}:NOT_A_CODEC",
            "{m}.NOT_A_CODEC is not callable and has none of decode, decode_replace, validate, "
            "encode, incremental_decoder, IncrementalDecoder",
        ),
        ("{m}:TEXT", "{m}.TEXT is a str, not a codec"),
        ("codec:", "no codec name (codec:NAME[:ERRORS], e.g. codec:utf-8)"),
        ("codec:klingon", "unknown codec 'klingon' (Python's registry has none)"),
        ("codec:hex", "'hex' is not a text encoding (bytes to bytes)"),
        ("codec:utf-8:sloppy", "unknown error handler 'sloppy'"),
        (
            "codec:utf-8:namereplace",
            "error handler 'namereplace' fails decoding: TypeError: "
            "don't know how to handle UnicodeDecodeError in error callback",
        ),
        (
            "cmd:",
            f"no command after 'cmd:' ({USAGE_LINE})",
        ),
        ("cmd:node 'unclosed", "cannot split the command: No closing quotation"),
        (
            "cmd:/no/such/program --flag",
            "cannot start '/no/such/program': No such file or directory",
        ),
        ("cmd:true", "the program exited with status 0 before the handshake"),
        (
            "cmd:sh -c 'echo missing library >&2; exit 3'",
            "the program exited with status 3 before the handshake; its stderr ends: "
            "missing library",
        ),
        (
            "cmd:echo hello",
            "handshake failure: expected 'utf8cert-protocol 2 CAPABILITY...', got 'hello'",
        ),
        (
            "cmd:echo utf8cert-protocol 9 decode",
            "handshake failure: the program speaks utf8cert-protocol 9, utf8cert 1 or 2",
        ),
        (
            "cmd:echo utf8cert-protocol 1 decode transmogrify",
            "handshake failure: unknown capability 'transmogrify' "
            "(known: decode, replace, validate, encode, incremental)",
        ),
    ],
)
def test_a_bad_spec_gets_one_line_naming_spec_and_problem(
    spec: str, problem: str, module: Callable[[str], str]
) -> None:
    name = module(BROKEN_MODULE)
    spec, problem = spec.format(m=name), problem.format(m=name)
    with pytest.raises(CodecSpecError) as caught:
        load_codec(spec)
    assert str(caught.value) == f"codec spec {spec!r}: {problem}"
    assert "\n" not in str(caught.value)


def test_a_program_that_never_greets_is_a_spec_error_after_the_timeout() -> None:
    with pytest.raises(CodecSpecError) as caught:
        load_codec("cmd:sleep 60", timeout=1)
    assert str(caught.value) == "codec spec 'cmd:sleep 60': no handshake within 1 s"


def test_an_unimportable_module_error_keeps_to_one_line(module: Callable[[str], str]) -> None:
    name = module("def broken(:\n    pass\n")
    with pytest.raises(CodecSpecError) as caught:
        load_codec(f"{name}:broken")
    message = str(caught.value)
    assert message.startswith(f"codec spec '{name}:broken': cannot import module '{name}': ")
    assert "SyntaxError" in message
    assert "\n" not in message


def test_a_module_that_exits_on_import_is_a_spec_error(module: Callable[[str], str]) -> None:
    name = module("raise SystemExit('refusing to load')\n")
    with pytest.raises(CodecSpecError, match="SystemExit: refusing to load"):
        load_codec(name)


@pytest.mark.parametrize("timeout", [0.0, -1.0, float("nan")])
def test_a_timeout_that_is_not_positive_is_refused(timeout: float) -> None:
    with pytest.raises(CodecSpecError, match="the timeout must be a positive number of seconds"):
        load_codec("codec:utf-8", timeout=timeout)


def test_every_codec_registry_name_cpython_aliases_resolves() -> None:
    for alias in ("utf8", "UTF-8", "u8", "utf_8"):
        codec = load_codec(f"codec:{alias}")
        assert codec.decode(b"\xe2\x82\xac") == Returned("€")
        assert codecs.lookup(alias).name in getattr(codec, "description", "")


def test_the_codec_wings_loader_leaves_a_shipped_adapter_to_the_world() -> None:
    """The machinery knows no catalog: its loader refuses `adapter:NAME` in one line, and the
    world's (the public one) resolves it, in process and in a child of world/serve.py."""
    from utf8cert.harness import load_codec as public_load_codec
    from utf8cert.harness.codec.isolate import ProcessCodec

    with pytest.raises(CodecSpecError) as raised:
        load_codec("adapter:json")
    assert str(raised.value) == (
        "codec spec 'adapter:json': a shipped adapter: the world wing's load_codec loads it"
    )
    codec = public_load_codec("adapter:json")
    assert codec.spec == "adapter:json"
    assert codec.decode(b"a\xc3\xa9") == Returned("a\xe9")
    # The codec wing's server could not load it: the child answering is the world's.
    isolated = public_load_codec("adapter:json", isolate=True)
    try:
        assert isinstance(isolated, ProcessCodec) and isolated.spec == "adapter:json"
        assert isolated.decode(b"a\xc3\xa9") == Returned("a\xe9")
    finally:
        isolated.close()
