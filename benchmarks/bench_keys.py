"""Key vault benchmark: `keys-graph` (contraction included) on generated 81x81 vaults.

Run as ``python -m benchmarks.bench_keys [--seeds N | --seeds S1 S2 ...] [--loops L ...] [--clock cpu]
[--warmups W --repeat R --save FILE.json]`` (one number N: seeds 0..N-1; several: exactly those seeds).
Prints, per variant (one or four robots, with `--loops` wall openings), the median and maximum
over the seeds of each vault's median time over repetitions (`benchmarks.timing`), and
the median's ratio to the target, and states each variant's target (`benchmarks.targets.report`;
a run that is not solved to optimality counts as infinite).  Targets: issue 14, one robot
0.05 s without loops and 0.5 s with 20, four robots 0.05 s without loops, other variants
0.15 s / 0.3 s per robot count; issue 27, the loops=71 family (about 75 independent cycles),
one and four robots, median 0.5 s and max 1 s in CPU seconds (``--clock cpu``).
Every plan is replayed by the model's `check_plan`.  Not a timed test.
"""

from __future__ import annotations

import argparse
import math
import statistics

from crosscheck.harness.reports.numbers import significant
from crosscheck.models.keys.model import check_plan, generate
from crosscheck.solvers.registry import get_solver

from benchmarks.targets import report
from benchmarks.timing import Timer, add_options

TARGETS = {1: 0.15, 4: 0.3}  # seconds, median, per robot count, where TARGETS_BY_LOOPS says nothing
TARGETS_BY_LOOPS = {(1, 0): 0.05, (1, 20): 0.5, (4, 0): 0.05, (1, 71): 0.5, (4, 71): 0.5}  # (robots, loops): s
MAX_BY_LOOPS = {(1, 71): 1.0, (4, 71): 1.0}  # (robots, loops): seconds, the slowest vault's limit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[5],
                        help="vaults per variant: N for seeds 0..N-1, or the seeds themselves (two or more)")
    parser.add_argument("--loops", type=int, nargs="*", default=[0, 20], help="loop counts to try")
    parser.add_argument("--solver", default="keys-graph", help="the formulation timed")
    parser.add_argument("--limit", type=float, default=60.0, help="time limit per run (s)")
    add_options(parser)
    args = parser.parse_args()
    solver = get_solver(args.solver)
    timer = Timer.from_args(args)
    seeds = list(range(args.seeds[0])) if len(args.seeds) == 1 else args.seeds
    print(f"{args.solver} on 81x81 vaults with 26 keys, seeds {' '.join(map(str, seeds))}")
    print(f"{'robots':>6} {'loops':>5} {'median s':>9} {'max s':>8} {'target s':>8} {'ratio':>6}  costs")
    for robots in (1, 4):
        for loops in args.loops:
            times, costs = [], []
            for seed in seeds:
                vault = generate(seed, size=81, keys=26, loops=loops, robots=robots)
                timed = timer.solve(solver, vault, args.limit)
                result = timed.result
                times.append(timed.median if result.status == "optimal" else math.inf)
                if result.plan is not None:
                    assert check_plan(vault, result.plan) == result.cost
                costs.append(str(result.cost) if result.status == "optimal" else result.status.value)
            median = statistics.median(times)
            target = TARGETS_BY_LOOPS.get((robots, loops), TARGETS[robots])
            print(f"{robots:>6} {loops:>5} {significant(median):>9} {significant(max(times)):>8} "
                  f"{significant(target):>8} {significant(median / target):>6}  {' '.join(costs)}")
            report(f"{args.solver}, {robots} robot{'s' * (robots > 1)}, loops={loops} ({timer.clock})", times,
                   median_limit=target, max_limit=MAX_BY_LOOPS.get((robots, loops)))
    timer.save()


if __name__ == "__main__":
    main()
