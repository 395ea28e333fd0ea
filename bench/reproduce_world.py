"""Re-run each must-level difference utf8cert finds in the world's new libraries of issue 43
through a direct reproducer (the library called as its documentation shows, none of
utf8cert's code: reproduce_world.c for the C libraries, reproduce_world.js for npm packages,
ReproduceWorld.java for the JVM's), and say whether the library itself shows the same.

    python bench/reproduce_world.py                 # every configuration below
    python bench/reproduce_world.py yajl cmark      # some of them
    python bench/reproduce_world.py --should        # their should-level differences (SHOULD)

For each configuration: `utf8cert check adapter:NAME --json` lists the differences; each
must-level one's input goes to the direct reproducer; the answer must match utf8cert's `actual`
(a refusal, the same code points, the same validity, or ill-formed output where utf8cert saw
the library write ill-formed UTF-8), or else be shown to vary with memory the library does not
own or never wrote: for C, a guard page after the input, then new heap memory filled two ways
by glibc's MALLOC_PERTURB_; for npm, new buffers filled with 00 and then ff. An answer made of
such memory is no answer at all: it is counted as shown, the line saying how many. With
--should, the should-level differences (U+FFFD counts) of the configurations in SHOULD instead,
by capability, reproduce_world.go for Go's standard library (a refusal's offset is compared
where the reproducer gives one: json-c's). Prints one line a configuration (or why it was
skipped: its library is not installed here) and the inputs that do not match; exit status 1
when any does not (a false flag), 0 when all do.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from utf8cert.harness.check.variants import PAD, layouts
from utf8cert.harness.world.catalog import registry

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "reproduce_world.c"
JARS = ":".join(f"/usr/share/java/{jar}.jar" for jar in ("jackson-core", "jsoup", "msgpack-core"))
Reproducer = tuple[str, str, str, str]

# configuration: (the -D macro, the pkg-config package, the reproducer's argument, its output)
CONFIGURATIONS: dict[str, Reproducer] = {
    "json-c": ("JSONC", "json-c", "", "bytes"),
    "json-c-validate-utf8": ("JSONC", "json-c", "validate", "bytes"),
    "yajl": ("YAJL", "yajl", "", "bytes"),
    "cjson": ("CJSON", "libcjson", "", "bytes"),
    "cmark": ("CMARK", "libcmark", "", "bytes"),
    "cmark-validate-utf8": ("CMARK", "libcmark", "validate", "bytes"),
    "cmark-gfm": ("CMARK_GFM", "libcmark-gfm", "", "bytes"),
    "cmark-gfm-validate-utf8": ("CMARK_GFM", "libcmark-gfm", "validate", "bytes"),
    "bson-utf8-validate": ("BSON", "libbson-1.0", "", "validity"),
    "bson-utf8-escape-for-json": ("BSON", "libbson-1.0", "escape", "json-escaped"),
    "fribidi-charset-to-unicode": ("FRIBIDI", "fribidi", "", "points"),
    "fribidi-unicode-to-charset": ("FRIBIDI", "fribidi", "encode", "bytes"),
    # npm and the JVM: ("node" or "java", "", the reproducer's mode, its output)
    "npm-msgpackr": ("node", "", "msgpackr-encode", "bytes"),
    "npm-notepack": ("node", "", "notepack-encode", "bytes"),
    "jvm-jackson-core": ("java", "", "jackson", "bytes"),
    "jvm-jsoup": ("java", "", "jsoup", "bytes"),
}
# The should-level differences, by capability: ("go", "", the reproducer's mode, ...) for Go.
SHOULD: dict[str, dict[str, Reproducer]] = {
    "harfbuzz-buffer-add-utf8": {"replace": ("HARFBUZZ", "harfbuzz", "", "points")},
    "go-decode-last-rune": {
        "replace": ("go", "", "decode-last-rune", "points"),
        "decode": ("go", "", "decode-last-rune-strict", "points"),
    },
    "go-xml-escape-text": {"replace": ("go", "", "xml-escape-text", "points")},
    "jvm-msgpack-java": {
        "replace": ("java", "", "msgpack-unpack", "bytes"),
        "encode": ("java", "", "msgpack-pack", "bytes"),
    },
    "json-c-validate-utf8": {"decode": CONFIGURATIONS["json-c-validate-utf8"]},
    "cmark-validate-utf8": {"replace": CONFIGURATIONS["cmark-validate-utf8"]},
    "cmark-gfm-validate-utf8": {"replace": CONFIGURATIONS["cmark-gfm-validate-utf8"]},
    "npm-msgpackr": {"encode": CONFIGURATIONS["npm-msgpackr"]},
    "npm-notepack": {"encode": CONFIGURATIONS["npm-notepack"]},
    "jvm-jsoup": {"replace": CONFIGURATIONS["jvm-jsoup"]},
}


def reproducer(macro: str, package: str, argument: str, into: Path) -> list[str]:
    """Return the command that runs one configuration's direct reproducer, built first."""
    if macro == "node":
        from utf8cert.harness.world.programs.libraries import npm_prefix

        return ["node", str(HERE / "reproduce_world.js"), argument, str(npm_prefix())]
    if macro == "java":
        if not (into / "ReproduceWorld.class").is_file():
            source = str(HERE / "ReproduceWorld.java")
            subprocess.run(["javac", "-cp", JARS, "-d", str(into), source], check=True)
        return ["java", "-cp", f"{into}:{JARS}", "ReproduceWorld", argument]
    if macro == "go":
        if not (into / "repro_go").is_file():
            source = str(HERE / "reproduce_world.go")
            subprocess.run(["go", "build", "-o", str(into / "repro_go"), source], check=True)
        return [str(into / "repro_go"), argument]
    return [str(build(macro, package, into)), *([argument] if argument else [])]


