"""keys-grid on generated real-size vaults (81x81, 26 keys), against keys-graph in the same run.

Run as ``python -m benchmarks.bench_keys_grid [--seeds 1 2 3] [--robots 1 4] [--loops 0 20]
[--loopy-seeds 10] [--loopy-robots 1 4]`` plus the `benchmarks.timing` options (default here
``--repeat 1``; warm-ups do not apply; with ``--clock cpu`` the time limit counts CPU seconds too).
Every solve runs as ``crosscheck compare`` makes it (`Timer.isolated`): in its
own process under the time limit, its plan replayed by the model's checker, its record
carrying the run's wall and CPU seconds (the whole run's: parsing the vault and replaying
the plan included) and peak memory; with ``--repeat R`` the figures are medians.  Prints one line per vault,
then per (robots, loops) family how many vaults keys-grid proved, the median and max of
its wall and CPU seconds, its peak memory, and the ratio of its median CPU seconds to
keys-graph's.  Target: keys-grid proves every vault within 60 s, median at most 15 s.

The loopy family (issue 27): ``loops=71`` (about 76 independent cycles with one robot, 72 with
four), seeds ``0 .. N-1`` for ``--loopy-seeds N``, keys-grid alone (keys-graph is far slower
there).  Target per robot count: median at most 5 s, max at most 30 s.  Every target is stated
with `benchmarks.targets.report` on the timer's clock, a run that did not prove its vault as
an infinite value.
On a shared machine CPU seconds are the comparable figure (the load average is printed).
Exit status 1 if a plan is invalid or the two solvers' exact answers differ.  Not a
timed test.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys

from crosscheck.harness.records.record import RunRecord
from crosscheck.harness.reports.numbers import significant
from crosscheck.models.keys.model import generate

from benchmarks.targets import report
from benchmarks.timing import Timer, add_options

SOLVERS = ("keys-grid", "keys-graph")

#: Loops of the loopy family (issue 27), and its targets: (median, max) seconds per robot count.
LOOPY_LOOPS = 71
LOOPY_TARGETS = (5.0, 30.0)


def run(timer: Timer, solver: str, seed: int, robots: int, loops: int, limit: float) -> RunRecord:
    vault = generate(seed, size=81, keys=26, loops=loops, robots=robots)
    return Timer.median_record(timer.isolated(solver, vault, limit, group=f"r{robots}-l{loops}"))


def exact(record: RunRecord) -> bool:
    return record.status.value in ("optimal", "infeasible") and record.plan_valid is not False


def seconds(timer: Timer, record: RunRecord) -> float:
    """The run's seconds on the timer's clock; infinite when it did not prove its answer."""
    if not exact(record):
        return math.inf
    return record.seconds if timer.clock == "wall" else record.cpu_seconds or 0.0


def row(name: str, seed: int, robots: int, loops: int, record: RunRecord) -> str:
    return (f"  r{robots} l{loops} s{seed} {name:10} {record.status.value:8} cost {record.cost}"
            f" plan {record.plan_valid} wall {significant(record.seconds):>6} s"
            f" cpu {significant(record.cpu_seconds or 0):>6} s"
            f" peak {record.peak_memory_mb or 0:5.0f} MB expanded {record.stats.get('expanded')}")


def summary(robots: int, loops: int, grid: list[RunRecord], graph: list[RunRecord]) -> str:
    cpu = [record.cpu_seconds or 0.0 for record in grid]
    wall = [record.seconds for record in grid]
    ratio = statistics.median(cpu) / max(statistics.median(record.cpu_seconds or 0.0 for record in graph), 1e-9)
    peak = max((record.peak_memory_mb or 0.0) for record in grid)
    return (f"robots={robots} loops={loops}: keys-grid proved {sum(map(exact, grid))}/{len(grid)},"
            f" wall median {significant(statistics.median(wall))} max {significant(max(wall))} s,"
            f" cpu median {significant(statistics.median(cpu))} max {significant(max(cpu))} s,"
            f" peak {peak:.0f} MB, cpu ratio to keys-graph {significant(ratio)}")


def against_graph(timer: Timer, args: argparse.Namespace, lines: list[str]) -> bool:
    """The families of ``--robots`` x ``--loops``, keys-grid against keys-graph; whether all was sound."""
    sound = True
    for robots in args.robots:
        for loops in args.loops:
            runs: dict[str, list[RunRecord]] = {name: [] for name in SOLVERS}
            for seed in args.seeds:
                for name in SOLVERS:
                    record = run(timer, name, seed, robots, loops, args.limit)
                    runs[name].append(record)
                    print(row(name, seed, robots, loops, record), flush=True)
                grid, graph = runs["keys-grid"][-1], runs["keys-graph"][-1]
                sound &= grid.plan_valid is not False and graph.plan_valid is not False
                sound &= not (exact(grid) and exact(graph)) or grid.cost == graph.cost
            lines.append(summary(robots, loops, runs["keys-grid"], runs["keys-graph"]))
            report(f"keys-grid, {robots} robot(s), loops {loops} ({timer.clock})",
                   [seconds(timer, record) for record in runs["keys-grid"]], median_limit=15, max_limit=60)
    return sound


def loopy(timer: Timer, args: argparse.Namespace) -> bool:
    """The loopy family, keys-grid alone; whether every plan was valid."""
    sound = True
    for robots in args.loopy_robots:
        records = []
        for seed in range(args.loopy_seeds):
            record = run(timer, "keys-grid", seed, robots, LOOPY_LOOPS, args.limit)
            records.append(record)
            sound &= record.plan_valid is not False
            print(row("keys-grid", seed, robots, LOOPY_LOOPS, record), flush=True)
        median_limit, max_limit = LOOPY_TARGETS
        report(f"keys-grid, loopy (loops {LOOPY_LOOPS}), {robots} robot(s) ({timer.clock})",
               [seconds(timer, record) for record in records], median_limit=median_limit, max_limit=max_limit)
    return sound


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3], help="seeds of the 81x81 vaults")
    parser.add_argument("--robots", type=int, nargs="+", default=[1, 4], help="robot counts of the 81x81 vaults")
    parser.add_argument("--loops", type=int, nargs="+", default=[0, 20], help="loop counts of the 81x81 vaults")
    parser.add_argument("--loopy-seeds", type=int, default=10, help="seeds 0..N-1 of the loopy family (0: skip it)")
    parser.add_argument("--loopy-robots", type=int, nargs="+", default=[1, 4], help="robot counts of the loopy family")
    parser.add_argument("--limit", type=float, default=60.0, help="time limit per run (s)")
    add_options(parser)
    parser.set_defaults(warmups=0, repeat=1)
    args = parser.parse_args()
    timer = Timer.from_args(args)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cpus; 81x81 vaults, 26 keys, seeds {args.seeds},"
          f" loopy seeds 0..{args.loopy_seeds - 1}, limit {args.limit:g} s ({timer.clock}),"
          f" {args.repeat} isolated run(s) each")
    lines: list[str] = []
    sound = against_graph(timer, args, lines)
    sound &= loopy(timer, args)
    print("\n".join(lines))
    print(f"load average {os.getloadavg()[0]:.1f}")
    timer.save()
    if not sound:
        print("an invalid plan or a disagreement between keys-grid and keys-graph (see the rows above)")
        sys.exit(1)

if __name__ == "__main__":
    main()
