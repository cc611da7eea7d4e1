"""A one-line progress display on stderr, shown only when stderr is a terminal."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from harness.records import RunRecord
from solvers.base import FAILED_STATUSES


class Progress:
    """Counts runs done, running and failed; redraws itself after every record."""

    def __init__(self, total: int, jobs: int, stream: TextIO | None = None) -> None:
        self.total, self.jobs = total, jobs
        self.stream = stream or sys.stderr
        self.enabled = total > 0 and self.stream.isatty()
        self.done = self.failed = 0
        self.start = time.monotonic()
        self._draw()

    def __call__(self, record: RunRecord) -> None:
        self.done += 1
        self.failed += record.status in FAILED_STATUSES
        self._draw()

    def _draw(self) -> None:
        if not self.enabled:
            return
        running = min(self.jobs, self.total - self.done)
        elapsed = int(time.monotonic() - self.start)
        line = (f"runs {self.done}/{self.total}  running {running}  failed {self.failed}  "
                f"elapsed {elapsed // 3600}:{elapsed // 60 % 60:02d}:{elapsed % 60:02d}")
        self.stream.write("\r" + line)
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()