def build(macro: str, package: str, into: Path) -> Path:
    """Return the reproducer built for one library."""
    program = into / f"repro_{macro.lower()}"
    flags = subprocess.run(
        ["pkg-config", "--cflags", "--libs", package], capture_output=True, text=True, check=True
    ).stdout.split()
    subprocess.run(
        ["gcc", "-O1", f"-DREPRO_{macro}", "-o", str(program), str(SOURCE), *flags], check=True
    )
    return program


def points_of(data: bytes) -> list[int]:
    """Return the code points of UTF-8 bytes read by bit layout (surrogates and values to
    1FFFFF kept, as utf8cert reads a library's output); raise ValueError when ill-formed."""
    points, i = [], 0
    while i < len(data):
        lead = data[i]
        bounds = ((0x80, 1), (0xC0, 0), (0xE0, 2), (0xF0, 3), (0xF8, 4))
        length = next((n for bound, n in bounds if lead < bound), 0)
        tail = data[i + 1 : i + length]
        if length == 0 or len(tail) != length - 1 or any(b & 0xC0 != 0x80 for b in tail):
            raise ValueError(f"ill-formed at {i}")
        value = lead if length == 1 else lead & (0x7F >> length)
        for byte in tail:
            value = value << 6 | byte & 0x3F
        if value < (0, 0, 0x80, 0x800, 0x10000)[length]:
            raise ValueError(f"overlong at {i}")
        points.append(value)
        i += length
    return points


def unescape_json(data: bytes) -> bytes:
    """Return libbson's JSON-escaped output with its escapes undone (\\" \\\\ \\uXXXX ...)."""
    short = {b"b": b"\b", b"f": b"\f", b"n": b"\n", b"r": b"\r", b"t": b"\t"}

    def one(match: re.Match[bytes]) -> bytes:
        escape = match.group(1)
        if escape.startswith(b"u"):
            return chr(int(escape[1:], 16)).encode("utf-8", "surrogatepass")
        return short.get(escape, escape)

    return re.sub(rb"\\(u[0-9a-fA-F]{4}|.)", one, data)


