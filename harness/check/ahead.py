"""A run's vectors asked ahead by copies of a program that crashes or hangs, so that the waits
overlap.

A hang costs the time allowed to a request (codec/pace.py: a second at least) and a crash a
restart of the program; a run that asks one vector at a time of a codec that hangs on many
vectors spends most of its time waiting. So once the codec has failed so on a vector (the
circuit breaker's rule, breaker.trips), the vectors after it are asked by up to COPIES copies of
the program at once, each served by a thread of its own, while the run judges the answers in
vector order as before. A copy is the same program started the same way and sharing its pace
(isolate.ProcessCodec.twin), and each vector's questions are still asked together, skipping what
the circuit breaker skips (prefetch.py): the report is the one asking the codec itself gives.

A codec that never fails never gets a copy: until its first failure every vector is asked of the
codec itself, from the run's thread. A copy is started, asked and stopped by its thread, since a
child dies with the thread that started it (codec/children.py).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Sequence
from types import TracebackType
from typing import Final

from utf8cert.harness.check.interrupt import Stop
from utf8cert.harness.check.prefetch import (
    Answers,
    Prefetched,
    asked_ahead,
    planned,
    prefetched,
)
from utf8cert.harness.check.variants import Plan
from utf8cert.harness.codec.interface import Capability, Codec
from utf8cert.harness.codec.isolate import ProcessCodec
from utf8cert.harness.vectors.model import Vector

COPIES: Final = 4
"""Copies of a failing program asked at once: four waits for a hang overlap, and no more than
four memory limits' worth can be allocated at once."""
JOIN_GRACE: Final = 5.0
"""Seconds a copy's thread gets to end once the run stops (it is a daemon thread after that)."""

Job = tuple[Vector, Sequence[Capability], Plan]
"""One vector of a run, the capabilities it is checked on, and its variants."""


class Ahead:
    """The codec to ask for each job of a run, in order, with answers asked ahead when it can
    take them so; from the first failure on, asked ahead by copies of the program."""

    def __init__(self, codec: Codec, jobs: Sequence[Job], stop: Stop) -> None:
        self.codec, self.jobs, self.stop = codec, jobs, stop
        self._copies: _Copies | None = None

    def asking(self, index: int) -> Codec:
        """Return the codec that answers the questions of jobs[index] (asked in job order),
        waiting for them when copies ask them; Interrupted when the run is told to stop then."""
        copies = self._copies
        if copies is not None and index >= copies.first:
            return Prefetched(self.codec, copies.answers(index, self.stop))
        vector, capabilities, plan = self.jobs[index]
        asking = prefetched(self.codec, vector, capabilities, plan, self.stop)
        tripped = isinstance(asking, Prefetched) and asking.tripped
        if copies is None and tripped and isinstance(self.codec, ProcessCodec):
            self._copies = _Copies(self.codec, self.jobs, index + 1)
        return asking

    def __enter__(self) -> Ahead:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Stop the copies, if any: a stopped run kills what they were asking."""
        if self._copies is not None:
            self._copies.stop()


class _Copies:
    """Threads, each asking one copy of a program the questions of the next job not taken."""

    def __init__(self, program: ProcessCodec, jobs: Sequence[Job], first: int) -> None:
        self.jobs, self.first = jobs, first
        self._todo = deque(range(first, len(jobs)))
        self._done: dict[int, Answers | BaseException] = {}
        self._ready = threading.Condition()
        self._stopping = False
        self._twins = [program.twin() for _ in range(min(COPIES, len(self._todo)))]
        self._threads = [
            threading.Thread(target=self._serve, args=(twin,), name=f"utf8cert copy {n}")
            for n, twin in enumerate(self._twins, 1)
        ]
        for thread in self._threads:
            thread.daemon = True  # a copy stuck past JOIN_GRACE never holds utf8cert open
            thread.start()

    def answers(self, index: int, stop: Stop) -> Answers:
        """Return the answers to jobs[index] once a copy has them; Interrupted if the run is
        told to stop while it waits; the error of a thread that failed (a bug of utf8cert)."""
        with stop.interruptible(), self._ready:
            while index not in self._done:
                self._ready.wait()
            found = self._done.pop(index)
        if isinstance(found, BaseException):
            raise found
        return found

    def _serve(self, twin: ProcessCodec) -> None:
        """Ask `twin` the next job not taken, until none is left or the run stops."""
        try:
            while True:
                with self._ready:
                    if self._stopping or not self._todo:
                        return
                    index = self._todo.popleft()
                vector, capabilities, plan = self.jobs[index]
                found: Answers | BaseException
                try:
                    found = asked_ahead(twin.ask_until_failure, planned(vector, capabilities, plan))
                except BaseException as error:  # utf8cert's own: the run's thread raises it
                    found = error
                with self._ready:
                    self._done[index] = found
                    self._ready.notify_all()
        finally:
            twin.close()

    def stop(self) -> None:
        """Take no more jobs, kill what the copies are asking, and wait a little for them."""
        with self._ready:
            self._stopping = True
            self._todo.clear()
        for twin in self._twins:
            twin.abandon()
        for thread in self._threads:
            thread.join(JOIN_GRACE)
