"""Elevator benchmark on instances shaped like the real ones.

Run as ``python -m benchmarks.bench_elevator [--seeds N] [--cpsat M] [--warmups W --repeat R --save FILE.json]``.
Times are each instance's median over repetitions (`benchmarks.timing`).  Part 1
instances have 4 floors and 5 pairs spread over the lower three floors (seeded
`generate`, safe start); part 2 is their extended variant (7 pairs).  Prints for
`elevator-quotient` the median and maximum wall time over the feasible instances (and
over all of them) with the median's ratio to the target (50 ms for five pairs, 0.3 s
for seven), then for `elevator-cpsat` on the first M feasible five-pair instances how
many it proved optimal within 60 s.  Every plan is replayed by the model's
`check_plan`.  Not a timed test.
"""

from __future__ import annotations

import argparse
import statistics

from benchmarks.timing import Timed, Timer, add_options
from models.elevator import check_plan, extended, generate
from solvers.base import Status
from solvers.registry import get_solver

TARGETS = {5: 0.05, 7: 0.3}  # seconds, median of elevator-quotient
CPSAT_LIMIT = 60.0


def run(timer: Timer, solver_name: str, instance, limit: float, group: str) -> Timed:
    timed = timer.solve(get_solver(solver_name), instance, limit, group)
    if timed.result.plan is not None:
        assert check_plan(instance, timed.result.plan) == timed.result.cost
    return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=30, help="part 1 instances (seeds 0..N-1)")
    parser.add_argument("--cpsat", type=int, default=5, help="feasible five-pair instances for CP-SAT (0 skips)")
    add_options(parser)
    args = parser.parse_args()
    timer = Timer.from_args(args)
    parts = {5: [generate(seed, pairs=5) for seed in range(args.seeds)]}
    parts[7] = [extended(instance) for instance in parts[5]]
    print(f"elevator-quotient, seeds 0..{args.seeds - 1}, 4 floors, items on the lower three")
    print(f"{'pairs':>5} {'feasible':>8} {'median s':>9} {'max s':>8} {'all med s':>9} {'target s':>8} {'ratio':>6}")
    feasible_five = []
    for pairs, instances in parts.items():
        timings = [run(timer, "elevator-quotient", instance, 120, f"{pairs}pairs") for instance in instances]
        solved = [t.median for t in timings if t.result.status is Status.OPTIMAL]
        if pairs == 5:
            feasible_five = [i for i, t in zip(instances, timings, strict=True) if t.result.status is Status.OPTIMAL]
        median = statistics.median(solved)
        print(f"{pairs:>5} {len(solved):>8} {median:>9.3f} {max(solved):>8.3f} "
              f"{statistics.median(t.median for t in timings):>9.3f} {TARGETS[pairs]:>8.2f} {median / TARGETS[pairs]:>6.2f}")
    if args.cpsat:
        print(f"\nelevator-cpsat on {args.cpsat} feasible five-pair instances, {CPSAT_LIMIT:.0f} s each")
        times, proved = [], 0
        for instance in feasible_five[:args.cpsat]:
            timed = run(timer, "elevator-cpsat", instance, CPSAT_LIMIT, "5pairs")
            result = timed.result
            times.append(timed.median)
            proved += result.status is Status.OPTIMAL
            print(f"{instance.name}: {result.status.value} cost={result.cost} bound={result.bound} "
                  f"{timed.median:.1f} s", flush=True)
        print(f"proved optimal within {CPSAT_LIMIT:.0f} s: {proved}/{len(times)}; median {statistics.median(times):.1f} s")
    timer.save()


if __name__ == "__main__":
    main()
