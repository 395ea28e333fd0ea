"""Speed and memory of the reference codec next to CPython's own UTF-8 decoder.

    python bench/bench_reference.py [--megabytes 10] [--repeat 3]

Prints MB/s (per CPU second) of `validate`, `decode` and `decode_replace` on ASCII, mixed
multilingual prose and random bytes, with CPython's figure for the same input from the same run,
the cost of one call on 64 bytes of mixed text, the peak memory (tracemalloc) relative to the
input, and whether each target of issue 2 is met. Not a test: the figures go to bench/README.md.
"""

# ruff: noqa: RUF001  (the Cyrillic and Greek sample words are meant to look like Latin letters)
from __future__ import annotations

import argparse
import gc
import platform
import random
import time
import timeit
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass

from utf8cert.reference import decode, decode_replace, validate

# Words typed for this benchmark, roughly in order of frequency, so that a Zipf draw gives
# prose-like text: many short common words, accented letters where the language has them.
WORDS = {
    "en": "the of and to in a is that for it as was with be by on not he this are or his from"
    " at which but have an they you were her all she there would their we him been has when"
    " who will more no if out so said what up its about into than them can only other new",
    "fr": "de la le et les des en un du une que est pour qui dans par plus pas au sur se ne il"
    " été être très où même après déjà français élève à ça cœur fenêtre hôtel forêt leçon",
    "de": "der die und in den von zu das mit sich des auf für ist im dem nicht ein eine als auch"
    " es an über schön größe müde straße tür öl äpfel übung weiß hören können würde",
    "es": "de la que el en y a los se del las un por con no una su para es al lo como más"
    " pero sus le ya o año también así después niño señor corazón canción",
    "ru": "и в не на я быть он с что а по это она этот к но они мы как из у который то за свой"
    " весь год от так о для ты же все тот мочь вы человек такой его сказать только",
    "el": "και το να η ο που με για από στο δεν τα θα της σε τη τον οι στην μου ένα αλλά είναι"
    " έχει όταν πολύ μας αυτό ήταν κάθε μετά",
}
# Common Han characters and kana, one character each (CJK prose has no spaces).
HAN = "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对"
KANA = (
    "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをん"
)
EMOJI = ["😀", "🎉", "🚀", "👍", "🌍", "🙂", "✨", "🔥", "😂", "🤔", "👋", "❤️"]


def zipf_chooser(rng: random.Random, items: list[str]) -> Callable[[], str]:
    """Return a function drawing from `items` with weight 1/rank (Zipf's law)."""
    weights = [1 / rank for rank in range(1, len(items) + 1)]
    return lambda: rng.choices(items, weights)[0]


def mixed_text(size: int, seed: int = 3629) -> bytes:
    """Return `size` bytes or a little less of multilingual prose, cut on a character boundary.

    Paragraphs in English, French, German, Spanish, Russian, Greek, Chinese and Japanese, with
    an emoji after about one sentence in four.
    """
    rng = random.Random(seed)
    word = {lang: zipf_chooser(rng, words.split()) for lang, words in WORDS.items()}
    han, kana = zipf_chooser(rng, list(HAN)), zipf_chooser(rng, list(KANA))
    paragraphs, total = [], 0
    while total < size:
        lang = rng.choice([*WORDS, "zh", "ja"])
        sentences = []
        for _ in range(rng.randint(2, 6)):
            if lang == "zh":
                sentence = "".join(han() for _ in range(rng.randint(8, 30))) + "。"
            elif lang == "ja":
                length = rng.randint(8, 30)
                sentence = "".join(han() if rng.random() < 0.4 else kana() for _ in range(length))
                sentence += "。"
            else:
                words = [word[lang]() for _ in range(rng.randint(4, 16))]
                sentence = " ".join(words).capitalize() + rng.choice(".!?")
            if rng.random() < 0.25:
                sentence += " " + rng.choice(EMOJI)
            sentences.append(sentence)
        paragraph = (" ".join(sentences) + "\n").encode("utf-8")
        paragraphs.append(paragraph)
        total += len(paragraph)
    # Drop a last character that the cut may have split (its bytes are all 80..FF).
    return b"".join(paragraphs)[:size].rstrip(bytes(range(0x80, 0x100)))


