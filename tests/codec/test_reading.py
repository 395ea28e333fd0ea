"""An API that reads a C string is never judged on what follows a NUL (codec/reading.py).

The evidence is the libraries themselves, called here through ctypes as a C caller calls them:
libxml2's xmlCheckUTF8 and GLib's g_utf8_to_ucs4 and g_ucs4_to_utf8 stop at the first NUL. A
missing library is skipped.
"""

from __future__ import annotations

import ctypes
import ctypes.util

import pytest

from utf8cert.harness.check.report import Report
from utf8cert.harness.check.run import run_check
from utf8cert.harness.codec.interface import Codec, Inapplicable
from utf8cert.harness.codec.protocol import Request
from utf8cert.harness.codec.reading import C_STRING_LIMIT, input_model, unseen
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.world.catalog import registry
from utf8cert.harness.world.spec import load_codec

LIMIT = Inapplicable(C_STRING_LIMIT, unholdable=True)


def test_a_c_string_cannot_hold_a_nul_in_bytes_chunks_or_code_points() -> None:
    assert unseen("c-string", Request("validate", data=b"a\x00\x80")) == LIMIT
    assert unseen("c-string", Request("incremental", chunks=(b"a", b"\x00"))) == LIMIT
    assert unseen("c-string", Request("encode", scalars=(0x61, 0, 0x62))) == LIMIT
    assert unseen("c-string", Request("decode", data=b"a\x80")) is None
    assert unseen("bytes", Request("decode", data=b"a\x00\x80")) is None


def test_only_the_apis_that_stop_at_a_nul_declare_it() -> None:
    declared = {name for name, entry in registry().items() if input_model(entry) != "bytes"}
    # cJSON keeps a string value as a C string, without its length (cJSON.h: valuestring).
    assert declared == {"libxml2-xmlcheckutf8", "glib-utf8-to-ucs4", "glib-utf8-to-utf16", "cjson"}


def library(name: str) -> ctypes.CDLL:
    found = ctypes.util.find_library(name)
    if found is None:
        pytest.skip(f"lib{name} is not installed here")
    return ctypes.CDLL(found)


def available(name: str) -> Codec:
    reason = registry()[name].unavailable()
    if reason is not None:
        pytest.skip(f"adapter:{name} is unavailable here: {reason}")
    return load_codec(f"adapter:{name}")


def checked(name: str) -> Report:
    codec = available(name)
    try:
        return run_check(codec, load_vectors())
    finally:
        codec.close()


def test_xmlcheckutf8_is_not_blamed_for_bytes_after_a_nul() -> None:
    check_utf8 = library("xml2").xmlCheckUTF8
    check_utf8.argtypes = [ctypes.c_char_p]
    # The library itself: 61 00 80 is the C string "a", valid; 61 80 is not.
    assert check_utf8(b"a\x00\x80") == 1 and check_utf8(b"a\x80") == 0
    report = checked("libxml2-xmlcheckutf8")
    validate = report.coverage.of("validate")
    assert validate.beyond_api == validate.inapplicable[C_STRING_LIMIT] > 0
    assert validate.certified
    assert not [d for d in report.differences if 0 in d.input]  # a 00 byte
    # What it does get wrong stays: overlong forms are valid to it (its comment: "not
    # super-strict").
    assert check_utf8(b"\xc0\xaf") == 1
    assert any(d.vector == "ovl-1" for d in report.differences)


@pytest.mark.slow
def test_glib_is_not_blamed_for_text_after_a_nul_it_never_read() -> None:
    glib = library("glib-2.0")
    to_ucs4, free = glib.g_utf8_to_ucs4, glib.g_free
    to_ucs4.restype = ctypes.c_void_p
    read, written = ctypes.c_long(), ctypes.c_long()
    text = to_ucs4(b"a\x00\x80", 3, ctypes.byref(read), ctypes.byref(written), None)
    assert text and (read.value, written.value) == (1, 1)  # given 3 bytes, it read 1: no error
    free(ctypes.c_void_p(text))
    to_utf8 = glib.g_ucs4_to_utf8
    to_utf8.restype = ctypes.c_void_p
    values = (ctypes.c_uint32 * 3)(0x61, 0, 0x62)
    bytes_out = to_utf8(values, 3, ctypes.byref(read), ctypes.byref(written), None)
    assert bytes_out and (read.value, written.value) == (1, 1)
    free(ctypes.c_void_p(bytes_out))
    for name in ("glib-utf8-to-ucs4", "glib-utf8-to-utf16"):
        report = checked(name)
        assert report.coverage.of("decode").beyond_api > 0
        assert report.coverage.of("encode").beyond_api > 0
        assert not [d for d in report.differences if 0 in d.input]  # a 00 byte, or U+0000
        assert "lost the end of the text" not in {d.what for d in report.differences}
