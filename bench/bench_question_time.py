"""Seconds per byte of request line that one question takes CPython's own codec in its child:
the figure behind harness/codec/pace.py's PER_BYTE (a question's time limit grows with it).

    python bench/bench_question_time.py [--mb 1 10 100]

For each size, an input of well-formed text (mostly ASCII, with 2-, 3- and 4-byte characters) is
asked of `codec:utf-8` isolated (as `check --input-file` asks it): decode, replace, encode and
incremental. Each answer's time is taken as the judge counts it against the time limit (what
`Pace.answered` is told: from the request sent to the answer taken in), and divided by the length
of the request line. Prints a markdown table for bench/README.md; the load average is printed
too, since on a shared machine it is most of the figure.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

from utf8cert.harness.codec import pace
from utf8cert.harness.codec.interface import Codec, Outcome
from utf8cert.harness.codec.spec import load_codec

LINE = "The quick brown fox jumps over the lazy dog; naïve café, 東京, Ελληνικά, 😀\n"
counted: list[tuple[float, int]] = []


def questions(codec: Codec, data: bytes, text: str) -> dict[str, Callable[[], Outcome]]:
    """Return the question of each capability on `data` (whose text is `text`), to ask."""
    return {
        "decode": lambda: codec.decode(data),
        "replace": lambda: codec.decode_replace(data),
        "encode": lambda: codec.encode([ord(char) for char in text]),
        "incremental": lambda: codec.decode_chunks([data], False),
    }


def main() -> None:
    """Print one row per size and capability: seconds counted, line length, ns per byte."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, nargs="+", default=[1.0, 10.0, 100.0])
    arguments = parser.parse_args()
    learn = pace.Pace.answered

    def answered(self: pace.Pace, seconds: float, size: int) -> None:
        counted.append((seconds, size))
        learn(self, seconds, size)

    pace.Pace.answered = answered  # type: ignore[method-assign]
    print(f"load average {os.getloadavg()[0]:.1f}\n")
    print("| input | capability | counted | request line | per byte of line |")
    print("|--:|---|--:|--:|--:|")
    for megabytes in arguments.mb:
        line = LINE.encode("utf-8")
        data = line * int(megabytes * 10**6 // len(line))
        text = data.decode("utf-8")
        codec = load_codec("codec:utf-8", isolate=True, timeout=3600)
        try:
            for capability, ask in questions(codec, data, text).items():
                counted.clear()
                started = time.perf_counter()
                outcome = ask()
                took = time.perf_counter() - started
                seconds, size = counted[-1] if counted else (took, 0)
                per_byte = f"{seconds / size * 1e9:.0f} ns" if size else type(outcome).__name__
                print(
                    f"| {megabytes:g} MB | {capability} | {seconds:.2f} s | {size / 1e6:.1f} MB "
                    f"| {per_byte} |",
                    flush=True,
                )
        finally:
            codec.close()


if __name__ == "__main__":
    main()
