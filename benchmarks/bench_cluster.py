"""What running on a Dask cluster costs and gains: the same comparison locally and on local clusters.

Run as ``python -m benchmarks.bench_cluster [PATHS] [--solver NAME ...] [--time-limit S]
[--launcher]`` (needs the ``cluster`` extra).  It times, wall clock, the whole command
``crosscheck compare PATHS`` (interpreter start and planning included):

- locally with ``--jobs 2``;
- on a local cluster (a ``dask scheduler`` and ``dask worker`` processes on 127.0.0.1,
  one thread each) of 2 workers, then of 1 worker;

and prints the overhead ratio (2-worker cluster / local ``--jobs 2``) and the speed-up of
2 workers over 1.  Workers are non-daemonic (forkserver runs); ``--launcher`` adds a
2-worker cluster of daemonic workers (a fresh interpreter per run, harness/runs/isolated.py).
Each comparison's verdicts are checked to be the same.  CPU seconds summed over the
runs' records are printed too: steadier than wall time on a loaded machine.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from crosscheck.harness.judging.verdicts import Verdict, judge_all
from crosscheck.harness.records.record import read_records
from crosscheck.harness.reports.numbers import significant
from crosscheck.models.answers import ExactAnswer

from planted.cluster import local_cluster

ROOT = Path(__file__).resolve().parent.parent
#: A mixed workload of runs from milliseconds to seconds, without the planner.
DEFAULT_PATHS = [str(ROOT / "instances" / name) for name in ("keys", "amphipods", "elevator")]
DEFAULT_SOLVERS = ("keys-graph", "keys-cpsat", "amphipods-search", "elevator-quotient", "elevator-cpsat")
#: One instance's verdict as compared between setups: instance, variant, verdict, agreed answer.
VerdictRow = tuple[str, bool, Verdict, ExactAnswer | None]


def timed_compare(paths: list[str], options: list[str], out: Path) -> tuple[float, float, list[VerdictRow]]:
    """Wall seconds of one `crosscheck compare`, the CPU seconds its runs recorded, and its verdicts."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "crosscheck.harness.cli", "compare", *paths, *options, "--out", str(out)],
                   env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, check=False, timeout=3600)
    wall = time.perf_counter() - start
    records = read_records(out)
    cpu = sum((r.cpu_seconds or 0.0 for r in records), start=0.0)
    return wall, cpu, sorted((v.instance, v.variant, v.verdict, v.answer) for v in judge_all(records))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="*", default=DEFAULT_PATHS,
                        help="instance files or folders to compare (default: instances/keys, amphipods, elevator)")
    parser.add_argument("--solver", action="append", help=f"default: {', '.join(DEFAULT_SOLVERS)}")
    parser.add_argument("--time-limit", type=float, default=20.0, help="seconds per run (crosscheck compare's)")
    parser.add_argument("--launcher", action="store_true", help="also time daemonic workers (one interpreter per run)")
    args = parser.parse_args()
    options = [arg for name in (args.solver or DEFAULT_SOLVERS) for arg in ("--solver", name)]
    options += ["--time-limit", str(args.time_limit)]
    setups: list[tuple[str, tuple[bool, ...]]] = [("cluster, 2 workers", (False, False)),
                                                  ("cluster, 1 worker", (False,))]
    if args.launcher:
        setups.append(("cluster, 2 daemonic workers", (True, True)))
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    rows: dict[str, tuple[float, float, list[VerdictRow]]] = {}
    with tempfile.TemporaryDirectory(prefix="crosscheck-bench-") as folder:
        rows["local, --jobs 2"] = timed_compare(args.paths, [*options, "--jobs", "2"], Path(folder) / "local.jsonl")
        for label, daemonic in setups:
            with local_cluster(daemonic) as address:
                rows[label] = timed_compare(args.paths, [*options, "--scheduler", address],
                                            Path(folder) / f"{label}.jsonl")
    print(f"{'setup':<30} {'wall s':>8} {'run CPU s':>10} {'same verdicts':>14}")
    for label, (wall, cpu, verdicts) in rows.items():
        same = verdicts == rows['local, --jobs 2'][2]
        print(f"{label:<30} {significant(wall):>8} {significant(cpu):>10} {str(same):>14}")
    two, one = rows["cluster, 2 workers"][0], rows["cluster, 1 worker"][0]
    print(f"overhead ratio (2-worker cluster / local --jobs 2): {significant(two / rows['local, --jobs 2'][0])}")
    print(f"speed-up of 2 workers over 1: {significant(one / two)}")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
