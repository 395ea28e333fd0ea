"""The judge of a fuzz campaign, in utf8cert's own process: it reads what the codec's processes
send (recorder.py, in the OS sandbox) and alone decides what is a finding, and that there is none.

Each frame is one execution: the input and the codec's answers to the judge's questions. The
judge asks the reference itself and compares (the same DifferentialTarget `check`'s judgement
runs in), on a RecordedCodec that gives the answers the frame carries. A question the frame does
not answer (localizing a difference asks about other inputs) goes to the codec in a sandboxed
child of the judge's own (`load_codec(spec, isolate=True)`, the boundary of `check`).

What the codec's process can do through the pipe is bounded: a frame that is not well formed, or
too long, stops the campaign with a problem that says so (ChannelError); a process that sends
nothing for SILENCE seconds, or goes on past the campaign's time, is stopped by the driver
(driver.py). What it cannot do is decide a verdict: the worst it can do is misstate the codec's
answers, which is a codec answering otherwise; `audit` asks a sample of the inputs again of the
sandboxed child, and an answer that differs is a problem of the campaign.
"""

from __future__ import annotations

import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any, Final, NoReturn

from utf8cert.harness.check.behaviour import Behaviour
from utf8cert.harness.check.profiles import profile_named
from utf8cert.harness.codec.interface import (
    CAPABILITIES,
    Capability,
    Codec,
    Failed,
    Outcome,
    Refused,
    Returned,
)
from utf8cert.harness.fuzzing.answers import ChannelError, Record, parse_body, read_body
from utf8cert.harness.fuzzing.differential import DifferentialTarget
from utf8cert.harness.fuzzing.recorded import Asker, RecordedCodec
from utf8cert.harness.fuzzing.recorder import answers_of
from utf8cert.harness.fuzzing.screen import Answer, conforms, reference_answer
from utf8cert.harness.vectors.model import Level

AUDITED: Final = 64
"""Inputs of the campaign asked again of the sandboxed child at its end (a random sample)."""


class _Found(Exception):
    """A finding was recorded and the campaign does not keep going."""


REMEMBERED: Final = 4096
"""Inputs whose reference answer the judge keeps, the latest judged: libFuzzer runs many a short
input again (a fifth of the executions of a 10,000-run campaign on HandRolled), and the
reference's answer to an input is the same every time."""
REMEMBERED_LEN: Final = 256
"""The longest input whose answer is kept (all kept take a few MiB at most)."""


class JudgingTarget(DifferentialTarget):
    """The DifferentialTarget of the judge: a finding ends the campaign by the driver's hand,
    not by ending this process; the reference's answer to an input run again is not worked out
    again."""

    def __init__(self, codec: Codec, **options: Any) -> None:
        super().__init__(codec, **options)
        self._answers: OrderedDict[bytes, Answer] = OrderedDict()
        self.passed = False
        """Whether the screen passed the input last judged (see judge)."""

    def stop(self) -> NoReturn:
        raise _Found

    def judge(self, data: bytes) -> None:
        """Judge `data` as DifferentialTarget does, noting in `passed` whether the screen passed
        it (its frame's verdict may then be kept: Judge.serve)."""
        self.passed = self.passes_screen(data)
        if not self.passed:
            super().judge(data)  # screens it again: a few inputs in a campaign

    def passes_screen(self, data: bytes) -> bool:
        """Return True if the screen passes `data` (see DifferentialTarget), on the reference's
        answer to it worked out once while it is among the REMEMBERED latest."""
        if not self.screened:
            return False
        return conforms(self.codec, data, self.capabilities, self.held.mode, self._answer(data))

    def _answer(self, data: bytes) -> Answer:
        """Return the reference's answer to `data` for the capabilities judged."""
        if len(data) > REMEMBERED_LEN:
            return reference_answer(data, self.capabilities)
        answer = self._answers.get(data)
        if answer is not None:
            self._answers.move_to_end(data)
            return answer
        answer = self._answers[data] = reference_answer(data, self.capabilities)
        if len(self._answers) > REMEMBERED:
            self._answers.popitem(last=False)
        return answer


