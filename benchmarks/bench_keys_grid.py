"""Benchmark keys-grid against keys-graph on generated real-size vaults (81x81, 26 keys).

Run as ``python -m benchmarks.bench_keys_grid [--seeds 1 2 3] [--loops 0 20] [--robots 1 4]``.
Each solve runs in a fresh child process, so the peak resident memory it reports
(``ru_maxrss``) is that run's own.  Prints one line per run (wall and CPU seconds,
peak MB, states expanded), then per (robots, loops) family the median and max of
keys-grid's wall and CPU seconds and its peak memory, and the ratio of its median
CPU seconds to keys-graph's in the same run.  Target: keys-grid proves every vault
within 60 s, median at most 15 s.  Every plan is replayed by `models.keys.check_plan`.
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import statistics
import time
from dataclasses import dataclass

from models.keys import check_plan, generate
from solvers.registry import get_solver

SOLVERS = ("keys-grid", "keys-graph")


@dataclass(frozen=True)
class Run:
    status: str
    cost: int | None
    wall: float
    cpu: float
    peak_mb: float
    expanded: int


def solve_once(solver: str, seed: int, robots: int, loops: int, limit: float) -> Run:
    """Solve one generated vault in this process and replay the plan."""
    vault = generate(seed, size=81, keys=26, loops=loops, robots=robots)
    wall, cpu = time.perf_counter(), time.process_time()
    result = get_solver(solver).solve(vault, limit)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if result.plan is not None:
        assert check_plan(vault, result.plan) == result.cost, f"{solver}: plan does not replay"
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return Run(result.status.value, result.cost, wall, cpu, peak_mb, int(result.stats.get("expanded", 0)))


def isolated(*args: object) -> Run:
    """`solve_once` in a fresh child process."""
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        run: Run = pool.apply(solve_once, args)
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--robots", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--loops", type=int, nargs="+", default=[0, 20])
    parser.add_argument("--limit", type=float, default=60.0, help="time limit per run (s)")
    args = parser.parse_args()
    print(f"81x81 vaults, 26 keys, seeds {args.seeds}, limit {args.limit:g} s, one child process per run")
    for robots in args.robots:
        for loops in args.loops:
            runs: dict[str, list[Run]] = {name: [] for name in SOLVERS}
            for seed in args.seeds:
                for name in SOLVERS:
                    run = isolated(name, seed, robots, loops, args.limit)
                    runs[name].append(run)
                    print(f"  r{robots} l{loops} s{seed} {name:10} {run.status:8} cost {run.cost}"
                          f" wall {run.wall:6.2f} s cpu {run.cpu:6.2f} s peak {run.peak_mb:6.0f} MB"
                          f" expanded {run.expanded}")
            grid, graph = runs["keys-grid"], runs["keys-graph"]
            cpu = [run.cpu for run in grid]
            ratio = statistics.median(cpu) / max(statistics.median(run.cpu for run in graph), 1e-9)
            proved = sum(run.status in ("optimal", "infeasible") for run in grid)
            print(f"robots={robots} loops={loops}: keys-grid proved {proved}/{len(grid)},"
                  f" wall median {statistics.median(run.wall for run in grid):.2f} max {max(run.wall for run in grid):.2f} s,"
                  f" cpu median {statistics.median(cpu):.2f} max {max(cpu):.2f} s,"
                  f" peak {max(run.peak_mb for run in grid):.0f} MB, cpu ratio to keys-graph {ratio:.1f}")


if __name__ == "__main__":
    main()