def ascii_text(size: int) -> bytes:
    """Return `size` bytes of ASCII prose."""
    line = b"The quick brown fox jumps over the lazy dog; 0123456789 times.\n"
    return (line * (size // len(line) + 1))[:size]


def cpython_validate(data: bytes) -> bool:
    """Return True if CPython decodes `data` (its closest equivalent of validate)."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def cpython_decode_or_error(data: bytes) -> str | None:
    """Return CPython's strict decoding of `data`, None where it raises."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def reference_decode_or_error(data: bytes) -> str | None:
    """Return the reference's strict decoding of `data`, None where it raises."""
    try:
        return decode(data)
    except ValueError:
        return None


OPERATIONS: dict[str, tuple[Callable[[bytes], object], Callable[[bytes], object]]] = {
    "validate": (validate, cpython_validate),
    "decode": (reference_decode_or_error, cpython_decode_or_error),
    "decode_replace": (decode_replace, lambda data: data.decode("utf-8", "replace")),
}


def best_seconds(function: Callable[[bytes], object], data: bytes, repeat: int) -> float:
    """Return the least CPU time of `repeat` calls (fewer if one call takes over 5 s).

    CPU time of this process, not wall time: the machine is shared, and a busy neighbour
    should not count against either codec.
    """
    times: list[float] = []
    while len(times) < repeat and sum(times) < 5:
        gc.collect()
        start = time.process_time()
        function(data)
        times.append(time.process_time() - start)
    return min(times)


def peak_memory(function: Callable[[bytes], object], data: bytes) -> int:
    """Return the peak bytes allocated (tracemalloc) during one call, the result included."""
    gc.collect()
    tracemalloc.start()
    try:
        function(data)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@dataclass(frozen=True)
class Target:
    """A speed target of issue 2 and the figure measured for it."""

    name: str
    measured: float
    needed: float
    unit: str

    @property
    def met(self) -> bool:
        """Return True for a throughput at or above, or a ratio at or below, what is needed."""
        return self.measured <= self.needed if self.unit == "x" else self.measured >= self.needed


def short_call_ratio(mixed: bytes, name: str, repeat: int) -> tuple[float, float]:
    """Return (reference µs, CPython µs) of one call on at most 64 bytes of mixed text."""
    sample = mixed[:64]
    while not cpython_validate(sample):
        sample = sample[:-1]
    ours, theirs = OPERATIONS[name]
    number, clock = 20_000, time.process_time

    def best(call: Callable[[], object]) -> float:
        return min(timeit.repeat(call, number=number, repeat=repeat, timer=clock)) / number

    ours_time, theirs_time = best(lambda: ours(sample)), best(lambda: theirs(sample))
    return ours_time * 1e6, theirs_time * 1e6


def main() -> None:
    """Run every measurement and print a report in Markdown."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=10, help="input size (default 10)")
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs (default 3)")
    options = parser.parse_args()
    size = int(options.megabytes * 1_000_000)
    inputs = {
        "ASCII": ascii_text(size),
        "mixed": mixed_text(size),
        "random": random.Random(2279).randbytes(size),
    }
    mb = {name: len(data) / 1e6 for name, data in inputs.items()}
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {time.strftime('%Y-%m-%d')}"
    )
    print("\n| input | operation | reference MB/s | CPython MB/s | reference time ÷ CPython time |")
    print("|---|---|---:|---:|---:|")
    speed: dict[tuple[str, str], float] = {}
    for input_name, data in inputs.items():
        for operation, (ours, theirs) in OPERATIONS.items():
            ours_s = best_seconds(ours, data, options.repeat)
            theirs_s = best_seconds(theirs, data, options.repeat)
            speed[input_name, operation] = mb[input_name] / ours_s
            print(
                f"| {input_name} | {operation} | {mb[input_name] / ours_s:,.1f} "
                f"| {mb[input_name] / theirs_s:,.1f} | {ours_s / theirs_s:,.1f}x |"
            )
    print("\n| one call on ≤64 bytes of mixed text | reference µs | CPython µs | ratio |")
    print("|---|---:|---:|---:|")
    ratios = {}
    for operation in OPERATIONS:
        ours_us, theirs_us = short_call_ratio(inputs["mixed"], operation, options.repeat)
        ratios[operation] = ours_us / theirs_us
        print(f"| {operation} | {ours_us:.2f} | {theirs_us:.2f} | {ours_us / theirs_us:.1f}x |")
    print("\n| peak memory / input size (tracemalloc) | validate | decode | decode_replace |")
    print("|---|---:|---:|---:|")
    for input_name in ("mixed", "random"):
        data = inputs[input_name]
        peaks = [peak_memory(OPERATIONS[op][0], data) / len(data) for op in OPERATIONS]
        print(f"| {input_name} | " + " | ".join(f"{peak:.2f}" for peak in peaks) + " |")
    targets = [
        Target("validate, ASCII", speed["ASCII", "validate"], 1000, "MB/s"),
        Target("validate, mixed", speed["mixed", "validate"], 20, "MB/s"),
        Target("decode, mixed", speed["mixed", "decode"], 20, "MB/s"),
        Target("decode_replace, mixed", speed["mixed", "decode_replace"], 20, "MB/s"),
        Target("decode, one 64-byte call vs CPython", ratios["decode"], 15, "x"),
    ]
    print("\n| target (issue 2) | measured | needed | met |")
    print("|---|---:|---:|---|")
    for target in targets:
        bound = "≤" if target.unit == "x" else "≥"
        print(
            f"| {target.name} | {target.measured:,.1f} {target.unit} "
            f"| {bound} {target.needed:g} {target.unit} | {'yes' if target.met else 'NO'} |"
        )


if __name__ == "__main__":
    main()
