"""Progress of a batch of runs on stderr, in one of three modes (``--progress``,
`crosscheck.harness.reports.formats.PROGRESS_MODES`).

- ``auto``: the terminal display when stderr is a terminal, nothing otherwise.  One status
  line (runs done, failed, elapsed, worst-case time left) and one line per run in flight
  (instance, solver, repetition, its elapsed seconds), redrawn in place when a run starts
  or ends and once a second in between.
- ``lines``: plain lines, appended and never redrawn (no escape codes), for a log file, a
  pipe, ``nohup``, CI or a batch job: the status line at the start, one line per finished
  run (``[12/71] keys/x.txt keys-graph optimal 1696 0.08 s``; a crashed run says
  ``FAILED`` and why), a heartbeat naming the runs in flight when none has finished for
  `HEARTBEAT` seconds (and as often again while that lasts), and the status line at the end.
- ``none``: nothing.

Without ticking (``ticking=False``, `solve`'s choice) no thread runs: the display is redrawn
only when a run starts or ends and ``lines`` mode writes no heartbeat, so that the caller
may still fork its runs (a fork beside a running thread may copy a lock another thread held).

The worst case left assumes every run not finished takes its whole time limit: each run
waiting starts on the first of the `jobs` places to come free (a run in flight holds its
place for the limit left to it) and the last to end ends it.  So 1 run of 60 s left on 2
jobs is 60 s, not 30, and 3 on 2 jobs are 120 s.
"""

from __future__ import annotations

import heapq
import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO

from crosscheck.harness.records.record import RunKey, RunRecord, Task
from crosscheck.harness.reports.formats import HEARTBEAT, PROGRESS_MODES
from crosscheck.harness.reports.numbers import significant
from crosscheck.harness.reports.wording import first_line
from crosscheck.solvers.base import FAILED_STATUSES

#: Seconds between redraws while nothing starts or ends, and between looks for a heartbeat.
TICK = 1.0


