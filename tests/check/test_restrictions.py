"""A restriction an adapter declares is checked, not trusted (issue 40, codec/restrictions.py).

Evidence: XML 1.0 §2.2's Char production and the standard library's expat, which refuses a
document holding U+0001 in any form; CPython's codec, which has no such limit.
"""

from __future__ import annotations

from xml.parsers import expat

import pytest
from support.cli_runs import builtin
from support.restricted_codecs import XmlText

from utf8cert.harness.check.run import only_these, run_check
from utf8cert.harness.codec.restrictions import RESTRICTIONS, excluded
from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.vectors.model import DecodeVector, VectorSet

XML = RESTRICTIONS["xml-1.0-char"]


def test_the_rule_is_xml_1_0s_char_production_as_expat_reads_it() -> None:
    for value in [*range(0x20), 0x7F, 0x85, 0xD7FF, 0xE000, 0xFFFD, 0xFFFE, 0xFFFF, 0x10000]:
        document = f"<a>{chr(value)}</a>".encode()
        try:
            expat.ParserCreate().Parse(document, True)
            carried = True
        except expat.ExpatError:
            carried = False
        assert excluded(XML, chr(value).encode()) == (not carried), hex(value)
    assert not excluded(XML, b"\xc0\x81")  # ill-formed bytes are what is checked: never excluded


def some_vectors() -> VectorSet:
    """Return a few built-in decoding vectors the rule excludes, and as many it does not."""
    vectors = [v for v in builtin() if isinstance(v, DecodeVector)]
    out = [v.id for v in vectors if excluded(XML, v.data)][:6]
    kept = [v.id for v in vectors if not excluded(XML, v.data)][:6]
    assert len(out) == 6
    return only_these(builtin(), {*out, *kept})


def test_a_wrapper_that_declines_exactly_what_xml_cannot_carry_is_certified_over_the_rest() -> None:
    report = run_check(load_codec("support.restricted_codecs:XmlText"), some_vectors())
    decode = report.coverage.of("decode")
    assert decode.restricted > 0 and decode.certified
    assert decode.over == "the inputs XML text can carry (XML 1.0 §2.2 Char)"


def test_a_wrapper_that_declares_no_rule_keeps_the_gap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(XmlText, "restriction", None)
    report = run_check(load_codec("support.restricted_codecs:XmlText"), some_vectors())
    assert not report.coverage.of("decode").certified


def test_a_codec_declaring_a_restriction_it_does_not_have_is_not_certified() -> None:
    report = run_check(load_codec("support.restricted_codecs:FalselyRestricted"), some_vectors())
    decode = report.coverage.of("decode")
    assert decode.contradicted > 0 and not decode.certified
    assert "a restriction it does not have" in decode.why_not_certified()
