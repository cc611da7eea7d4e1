"""Benchmark keys-grid against keys-graph on generated real-size vaults (81x81, 26 keys).

Run as ``python -m benchmarks.bench_keys_grid [--seeds 1 2 3] [--loops 0 20] [--robots 1 4]
[--repeat R --clock wall|cpu --save FILE.json]``.
Each solve runs in its own process under the harness (`benchmarks.timing.Timer.isolated`,
as ``crosscheck compare`` runs it), so the peak resident memory it reports is that run's
own; with ``--repeat`` (default 1, no warm-up) the figures are medians over repetitions.
CPU seconds are the whole run's: parsing the vault and replaying the plan included.
Prints one line per run (wall and CPU seconds, peak MB, states expanded), then per
(robots, loops) family the median and max of keys-grid's wall and CPU seconds and its
peak memory, and the ratio of its median CPU seconds to keys-graph's in the same run.
Target: keys-grid proves every vault within 60 s, median at most 15 s.  Every plan is
replayed by the harness with `models.keys.check_plan`.
"""

from __future__ import annotations

import argparse
import statistics
from dataclasses import dataclass

from benchmarks.timing import Timer, add_options
from models.keys import generate

SOLVERS = ("keys-grid", "keys-graph")


@dataclass(frozen=True)
class Run:
    status: str
    cost: int | None
    wall: float
    cpu: float
    peak_mb: float
    expanded: int


def isolated(timer: Timer, solver: str, seed: int, robots: int, loops: int, limit: float) -> Run:
    """`solver` on one generated vault, each repetition in its own process; medians over them."""
    vault = generate(seed, size=81, keys=26, loops=loops, robots=robots)
    record = Timer.median_record(timer.isolated(solver, vault, limit, group=f"r{robots}-l{loops}"))
    assert record.plan_valid is not False, f"{solver}: {record.plan_error}"
    return Run(record.status.value, record.cost, record.seconds, record.cpu_seconds or 0.0,
               record.peak_memory_mb or 0.0, int(record.stats.get("expanded", 0)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--robots", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--loops", type=int, nargs="+", default=[0, 20])
    parser.add_argument("--limit", type=float, default=60.0, help="time limit per run (s)")
    add_options(parser)
    parser.set_defaults(warmups=0, repeat=1)
    args = parser.parse_args()
    timer = Timer.from_args(args)
    print(f"81x81 vaults, 26 keys, seeds {args.seeds}, limit {args.limit:g} s, one child process per run")
    for robots in args.robots:
        for loops in args.loops:
            runs: dict[str, list[Run]] = {name: [] for name in SOLVERS}
            for seed in args.seeds:
                for name in SOLVERS:
                    run = isolated(timer, name, seed, robots, loops, args.limit)
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

    timer.save()


if __name__ == "__main__":
    main()