def clock(seconds: float) -> str:
    """`seconds` as H:MM:SS."""
    whole = int(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def finished_line(record: RunRecord) -> str:
    """One finished run for ``lines`` mode: instance, solver, status, cost (and bound
    when it differs), the solver's seconds; a crashed run is ``FAILED`` with the first
    line of its message, a rejected plan says so.  Seconds to three significant digits
    (a fast run's ``0.00400 s``, not ``0.00 s``)."""
    run = f"{record.instance}{' [variant]' if record.variant else ''} {record.solver}" + (
        f" #{record.repeat}" if record.repeat else "")
    if record.status in FAILED_STATUSES:
        return f"{run} FAILED {record.status.value}: {first_line(record.message)}"
    cost = "" if record.cost is None else f" {record.cost}"
    bound = "" if record.bound is None or record.bound == record.cost else f" bound {record.bound}"
    rejected = " PLAN REJECTED" if record.plan_valid is False else ""
    return f"{run} {record.status.value}{cost}{bound}{rejected} {significant(record.seconds)} s"


class Progress:
    """Counts runs done, running and failed, shows the runs in flight and the worst case left.

    `mode` is one of `PROGRESS_MODES`; `now` is the clock of every time shown (a `time.monotonic`
    stand-in), so that a test can move time on and call `tick` itself; `ticking` says whether
    a thread calls `tick` once a `TICK` (module doc)."""

    def __init__(self, total: int, jobs: int, stream: TextIO | None = None, limit: float | None = None,
                 mode: str = "auto", now: Callable[[], float] = time.monotonic, ticking: bool = True) -> None:
        if mode not in PROGRESS_MODES:
            raise ValueError(f"unknown progress mode {mode!r} (valid: {', '.join(PROGRESS_MODES)})")
        self.total, self.jobs, self.limit, self.now = total, jobs, limit, now
        self.stream = stream or sys.stderr
        #: What is written: the terminal display, plain lines, or nothing (None).
        self.style = None if total <= 0 or mode == "none" else "lines" if mode == "lines" else (
            "display" if self.stream.isatty() else None)
        self.done = self.failed = self.begun = 0
        self.start = self._finished_at = self._last_news = now()  # news: a finished run or a heartbeat
        self.flight: dict[RunKey, tuple[Task, float]] = {}  # started, not finished: task and start time
        self._drawn = 0  # lines drawn last time, to move back over them
        self._lock = threading.Lock()
        self._stop = threading.Event()
        if self.style and ticking:
            threading.Thread(target=self._tick, daemon=True).start()
        self._write_status()
        self._draw()

    def add(self, count: int) -> None:
        """`count` more runs scheduled (``morph`` schedules the runs of related instances as
        it derives them): the total grows."""
        with self._lock:
            self.total += count

    def started(self, task: Task) -> None:
        """A run began (called from the thread that runs it)."""
        with self._lock:
            self.begun += 1
            self.flight[task.key] = (task, self.now())
        self._draw()

    def ended(self, task: Task) -> None:
        """A run ended; its record follows (called from the thread that ran it)."""
        with self._lock:
            self.flight.pop(task.key, None)

    def __call__(self, record: RunRecord) -> None:
        with self._lock:
            self.done += 1
            self.failed += record.status in FAILED_STATUSES
            if self.style == "lines":
                self._finished_at = self._last_news = self.now()
                self._write(f"{self._counts()} {finished_line(record)}")
        self._draw()

    def worst_case_left(self, now: float) -> float | None:
        """Seconds until every run is done if each takes its whole limit, scheduled as the
        module doc says; None without a limit."""
        if self.limit is None:
            return None
        free_at = [max(0.0, self.limit - (now - start)) for _, start in self.flight.values()]
        free_at += [0.0] * max(0, self.jobs - len(free_at))  # places no run holds
        heapq.heapify(free_at)
        for _ in range(max(0, self.total - self.begun)):  # the runs waiting, each on the first place free
            heapq.heappush(free_at, heapq.heappop(free_at) + self.limit)
        return max(free_at)

    def lines(self, now: float) -> list[str]:
        """What the display shows at time `now` (a value of the `now` clock)."""
        left = self.worst_case_left(now)
        head = (f"runs {self.done}/{self.total}  running {len(self.flight)}  failed {self.failed}  "
                f"elapsed {clock(now - self.start)}" + ("" if left is None else f"  worst case left {clock(left)}"))
        return [head] + [f"  {flying}" for flying in self._in_flight(now)]

    def _in_flight(self, now: float) -> list[str]:
        """Each run in flight, the longest running first: instance, solver, repetition, seconds."""
        flight = sorted(self.flight.values(), key=lambda item: item[1])
        return [f"{task.instance}{' [variant]' if task.variant else ''}  {task.solver}"
                f"{f'  #{task.repeat}' if task.repeat else ''}  {now - start:.0f} s" for task, start in flight]

    def tick(self) -> None:
        """What happens once a `TICK`: the display is redrawn; in ``lines`` mode, a heartbeat
        is written when no run has finished for `HEARTBEAT` seconds (nor a heartbeat since)."""
        self._draw()
        with self._lock:
            now = self.now()
            if self.style != "lines" or now - self._last_news < HEARTBEAT:
                return
            self._last_news = now
            self._write(f"{self._counts()} none finished for {now - self._finished_at:.0f} s; in flight: "
                        + ("; ".join(self._in_flight(now)) or "none"))

    def _counts(self) -> str:
        """``[done/total]``, with ``, N failed`` once a run failed: how ``lines`` mode starts a line."""
        return f"[{self.done}/{self.total}{f', {self.failed} failed' if self.failed else ''}]"

    def _draw(self) -> None:
        if self.style != "display":
            return
        with self._lock:
            lines = self.lines(self.now())
            up = f"\x1b[{self._drawn - 1}F" if self._drawn > 1 else "\r"  # back to the first line drawn
            self.stream.write(up + "\x1b[J" + "\n".join(lines))  # clear to the end of the screen, redraw
            self.stream.flush()
            self._drawn = len(lines)

    def _write(self, line: str) -> None:
        """Append one line (``lines`` mode; the caller holds the lock)."""
        self.stream.write(line + "\n")
        self.stream.flush()

    def _write_status(self) -> None:
        """The status line, in ``lines`` mode (at the start and at the end)."""
        if self.style == "lines":
            with self._lock:
                self._write(self.lines(self.now())[0])

    def _tick(self) -> None:
        while not self._stop.wait(TICK):
            self.tick()

    def close(self) -> None:
        self._stop.set()
        if self.style == "display":
            self.stream.write("\n")
            self.stream.flush()
        self._write_status()
