"""Elevator benchmark on instances shaped like the real ones.

Run as ``python -m benchmarks.bench_elevator [--seeds N] [--cpsat M]``.  Part 1
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

from models.elevator import check_plan, extended, generate
from solvers.base import Result, Status
from solvers.registry import get_solver

TARGETS = {5: 0.05, 7: 0.3}  # seconds, median of elevator-quotient
CPSAT_LIMIT = 60.0


def run(solver_name: str, instance, limit: float) -> Result:
    result = get_solver(solver_name).solve(instance, limit)
    if result.plan is not None:
        assert check_plan(instance, result.plan) == result.cost
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=30, help="part 1 instances (seeds 0..N-1)")
    parser.add_argument("--cpsat", type=int, default=5, help="feasible five-pair instances for CP-SAT (0 skips)")
    args = parser.parse_args()
    parts = {5: [generate(seed, pairs=5) for seed in range(args.seeds)]}
    parts[7] = [extended(instance) for instance in parts[5]]
    print(f"elevator-quotient, seeds 0..{args.seeds - 1}, 4 floors, items on the lower three")
    print(f"{'pairs':>5} {'feasible':>8} {'median s':>9} {'max s':>8} {'all med s':>9} {'target s':>8} {'ratio':>6}")
    feasible_five = []
    for pairs, instances in parts.items():
        results = [run("elevator-quotient", instance, 120) for instance in instances]
        solved = [r.seconds for r in results if r.status is Status.OPTIMAL]
        if pairs == 5:
            feasible_five = [i for i, r in zip(instances, results, strict=True) if r.status is Status.OPTIMAL]
        median = statistics.median(solved)
        print(f"{pairs:>5} {len(solved):>8} {median:>9.3f} {max(solved):>8.3f} "
              f"{statistics.median(r.seconds for r in results):>9.3f} {TARGETS[pairs]:>8.2f} {median / TARGETS[pairs]:>6.2f}")
    if args.cpsat:
        print(f"\nelevator-cpsat on {args.cpsat} feasible five-pair instances, {CPSAT_LIMIT:.0f} s each")
        times, proved = [], 0
        for instance in feasible_five[:args.cpsat]:
            result = run("elevator-cpsat", instance, CPSAT_LIMIT)
            times.append(result.seconds)
            proved += result.status is Status.OPTIMAL
            print(f"{instance.name}: {result.status.value} cost={result.cost} bound={result.bound} "
                  f"{result.seconds:.1f} s", flush=True)
        print(f"proved optimal within {CPSAT_LIMIT:.0f} s: {proved}/{len(times)}; median {statistics.median(times):.1f} s")


if __name__ == "__main__":
    main()
