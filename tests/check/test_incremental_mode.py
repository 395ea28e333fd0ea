"""The incremental decoder's mode is settled once and held (harness/check/modes.py): declared,
strict beside a strict one-shot decoder, or taken from its first answer to ill-formed input;
an answer in the other mode is a `must` difference (issue 19)."""

from __future__ import annotations

from functools import cache

import pytest
from support.samples import few_of_each_kind

from utf8cert.harness.check.report import Report
from utf8cert.harness.check.run import only_these, run_check
from utf8cert.harness.codec.handshake import handshake_line, read_handshake
from utf8cert.harness.codec.protocol import ProtocolError
from utf8cert.harness.codec.spec import CodecSpecError, load_codec
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import VectorSet


@cache
def few() -> VectorSet:
    return only_these(load_vectors(), few_of_each_kind())


def checked(spec: str) -> Report:
    """Return the check of `spec` on a few vectors of each kind (support.samples): the mode is
    settled and held the same way whatever else is checked."""
    codec = load_codec(spec)
    try:
        return run_check(codec, few())
    finally:
        codec.close()


def test_a_strict_codec_whose_streaming_path_replaces_is_not_certified() -> None:
    report = checked("support.mode_codecs:StrictButStreamReplaces")
    assert report.incremental_mode is not None
    assert report.incremental_mode.describe() == "strict (its one-shot decoder is strict)"
    whats = {(d.capability, d.level, d.what) for d in report.differences}
    assert whats == {("incremental", "must", "replaced ill-formed input in strict mode")}
    assert not report.conformant


def test_a_declared_replacing_incremental_decoder_is_judged_as_replacing() -> None:
    report = checked("support.mode_codecs:DeclaredReplacing")
    assert report.incremental_mode is not None
    assert report.incremental_mode.describe() == "replace (declared by the codec)"
    assert report.differences == []


def test_the_mode_of_an_undeclared_replacing_decoder_is_its_first_answer_then_held() -> None:
    report = checked("support.mode_codecs:ReplacingAlone")
    assert report.incremental_mode is not None
    assert report.incremental_mode.mode == "replace"
    assert report.incremental_mode.source.startswith("taken from its first answer")
    assert report.differences == []
    flipping = checked("support.mode_codecs:FlipFlop")
    whats = {(d.level, d.what) for d in flipping.differences}
    assert whats == {("must", "refused ill-formed input in replace mode")}
    assert all(b"\xc0" in d.input for d in flipping.differences if isinstance(d.input, bytes))


def test_a_declaration_that_is_no_mode_is_a_one_line_load_error() -> None:
    with pytest.raises(CodecSpecError, match="incremental_mode must be 'strict' or 'replace'"):
        load_codec("support.mode_codecs:BadDeclaration")


def test_a_program_declares_its_mode_in_its_handshake() -> None:
    line = handshake_line(frozenset({"decode", "incremental"}), 2, mode="replace")
    assert line == "utf8cert-protocol 2 decode incremental incremental=replace"
    assert read_handshake(line).incremental_mode == "replace"
    assert read_handshake("utf8cert-protocol 1 incremental").incremental_mode is None
    with pytest.raises(ProtocolError, match="unknown incremental=lax"):
        read_handshake("utf8cert-protocol 1 incremental incremental=lax")
    with pytest.raises(ProtocolError, match="incremental=strict without incremental"):
        read_handshake("utf8cert-protocol 1 decode incremental=strict")
