"""The Go, Ruby, PHP, Perl, Lua and Tcl programs (programs/scripting.py) against the real runtimes:
for each, behaviours its language documents are found by utf8cert, and a conformant one passes.

The evidence is each language's own documentation, not utf8cert: Go's unicode/utf8 ("if the
encoding is invalid, it returns (RuneError, 1)"; EncodeRune "writes the encoding of RuneError"
for an invalid rune) and strings.ToValidUTF8 ("each run of invalid UTF-8 byte sequences replaced
by the replacement string"); Ruby's pack directive U (a UTF-8 character from any integer) and
Integer#chr (RangeError "invalid codepoint"); PHP's mb_chr (false for an invalid code point) and
htmlspecialchars ("an empty string" on invalid input without ENT_SUBSTITUTE), IntlChar::chr (null
when it cannot) and ICU's converters (U+FFFD per maximal subpart); Perl's Encode ('utf8'
is the lax Perl-internal form, 'UTF-8' the strict one) and utf8::decode; the Lua 5.4 manual
(utf8.char takes "all values up to 0x7FFFFFFF", and strict functions reject surrogates); Tcl 8.6's
encoding (bytes that are not UTF-8 are taken as their Latin-1 characters). A program whose
runtime is missing is skipped with the reason, which names the package to install.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support.started_programs import Started, check, check_encode, started

from utf8cert.harness.codec.cache import cache_root
from utf8cert.harness.codec.interface import Failed, Refused, Returned
from utf8cert.harness.world.programs import PROGRAMS, ProgramError
from utf8cert.harness.world.programs.scripting import GO, SCRIPTED, Installable

OVERLONG_SLASH = b"\x2f\xc0\xaf"  # RFC 3629 §10: "/" then an overlong "/"
SURROGATE = b"\xed\xa0\x80"  # U+D800 in the form RFC 3629 §3 forbids
BEYOND = b"\xf4\x90\x80\x80"  # RFC 3629 §4: after F4 only 80..8F; four maximal subparts
TRUNCATED = b"\xe2\x82"  # the first two bytes of U+20AC: one maximal subpart (Unicode §3.9)
EURO = b"\xe2\x82\xac"
FFFD = "\ufffd"
ACCEPTED = ("decode", "must", "accepted ill-formed input")
SUBSTITUTED = ("encode", "should", "substituted a character for an unencodable value")
ENCODED_SURROGATE = ("encode", "must", "encoded a surrogate")


@pytest.fixture(scope="module")
def program() -> Iterator[Started]:
    yield from started()


def wrong_count(capability: str = "replace") -> set[tuple[str, str, str]]:
    return {(capability, "should", "wrong U+FFFD count")}


def test_every_program_offers_the_capabilities_of_its_api(program: Started) -> None:
    offered = {
        "go-utf8": {"decode", "replace", "validate", "encode"},
        "go-to-valid-utf8": {"replace"},
        "go-runes": {"replace", "encode"},
        "go-range": {"replace"},
        "go-json-unmarshal": {"replace"},
        "go-json-marshal": {"replace"},
        "go-bufio-readrune": {"incremental"},
        "go-decode-last-rune": {"decode", "replace"},
        "go-xml-unmarshal": {"decode"},
        "go-xml-escape-text": {"replace"},
        "ruby-valid-encoding": {"validate"},
        "ruby-scrub": {"replace"},
        "ruby-encode-utf16-replace": {"replace"},
        "ruby-encode-utf8-replace": {"replace"},
        "ruby-encode-strict": {"decode", "incremental"},
        "ruby-pack-u": {"decode", "encode"},
        "ruby-integer-chr": {"encode"},
        "ruby-encode-from-utf32": {"encode"},
        "ruby-json-parse": {"decode"},
        "php-mb-check-encoding": {"validate"},
        "php-mb-convert-encoding": {"replace", "encode"},
        "php-mb-scrub": {"replace"},
        "php-htmlspecialchars": {"decode", "replace"},
        "php-iconv": {"decode", "encode"},
        "php-mb-chr": {"encode"},
        "php-preg-u": {"validate"},
        "php-json-decode": {"decode", "replace"},
        "php-json-encode": {"validate", "replace"},
        "php-intlchar": {"encode"},
        "php-uconverter": {"replace", "encode"},
        "perl-utf-8-croak": {"decode", "encode", "incremental"},
        "perl-utf-8-default": {"replace", "encode"},
        "perl-utf8-lax": {"decode", "replace", "encode"},
        "perl-utf8-decode": {"decode", "encode"},
        "perl-json-pp": {"decode", "encode"},
        "lua-utf8": {"decode", "validate", "encode"},
        "lua-utf8-lax": {"decode", "validate", "encode"},
        "tcl-convertfrom": {"replace"},
        "tcl-convertto": {"encode"},
    }
    assert [entry[0] for entry in SCRIPTED] == list(offered)
    for name, capabilities in offered.items():
        assert PROGRAMS[name].name == name and PROGRAMS[name].description
        if PROGRAMS[name].unavailable() is None:
            assert program(name).capabilities == capabilities, name
            assert PROGRAMS[name].version() != "unknown", name


# --- Go ----------------------------------------------------------------------------------------


def test_go_utf8_refuses_where_decoderune_fails_and_replaces_byte_by_byte(
    program: Started,
) -> None:
    codec = program("go-utf8")
    assert codec.decode(b"ab" + TRUNCATED + b"(") == Refused(
        "utf8.DecodeRune returned (RuneError, 1)", 2
    )
    assert check(codec, "decode", b"ab" + TRUNCATED + b"(") == set()
    assert codec.decode_replace(TRUNCATED) == Returned(FFFD * 2)  # (RuneError, 1) per byte
    assert check(codec, "replace", TRUNCATED) == wrong_count()
    assert codec.validate(SURROGATE) == Returned(False)  # "surrogate halves ... invalid"
    assert codec.encode([0xD800]) == Returned(b"\xef\xbf\xbd")  # the encoding of RuneError
    assert check_encode(codec, 0xD800) == {SUBSTITUTED}
    assert check_encode(codec, 0x41, 0x20AC, 0x1F600) == set()


def test_go_to_valid_utf8_writes_one_replacement_for_a_whole_run(program: Started) -> None:
    codec = program("go-to-valid-utf8")
    assert codec.decode_replace(b"A" + OVERLONG_SLASH + b"B") == Returned("A/" + FFFD + "B")
    assert check(codec, "replace", OVERLONG_SLASH) == wrong_count()
    assert check(codec, "replace", b"A" + EURO) == set()


@pytest.mark.parametrize("name", ["go-runes", "go-range"])
def test_go_rune_conversion_and_range_give_runeerror_per_bad_byte(
    program: Started, name: str
) -> None:
    codec = program(name)
    assert codec.decode_replace(b"\xf0\x80\x80\x80") == Returned(FFFD * 4)
    assert check(codec, "replace", BEYOND + b"A") == set()  # four maximal subparts: agrees
    assert check(codec, "replace", TRUNCATED) == wrong_count()


def test_go_string_of_runes_writes_u_fffd_for_a_surrogate(program: Started) -> None:
    codec = program("go-runes")
    assert codec.encode([0x41, 0xD800]) == Returned(b"A\xef\xbf\xbd")  # "\uFFFD" for invalid
    assert check_encode(codec, 0xDFFF) == {SUBSTITUTED}
    assert check_encode(codec, 0x41, 0x20AC, 0x1F600) == set()


@pytest.mark.parametrize("name", ["go-json-unmarshal", "go-json-marshal"])
def test_go_json_coerces_to_valid_utf8_a_rune_error_per_bad_byte(
    program: Started, name: str
) -> None:
    codec = program(name)
    assert codec.decode_replace(b'<"\\\x00' + EURO) == Returned('<"\\\x00\u20ac')
    assert codec.decode_replace(b"A" + TRUNCATED) == Returned("A" + FFFD * 2)
    assert check(codec, "replace", TRUNCATED) == wrong_count()
    assert check(codec, "replace", SURROGATE + BEYOND) == set()


def test_go_bufio_readrune_finishes_a_character_split_across_reads(program: Started) -> None:
    codec = program("go-bufio-readrune")
    assert codec.decode_chunks([b"A\xe2", b"\x82", b"\xac"], False) == Returned("A\u20ac")
    assert check(codec, "incremental", b"\xf0\x9f\x98\x80" + OVERLONG_SLASH) == set()


# --- Ruby --------------------------------------------------------------------------------------


def test_ruby_valid_encoding_scrub_and_encode_replace_agree_with_the_standard(
    program: Started,
) -> None:
    assert program("ruby-valid-encoding").validate(SURROGATE) == Returned(False)
    assert check(program("ruby-valid-encoding"), "validate", OVERLONG_SLASH) == set()
    for name in ("ruby-scrub", "ruby-encode-utf16-replace", "ruby-encode-utf8-replace"):
        codec = program(name)
        assert codec.decode_replace(BEYOND) == Returned(FFFD * 4), name
        assert check(codec, "replace", SURROGATE + OVERLONG_SLASH) == set(), name


def test_ruby_encode_strict_raises_at_the_first_bad_byte_in_any_chunking(
    program: Started,
) -> None:
    codec = program("ruby-encode-strict")
    refused = codec.decode(b"A" + OVERLONG_SLASH)
    assert isinstance(refused, Refused) and refused.offset == 2
    assert "InvalidByteSequenceError" in refused.message
    assert codec.decode_chunks([b"A\xe2", b"\x82", b"\xac"], False) == Returned("A\u20ac")
    assert check(codec, "incremental", EURO + OVERLONG_SLASH) == set()


def test_ruby_pack_and_unpack_u_take_surrogates_and_integer_chr_refuses_them(
    program: Started,
) -> None:
    pack = program("ruby-pack-u")
    assert pack.encode([0xD800, 0x110000]) == Returned(b"\xed\xa0\x80\xf4\x90\x80\x80")
    assert check_encode(pack, 0xD800) == {ENCODED_SURROGATE}
    assert pack.decode(b"A" + SURROGATE) == Returned("A\ud800")  # unpack('U*') takes it too
    assert check(pack, "decode", SURROGATE) == {ACCEPTED}
    assert pack.decode(OVERLONG_SLASH) == Refused("redundant UTF-8 sequence")
    chr_ = program("ruby-integer-chr")
    refused = chr_.encode([0x41, 0xD800])
    assert isinstance(refused, Refused) and refused.offset == 1
    assert "invalid codepoint 0xD800" in refused.message
    assert check_encode(chr_, 0xD800) == set()
    assert check_encode(chr_, 0x41, 0x20AC, 0x1F600) == set()


def test_ruby_encode_from_utf32_refuses_at_the_surrogate(program: Started) -> None:
    codec = program("ruby-encode-from-utf32")
    refused = codec.encode([0x41, 0x42, 0xD800])
    assert isinstance(refused, Refused) and refused.offset == 2
    assert "InvalidByteSequenceError" in refused.message
    assert check_encode(codec, 0x110000) == set()
    assert check_encode(codec, 0x41, 0x20AC, 0x1F600) == set()


def test_ruby_json_parse_returns_ill_formed_bytes_as_a_string(program: Started) -> None:
    codec = program("ruby-json-parse")
    assert codec.decode(b'"\\\x00' + EURO) == Returned('"\\\x00\u20ac')  # escaped ASCII is intact
    failed = codec.decode(b"A" + OVERLONG_SLASH)  # JSON.parse neither refuses nor replaces
    assert isinstance(failed, Failed) and failed.kind == "wrong-type"
    assert failed.message.endswith("not valid UTF-8: 412fc0af")
    assert check(codec, "decode", OVERLONG_SLASH) == {("decode", "must", "returned the wrong type")}


# --- PHP ---------------------------------------------------------------------------------------


def test_php_mbstring_validates_and_replaces_by_maximal_subparts(program: Started) -> None:
    check_encoding = program("php-mb-check-encoding")
    assert check_encoding.validate(SURROGATE) == Returned(False)
    assert check(check_encoding, "validate", OVERLONG_SLASH) == set()
    for name in ("php-mb-convert-encoding", "php-mb-scrub"):
        codec = program(name)
        assert codec.decode_replace(BEYOND) == Returned(FFFD * 4), name
        assert check(codec, "replace", SURROGATE + TRUNCATED + b"A") == set(), name
    converter = program("php-mb-convert-encoding")
    assert converter.encode([0xD800]) == Returned(b"\xef\xbf\xbd")  # the substitute character
    assert check_encode(converter, 0xD800) == {SUBSTITUTED}


def test_php_htmlspecialchars_is_empty_on_bad_input_unless_ent_substitute(
    program: Started,
) -> None:
    codec = program("php-htmlspecialchars")
    assert codec.decode(b"<&" + EURO) == Returned("<&\u20ac")  # escaped, then unescaped
    assert isinstance(codec.decode(b"<" + OVERLONG_SLASH), Refused)
    assert codec.decode_replace(SURROGATE) == Returned(FFFD)  # one for the three bytes
    assert check(codec, "replace", SURROGATE) == wrong_count()


def test_php_iconv_and_mb_chr_refuse_a_surrogate(program: Started) -> None:
    iconv = program("php-iconv")
    assert isinstance(iconv.decode(SURROGATE), Refused)
    assert check(iconv, "decode", OVERLONG_SLASH) == set()
    assert check_encode(iconv, 0xD800) == set()
    mb_chr = program("php-mb-chr")
    assert mb_chr.encode([0x41, 0xDFFF]) == Refused("not encoded", 1)  # mb_chr returned false
    assert check_encode(mb_chr, 0x41, 0x20AC, 0x1F600) == set()
    assert program("php-preg-u").validate(OVERLONG_SLASH) == Returned(False)


def test_php_json_refuses_bad_utf8_and_substitutes_on_request(program: Started) -> None:
    decoder = program("php-json-decode")
    assert decoder.decode(b'"\\\x00' + EURO) == Returned('"\\\x00\u20ac')  # escaped ASCII is intact
    refused = decoder.decode(b"A" + OVERLONG_SLASH)
    assert isinstance(refused, Refused) and "Malformed UTF-8" in refused.message  # JSON_ERROR_UTF8
    assert decoder.decode_replace(TRUNCATED) == Returned(FFFD * 2)  # a U+FFFD per byte here
    assert check(decoder, "replace", TRUNCATED) == wrong_count()
    encoder = program("php-json-encode")
    assert encoder.validate(SURROGATE) == Returned(False)  # json_encode returned false
    assert encoder.decode_replace(b"A" + SURROGATE) == Returned("A" + FFFD)  # one for the three
    assert check(encoder, "validate", OVERLONG_SLASH) == set()


def test_php_intl_intlchar_encodes_a_surrogate_and_uconverter_replaces(program: Started) -> None:
    intlchar = program("php-intlchar")
    assert intlchar.encode([0xD800]) == Returned(SURROGATE)  # ICU's U8_APPEND, unchecked
    assert check_encode(intlchar, 0xD800) == {ENCODED_SURROGATE}
    assert isinstance(intlchar.encode([0x110000]), Refused)  # IntlChar::chr returned null
    uconverter = program("php-uconverter")
    assert uconverter.decode_replace(BEYOND + TRUNCATED) == Returned(FFFD * 5)
    assert check(uconverter, "replace", SURROGATE + OVERLONG_SLASH) == set()
    assert uconverter.encode([0xDFFF]) == Returned(b"\xef\xbf\xbd")  # ICU's substitute
    assert check_encode(uconverter, 0xDFFF) == {SUBSTITUTED}


# --- Perl --------------------------------------------------------------------------------------


def test_perl_encode_strict_utf8_refuses_noncharacters(program: Started) -> None:
    codec = program("perl-utf-8-croak")
    refused = codec.decode(b"A" + OVERLONG_SLASH)
    assert isinstance(refused, Refused) and refused.offset == 2
    assert "does not map to Unicode" in refused.message
    # Unicode Corrigendum #9: U+FDD0 is well-formed; Encode's strict UTF-8 rejects it.
    noncharacter = b"\xef\xb7\x90"
    assert check(codec, "decode", noncharacter) == {
        ("decode", "must", "rejected well-formed input")
    }
    assert codec.decode_chunks([b"A\xe2", b"\x82", b"\xac"], False) == Returned("A\u20ac")
    assert check(codec, "incremental", EURO + OVERLONG_SLASH) == set()
    assert check_encode(codec, 0xD800) == set()


def test_perl_encode_default_replacement_swallows_the_character_after_a_stray_byte(
    program: Started,
) -> None:
    codec = program("perl-utf-8-default")
    assert codec.decode_replace(b"\x80" + EURO) == Returned(FFFD)  # the euro sign is lost
    assert ("replace", "must", "lost well-formed characters") in check(
        codec, "replace", b"\x80" + EURO
    )
    assert codec.decode_replace(b"A" + EURO) == Returned("A\u20ac")


def test_perl_lax_utf8_and_utf8_decode_accept_a_surrogate(program: Started) -> None:
    for name in ("perl-utf8-lax", "perl-utf8-decode"):
        codec = program(name)
        assert codec.decode(SURROGATE) == Returned("\ud800"), name
        assert check(codec, "decode", SURROGATE) == {ACCEPTED}, name
        assert isinstance(codec.decode(OVERLONG_SLASH), Refused), name
        assert check_encode(codec, 0xD800) == {ENCODED_SURROGATE}, name


def test_perl_json_pp_decodes_strictly_and_encodes_a_surrogate(program: Started) -> None:
    codec = program("perl-json-pp")
    # The croak's "character offset" counts the JSON text: the adapter maps it back to the input.
    refused = codec.decode(b"\x00\x00\xfe\xff")
    assert isinstance(refused, Refused) and refused.offset == 2
    assert "malformed UTF-8 character in JSON string" in refused.message
    assert check(codec, "decode", SURROGATE + b"\xef\xb7\x90") == set()
    assert codec.encode([0x22, 0xD800]) == Returned(b'"' + SURROGATE)
    assert check_encode(codec, 0xD800) == {ENCODED_SURROGATE}


# --- Lua ---------------------------------------------------------------------------------------


def test_lua_utf8_codes_skips_a_stray_continuation_byte_that_utf8_len_rejects(
    program: Started,
) -> None:
    codec = program("lua-utf8")
    assert codec.validate(b"A\x80") == Returned(False)  # utf8.len: nil, 2
    assert codec.decode(b"A\x80") == Returned("A")  # utf8.codes: no error
    assert check(codec, "decode", b"A\x80") == {ACCEPTED}
    assert codec.decode(SURROGATE) == Refused("invalid UTF-8 code", 0)  # strict: no surrogates
    assert check(codec, "decode", b"A" + OVERLONG_SLASH) == set()
    assert codec.encode([0xD800]) == Returned(SURROGATE)  # "all values up to 0x7FFFFFFF"
    assert check_encode(codec, 0xD800) == {ENCODED_SURROGATE}


def test_lua_utf8_lax_accepts_surrogates(program: Started) -> None:
    codec = program("lua-utf8-lax")
    assert codec.decode(SURROGATE) == Returned("\ud800")
    assert codec.validate(SURROGATE) == Returned(True)
    assert check(codec, "validate", b"A" + EURO) == set()


# --- Tcl ---------------------------------------------------------------------------------------


def test_tcl_convertfrom_takes_bad_bytes_as_latin1(program: Started) -> None:
    codec = program("tcl-convertfrom")
    assert codec.decode_replace(b"A" + OVERLONG_SLASH) == Returned("A/\xc0\xaf")
    assert codec.decode_replace(b"\xc0\x80") == Returned("\x00")  # Tcl's own form of NUL
    assert check(codec, "replace", b"A" + EURO + b"\xf0\x9f\x98\x80") == set()


def test_tcl_convertto_encodes_a_lone_surrogate(program: Started) -> None:
    codec = program("tcl-convertto")
    assert codec.encode([0xD800]) == Returned(SURROGATE)
    assert check_encode(codec, 0xD800) == {ENCODED_SURROGATE}
    assert check_encode(codec, 0x41, 0x20AC, 0x1F600) == set()


# --- availability and building -----------------------------------------------------------------


def test_a_missing_runtime_names_the_package_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "")
    assert PROGRAMS["go-utf8"].unavailable() == "go not found on PATH (apt-get install golang-go)"
    assert PROGRAMS["php-iconv"].unavailable() == (
        "php not found on PATH (apt-get install php-cli php-mbstring)"
    )
    assert PROGRAMS["php-uconverter"].unavailable() == (
        "php not found on PATH (apt-get install php-cli php-intl)"
    )
    assert PROGRAMS["lua-utf8"].unavailable() == "lua5.4 not found on PATH (apt-get install lua5.4)"
    assert (
        PROGRAMS["tcl-convertto"].unavailable() == "tclsh not found on PATH (apt-get install tcl)"
    )
    with pytest.raises(
        ProgramError, match=r"^Go: go not found on PATH \(apt-get install golang-go\)$"
    ):
        PROGRAMS["go-utf8"].spec()


def test_a_runtime_whose_probe_fails_names_what_is_missing() -> None:
    runtime = Installable(
        "PHP intl",
        ("sh",),
        ("sh", "-c", "echo 1"),
        "php_codecs.php",
        install="php-cli php-intl",
        probe=("sh", "-c", "exit 3"),
        lacking="PHP's intl extension",
    )
    assert (
        runtime.unavailable()
        == "PHP's intl extension is missing (apt-get install php-cli php-intl)"
    )
    assert (
        Installable("sh", ("sh",), ("sh",), "x", probe=("sh", "-c", "exit 0")).unavailable() is None
    )


@pytest.mark.slow
def test_go_is_built_once_into_the_cache_and_scripts_run_as_they_are() -> None:
    if GO.unavailable() is not None:
        pytest.skip(GO.unavailable() or "")
    spec = PROGRAMS["go-utf8"].spec()
    assert spec.startswith(f"cmd:{cache_root()}/go_codecs-") and spec.endswith("/go_codecs utf8")
    assert PROGRAMS["go-range"].spec().split()[0] == spec.split()[0]  # the same build
    if PROGRAMS["perl-utf8-decode"].unavailable() is None:
        assert PROGRAMS["perl-utf8-decode"].spec().endswith("perl_codecs.pl utf8-decode")
