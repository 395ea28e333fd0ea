"""The programs for Go, Ruby, PHP, Perl, Lua and Tcl: their runtimes and one program entry per mode.

    from utf8cert.harness.world.programs.scripting import SCRIPTED
    name, description, runtime, mode = SCRIPTED[0]  # "go-utf8", ..., GO, "utf8"

Each source (go_codecs.go, ruby_codecs.rb, php_codecs.php, perl_codecs.pl, lua_codecs.lua,
tcl_codecs.tcl) speaks utf8cert-protocol 2 and offers only what the API it wraps can do. Go is
built with `go build` (standard library only, no module download) into the cache directory,
with its own build cache there too; the others run as they are. A runtime that is missing is
named with the Debian package that brings it (scripts/install-runtimes installs them all).
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

from utf8cert.harness.codec.cache import cache_root
from utf8cert.harness.world.programs.runtimes import SOURCES, Runtime

__all__ = ["GO", "LUA", "PERL", "PHP", "PHP_INTL", "RUBY", "SCRIPTED", "TCL", "Installable"]


@cache
def _succeeds(command: tuple[str, ...]) -> bool:
    """Return whether the command exits 0 (its output ignored); asked once per process."""
    try:
        done = subprocess.run(command, capture_output=True, stdin=subprocess.DEVNULL, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


@dataclass(frozen=True)
class Installable(Runtime):
    """A runtime that says what to install when it is missing, and may need more than its tools
    (a PHP extension): `probe` must exit 0 for it to be available."""

    install: str = ""
    """The Debian packages that bring the runtime and what its programs use."""
    probe: tuple[str, ...] = ()
    lacking: str = ""
    """What is missing when the probe fails (e.g. "PHP's mbstring extension")."""

    def unavailable(self) -> str | None:
        """Return None when the runtime can run its programs, else why not and what to install."""
        reason = super().unavailable()
        if reason is None and self.probe and not _succeeds(self.probe):
            reason = f"{self.lacking} is missing"
        return f"{reason} (apt-get install {self.install})" if reason else None


def _go_build(source: Path, into: Path) -> list[str]:
    # GOCACHE and GOPATH in the cache directory: the user's home may not be writable, and a
    # build must not download anything (standard library only; GOFLAGS cleared of -mod etc.).
    root = cache_root()
    return [
        "env",
        f"GOCACHE={root / 'go-build'}",
        f"GOPATH={root / 'go-path'}",
        "GOFLAGS=",
        "GOPROXY=off",
        "CGO_ENABLED=0",
        "go",
        "build",
        "-trimpath",
        "-o",
        str(into / "go_codecs"),
        str(source),
    ]


GO: Final = Installable(
    "Go",
    ("go",),
    ("go", "version"),
    "go_codecs.go",
    build=_go_build,
    run=("{dir}/go_codecs",),
    install="golang-go",
)
RUBY: Final = Installable(
    "Ruby", ("ruby",), ("ruby", "--version"), "ruby_codecs.rb", install="ruby"
)
PHP: Final = Installable(
    "PHP",
    ("php",),
    ("php", "--version"),
    "php_codecs.php",
    install="php-cli php-mbstring",
    probe=("php", "-r", 'exit(extension_loaded("mbstring") && extension_loaded("iconv") ? 0 : 1);'),
    lacking="PHP's mbstring or iconv extension",
)
PHP_INTL: Final = Installable(
    "PHP intl",
    ("php",),
    ("php", "-r", 'echo "PHP ", PHP_VERSION, ", ICU ", INTL_ICU_VERSION, "\\n";'),
    "php_codecs.php",
    install="php-cli php-intl",
    probe=("php", "-r", 'exit(extension_loaded("intl") ? 0 : 1);'),
    lacking="PHP's intl extension",
)
PERL: Final = Installable(
    "Perl", ("perl",), ("perl", "-e", "print qq(perl $^V)"), "perl_codecs.pl", install="perl"
)
LUA: Final = Installable("Lua", ("lua5.4",), ("lua5.4", "-v"), "lua_codecs.lua", install="lua5.4")
TCL: Final = Installable(
    "Tcl",
    ("tclsh",),
    ("tclsh", str(SOURCES / "tcl_codecs.tcl"), "--version"),
    "tcl_codecs.tcl",
    strings="utf-16",
    install="tcl",
)


SCRIPTED: Final[tuple[tuple[str, str, Runtime, str], ...]] = (
    # name, description (the API, and the slot it fills in which mode), runtime, mode
    (
        "go-utf8",
        "Go: unicode/utf8: decode (strict) a DecodeRune loop refusing (RuneError, 1); replace: "
        "the same loop; validate: utf8.Valid; encode: utf8.AppendRune",
        GO,
        "utf8",
    ),
    (
        "go-to-valid-utf8",
        'Go: strings.ToValidUTF8(s, "\\uFFFD") (replace; one U+FFFD for a run of bad bytes)',
        GO,
        "to-valid-utf8",
    ),
    (
        "go-runes",
        "Go: the []rune(string) conversion (replace) and string([]rune) (encode)",
        GO,
        "runes",
    ),
    ("go-range", "Go: the runes of `for range` over a string (replace)", GO, "range"),
    (
        "go-json-unmarshal",
        "Go: encoding/json Unmarshal of a JSON string (replace: U+FFFD, as documented)",
        GO,
        "json-unmarshal",
    ),
    (
        "go-json-marshal",
        "Go: encoding/json Marshal of a string, read back (replace: U+FFFD, as documented)",
        GO,
        "json-marshal",
    ),
    (
        "go-bufio-readrune",
        "Go: bufio.Reader.ReadRune over chunked input (incremental, replace)",
        GO,
        "bufio-readrune",
    ),
    (
        "go-decode-last-rune",
        "Go: a utf8.DecodeLastRune loop from the end (decode, refused at (RuneError, 1); replace)",
        GO,
        "decode-last-rune",
    ),
    (
        "go-xml-unmarshal",
        "Go: encoding/xml Unmarshal, the chardata of an XML element (decode, no offset)",
        GO,
        "xml-unmarshal",
    ),
    (
        "go-xml-escape-text",
        "Go: encoding/xml EscapeText, read back by Unmarshal (replace: U+FFFD, as documented)",
        GO,
        "xml-escape-text",
    ),
    ("ruby-valid-encoding", "Ruby: String#valid_encoding? (validate)", RUBY, "valid-encoding"),
    ("ruby-scrub", "Ruby: String#scrub (replace, U+FFFD)", RUBY, "scrub"),
    (
        "ruby-encode-utf16-replace",
        "Ruby: String#encode('UTF-16LE', invalid: :replace) (replace)",
        RUBY,
        "encode-utf16-replace",
    ),
    (
        "ruby-encode-utf8-replace",
        "Ruby: String#encode('UTF-8', invalid: :replace) on a UTF-8 string (replace)",
        RUBY,
        "encode-utf8-replace",
    ),
    (
        "ruby-encode-strict",
        "Ruby: force_encoding('UTF-8').encode('UTF-16LE') raising (decode, strict); "
        "Encoding::Converter with partial_input (incremental, strict)",
        RUBY,
        "encode-strict",
    ),
    (
        "ruby-pack-u",
        "Ruby: String#unpack('U*') (decode, strict: ArgumentError) and Array#pack('U*') (encode)",
        RUBY,
        "pack-u",
    ),
    ("ruby-integer-chr", "Ruby: Integer#chr(Encoding::UTF_8) (encode)", RUBY, "integer-chr"),
    (
        "ruby-encode-from-utf32",
        "Ruby: String#encode('UTF-8') of a UTF-32BE string (encode)",
        RUBY,
        "encode-from-utf32",
    ),
    (
        "ruby-json-parse",
        "Ruby: JSON.parse of a JSON string (decode, strict; a String that is not valid UTF-8 is "
        "answered wrong-type)",
        RUBY,
        "json-parse",
    ),
    (
        "php-mb-check-encoding",
        "PHP: mb_check_encoding($s, 'UTF-8') (validate)",
        PHP,
        "mb-check-encoding",
    ),
    (
        "php-mb-convert-encoding",
        "PHP: mb_convert_encoding UTF-8 to UTF-8 (replace, substitute character set to U+FFFD: "
        "its default is '?'); from UTF-32BE (encode)",
        PHP,
        "mb-convert-encoding",
    ),
    ("php-mb-scrub", "PHP: mb_scrub (replace, substitute character U+FFFD)", PHP, "mb-scrub"),
    (
        "php-htmlspecialchars",
        "PHP: htmlspecialchars with ENT_SUBSTITUTE (replace) and without it, '' for bad input "
        "(decode, strict), each undone by htmlspecialchars_decode",
        PHP,
        "htmlspecialchars",
    ),
    (
        "php-iconv",
        "PHP: iconv('UTF-8', 'UTF-32BE') (decode, strict) and back (encode)",
        PHP,
        "iconv",
    ),
    ("php-mb-chr", "PHP: mb_chr($c, 'UTF-8') per code point (encode)", PHP, "mb-chr"),
    ("php-preg-u", "PHP: preg_match('//u', $s) (validate: PCRE's UTF check)", PHP, "preg-u"),
    (
        "php-json-decode",
        "PHP: json_decode of a JSON string: JSON_THROW_ON_ERROR (decode, strict), "
        "JSON_INVALID_UTF8_SUBSTITUTE (replace)",
        PHP,
        "json-decode",
    ),
    (
        "php-json-encode",
        "PHP: json_encode of a string: !== false (validate), JSON_INVALID_UTF8_SUBSTITUTE "
        "(replace)",
        PHP,
        "json-encode",
    ),
    ("php-intlchar", "PHP: IntlChar::chr per code point (encode)", PHP_INTL, "intlchar"),
    (
        "php-uconverter",
        "PHP: UConverter::transcode (ICU): UTF-8 to UTF-32BE (replace) and back (encode)",
        PHP_INTL,
        "uconverter",
    ),
    (
        "perl-utf-8-croak",
        "Perl: Encode 'UTF-8' with FB_CROAK: decode (strict), incremental (strict, with "
        "STOP_AT_PARTIAL), encode",
        PERL,
        "utf-8-croak",
    ),
    (
        "perl-utf-8-default",
        "Perl: Encode::decode('UTF-8', $b) (replace) and Encode::encode('UTF-8', $s) (encode), "
        "default check",
        PERL,
        "utf-8-default",
    ),
    (
        "perl-utf8-lax",
        "Perl: Encode's lax 'utf8': decode (strict, FB_CROAK), replace (default check), encode",
        PERL,
        "utf8-lax",
    ),
    (
        "perl-utf8-decode",
        "Perl: utf8::decode (decode, strict: false on bad input) and utf8::encode (encode)",
        PERL,
        "utf8-decode",
    ),
    (
        "perl-json-pp",
        "Perl: JSON::PP->new->utf8: decode of a JSON string (decode, strict) and encode (encode)",
        PERL,
        "json-pp",
    ),
    (
        "lua-utf8",
        "Lua 5.4: utf8.codes (decode, strict; offset from utf8.len), utf8.len (validate), "
        "utf8.char (encode)",
        LUA,
        "utf8",
    ),
    (
        "lua-utf8-lax",
        "Lua 5.4: utf8.codes and utf8.len with lax = true (decode, validate), utf8.char (encode)",
        LUA,
        "utf8-lax",
    ),
    (
        "tcl-convertfrom",
        "Tcl: encoding convertfrom utf-8 (replace: it never refuses; 8.6 has no -profile strict)",
        TCL,
        "convertfrom",
    ),
    ("tcl-convertto", "Tcl: encoding convertto utf-8 (encode)", TCL, "convertto"),
)
"""Every program of these runtimes, Go first, then Ruby, PHP, Perl, Lua and Tcl."""
