"""The protocol templates of examples/<language>/ (the README's adapter kit): each, run as
`utf8cert check "cmd:..."` as a user would after copying it, gets its language's own codec's
verdict. What each codec is known to do is in its documentation: CPython's and Rust's standard
decoders follow the maximal subpart practice; Node.js's TextDecoder drops a leading BOM (the
WHATWG Encoding Standard); Java's REPLACE decoder gives one U+FFFD for ED A0 (a `should`)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.cli_runs import check

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def verdict(command: list[str]) -> tuple[int, str]:
    """Return the exit status and the verdict line of `utf8cert check "cmd:COMMAND"`."""
    run = check("cmd:" + shlex.join(command))
    lines = [line for line in run.out.splitlines() if line.startswith(("conformant", "NOT"))]
    assert len(lines) == 1, run.out + run.err
    return run.status, lines[0]


@pytest.mark.slow
def test_the_python_template_certifies_cpythons_codec() -> None:
    status, line = verdict([sys.executable, str(EXAMPLES / "python" / "template.py")])
    assert (status, line) == (0, "conformant to RFC 3629; follows recommended practice throughout")


def test_the_python_template_says_where_each_error_ends() -> None:
    # PROTOCOL.md's optional end= field, from UnicodeDecodeError.end: E2 82 cut short after
    # "A" is the maximal subpart 1..3, across the chunks of an incremental request too.
    requests = "1 decode 41e282\n2 incremental 0 41e2 82\n3 encode 0000d800\n"
    template = [sys.executable, str(EXAMPLES / "python" / "template.py")]
    done = subprocess.run(template, input=requests, capture_output=True, text=True, check=True)
    answers = [line.split()[:4] for line in done.stdout.splitlines()[1:]]
    assert answers == [
        ["1", "refused", "end=3", "1"],
        ["2", "refused", "end=3", "1"],
        ["3", "refused", "end=1", "0"],
    ]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.slow
def test_the_node_template_finds_textdecoders_signature_stripping() -> None:
    status, line = verdict(["node", str(EXAMPLES / "node" / "textdecoder.js")])
    assert status == 0
    assert line.startswith("conformant to RFC 3629; departs from recommended practice")
    assert "(may)" in line


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("javac") is None, reason="javac is not installed")
def test_the_java_template_certifies_javas_charset_coders(tmp_path: Path) -> None:
    source = EXAMPLES / "java" / "Utf8Template.java"
    subprocess.run(["javac", "-d", str(tmp_path), str(source)], check=True, timeout=300)
    status, line = verdict(["java", "-cp", str(tmp_path), "Utf8Template"])
    # Conformant, with one recommended-practice departure (its replacing decoder's U+FFFD
    # count); how many vectors show it follows the vector set, not the template.
    assert status == 0
    assert line.startswith("conformant to RFC 3629; departs from recommended practice: 1 behaviour")
    assert line.endswith("(should)")


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("rustc") is None, reason="rustc is not installed")
def test_the_rust_template_certifies_rusts_standard_library(tmp_path: Path) -> None:
    program = tmp_path / "utf8_template"
    source = EXAMPLES / "rust" / "utf8_template.rs"
    subprocess.run(["rustc", "-O", "-o", str(program), str(source)], check=True, timeout=300)
    status, line = verdict([str(program)])
    assert (status, line) == (0, "conformant to RFC 3629; follows recommended practice throughout")


SUBSET_VECTORS = ("--vector", "ovl-1", "--vector", "sur-1", "--vector", "trunc-3")
"""An overlong form, a surrogate and a cut sequence, in their variants: enough for a verdict."""
CAPABILITY_LIST = re.compile(
    r"""(?i)(capabilities\b[^"'\n]*?)(["'])(?:decode|replace|validate|encode|incremental)"""
    r"""(?: (?:decode|replace|validate|encode|incremental))*\2"""
)
"""The string a template's header says to drop capabilities from, in every language's syntax."""


def with_only(source: Path, capability: str, directory: Path) -> Path:
    """Return a copy of a template in `directory` offering `capability` alone, made as its
    header says: by dropping the others from its list of capabilities."""
    text = source.read_text(encoding="utf-8")
    changed, count = CAPABILITY_LIST.subn(rf"\g<1>\g<2>{capability}\g<2>", text, count=1)
    assert count == 1, f"{source.name}: no list of capabilities to drop from"
    copy = directory / source.name
    copy.write_text(changed, encoding="utf-8")
    return copy


def built(language: str, source: Path) -> list[str]:
    """Return the command that runs a template's copy, compiling it first where needed."""
    directory = source.parent
    if language == "c":
        subprocess.run(["gcc", "-O2", "-o", str(directory / "codec"), str(source)], check=True)
        return [str(directory / "codec")]
    if language == "rust":
        program = directory / "codec"
        subprocess.run(["rustc", "-O", "-o", str(program), str(source)], check=True, timeout=300)
        return [str(program)]
    if language == "java":
        subprocess.run(["javac", "-d", str(directory), str(source)], check=True, timeout=300)
        return ["java", "-cp", str(directory), source.stem]
    if language == "go":
        program = directory / "codec"
        environment = {**os.environ, "GOCACHE": str(directory / "cache"), "GOFLAGS": "-mod=mod"}
        subprocess.run(
            ["go", "build", "-o", str(program), str(source)], check=True, env=environment
        )
        return [str(program)]
    runner = {"python": sys.executable, "lua": "lua", "perl": "perl", "php": "php", "ruby": "ruby"}
    return [runner[language], str(source)]


TEMPLATES = {
    "python": "python/template.py",
    "c": "c/utf8_codec.c",
    "go": "go/utf8codec.go",
    "java": "java/Utf8Template.java",
    "lua": "lua/utf8codec.lua",
    "perl": "perl/utf8codec.pl",
    "php": "php/utf8codec.php",
    "ruby": "ruby/utf8codec.rb",
    "rust": "rust/utf8_template.rs",
}
"""The templates whose header says to drop capabilities (node's is an adapter of one library)."""
TOOL = {"c": "gcc", "go": "go", "java": "javac", "rust": "rustc", "python": "python3"}


@pytest.mark.parametrize("capability", ["validate", "decode"])
@pytest.mark.parametrize(
    "language",
    [
        pytest.param(name, marks=[] if name == "python" else [pytest.mark.slow])
        for name in TEMPLATES
    ],
)
def test_each_template_gives_a_verdict_with_one_capability_alone(
    language: str, capability: str, tmp_path: Path
) -> None:
    """Issue 42: the Python, Java and Rust templates wrote `incremental=strict` whatever was
    left of their capabilities, a handshake failure (exit 2) once `incremental` was dropped as
    their headers say to. Each template, as shipped, wraps a conformant codec."""
    if shutil.which(TOOL.get(language, language)) is None:
        pytest.skip(f"{language} is not installed")
    copy = with_only(EXAMPLES / TEMPLATES[language], capability, tmp_path)
    run = check("cmd:" + shlex.join(built(language, copy)), *SUBSET_VECTORS)
    assert run.status == 0, run.out + run.err
    assert f"checked: {capability}, on 3 vectors" in run.out
    assert "conformant to RFC 3629" in run.out


def test_the_python_template_shows_a_decoder_above_u10ffff_as_rfc_2279(tmp_path: Path) -> None:
    """Issue 42: the template turned a decoded value above U+10FFFF into a refusal (chr()
    failed), so RFC 2279's reading looked like CPython's surrogatepass. Its decode returning
    the reference's RFC 2279 reading (reference/legacy.py) as code points, as a user's lax
    converter would, is fingerprinted as RFC 2279."""
    copy = with_only(EXAMPLES / "python" / "template.py", "decode", tmp_path)
    text = copy.read_text(encoding="utf-8")
    lax = text.replace(
        '    return data.decode("utf-8")\n',
        "    from utf8cert.reference import DecodeError, decode_legacy\n\n"
        "    try:\n"
        "        return decode_legacy(data)\n"
        "    except DecodeError as error:\n"
        "        raise Refusal(str(error), error.offset) from None\n",
        1,
    )
    assert lax != text
    copy.write_text(lax, encoding="utf-8")
    vectors = [
        word for v in ("oor-1", "oor-2", "sur-1", "leg-1", "leg-2") for word in ("--vector", v)
    ]
    run = check("cmd:" + shlex.join([sys.executable, str(copy)]), *vectors)
    assert run.status == 1, run.out + run.err
    assert "behaves like RFC 2279 UTF-8" in run.out, run.out
