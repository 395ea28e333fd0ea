"""The C protocol template (examples/c/utf8_codec.c), built with gcc as its comment says and
checked with `utf8cert check cmd:...`: as shipped it is a conformant codec, and a codec put in
its place that lets encoded surrogates through (CESU-8's and Java's habit, RFC 3629 §3 forbids
it) gets the verdict that names that behaviour."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from support.cli_runs import check
from support.samples import few_of_each_kind, options

TEMPLATE = Path(__file__).parents[2] / "examples" / "c" / "utf8_codec.c"

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc not found on PATH")


def built(source: str, into: Path) -> str:
    """Return the cmd: spec of the template's source `source`, built with gcc into `into`."""
    path = into / "utf8_codec.c"
    path.write_text(source)
    program = into / "utf8_codec"
    subprocess.run(["gcc", "-O2", "-o", str(program), str(path)], check=True, timeout=120)
    return "cmd:" + shlex.quote(str(program))


@pytest.mark.slow
def test_the_template_as_shipped_is_a_conformant_decoder_and_encoder(tmp_path: Path) -> None:
    run = check(built(TEMPLATE.read_text(), tmp_path), "--color", "never")
    assert run.status == 0, run.out
    assert "checked: decode, encode," in run.out
    assert "conformant to RFC 3629; follows recommended practice throughout" in run.out


@pytest.mark.slow
def test_a_codec_put_in_its_place_is_judged_on_what_it_does(tmp_path: Path) -> None:
    # The second byte after ED may run to BF: encoded surrogates (ED A0..BF ..) get through.
    source = TEMPLATE.read_text()
    lenient = source.replace("lead == 0xED ? 0x9F :", "lead == 0xED ? 0xBF :")
    assert lenient != source
    # The verdict on one behaviour needs its vectors, not the suite (tests/README.md).
    run = check(built(lenient, tmp_path), "--color", "never", *options(few_of_each_kind()))
    assert run.status == 1, run.out
    assert "NOT conformant to RFC 3629" in run.out
    assert "decode: let ill-formed input through (surrogate)" in run.out
