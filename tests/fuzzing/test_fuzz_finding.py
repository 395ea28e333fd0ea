"""Findings: minimized, saved atomically, written as vectors that load; and their triage.

The vectors written are checked against CPython's codec (independent of the reference that
wrote their expected values) and loaded by the project's own loader and schema.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.probe import probe
from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.fuzzing.differential import PENDING, DifferentialTarget
from utf8cert.harness.fuzzing.finding import Finding, Reproduce, explanation, reproducer, slug
from utf8cert.harness.fuzzing.finding_vector import vector_document
from utf8cert.harness.fuzzing.minimize import minimize
from utf8cert.harness.fuzzing.save import save
from utf8cert.harness.fuzzing.signatures import CodecDiffers
from utf8cert.harness.fuzzing.triage import TRIAGED, triage_crashes, triage_pending
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import DecodeVector, EncodeVector


def probe_first(spec: str, data: bytes = b"\xed\xa0\x80") -> Difference:
    [difference, *_] = probe(load_codec(spec), data)
    return difference


def finding_of(spec: str, data: bytes, **asked: object) -> Finding:
    [difference, *_] = probe(load_codec(spec), data, **asked)  # type: ignore[arg-type]
    return Finding(spec, data, difference)


def test_minimize_keeps_the_property_and_shrinks_the_input() -> None:
    data = b"x" * 300 + b"\xc0\x80" + b"y" * 300
    smallest = minimize(data, lambda candidate: b"\xc0\x80" in candidate)
    assert smallest == b"\xc0\x80"


def test_minimize_overwrites_with_ascii_where_offsets_matter() -> None:
    # A bug at offset 100 only: deleting anything before it loses it; overwriting keeps it.
    data = bytes(range(128)) * 2
    smallest = minimize(data, lambda candidate: len(candidate) > 100 and candidate[100] == 100)
    assert smallest == b"a" * 100 + b"\x64"


def test_minimize_stops_at_its_budget() -> None:
    calls = []

    def keeps(candidate: bytes) -> bool:
        calls.append(candidate)
        return False  # nothing helps: without a budget, hundreds of tries

    assert minimize(b"abcdefgh" * 100, keeps, max_tries=5) == b"abcdefgh" * 100
    assert len(calls) == 5


def test_a_decoding_finding_is_a_vector_that_agrees_with_cpython(tmp_path: Path) -> None:
    finding = finding_of("support.fuzz_codecs:AlignedAsciiFastPath", b"aaaaaaa\x80bc")
    assert slug(finding.difference) == "decode-accepted-ill-formed-input"
    vector_file = save(finding, tmp_path)
    [vector] = list(load_vectors([vector_file], builtin=False))
    assert isinstance(vector, DecodeVector)
    assert vector.data == b"aaaaaaa\x80bc" and not vector.valid
    with pytest.raises(UnicodeDecodeError) as cpython:
        vector.data.decode("utf-8")
    assert vector.errors[0].offset == cpython.value.start
    assert vector.replaced == vector.data.decode("utf-8", "replace")
    assert vector.has_flag("fuzz-finding") and vector.has_flag(finding.stem)
    assert vector.id == f"fuzz-{finding.stem}-{finding.digest}"


def test_a_well_formed_finding_lists_its_scalars_with_runs_shortened(tmp_path: Path) -> None:
    data = b"a" * 4094 + "€".encode()
    finding = finding_of("support.fuzz_codecs:BlockBufferedDecoder", data)
    vector_file = save(finding, tmp_path)
    assert "U+0061*4094" in vector_file.read_text()
    [vector] = list(load_vectors([vector_file], builtin=False))
    assert isinstance(vector, DecodeVector) and vector.text == data.decode("utf-8")


def test_an_encoding_finding_is_an_encoding_vector(tmp_path: Path) -> None:
    finding = finding_of("support.fuzz_codecs:SurrogateWritingEncoder", b"a\xed\xa0\x80")
    vector_file = save(finding, tmp_path)
    [vector] = list(load_vectors([vector_file], builtin=False))
    assert isinstance(vector, EncodeVector)
    assert vector.scalars == (0x61, 0xD800)
    assert vector.error is not None and vector.error.index == 1
    with pytest.raises(UnicodeEncodeError):  # CPython agrees: no UTF-8 for U+D800
        "a\ud800".encode("utf-8")
    assert reproducer(finding).endswith("--input 61EDA080")  # the encoder is offered U+D800


def test_saving_writes_three_files_and_leaves_no_temporary_one(tmp_path: Path) -> None:
    finding = finding_of(
        "support.fuzz_codecs:ForgetfulIncremental", "€".encode(), final_empty=False
    )
    save(finding, tmp_path)
    stem = "incremental-rejected-well-formed-input"
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        f"{stem}.bin",
        f"{stem}.txt",
        f"{stem}.yaml",
    ]
    assert (tmp_path / f"{stem}.bin").read_bytes() == "€".encode()
    summary = (tmp_path / f"{stem}.txt").read_text()
    assert summary.splitlines()[-1] == (
        "reproduce: utf8cert check support.fuzz_codecs:ForgetfulIncremental --input E282AC"
    )
    assert "# Found by `utf8cert fuzz support.fuzz_codecs:ForgetfulIncremental`" in vector_document(
        finding
    )


def test_a_target_without_a_findings_directory_raises_the_difference() -> None:
    target = DifferentialTarget(load_codec("support.fuzz_codecs:ForgetfulIncremental"))
    with pytest.raises(CodecDiffers, match=r"rejected well-formed input \(incremental, must\)"):
        target("€".encode())
    target(b"plain ascii")  # no difference, nothing raised


def test_one_bug_is_one_finding_with_every_capability_it_shows_on(tmp_path: Path) -> None:
    # CPython's surrogatepass decodes ED A0 80 as U+D800 and encodes U+D800: one bug (lone
    # surrogates let through), seen by decode, replace, incremental and encode.
    codec = load_codec("codec:utf-8:surrogatepass")
    target = DifferentialTarget(codec, findings=tmp_path, keep_going=True)
    target(b"\xed\xa0\x80")
    target(b"x\xed\xbf\xbf")  # the same behaviours: nothing new
    pending = tmp_path / PENDING
    assert sorted(path.name for path in pending.iterdir()) == [
        "decode-accepted-ill-formed-input-surrogate.bin"
    ]
    [done] = triage_pending(codec.spec, codec, tmp_path, capabilities=None, fail_on="must")
    assert done.finding is not None and done.vector_file is not None
    assert {"decode", "encode"} <= set(done.finding.capabilities)
    vectors = list(load_vectors([done.vector_file], builtin=False))
    assert {type(vector) for vector in vectors} == {DecodeVector, EncodeVector}
    explained = done.vector_file.with_suffix(".txt").read_text()
    assert "encode: encoded a surrogate" in explained
    assert "decode: accepted ill-formed input" in explained


def test_a_should_finding_reproduces_at_its_level(tmp_path: Path) -> None:
    finding = Finding(
        "codec:utf-8", b"a", probe_first("codec:utf-8:surrogatepass"), reproduce=Reproduce("should")
    )
    assert "--fail-on should" in reproducer(finding)


def test_triage_minimizes_pending_inputs_into_findings(tmp_path: Path) -> None:
    (tmp_path / PENDING).mkdir()
    data = b"padding " * 10 + "€".encode() + b" more"
    (tmp_path / PENDING / "incremental-rejected-well-formed-input.bin").write_bytes(data)
    (tmp_path / PENDING / "decode-accepted-ill-formed-input.bin").write_bytes(b"fine")
    codec = load_codec("support.fuzz_codecs:ForgetfulIncremental")
    done = list(triage_pending(codec.spec, codec, tmp_path, capabilities=None, fail_on="must"))
    found = [item for item in done if item.finding is not None]
    lost = [item for item in done if item.finding is None]
    assert len(found) == 1 and found[0].finding is not None
    assert len(found[0].finding.data) < len(data)
    assert len(lost) == 1 and lost[0].source.suffix == ".unreproduced"  # kept, and said so
    assert lost[0].problem is not None and "another answer when asked again" in lost[0].problem
    assert not list((tmp_path / PENDING).glob("*.bin"))


def test_triage_replays_libfuzzer_crash_files_in_a_separate_process(tmp_path: Path) -> None:
    crashes = tmp_path / "libfuzzer"
    crashes.mkdir()
    (crashes / "crash-1").write_bytes(b"ab\xc0\x80cd")
    (crashes / "crash-2").write_bytes(b"nothing wrong here")
    done = list(
        triage_crashes(
            "support.fuzz_codecs:NullPointerOnOverlong",
            tmp_path,
            crashes,
            capabilities=None,
            fail_on="must",
            timeout=10.0,
        )
    )
    [crashed] = [item for item in done if item.finding is not None]
    assert crashed.finding is not None and crashed.finding.difference.what == "crashed"
    assert b"\xc0" in crashed.finding.data and len(crashed.finding.data) < 6
    assert crashed.source == crashes / TRIAGED / "crash-1"
    [unexplained] = [item for item in done if item.finding is None]
    assert unexplained.source == crashes / "crash-2"


def test_a_long_finding_shows_a_window_at_the_offset_where_the_answers_part() -> None:
    # A euro sign across the 4096-byte block of BlockBufferedDecoder: CPython decodes it whole.
    data = b"a" * 4094 + "€".encode() + b"xyz"
    assert data.decode("utf-8").endswith("€xyz")
    finding = finding_of("support.fuzz_codecs:BlockBufferedDecoder", data)
    [shown] = [line for line in explanation(finding).splitlines() if line.startswith("input:")]
    assert "4100 bytes; at offset 4095:" in shown
    assert "E2 [82] AC 78" in shown  # only the byte pointed at is bracketed
    assert len(shown) < 200


def test_minimizing_overwrites_stray_errors_and_keeps_the_offset() -> None:
    data = b"\xff" + b"x" * 99 + b"\xc0\x80" + b"\xed\xa0\x80"

    def keeps(candidate: bytes) -> bool:
        return candidate[100:102] == b"\xc0\x80"

    assert minimize(data, keeps) == b"a" * 100 + b"\xc0\x80"
