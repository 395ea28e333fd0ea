"""The programs for C++ and Erlang: their runtimes and one program entry per mode.

    from utf8cert.harness.world.programs.more_languages import MORE_LANGUAGES
    program = MORE_LANGUAGES[0]  # Program("cxx-wstring-convert", ..., CXX, "wstring-convert")

cxx_codecs.cpp puts the C++ standard library's own conversions to utf8cert (the deprecated but
widely used std::wstring_convert with codecvt_utf8 and codecvt_utf8_utf16, and <cuchar>'s
mbrtoc32/c32rtomb in the C.UTF-8 locale); it is built with plain g++ into the cache directory.
erlang_codecs.erl is an escript over Erlang's unicode module and the bit syntax's utf8 segments,
run as it is. Both speak utf8cert-protocol 2; a missing runtime is named with its Debian package.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Final

from utf8cert.harness.world.programs.program import Program
from utf8cert.harness.world.programs.scripting import Installable

__all__ = ["CXX", "CXX_UTF16", "ERLANG", "MORE_LANGUAGES"]


def _cxx_build(source: Path, into: Path) -> list[str]:
    # -Wno-deprecated-declarations: codecvt_utf8 and wstring_convert are deprecated in C++17,
    # which is the point (they are what much code still calls).
    return [
        "g++",
        "-std=c++17",
        "-O2",
        "-Wno-deprecated-declarations",
        "-o",
        str(into / "cxx_codecs"),
        str(source),
    ]


CXX: Final = Installable(
    "C++",
    ("g++",),
    ("g++", "--version"),
    "cxx_codecs.cpp",
    build=_cxx_build,
    run=("{dir}/cxx_codecs",),
    install="g++",
)
CXX_UTF16: Final = replace(CXX, strings="utf-16")
"""The same program, in its mode whose strings are char16_t (std::u16string): UTF-16."""
ERLANG: Final = Installable(
    "Erlang",
    ("escript", "erl"),
    (
        "erl",
        "-noshell",
        "-eval",
        'io:format("OTP ~s, ERTS ~s~n", '
        "[erlang:system_info(otp_release), erlang:system_info(version)]), halt().",
    ),
    "erlang_codecs.erl",
    install="erlang-nox",
)

_ENTRIES: Final[tuple[tuple[str, str, Installable, str], ...]] = (
    # name, description (the API, and the slot it fills in which mode), runtime, mode
    (
        "cxx-wstring-convert",
        "C++: std::wstring_convert<std::codecvt_utf8<char32_t>, char32_t>: from_bytes (decode, "
        "strict: range_error, refused at converted(); a sequence cut short at the end is no "
        "error to it), to_bytes (encode)",
        CXX,
        "wstring-convert",
    ),
    (
        "cxx-codecvt-utf8-utf16",
        "C++: std::wstring_convert<std::codecvt_utf8_utf16<char16_t>, char16_t>: from_bytes into "
        "UTF-16 (decode, strict, as wstring-convert), to_bytes from UTF-16 (encode)",
        CXX_UTF16,
        "codecvt-utf8-utf16",
    ),
    (
        "cxx-mbrtoc32",
        "C++: <cuchar> std::mbrtoc32 in the C.UTF-8 locale (decode, strict; incremental, strict: "
        "one mbstate_t across the chunks) and std::c32rtomb (encode)",
        CXX,
        "mbrtoc32",
    ),
    (
        "erlang-unicode",
        "Erlang: unicode:characters_to_list(Bin, utf8) (decode, strict: {error|incomplete, Good, "
        "Rest}; validate; incremental, strict: Rest carried to the next chunk) and "
        "unicode:characters_to_binary(List) (encode)",
        ERLANG,
        "unicode",
    ),
    (
        "erlang-bitsyntax",
        "Erlang: the bit syntax's utf8 segments: <<C/utf8, Rest/binary>> matched in a loop "
        "(decode, strict) and <<C/utf8>> built per code point (encode)",
        ERLANG,
        "bitsyntax",
    ),
)


MORE_LANGUAGES: Final = tuple(Program(*entry) for entry in _ENTRIES)
"""Every program of these runtimes, C++ first, then Erlang."""
