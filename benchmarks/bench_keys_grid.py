"""keys-grid on generated real-size vaults (81x81, 26 keys), against keys-graph in the same run.

Run as ``python -m benchmarks.bench_keys_grid [--seeds 1 2 3] [--robots 1 4] [--loops 0 20]``
plus the `benchmarks.timing` options (default here ``--repeat 1``; warm-ups do not apply).
Every solve runs as ``crosscheck compare`` makes it (`Timer.isolated`): in its
own process under the time limit, its plan replayed by the model's checker, its record
carrying the run's wall and CPU seconds (the whole run's: parsing the vault and replaying
the plan included) and peak memory; with ``--repeat R`` the figures are medians.  Prints one line per vault,
then per (robots, loops) family how many vaults keys-grid proved, the median and max of
its wall and CPU seconds, its peak memory, and the ratio of its median CPU seconds to
keys-graph's.  Target: keys-grid proves every vault within 60 s, median at most 15 s.
On a shared machine CPU seconds are the comparable figure (the load average is printed).
Exit status 1 if a plan is invalid or the two solvers' exact answers differ.  Not a
timed test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys

from benchmarks.timing import Timer, add_options
from crosscheck.harness.records import RunRecord
from crosscheck.models.keys import generate

SOLVERS = ("keys-grid", "keys-graph")


def run(timer: Timer, solver: str, seed: int, robots: int, loops: int, limit: float) -> RunRecord:
    vault = generate(seed, size=81, keys=26, loops=loops, robots=robots)
    return Timer.median_record(timer.isolated(solver, vault, limit, group=f"r{robots}-l{loops}"))


def exact(record: RunRecord) -> bool:
    return record.status.value in ("optimal", "infeasible") and record.plan_valid is not False


def summary(robots: int, loops: int, grid: list[RunRecord], graph: list[RunRecord]) -> str:
    cpu = [record.cpu_seconds or 0.0 for record in grid]
    wall = [record.seconds for record in grid]
    ratio = statistics.median(cpu) / max(statistics.median(record.cpu_seconds or 0.0 for record in graph), 1e-9)
    peak = max((record.peak_memory_mb or 0.0) for record in grid)
    return (f"robots={robots} loops={loops}: keys-grid proved {sum(map(exact, grid))}/{len(grid)},"
            f" wall median {statistics.median(wall):.2f} max {max(wall):.2f} s,"
            f" cpu median {statistics.median(cpu):.2f} max {max(cpu):.2f} s,"
            f" peak {peak:.0f} MB, cpu ratio to keys-graph {ratio:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--robots", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--loops", type=int, nargs="+", default=[0, 20])
    parser.add_argument("--limit", type=float, default=60.0, help="time limit per run (s)")
    add_options(parser)
    parser.set_defaults(warmups=0, repeat=1)
    args = parser.parse_args()
    timer = Timer.from_args(args)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cpus; 81x81 vaults, 26 keys, seeds {args.seeds},"
          f" limit {args.limit:g} s, {args.repeat} isolated run(s) each")
    sound = True
    lines = []
    for robots in args.robots:
        for loops in args.loops:
            runs: dict[str, list[RunRecord]] = {name: [] for name in SOLVERS}
            for seed in args.seeds:
                for name in SOLVERS:
                    record = run(timer, name, seed, robots, loops, args.limit)
                    runs[name].append(record)
                    print(f"  r{robots} l{loops} s{seed} {name:10} {record.status.value:8} cost {record.cost}"
                          f" plan {record.plan_valid} wall {record.seconds:6.2f} s cpu {record.cpu_seconds or 0:6.2f} s"
                          f" peak {record.peak_memory_mb or 0:5.0f} MB expanded {record.stats.get('expanded')}",
                          flush=True)
                grid, graph = runs["keys-grid"][-1], runs["keys-graph"][-1]
                sound &= grid.plan_valid is not False and graph.plan_valid is not False
                sound &= not (exact(grid) and exact(graph)) or grid.cost == graph.cost
            lines.append(summary(robots, loops, runs["keys-grid"], runs["keys-graph"]))
    print("\n".join(lines))
    print(f"load average {os.getloadavg()[0]:.1f}")
    timer.save()
    if not sound:
        print("an invalid plan or a disagreement between keys-grid and keys-graph (see the rows above)")
        sys.exit(1)


if __name__ == "__main__":
    main()
