"""The shipped adapters against the real libraries: for each, one behaviour the library is known
for is seen through the adapter, and a well-formed input with every character a wrapper must
escape passes. An adapter whose library is missing here is skipped with its reason."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from utf8cert.harness import Inapplicable, Refused, load_codec
from utf8cert.harness.check.run import check_input
from utf8cert.harness.codec.interface import Codec, Failed, Outcome, Returned
from utf8cert.harness.codec.spec import CodecSpecError
from utf8cert.harness.world.catalog import PYTHON_ADAPTERS, registry


def decode(data: bytes) -> Callable[[Codec], Outcome]:
    return lambda codec: codec.decode(data)


def replace(data: bytes) -> Callable[[Codec], Outcome]:
    return lambda codec: codec.decode_replace(data)


# Each: what is asked, and what the library is known (documented, or seen in its source) to do.
KNOWN: dict[str, tuple[Callable[[Codec], Outcome], Outcome]] = {
    # CPython: the maximal subpart practice, its error handlers (PEP 383, PEP 293), utf-8-sig.
    "cpython-strict": (decode(b"x\xe2\x82"), Refused("", 1)),
    "cpython-replace": (replace(b"x\xe2\x82"), Returned("x\ufffd")),
    "cpython-surrogateescape": (decode(b"a\xff"), Returned("a\udcff")),
    "cpython-surrogatepass": (decode(b"\xed\xa0\x80"), Returned("\ud800")),
    "cpython-utf-8-sig": (decode(b"\xef\xbb\xbfA"), Returned("A")),
    "cpython-incremental": (
        lambda c: c.decode_chunks([b"\xe2", b"\x82\xac"], False),
        Returned("€"),
    ),
    # json.loads decodes bytes with errors='surrogatepass' (Lib/json/__init__.py).
    "json": (decode(b"\xed\xa0\x80"), Returned("\ud800")),
    # orjson says "surrogates not allowed" for every UTF-8 error, and points at the string.
    "orjson": (decode(b"a\xff"), Refused("surrogates not allowed", None)),
    # ujson's decoder lets encoded surrogates through.
    "ujson": (decode(b"\xed\xa0\x80"), Returned("\ud800")),
    # These decode the string with CPython's codec: its offset, mapped back to the payload.
    "simplejson": (decode(b"a\xff"), Refused("", 1)),
    "rapidjson": (decode(b"a\xff"), Refused("", 1)),
    "msgspec-json": (decode(b"a\xff"), Refused("", 1)),
    "msgspec-msgpack": (decode(b"a\xff"), Refused("", 1)),
    "msgpack": (decode(b"a\xff"), Refused("", 1)),
    "msgpack-fallback": (decode(b"a\xff"), Refused("", 1)),
    # cbor2 refuses with one message and no position.
    "cbor2": (decode(b"a\xff"), Refused("error decoding text string", None)),
    # libxml2: line 1, column 5 of <a>a\xff</a> is the FF.
    "lxml": (decode(b"a\xff"), Refused("Invalid bytes", 1)),
    # libxml2's recovery replaces byte by byte: two U+FFFD for one truncated sequence.
    "lxml-recover": (replace(b"x\xe2\x82"), Returned("x\ufffd\ufffd")),
    # libyaml points past a truncated sequence, at the closing quote: the end of the payload.
    "pyyaml-libyaml": (decode(b"x\xe2\x82"), Refused("invalid trailing UTF-8 octet", 3)),
    "pyyaml-pure": (decode(b"x\xe2\x82"), Refused("invalid continuation byte", 1)),
    # glibc's UTF-8 converter reads F4 90 80 80 as 0x110000, which no str can hold.
    "glibc-iconv": (decode(b"\xf4\x90\x80\x80"), Returned((0x110000,))),
    "glibc-mbrtowc": (decode(b"\xf4\x90\x80\x80"), Returned((0x110000,))),
    # SQLite's translator wraps values above U+10FFFF around to U+10000.
    "sqlite": (replace(b"\xf4\x90\x80\x80"), Returned("\U00010000")),
    # ICU substitutes one U+FFFD per maximal subpart.
    "pyicu": (replace(b"x\xe2\x82"), Returned("x\ufffd")),
}

MORE: tuple[str, ...] = (
    "ftfy-utf8-variants",
    "pyexpat",
    "lxml-html",
    "pysimdjson",
    "sqlite3-text",
    "ujson-dumps",
    "msgpack-replace",
    "cbor2-replace",
    "glibc-wcrtomb",
    "sqlite-encode",
    "pyicu-encode",
    "pyjson5",
    "jq",
    "protobuf",
    "pydantic-core-json",
    "ormsgpack",
    "duckdb-decode",
    "selectolax-lexbor",
)
"""The Python adapters tests/codec/test_more_adapters.py checks, each against its library."""

WELL_FORMED = 'A"<&>\\\r\n\t\x7f\u0085\u2028\u20ac\U0001f600'.encode()
"""Every character a wrapper escapes (quote, reverse solidus, markup, controls, NEL, LS)."""


def available(name: str) -> Codec:
    reason = PYTHON_ADAPTERS[name].unavailable()
    if reason is not None:
        pytest.skip(f"adapter:{name} is unavailable here: {reason}")
    return load_codec(f"adapter:{name}")


def same(outcome: Outcome, expected: Outcome) -> bool:
    """Return whether an outcome is the expected one (a message need only contain the text)."""
    if isinstance(expected, Refused) and isinstance(outcome, Refused):
        return expected.message in outcome.message and outcome.offset == expected.offset
    if isinstance(expected, Failed) and isinstance(outcome, Failed):
        return expected.kind == outcome.kind and expected.message in outcome.message
    return outcome == expected


def test_every_python_adapter_has_a_known_behaviour() -> None:
    assert set(KNOWN) == set(PYTHON_ADAPTERS) - set(MORE)  # those: test_more_adapters.py
    assert set(MORE) <= set(PYTHON_ADAPTERS)


def test_the_catalog_names_the_slot_of_each_later_adapter() -> None:
    slots = ("decode", "replace", "validate", "encode", "incremental")
    for name in MORE:
        assert any(slot in PYTHON_ADAPTERS[name].description for slot in slots), name


def msgspec_places_its_errors() -> bool:
    """Return whether msgspec, called directly, says where ill-formed UTF-8 is: before 0.23 a
    UnicodeDecodeError with its start; from 0.23 a DecodeError 'Invalid UTF-8 encoded string'
    that places it nowhere."""
    msgspec = pytest.importorskip("msgspec")

    try:
        msgspec.json.decode(b'"a\xff"')
    except UnicodeDecodeError:
        return True
    except msgspec.DecodeError:
        return False
    raise AssertionError("msgspec decoded ill-formed UTF-8")


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_the_known_behaviour_of_the_library_is_seen(name: str) -> None:
    codec = available(name)
    ask, expected = KNOWN[name]
    if name.startswith("msgspec") and not msgspec_places_its_errors():
        expected = Refused("Invalid UTF-8 encoded string", None)
    outcome = ask(codec)
    assert same(outcome, expected), outcome


@pytest.mark.parametrize("name", sorted(PYTHON_ADAPTERS))
def test_well_formed_text_with_every_escaped_character_passes(name: str) -> None:
    codec = available(name)
    differences = check_input(codec, WELL_FORMED)
    if name == "cpython-utf-8-sig":  # it writes a signature: a `may` difference, RFC 3629 §6
        assert {(d.level, d.what) for d in differences} == {("may", "signature written")}
    else:
        assert differences == []


@pytest.mark.parametrize(
    "name", ["orjson", "msgspec-json", "msgspec-msgpack", "msgpack", "msgpack-fallback", "cbor2"]
)
def test_an_encoder_writes_utf8_inside_its_format_and_refuses_a_lone_surrogate(name: str) -> None:
    codec = available(name)
    assert codec.encode([0x41, 0x22, 0x5C, 0x0A, 0x20AC]) == Returned(b'A"\\\n\xe2\x82\xac')
    refusal = codec.encode([0x41, 0xD800])
    assert isinstance(refusal, Refused), refusal  # orjson's JSONEncodeError is a TypeError
    assert refusal.offset == (None if name == "orjson" else 1)


def test_glibcs_restartable_conversion_holds_a_character_cut_between_chunks() -> None:
    codec = available("glibc-mbrtowc")
    assert codec.decode_chunks([b"a\xe2", b"\x82", b"\xac"], False) == Returned("a\u20ac")
    assert codec.decode_chunks([b"a\xf4\x90", b"\x80\x80"], True) == Returned((0x61, 0x110000))
    assert codec.decode_chunks([b"a\xe2", b"\x82"], False) == Refused(
        "mbsnrtowcs: the input ends inside a character", None
    )


def test_a_character_xml_cannot_carry_is_inapplicable_not_a_finding() -> None:
    codec = available("lxml")
    assert codec.decode(b"a\xef\xbf\xbe") == Inapplicable("XML 1.0 cannot carry U+FFFE (§2.2 Char)")
    assert codec.decode(b"\x01") == Inapplicable("XML 1.0 cannot carry U+0001 (§2.2 Char)")
    assert check_input(codec, b"a\x01b") == []


def test_an_unknown_or_unavailable_adapter_is_a_one_line_spec_error() -> None:
    with pytest.raises(CodecSpecError, match="no such adapter"):
        load_codec("adapter:nonesuch")
    missing = [name for name, entry in registry().items() if entry.unavailable()]
    for name in missing:
        with pytest.raises(CodecSpecError, match="unavailable here: "):
            load_codec(f"adapter:{name}")


def test_an_adapter_runs_isolated_in_a_child_under_its_own_name() -> None:
    codec = load_codec("adapter:cpython-surrogatepass", isolate=True)
    try:
        assert codec.spec == "adapter:cpython-surrogatepass"
        assert codec.decode(b"\xed\xa0\x80") == Returned("\ud800")
    finally:
        codec.close()


class UnbuildableProgram:
    """An entry of the programs' shape whose build fails (as a missing compiler makes it)."""

    name = "unbuildable"
    description = "a program that cannot be built"

    def unavailable(self) -> str | None:
        return None

    def spec(self) -> str:
        raise RuntimeError("rustc: error: linker `cc` not found")


