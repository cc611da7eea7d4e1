"""The main command, timed whole: ``crosscheck compare instances/`` as the README runs it.

Run as ``python -m benchmarks.bench_main [--folder instances/] [--keep FILE.jsonl] [-- EXTRA COMPARE OPTIONS]``.
It runs the comparison in a fresh process (the README's defaults: wall-clock limits, ``--jobs``
the cores), then prints the comparison's summary line and, from the run records, the per-formulation table of
``crosscheck report --by solver`` (runs by how they ended, times, peak memory) and the CPU seconds
of all runs.  Targets (issue 27): the whole command within 240 s of wall
time on the 2-core machine; every built-in formulation exact on every instance; no run above
8192 MB.  Which formulations run is whatever is installed: without the ``planners`` extra the
planner formulations are absent, as in the README's main command.  Not a timed test.
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from crosscheck.harness.records.evidence import Evidence
from crosscheck.harness.records.record import read_records, solver_runs
from crosscheck.harness.reports.numbers import significant
from crosscheck.harness.reports.tables import SUMMARY_COLUMNS, render_table, summary_rows

from benchmarks.targets import report

WALL_LIMIT = 240.0  # seconds, the whole command
MEMORY_LIMIT = 8192.0  # MB, any run


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=Path("instances"), help="the folder compared (default: instances)")
    parser.add_argument("--keep", type=Path, help="keep the run records in this file (default: a temporary one)")
    parser.add_argument("extra", nargs="*", help="more options for crosscheck compare (after --)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        out = args.keep or Path(scratch) / "runs.jsonl"
        command = [sys.executable, "-m", "crosscheck", "compare", str(args.folder), "--out", str(out), *args.extra]
        print("$ crosscheck " + " ".join(command[3:]), flush=True)
        start = time.perf_counter()
        ended = subprocess.run(command, capture_output=True, text=True)
        wall = time.perf_counter() - start
        print(ended.stdout.splitlines()[-1] if ended.stdout else "(no output)")  # the verdict summary
        print(ended.stderr, end="")
        print(f"exit status {ended.returncode}, {significant(wall)} s wall")
        records = read_records(out) if out.exists() else []
    runs = solver_runs(records)  # an unreadable file shows in the summary line
    built_in = [r for r in runs if r.evidence is Evidence.PROOF]
    print(render_table(SUMMARY_COLUMNS, summary_rows(runs), "table"))  # as `crosscheck report --by solver`
    print(f"CPU seconds of all runs: {significant(sum(r.cpu_seconds or 0.0 for r in runs))}")
    report("main command, wall", [wall], median_limit=WALL_LIMIT, max_limit=WALL_LIMIT)
    report("main command, built-in runs not exact (count)",
           [sum(not r.exact for r in built_in) if built_in else math.inf], unit="", max_limit=0)
    peaks = [r.peak_memory_mb if r.peak_memory_mb is not None else math.inf for r in built_in]
    report("main command, peak memory of a run", peaks or [math.inf], unit="MB", max_limit=MEMORY_LIMIT)


if __name__ == "__main__":
    main()