def expanded(shown: str) -> str:
    """Return a report's `U+0061*14` runs written out, one code point or byte each."""
    return re.sub(r"(\S+)\*(\d+)", lambda m: " ".join([m.group(1)] * int(m.group(2))), shown)


def request_of(difference: dict[str, str]) -> str:
    """Return the reproducer's input line: the bytes (a long straddling variant's, which the
    report gives as the vector's alone, laid out again as harness/check/variants.py does), or
    for an encoder the code points as four big-endian bytes each."""
    shown = expanded(difference["input"] or "-")
    variant = difference["variant"]
    if difference["capability"] != "encode":
        if not variant.startswith("straddle-") or len(shown) // 2 >= int(variant.split("-")[1]):
            return shown
        vector = bytes.fromhex(shown)
        (layout,) = [each for each in layouts(len(vector)) if each.name == variant]
        return (bytes([PAD]) * layout.before + vector + bytes([PAD]) * layout.after).hex()
    points = [int(p, 16) for p in re.findall(r"U\+([0-9A-Fa-f]+)", shown)]
    if variant.startswith("straddle-") and len(points) < int(variant.split("-")[1]):
        (layout,) = [each for each in layouts(len(points)) if each.name == variant]
        points = [PAD] * layout.before + points + [PAD] * layout.after
    return "".join(f"{p:08x}" for p in points) or "-"


def varies_with_memory(program: list[str], macro: str, line: str) -> bool:
    """Return whether the library's answer to this input depends on memory it does not own or
    never wrote, so that it varies run to run. A C reproducer with REPRO_GUARD set puts the
    input's last byte right before a page that cannot be read and dies of SIGSEGV when the
    library reads on; else it is run with glibc's MALLOC_PERTURB_ at 85 and at 170, which fill
    new heap memory with AA and then 55. The npm one with REPRO_FILL set fills the package's new
    buffers with 00 and then ff. An answer that changes between the two holds bytes the
    library never wrote. False for the JVM and Go, whose new memory is zeroed and whose reads
    are checked."""
    if macro in ("java", "go"):
        return False
    if macro == "node":
        fills = [{"REPRO_FILL": "00"}, {"REPRO_FILL": "ff"}]
    elif run_with(program, line, {"REPRO_GUARD": "1"}).returncode == -signal.SIGSEGV:
        return True
    else:
        fills = [{"MALLOC_PERTURB_": "85"}, {"MALLOC_PERTURB_": "170"}]
    answers = [run_with(program, line, fill).stdout for fill in fills]
    return answers[0] != answers[1]


