"""A progress display on stderr, shown only when stderr is a terminal.

One status line (runs done, failed, elapsed, worst-case time left) and one line per
run in flight (instance, solver, repetition, its elapsed seconds), redrawn when a run
starts or ends and once a second in between.  The worst case left assumes every run not
finished takes its whole time limit: (runs waiting x limit + limit left of the runs in
flight) / jobs.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO

from crosscheck.harness.records import RunKey, RunRecord, Task
from crosscheck.solvers.base import FAILED_STATUSES

#: Seconds between redraws while nothing starts or ends.
TICK = 1.0


def clock(seconds: float) -> str:
    """`seconds` as H:MM:SS."""
    whole = int(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


class Progress:
    """Counts runs done, running and failed, shows the runs in flight and the worst case left."""

    def __init__(self, total: int, jobs: int, stream: TextIO | None = None, limit: float | None = None) -> None:
        self.total, self.jobs, self.limit = total, jobs, limit
        self.stream = stream or sys.stderr
        self.enabled = total > 0 and self.stream.isatty()
        self.done = self.failed = self.begun = 0
        self.start = time.monotonic()
        self.flight: dict[RunKey, tuple[Task, float]] = {}  # started, not finished: task and start time
        self._drawn = 0  # lines drawn last time, to move back over them
        self._lock = threading.Lock()
        self._stop = threading.Event()
        if self.enabled:
            threading.Thread(target=self._tick, daemon=True).start()
        self._draw()

    def started(self, task: Task) -> None:
        """A run began (called from the thread that runs it)."""
        with self._lock:
            self.begun += 1
            self.flight[task.key] = (task, time.monotonic())
        self._draw()

    def ended(self, task: Task) -> None:
        """A run ended; its record follows (called from the thread that ran it)."""
        with self._lock:
            self.flight.pop(task.key, None)

    def __call__(self, record: RunRecord) -> None:
        with self._lock:
            self.done += 1
            self.failed += record.status in FAILED_STATUSES
        self._draw()

    def worst_case_left(self, now: float) -> float | None:
        """Seconds until every run is done if each takes its whole limit; None without a limit."""
        if self.limit is None:
            return None
        waiting = self.total - self.begun
        in_flight = sum(max(0.0, self.limit - (now - start)) for _, start in self.flight.values())
        return (waiting * self.limit + in_flight) / self.jobs

    def lines(self, now: float) -> list[str]:
        """What the display shows at time `now` (a `time.monotonic` value)."""
        left = self.worst_case_left(now)
        head = (f"runs {self.done}/{self.total}  running {len(self.flight)}  failed {self.failed}  "
                f"elapsed {clock(now - self.start)}" + ("" if left is None else f"  worst case left {clock(left)}"))
        flight = sorted(self.flight.values(), key=lambda item: item[1])
        return [head] + [f"  {task.instance}{' [variant]' if task.variant else ''}  {task.solver}"
                         f"{f'  #{task.repeat}' if task.repeat else ''}  {now - start:.0f} s" for task, start in flight]

    def _draw(self) -> None:
        if not self.enabled:
            return
        with self._lock:
            lines = self.lines(time.monotonic())
            up = f"\x1b[{self._drawn - 1}F" if self._drawn > 1 else "\r"  # back to the first line drawn
            self.stream.write(up + "\x1b[J" + "\n".join(lines))  # clear to the end of the screen, redraw
            self.stream.flush()
            self._drawn = len(lines)

    def _tick(self) -> None:
        while not self._stop.wait(TICK):
            self._draw()

    def close(self) -> None:
        self._stop.set()
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()
