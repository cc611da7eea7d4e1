"""Benchmark keys-cpsat on generated 81x81 vaults with 26 keys.

Target: prove optimality within 60 s, or report the bound honestly.  Every plan is
replayed by `crosscheck.models.keys.check_plan`.  Prints one line per run, then per
(robots, loops) group the median time, the statuses and the median gap, and the ratio
of the median time to the target.

    python -m benchmarks.bench_keys_cpsat [--seeds 1 2 3] [--limit 60] [--warmups W --repeat R --save FILE.json]

Times are each vault's median over repetitions (`benchmarks.timing`).
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter

from benchmarks.timing import Timer, add_options
from crosscheck.models.keys import check_plan, generate
from crosscheck.solvers.cpsat import default_workers
from crosscheck.solvers.keys.cpsat import KeysCpSat

TARGET_SECONDS = 60.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--robots", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--loops", type=int, nargs="+", default=[0, 20])
    parser.add_argument("--limit", type=float, default=TARGET_SECONDS)
    add_options(parser)
    args = parser.parse_args()
    solver = KeysCpSat()
    timer = Timer.from_args(args)
    print(f"keys-cpsat, limit {args.limit:g} s, num_workers {default_workers()}, seed {solver.random_seed}")
    for robots in args.robots:
        for loops in args.loops:
            times, gaps, statuses = [], [], Counter()
            for seed in args.seeds:
                vault = generate(seed, size=81, keys=26, loops=loops, robots=robots)
                timed = timer.solve(solver, vault, args.limit)
                result = timed.result
                if result.plan is not None:
                    assert check_plan(vault, result.plan) == result.cost, "plan does not replay"
                gap = None
                if result.cost is not None and result.bound is not None:
                    gap = (result.cost - result.bound) / max(result.cost, 1)
                    gaps.append(gap)
                times.append(timed.median)
                statuses[result.status.value] += 1
                print(
                    f"  {vault.name:32} {result.status.value:9} cost {result.cost} bound {result.bound}"
                    f" gap {'-' if gap is None else f'{gap:.1%}'} {timed.median:6.2f} s"
                    f" conflicts {result.stats.get('conflicts')}"
                )
            median = statistics.median(times)
            gap_text = f"{statistics.median(gaps):.1%}" if gaps else "-"
            print(
                f"robots={robots} loops={loops}: median {median:.2f} s"
                f" ({median / TARGET_SECONDS:.2f} x target), median gap {gap_text}, {dict(statuses)}"
            )
    timer.save()


if __name__ == "__main__":
    main()