def run_with(
    program: list[str], line: str, variables: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    """Return the reproducer's run on one input line with these environment variables set."""
    return subprocess.run(
        program, input=line + "\n", text=True, capture_output=True, env={**os.environ, **variables}
    )


def direct_matches(answer: str, difference: dict[str, str], output: str) -> bool:
    """Return whether the reproducer's `answer` shows what utf8cert saw: for ill-formed input
    accepted, that the library accepts it (what it makes of it may differ: libbson's escaper
    reads past the end of its input, so the bytes it adds vary run to run); else the same
    refusal, validity, code points or bytes."""
    word, _, value = answer.partition(" ")
    actual = expanded(difference["actual"])
    if difference["what"] == "accepted ill-formed input" and not actual.startswith("wrong-type"):
        return word == "ok" or answer == "valid 1"
    if actual.startswith("refus"):  # and at the same offset, where the reproducer gives one
        offset = re.match(r"refused at (\d+)", actual)
        return word == "refused" and (not value or offset is None or value == offset.group(1))
    if output == "validity":
        return word == "valid" and (value == "1") == (actual == "True")
    if word != "ok":
        return False
    data = b"" if value == "-" else bytes.fromhex(value)
    if output == "json-escaped":
        data = unescape_json(data)
    if output == "points":
        shown = [int(value[i : i + 8], 16) for i in range(0, len(value), 8)] if value != "-" else []
    elif actual.startswith("wrong-type: the library wrote ill-formed UTF-8"):
        try:
            points_of(data)
        except ValueError:
            return True
        return False
    elif re.fullmatch(r"(?:[0-9a-f]{2})+|-|\(no bytes\)", actual.replace(" ", "").lower()):
        return data.hex() == actual.replace(" ", "").lower() or (not data and "no" in actual)
    else:
        try:
            shown = points_of(data)
        except ValueError:
            return False
    wanted = [int(p, 16) for p in re.findall(r"U\+([0-9A-F]+)", actual)]
    if actual.endswith("…"):  # the report cut a long answer short: compare what it shows
        return shown[: len(wanted)] == wanted
    return shown == wanted


def differences(name: str, level: str) -> list[dict[str, str]]:
    """Return the differences of one level `utf8cert check adapter:NAME` reports."""
    with tempfile.NamedTemporaryFile(suffix=".json") as report:
        command = ["utf8cert", "check", f"adapter:{name}", "--json", report.name, "-q"]
        subprocess.run(command, capture_output=True, check=False)
        found: list[dict[str, str]] = json.loads(Path(report.name).read_text())["differences"]
    return [d for d in found if d["level"] == level]


def reproduced(
    name: str, found: list[dict[str, str]], how: Reproducer, scratch: Path
) -> tuple[list[tuple[dict[str, str], str]], int]:
    """Return the differences the library called directly does not show (with its answer),
    and how many of the others it shows only with another answer, one that varies with memory
    it does not own or never wrote (read past its input, or returned unwritten)."""
    macro, package, argument, output = how
    command = reproducer(macro, package, argument, scratch)
    lines = "".join(f"{request_of(d)}\n" for d in found)
    answers = subprocess.run(
        command, input=lines, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    requests = lines.splitlines()
    unmatched = [
        (d, a, r)
        for d, a, r in zip(found, answers, requests, strict=True)
        if not direct_matches(a, d, output)
    ]
    varied = [varies_with_memory(command, macro, r) for _, _, r in unmatched]
    return [(d, a) for (d, a, _), v in zip(unmatched, varied, strict=True) if not v], sum(varied)


def main(arguments: list[str]) -> int:
    """Return 0 when every difference is shown by the library called directly, else 1."""
    level = "should" if "--should" in arguments else "must"
    names = [each for each in arguments if each != "--should"]
    table = SHOULD if level == "should" else {n: {"*": how} for n, how in CONFIGURATIONS.items()}
    false_flags = 0
    with tempfile.TemporaryDirectory() as scratch:
        for name in names or list(table):
            reason = registry()[name].unavailable()
            if reason is not None:
                print(f"{name}: skipped, {reason}")
                continue
            found = differences(name, level)
            missed: list[tuple[dict[str, str], str]] = []
            varied = 0
            for capability in sorted({d["capability"] for d in found}):
                how = table[name].get(capability) or table[name].get("*")
                these = [d for d in found if d["capability"] == capability]
                if how is None:
                    missed += [(d, "no direct reproducer for this capability") for d in these]
                    continue
                not_shown, varying = reproduced(name, these, how, Path(scratch))
                missed += not_shown
                varied += varying
            false_flags += len(missed)
            print(
                f"{name}: {len(found) - len(missed)} of {len(found)} {level} differences shown"
                f" directly ({varied} of them by an answer that varies with memory the library"
                " does not own or never wrote)"
            )
            for difference, answer in missed[:5]:
                shown = f"{difference['variant']} {difference['input'][:80]}"
                print(f"  not shown: {shown} utf8cert: {difference['actual']}; direct: {answer}")
    return 1 if false_flags else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
