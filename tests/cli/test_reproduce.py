"""Every reproducer reproduces: for each kind of difference, the command printed beside it,
run as printed, shows the same difference again (and carries --in-process, --timeout and the
user's --vectors when the run had them: isolated is the default, named by no option)."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest
from support.cli_runs import check, check_once
from support.samples import few_of_each_kind, options
from support.user_vectors import EXTRA_VECTOR

FEW = tuple(options(few_of_each_kind()))
"""A few vectors of each kind: each behaviour a codec shows there has its reproducer run (the
rule is the same on any set; a whole check of a broken codec costs 10-60 s under load)."""
CASES = {
    "decode": ("support.broken_codecs:NaiveBitDecoder", *FEW),
    "replace": ("support.broken_codecs:OneFffdPerByte", *FEW),
    "validate": ("support.broken_codecs:LaxRangeValidator", *FEW),
    "incremental, cut in chunks": ("support.broken_codecs:ChunkBoundaryDecoder", *FEW),
    "encode": ("support.broken_codecs:SurrogateWritingEncoder", *FEW),
    "long input across a page": ("support.broken_codecs:Page4096Decoder", "--vector", "trunc-1"),
    "under a profile": (
        "support.broken_codecs:NaiveBitDecoder",
        "--profile",
        "wtf-8",
        "--vector",
        "ovl-1",
    ),
    "a crash in a child process": (
        "support.broken_codecs:CrashingDecoder",
        "--isolate",
        "--timeout",
        "20",
        "--vector",
        "ovl-1",
    ),
    "a crash in process": (
        "support.broken_codecs:CrashingDecoder",
        "--in-process",
        "--vector",
        "ovl-1",
    ),
}


def differences_of(words: list[str]) -> list[dict[str, Any]]:
    assert words[:2] == ["utf8cert", "check"], words
    run = check(*words[2:], "--json", "-", "--quiet")
    assert run.status in (0, 1), run.err
    differences: list[dict[str, Any]] = run.json()["differences"]
    return differences


def assert_reproduces(arguments: tuple[str, ...]) -> list[list[str]]:
    """Check that each behaviour's example reproduces; return the commands run."""
    document = check_once(*arguments, "--json", "-", "--quiet").json()
    assert document["behaviours"], "the codec shows no difference to reproduce"
    commands = []
    for behaviour in document["behaviours"]:
        example = document["differences"][behaviour["example"]]
        words = shlex.split(example["reproduce"])
        again = differences_of(words)
        same = [
            d
            for d in again
            if (d["capability"], d["what"]) == (example["capability"], example["what"])
        ]
        assert same, f"{example['reproduce']} did not show {example['what']}"
        if not behaviour["id"].startswith(("decode/goes-wrong-only", "encode/goes-wrong-only")):
            assert any(d["behaviour"] == behaviour["id"] for d in same)
        commands.append(words)
    return commands


@pytest.mark.parametrize("arguments", CASES.values(), ids=CASES.keys())
@pytest.mark.slow
def test_the_reproducer_of_each_behaviour_shows_it_again(arguments: tuple[str, ...]) -> None:
    commands = assert_reproduces(arguments)
    if "--isolate" in arguments:
        assert all(words[3:5] == ["--timeout", "20"] for words in commands)
    if "--in-process" in arguments:
        assert all(words[3] == "--in-process" for words in commands)
    else:
        assert all("--in-process" not in words for words in commands)
    if "--profile" in arguments:
        assert all(words[3:5] == ["--profile", "wtf-8"] for words in commands)


@pytest.mark.slow
def test_a_reproducer_of_a_users_vector_carries_the_vector_files(tmp_path: Path) -> None:
    extra = tmp_path / "my vectors" / "extra.yaml"  # a space, to be quoted for the shell
    extra.parent.mkdir()
    extra.write_text(EXTRA_VECTOR, encoding="utf-8")
    arguments = ("codec:utf-8:surrogatepass", "--vectors", str(extra), "--vector", "extra-1")
    document = check(*arguments, "--json", "-", "-q").json()
    reproduce = document["differences"][0]["reproduce"]
    assert reproduce.endswith(f"--vectors {shlex.quote(str(extra))} --vector extra-1")
    assert_reproduces(arguments)


@pytest.mark.slow
def test_a_reproducer_carries_the_paths_the_codec_could_write(tmp_path: Path) -> None:
    arguments = ("codec:latin-1", "--sandbox-writable", str(tmp_path), "--vector", "ovl-1")
    commands = assert_reproduces(arguments)
    assert all(words[3:5] == ["--sandbox-writable", str(tmp_path)] for words in commands)
