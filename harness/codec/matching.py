"""Matching a program's answers to requests: every answer to exactly one request, and any line
that answers none a `protocol` failure, never an answer to the next request.

A batch of requests goes to one program. Version 1 has one request in flight: an answer is the
next line, and a line that arrives with no request outstanding (a second answer, an answer
before a request) fails the request it followed, when seen in time, else the next one, whose
message quotes it. Version 2 puts up to WINDOW requests in flight, each line carrying the id of
its request: an answer must echo the id of the oldest request in flight (answers come in order),
and a second answer to a request is seen whenever it comes. After any fault the program is
replaced and the requests in flight that were not to blame are asked again. When a program dies
with several requests in flight, those are asked again one at a time, so that the death is
pinned on the request that causes it.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from utf8cert.harness.codec.channel import Channel, Ended, Overlong
from utf8cert.harness.codec.interface import (
    Capability,
    Failed,
    FailureKind,
    Inapplicable,
    Outcome,
)
from utf8cert.harness.codec.pace import Pace
from utf8cert.harness.codec.protocol import (
    ProtocolError,
    Request,
    answer_line,
    numbered,
    parse_answer,
    quoted,
    request_line,
    split_id,
)
from utf8cert.harness.codec.start_error import StartError, failed_start

WINDOW: Final = 64
"""Requests in flight at most (version 2)."""
WINDOW_BYTES: Final = 1 << 22
"""Bytes of request lines in flight at most (a longer request goes alone)."""
LINE_SLACK: Final = 1 << 16
"""How much longer than eight times the longest request line an answer may be (its message)."""
SETTLE: Final = 0.001
"""Seconds at least that utf8cert waits for a second line after an answer of a program that
broke the protocol before, when no other request is in flight (twice the answer's own time if
longer)."""


class Program(Protocol):
    """What a batch reads and calls of the program it asks: isolate.ProcessCodec, which makes
    the batches, is the one; named here so that this module needs nothing of isolate.py."""

    spec: str
    version: int
    capabilities: frozenset[Capability]
    pace: Pace
    recent: dict[int, str]
    """The lines of the latest requests, by id."""
    broken: str
    """Why a restarted program is not asked ('' while it is): it announced another handshake."""
    broken_reported: bool
    distrusted: bool
    """Whether a second line after each answer is looked for (it broke the protocol before)."""

    def channel(self) -> Channel:
        """Return the running program's pipes, starting it if none runs (StartError if not)."""

    def running(self) -> Channel | None:
        """Return the running program's pipes, None when none runs."""

    def next_id(self, line: str) -> int:
        """Return a fresh request id, remembering its line."""

    def growing(self) -> bool:
        """Return whether the running program holds more memory than when last looked at."""

    def death(self) -> tuple[FailureKind, str]:
        """Return the failure the running program, which closed its output, stands for."""

    def discard(self) -> None:
        """Kill the running program."""


def _shortened(line: str) -> str:
    """Return a request line as a report names it: 'decode c080', long ones cut at 40."""
    return line if len(line) <= 40 else line[:37] + "..."


@dataclass(frozen=True)
class _Sent:
    """A request in flight: where it is in the batch, its id, its length, when it was sent."""

    index: int
    id: int
    size: int
    sent: float


