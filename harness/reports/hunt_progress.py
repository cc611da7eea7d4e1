"""Progress of a hunt on stderr, in the modes of ``--progress`` (`crosscheck.harness.reports.formats.PROGRESS_MODES`),
as `crosscheck.harness.reports.progress` shows a comparison's:

- ``auto``: on a terminal, one live line redrawn in place: instances judged (and judged while
  shrinking), elapsed, the instance being judged, the last verdict; nothing otherwise.
- ``lines``: one plain line per instance judged, appended, never redrawn:
  ``[12] hunt-12.txt (robots 1, doors 3, keys 3) 1.4 s: agree: ...`` (the verdict and its
  reason: which formulations agreed, or the disagreement found; ``[shrinking 3]`` once a
  counterexample is being shrunk; a morph hunt's line names the relation and seed drawn).
- ``none``: nothing.

An instance Hypothesis draws again is judged once (its verdict is cached), so it gets one line.
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable
from typing import TextIO

from crosscheck.harness.reports.formats import PROGRESS_MODES
from crosscheck.harness.reports.progress import clock
from crosscheck.harness.reports.wording import first_line


class HuntProgress:
    """Shows each instance a hunt judges; `now` is the clock of the seconds shown (a
    `time.monotonic` stand-in, for tests)."""

    def __init__(self, mode: str = "auto", stream: TextIO | None = None,
                 now: Callable[[], float] = time.monotonic) -> None:
        if mode not in PROGRESS_MODES:
            raise ValueError(f"unknown progress mode {mode!r} (valid: {', '.join(PROGRESS_MODES)})")
        self.stream, self.now = stream or sys.stderr, now
        #: What is written: a live line, plain lines, or nothing (None).
        self.style = None if mode == "none" else "lines" if mode == "lines" else (
            "display" if self.stream.isatty() else None)
        self.start = self._began = now()
        self.tried = self.shrink_tried = 0
        self._last = ""  # the last verdict, for the live line

    def judging(self, name: str, shrinking: bool) -> None:
        """The runs on instance `name` begin."""
        self._began = self.now()
        self._draw(f"judging {name}{' (shrinking)' if shrinking else ''}")

    def judged(self, name: str, sizes: dict[str, int], verdict: str, shrinking: bool, drawn: str = "") -> None:
        """Instance `name` of `sizes` (a morph hunt's `drawn` relation and seed) got `verdict`
        (`crosscheck.harness.reports.tables.verdict_line` without the instance's name)."""
        seconds = self.now() - self._began
        if shrinking:
            self.shrink_tried += 1
        else:
            self.tried += 1
        counter = f"shrinking {self.shrink_tried}" if shrinking else str(self.tried)
        size = ", ".join(f"{feature} {value}" for feature, value in sizes.items())
        self._last = f"{name}: {first_line(verdict)}"
        if self.style == "lines":
            self._write(f"[{counter}] {name}{f' {drawn}' if drawn else ''} ({size}) {seconds:.1f} s: "
                        f"{first_line(verdict)}\n")
        self._draw("")

    def _draw(self, doing: str) -> None:
        """The live line (``auto`` on a terminal): counts, elapsed, what is being judged, the last verdict."""
        if self.style != "display":
            return
        shrinking = f" ({self.shrink_tried} shrinking)" if self.shrink_tried else ""
        parts = [f"hunt: {self.tried} judged{shrinking}, elapsed {clock(self.now() - self.start)}", doing,
                 f"last {self._last}" if self._last else ""]
        width = shutil.get_terminal_size().columns - 1  # one screen line, so that \r goes back over all of it
        self._write("\r\x1b[K" + "; ".join(part for part in parts if part)[:width])

    def _write(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()

    def close(self) -> None:
        """End the live line (the hunt's own report follows on stdout)."""
        if self.style == "display":
            self._write("\n")
