"""Repeatable timings for the benchmark scripts: warm-up, repetitions, saved as pyperf JSON.

Every script in `benchmarks/` times its solves through a `Timer`, and takes the same
options (`add_options`): ``--warmups W`` discarded solves first, then ``--repeat N``
timed ones of every instance, in the script's own process; ``--clock wall`` or ``--clock
cpu`` (user + system seconds of the process and its waited-for children: steadier on a
loaded machine, but it counts every CP-SAT worker thread); a solve's time limit counts on
the same clock as its value; ``--save FILE.json`` writes every value.  A script's figures are medians over
instances of each instance's median over repetitions.  Two saved runs are compared by
``python -m benchmarks.compare OLD.json NEW.json``, which flags regressions beyond noise.

`Timer.isolated` times runs as ``crosscheck compare`` makes them instead: each one in its
own process under the harness's limits, so its record carries the run's own CPU seconds
and peak memory.  Warm-ups are skipped there (every run starts a fresh process; there is
nothing to warm), and a value is the solver's own seconds or the run's CPU seconds.

Why pyperf rather than pytest-benchmark: the scripts print tables with targets and
ratios and must stay plain commands; pyperf's JSON format keeps every repetition with
its warm-ups and metadata, and ``python -m pyperf stats|hist|compare_to FILE`` work on the
saved files as they are.  pytest-benchmark would tie the scripts to a pytest run and
compares runs by a fixed percentage only.  pyperf's own `Runner` is not used: it
calibrates loops and spawns 20 processes, made for microbenchmarks, not solves of
seconds to a minute; the `Timer` gives each value one solve instead.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crosscheck.harness.records.record import RunRecord, Task
from crosscheck.harness.runs.measure import own_usage
from crosscheck.harness.runs.runner import run_isolated
from crosscheck.solvers.base import Clock, Result, Solver

from crosscheck.extras import missing_extra

CLOCKS = ("wall", "cpu")


def add_options(parser: argparse.ArgumentParser) -> None:
    """The options every benchmark script shares (see the module doc)."""
    parser.add_argument("--warmups", type=int, default=1, help="discarded solves of each instance first")
    parser.add_argument("--repeat", type=int, default=3, help="timed solves of each instance")
    parser.add_argument("--clock", choices=CLOCKS, default="wall", help="what a value measures")
    parser.add_argument("--save", type=Path, help="write every value to this pyperf JSON file")


@dataclass(frozen=True)
class Timed:
    """One instance's timings: the values (seconds on the timer's clock) and the last result."""

    values: list[float]
    result: Result

    @property
    def median(self) -> float:
        return statistics.median(self.values)


def _clock(clock: str) -> float:
    return time.perf_counter() if clock == "wall" else own_usage().cpu_seconds


class Timer:
    """Times solves with warm-up and repetitions, and keeps them for `save`."""

    def __init__(self, warmups: int = 1, repeat: int = 3, clock: Clock = "wall", save: Path | None = None) -> None:
        if repeat < 1 or warmups < 0 or clock not in CLOCKS:
            raise ValueError(f"need repeat >= 1, warmups >= 0 and a clock in {CLOCKS}")
        if save is not None and importlib.util.find_spec("pyperf") is None:
            # Said before any timing: the file would be written only after the whole run.
            raise SystemExit(f"error: {missing_extra(f'--save {save}', 'analysis', 'pyperf not installed')}")
        self.warmups, self.repeat, self.clock, self.path = warmups, repeat, clock, save
        #: Per timed instance: name, timed values, warm-up values, metadata (pyperf's, for `save`).
        self.kept: list[tuple[str, list[float], list[float], dict[str, str | int]]] = []

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> Timer:
        return cls(args.warmups, args.repeat, args.clock, args.save)

    def solve(self, solver: Solver, instance: Any, limit: float | None, group: str = "") -> Timed:
        """Solve `instance` `warmups` + `repeat` times; the values are the timed ones.

        The benchmark is named ``GROUP/SOLVER/INSTANCE`` in the saved file.
        """
        warm = [self._once(solver, instance, limit)[0] for _ in range(self.warmups)]
        timed = [self._once(solver, instance, limit) for _ in range(self.repeat)]
        values, result = [value for value, _ in timed], timed[-1][1]
        name = "/".join(part for part in (group, solver.name, instance.name) if part)
        self._keep(name, values, warm, result.status.value, result.cost)
        return Timed(values, result)

    def isolated(self, solver: str, instance: Any, limit: float, memory_limit_mb: int = 8192,
                 group: str = "", external: str | None = None) -> list[RunRecord]:
        """`repeat` runs of `solver` on `instance`, each in its own process (no warm-up), its
        `limit` on the timer's clock; their records, in order.  Saved under ``GROUP/SOLVER/INSTANCE``
        like `solve`'s.

        With `external` (a command with ``{path}``, `crosscheck.harness.runs.external`), `solver` is
        the program's name and the harness runs the program as ``--external`` does."""
        with tempfile.TemporaryDirectory(prefix="crosscheck-bench-") as folder:
            path = Path(folder) / f"{instance.name}.txt"
            path.write_text(instance.to_text(), encoding="utf-8")
            records = [run_isolated(Task(path=str(path), instance=instance.name, solver=solver, time_limit=limit,
                                         clock=self.clock, memory_limit_mb=memory_limit_mb, repeat=number,
                                         external=external))
                       for number in range(self.repeat)]
        values = [max((r.seconds if self.clock == "wall" else r.cpu_seconds or 0.0), 1e-9) for r in records]
        name = "/".join(part for part in (group, solver, instance.name) if part)
        self._keep(name, values, [], records[-1].status.value, records[-1].cost)
        return records

    @staticmethod
    def median_record(records: list[RunRecord]) -> RunRecord:
        """The last of `records` (repetitions of one run) with the median seconds and CPU
        seconds and the largest peak memory over all of them."""
        cpu = [r.cpu_seconds for r in records if r.cpu_seconds is not None]
        peaks = [r.peak_memory_mb for r in records if r.peak_memory_mb is not None]
        return records[-1].model_copy(update={
            "seconds": statistics.median(r.seconds for r in records),
            "cpu_seconds": statistics.median(cpu) if cpu else None, "peak_memory_mb": max(peaks, default=None)})

    def _once(self, solver: Solver, instance: Any, limit: float | None) -> tuple[float, Result]:
        start = _clock(self.clock)
        result = solver.solve(instance, limit, "cpu" if self.clock == "cpu" else "wall")
        return max(_clock(self.clock) - start, 1e-9), result  # pyperf wants positive values

    def _keep(self, name: str, values: list[float], warm: list[float], status: str, cost: int | None) -> None:
        metadata: dict[str, str | int] = {"name": name, "unit": "second", "loops": 1, "clock": self.clock,
                                          "status": status}
        if cost is not None:
            metadata["cost"] = cost
        self.kept.append((name, values, warm, metadata))

    def save(self) -> None:
        """Write the kept benchmarks to the ``--save`` file as pyperf JSON (nothing without one)."""
        if self.path is None or not self.kept:
            return
        import pyperf

        benchmarks = [pyperf.Benchmark([pyperf.Run(values, warmups=[(1, value) for value in warm], metadata=metadata,
                                                   collect_metadata=False)])
                      for _, values, warm, metadata in self.kept]
        pyperf.BenchmarkSuite(benchmarks).dump(str(self.path), replace=True)
        print(f"saved {len(benchmarks)} benchmarks ({self.clock} clock) to {self.path}")