class Batch:
    """The asking of one sequence of requests of one program, and the outcomes so far."""

    def __init__(self, program: Program, requests: Sequence[Request]) -> None:
        self.program = program
        self.requests = list(requests)
        self.outcomes: list[Outcome | None] = [None] * len(self.requests)
        self.lines: dict[int, str] = {}
        self.queue: deque[int] = deque()
        for index, request in enumerate(self.requests):
            if request.capability not in program.capabilities:  # never sent: not offered
                reason = f"{program.spec} has no {request.capability} capability"
                self.outcomes[index] = Inapplicable(reason)
                continue
            try:
                self.lines[index] = request_line(request)
            except ValueError as error:
                self.outcomes[index] = Inapplicable(f"cannot be sent: {error}")
                continue
            self.queue.append(index)
        self.flight: deque[_Sent] = deque()
        self.flight_bytes = 0
        self.answered: dict[int, int] = {}
        """The id of each request answered in this batch, and its index."""
        self.last_answered: int | None = None
        self.last_took = 0.0
        """Seconds the last answer took from its request."""
        self.window = WINDOW if program.version >= 2 else 1
        self.progress = time.monotonic()
        """When the last answer came: the oldest request in flight is being served since."""
        self.growing_at = 0.0
        """When the program was last seen growing its memory past a deadline (_allocating)."""
        self.unpinned: tuple[int, FailureKind, str, int] | None = None
        """A death with several requests in flight, not seen again with one: (the oldest's
        index, kind, message, how many were in flight)."""
        longest = max(map(len, self.lines.values()), default=0)
        self.line_limit = max(1 << 20, 8 * longest + LINE_SLACK)
        self.since_start: list[int] = []
        """The requests the running program answered, in order (_protocol's suspects)."""
        self.unpinned_protocol: tuple[int, str] | None = None
        """A protocol fault seen pipelined, not seen again one at a time: (the request it was
        first pinned on, its message)."""
        self.until_failure = False
        """Stop at the first request that fails: the rest are not asked (run_until_failure)."""

    def run(self) -> list[Outcome]:
        """Return the outcome of every request, in order, having asked the program."""
        self._ask()
        assert all(outcome is not None for outcome in self.outcomes)
        return [outcome for outcome in self.outcomes if outcome is not None]

    def run_until_failure(self) -> list[Outcome]:
        """Return the outcomes of the requests up to the first that failed, that one included
        (of all of them when none failed); the program is not asked the rest. Answers come in
        order, so every request before the failing one has its answer."""
        self.until_failure = True
        self._ask()
        answered: list[Outcome] = []
        for outcome in self.outcomes:
            if outcome is None:
                break
            answered.append(outcome)
        return answered

    def _ask(self) -> None:
        """Ask the program the requests, until each has its outcome (or one has failed, when
        `until_failure`)."""
        while self.queue or self.flight:
            deaf = self.program.pace.deaf()
            if deaf is not None:  # it would hang again before reading the question: skipped
                self._fail_the_rest(Failed("timeout", deaf, cut_short=True))
                break
            try:
                channel = self.program.channel()
            except StartError as error:
                if self.program.broken:
                    self._broken()
                else:
                    self._fail_the_rest(failed_start(error))
                break
            channel.line_limit = self.line_limit
            if not self.flight and channel.pending(self._settle()):
                self._surplus(channel.unread_line())
                continue
            self._send(channel)
            try:
                lines = channel.lines(self._deadline())
            except Ended:
                self._died()
                continue
            except Overlong:
                message = f"a line longer than {self.line_limit} bytes, never ended"
                self._fault(self.flight[0].index, "protocol", message)
                continue
            if not lines and self._allocating():
                continue
            if not lines:
                self._timed_out()
                continue
            self._take(lines)
        self._last_look()
        if self.unpinned_protocol is not None:
            index, message = self.unpinned_protocol
            self.outcomes[index] = Failed(
                "protocol",
                f"{message}; asked again one at a time, none of the requests then in flight "
                "failed (a fault that does not recur)",
            )
        if self.unpinned is not None:
            index, kind, message, count = self.unpinned
            self.outcomes[index] = Failed(
                kind,
                f"{message}, with {count} requests in flight; asked again one at a time, "
                "none of them failed (a fault that does not recur)",
            )

    def _allocating(self) -> bool:
        """Return whether to wait on past the oldest request's deadline: its program is still
        growing its memory (not hung: on its way to an answer or to its memory limit, where it
        fails as `memory`; on a loaded machine that may take longer than a deadline learnt from
        quick answers), and the request has had less than its limit (the user's --timeout, and
        more for a long request: pace.py)."""
        oldest = self.flight[0]
        now = time.monotonic()
        if now - oldest.sent >= self.program.pace.limit(oldest.size) or not self.program.growing():
            return False
        self.growing_at = now
        return True

    def _settle(self) -> float:
        """Return how long to wait for a second line after the last answer before asking on:
        nothing, unless the program broke the protocol before (then SETTLE, or twice the time
        the answer took), so that a late line is still pinned on the request it follows."""
        if not self.program.distrusted or self.last_answered is None:
            return 0.0
        return max(SETTLE, 2 * self.last_took)

    def _send(self, channel: Channel) -> None:
        """Send queued requests while the window allows (at least one when none is in flight)."""
        # The lines sent at once are queued at once: one write to the channel and one clock
        # reading for all of them (a request's time runs from when it is queued).
        queue, flight, program = self.queue, self.flight, self.program
        numbering = program.version >= 2
        texts: list[str] = []
        now = time.monotonic()
        while queue and len(flight) < self.window:
            index = queue[0]
            line = self.lines[index]
            if flight and self.flight_bytes + len(line) > WINDOW_BYTES:
                break
            queue.popleft()
            identifier = program.next_id(line)
            texts.append(numbered(identifier, line) if numbering else line)
            flight.append(_Sent(index, identifier, len(line), now))
            self.flight_bytes += len(line)
        if texts:
            texts.append("")
            channel.send("\n".join(texts).encode("ascii"))

    def _deadline(self) -> float:
        """Return when the oldest request in flight times out (time.monotonic)."""
        oldest = self.flight[0]
        since = max(oldest.sent, self.progress, self.growing_at)
        return since + self.program.pace.wait(oldest.size)

    def _timed_out(self) -> None:
        """Fail the oldest request in flight for a hang when it had its whole limit (the
        codec then hangs for real: pace.py; a program that read none of its input then hangs
        on every request, which are skipped from then on); otherwise, after a real hang, it is
        cut short."""
        oldest, pace = self.flight[0], self.program.pace
        waited = time.monotonic() - max(oldest.sent, self.progress)
        message = pace.describe(waited, oldest.size)
        if waited >= pace.limit(oldest.size):
            channel = self.program.running()
            if channel is not None and channel.read_nothing():  # hung on the write, not the answer
                pace.deafened(_shortened(self.lines[oldest.index]))
                message += ": the program read none of its input after its handshake"
            else:
                pace.hang(_shortened(self.lines[oldest.index]))
        self._fault(oldest.index, "timeout", message, waited < pace.limit(oldest.size))

    def _take(self, lines: list[str]) -> None:
        """Take the lines the program wrote as answers, until one answers no request."""
        flight, numbered_lines, pace = self.flight, self.program.version >= 2, self.program.pace
        now = time.monotonic()  # the lines taken at once arrived at once
        for line in lines:
            if not flight:
                self._surplus(line)
                return
            oldest = flight[0]
            rest = line
            if numbered_lines:
                identifier, rest = split_id(line)
                if identifier != oldest.id:
                    if identifier is not None and identifier in self.answered:
                        self._surplus(line)
                    else:
                        expected = f"expected the answer to request {oldest.id}"
                        self._protocol(oldest.index, f"{expected}, got {quoted(line)}")
                    return
            flight.popleft()
            self.flight_bytes -= oldest.size
            try:
                outcome = parse_answer(self.requests[oldest.index], rest)
            except ProtocolError as error:
                self._fault(oldest.index, "protocol", str(error))
                return
            pace.answered(now - max(oldest.sent, self.progress), oldest.size)
            self.progress = now
            self.outcomes[oldest.index] = outcome
            self.since_start.append(oldest.index)
            self.answered[oldest.id] = oldest.index
            self.last_answered = oldest.index
            self.last_took = now - oldest.sent

    def _surplus(self, line: str) -> None:
        """Fail the request to blame for a line that arrived with no request outstanding for
        it: the request it answers a second time (by its id), else the request it followed in
        this batch, else the next request to be sent, whose message names the earlier one."""
        shown = quoted(line)
        identifier, rest = split_id(line) if self.program.version >= 2 else (None, line)
        if identifier is not None and identifier in self.answered:
            culprit = self.answered[identifier]
            message = self._second_answer(culprit, rest, shown) or f"a second answer to it: {shown}"
        elif self.last_answered is not None:
            culprit = self.last_answered
            # An answer to another id (one not asked yet) is no second answer to this one.
            again = self._second_answer(culprit, rest, shown) if identifier is None else None
            message = again or f"a line after its answer: {shown}"
        else:
            culprit = self.queue[0]
            message = f"a line that answers no request arrived before this one was sent: {shown}"
            earlier = self.program.recent.get(identifier) if identifier is not None else None
            if earlier is None and self.program.version == 1 and self.program.recent:
                earlier = next(reversed(self.program.recent.values()))
            if earlier is not None:
                message += f" (after the request {quoted(earlier)})"
        self._protocol(culprit, message)

    def _protocol(self, culprit: int, message: str) -> None:
        """Fail `culprit` for a line that answers no request, when that is sure: with one
        request in flight at a time. Pipelined, the line may have been written by the program
        as it answered any request it had read (an answer to an id not asked yet, that was then
        taken for that request's): the suspects (the culprit, what is in flight, and what this
        program answered last, up to WINDOW) are asked again one at a time, where the fault
        falls on its cause (the first answer a late line follows, or the request before it)."""
        suspects = {culprit, *self.since_start[-WINDOW:], *(sent.index for sent in self.flight)}
        if self.window == 1 or len(suspects) == 1:
            if self.window == 1:
                self.unpinned_protocol = None  # pinned: whatever was unpinned may be this one
            self._fault(culprit, "protocol", message)
            return
        if self.unpinned_protocol is None:
            self.unpinned_protocol = (culprit, message)
        self.program.distrusted = True  # a second line after each answer is looked for now
        self.window = 1
        for index in suspects:
            self.outcomes[index] = None
            if index in self.queue:
                self.queue.remove(index)
        self.flight.clear()
        self.flight_bytes = 0
        self.queue.extendleft(sorted(suspects, reverse=True))
        self.since_start.clear()
        self.program.discard()

    def _second_answer(self, index: int, text: str, shown: str) -> str | None:
        """Return how a line that reads as a second answer to request `index` is named: the
        same answer again, or another one (the program gave one question two answers); None
        when it is no answer to that request."""
        request, first = self.requests[index], self.outcomes[index]
        capability = request.capability
        try:
            again = parse_answer(request, text)
        except ProtocolError:
            return None
        if first is None or again == first:
            return f"a second answer to it: {shown}"
        answered = quoted(answer_line(capability, first))
        return f"two answers to one question: a second answer to it, {shown}, after {answered}"

    def _died(self) -> None:
        """Fail the request that killed the program; with several in flight, ask them again
        one at a time to find it."""
        kind, message = self.program.death()
        if len(self.flight) == 1:
            self.unpinned = None  # a death is pinned: whatever was unpinned may have been this
            self._fault(self.flight[0].index, kind, message)
            return
        if self.unpinned is None:
            self.unpinned = (self.flight[0].index, kind, message, len(self.flight))
        self.window = 1
        self._fault(None, kind, message)

    def _fault(
        self, culprit: int | None, kind: FailureKind, message: str, cut_short: bool = False
    ) -> None:
        """Fail the culprit request (if any; `cut_short`: a timeout skipped, interface.Failed),
        replace the program, and queue again the requests in flight that were not to blame
        (none, and nothing queued, once a request has failed under `until_failure`)."""
        if kind == "protocol":
            self.program.distrusted = True
        again = [sent.index for sent in self.flight if sent.index != culprit]
        if culprit is not None:
            self.outcomes[culprit] = Failed(kind, message, cut_short)
            if culprit in self.queue:
                self.queue.remove(culprit)
            if self.until_failure:
                again = []
                self.queue.clear()
        self.flight.clear()
        self.flight_bytes = 0
        self.queue.extendleft(reversed(again))
        self.since_start.clear()
        self.program.discard()

    def _last_look(self) -> None:
        """Fail the last request answered if the program already wrote more after its answer
        (a line seen later is blamed on the next request asked)."""
        channel = self.program.running()
        if (
            channel is not None
            and self.last_answered is not None
            and channel.pending(self._settle())
        ):
            self._surplus(channel.unread_line())

    def _broken(self) -> None:
        """Fail the requests left of a program that announced another handshake when it was
        restarted: the first one it is seen on as `protocol` (once a run: the program's fault),
        the others cut short, skipped (interface.Failed), never blamed."""
        program = self.program
        if not program.broken_reported:
            program.broken_reported = True
            first = [*(sent.index for sent in self.flight), *self.queue][0]
            self._fault(first, "protocol", program.broken)
        self._fail_the_rest(Failed("protocol", f"skipped: {program.broken}", cut_short=True))

    def _fail_the_rest(self, failure: Failed) -> None:
        for index in [*(sent.index for sent in self.flight), *self.queue]:
            self.outcomes[index] = failure
        self.flight.clear()
        self.queue.clear()