def test_an_entry_that_cannot_be_made_ready_is_a_one_line_spec_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from utf8cert.harness.world import catalog

    entries = {"unbuildable": UnbuildableProgram()}
    monkeypatch.setattr(catalog, "registry", lambda: entries)
    with pytest.raises(CodecSpecError) as raised:
        load_codec("adapter:unbuildable")
    assert str(raised.value) == (
        "codec spec 'adapter:unbuildable': cannot be made ready: "
        "RuntimeError: rustc: error: linker `cc` not found"
    )


def test_icu_refuses_at_the_byte_position_it_names() -> None:
    codec = available("pyicu")
    refused = codec.decode(b"abc\xed\xa0\x80")
    assert isinstance(refused, Refused) and refused.offset == 3, refused
    assert codec.decode(b"\xf0\x9f\x98\x80") == Returned("\U0001f600")
    # PyICU finds the position by searching the input for the bytes ICU reported (common.cpp,
    # _stopDecode): a stray 80 after F0 9F 98 80 is named at the first 80, inside the character
    # (docs/findings.md).
    stray = codec.decode(b"\xf0\x9f\x98\x80\x80")
    assert isinstance(stray, Refused) and stray.offset == 3, stray


def test_no_two_adapters_share_a_name() -> None:
    # registry() keeps the first entry of a name: a second one would vanish without a word.
    from utf8cert.harness.world.programs import PROGRAMS

    assert not set(PYTHON_ADAPTERS) & set(PROGRAMS)
    assert len(registry()) == len(PYTHON_ADAPTERS) + len(PROGRAMS)