class Judge:
    """Judges the frames of every process of one campaign, one at a time."""

    def __init__(
        self,
        fallback: Codec,
        artifacts: Path,
        *,
        capabilities: Iterable[Capability] | None,
        fail_on: Level,
        keep_going: bool,
        known: frozenset[Behaviour],
        profile: str,
        max_len: int,
        found: Callable[[], None],
    ) -> None:
        wanted = fallback.capabilities if capabilities is None else frozenset(capabilities)
        self.asked: list[Capability] = [c for c in CAPABILITIES if c in wanted]
        self.asked = [c for c in self.asked if c in fallback.capabilities]
        self.codec = RecordedCodec(Asker(fallback), self.asked)
        self.target = JudgingTarget(
            self.codec,
            capabilities=self.asked,
            fail_on=fail_on,
            findings=artifacts,
            keep_going=keep_going,
            known=known,
            profile=profile_named(profile),
        )
        self.max_len = max_len
        self.found = found
        self.judged = 0
        """Frames judged: the campaign's executions, as the judge counts them."""
        self.problems: list[str] = []
        """What the codec's processes did to the channel, or the judge could not judge."""
        self.heard = time.monotonic()
        """When a frame last came (or the campaign started)."""
        self.most: int | None = None
        """The most frames a campaign may send (--runs), None for no such limit."""
        self.boundary = ""
        """What kept the codec's processes from this judge (set as they start)."""
        self.ended_it = False
        """Whether a finding of the judge's ended the campaign."""
        self.sample: list[Record] = []
        self._passed: OrderedDict[bytes, Record] = OrderedDict()
        """The latest REMEMBERED frames the screen passed (inputs of at most REMEMBERED_LEN
        bytes), each by its body: the verdict on a frame is the same every time it comes (the
        reference's answer and the screen depend on the frame alone), and libFuzzer runs many
        an input again (a sixth of a 10,000-run campaign's frames on HandRolled)."""
        self._random = random.Random(0)
        self._lock = threading.Lock()

    def serve(self, stream: IO[bytes], who: str) -> None:
        """Judge every frame of `stream` (the pipe of the process `who`) until it ends, a
        finding ends the campaign, or the pipe breaks the format (a problem, and the end)."""
        while True:
            try:
                body = read_body(stream, self.max_len)
            except ChannelError as error:
                self.problem(f"{who} broke the judge's channel: {error}")
                return
            except (OSError, ValueError):  # closed by the driver at the end
                return
            if body is None:
                return
            self.heard = time.monotonic()
            with self._lock:
                record = self._passed.get(body)
                if record is not None:  # byte for byte a frame the screen passed
                    self._passed.move_to_end(body)
                    self.judged += 1
                    self._keep(record)
                    continue
                try:
                    record = parse_body(body)
                    self.codec.load(record)
                    self.target(record.data)
                except ChannelError as error:
                    self.problem(f"{who} broke the judge's channel: {error}")
                    return
                except _Found:
                    self.judged += 1
                    self.ended_it = True
                    self.found()
                    return
                except Exception as error:  # never a silent end of judging
                    self.problem(f"the judge could not judge an input: {error!r}")
                    return
                self.judged += 1
                self._keep(record)
                if self.target.passed and len(record.data) <= REMEMBERED_LEN:
                    self._passed[body] = record
                    if len(self._passed) > REMEMBERED:
                        self._passed.popitem(last=False)

    def _keep(self, record: Record) -> None:
        """Keep `record` in the audit's sample (reservoir sampling: each equally likely)."""
        if len(self.sample) < AUDITED:
            self.sample.append(record)
        else:
            slot = self._random.randrange(self.judged)
            if slot < AUDITED:
                self.sample[slot] = record

    def problem(self, line: str) -> None:
        """Note a problem of the campaign and end it: no verdict of 0 findings stands."""
        self.problems.append(line)
        self.found()

    def audit(self) -> list[str]:
        """Return a line for the first sampled input on which the codec in the sandboxed child
        answers otherwise than the codec's process said ([] when every answer agrees)."""
        fallback = self.codec.fallback
        for record in self.sample:
            fresh, _ = answers_of(fallback, self.asked, record.data, guided=False)
            for capability, said, again in zip(self.asked, record.outcomes, fresh, strict=True):
                if not same_answer(said, again):
                    # Asked once more: a child that died while idle answers its next question
                    # with a crash, and is started again for the one after.
                    again = answers_of(fallback, [capability], record.data, guided=False)[0][0]
                if not same_answer(said, again):
                    return [
                        f"the codec's process answered {capability} of"
                        f" {record.data[:32].hex()}{'…' if len(record.data) > 32 else ''}"
                        f" with {_brief(said)}, the codec asked again in a sandboxed child"
                        f" with {_brief(again)}: the campaign's answers are not the codec's"
                    ]
        return []


def same_answer(one: Outcome, other: Outcome) -> bool:
    """Return True if two outcomes are one answer: the same kind, and the same value (returned),
    offset (refused) or kind of failure; messages may differ between two ways of running a
    codec."""
    if type(one) is not type(other):
        return False
    if isinstance(one, Returned) and isinstance(other, Returned):
        return one.value == other.value
    if isinstance(one, Refused) and isinstance(other, Refused):
        return one.offset == other.offset
    if isinstance(one, Failed) and isinstance(other, Failed):
        return one.kind == other.kind
    return True


def _brief(outcome: Outcome) -> str:
    """Return an outcome in a few words."""
    if isinstance(outcome, Returned):
        return f"returned {outcome.value!r:.60}"
    if isinstance(outcome, Refused):
        return f"a refusal at {outcome.offset}"
    if isinstance(outcome, Failed):
        return f"a failure ({outcome.kind})"
    return "inapplicable"
