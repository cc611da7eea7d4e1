"""Elevator benchmark on instances shaped like the real ones.

Run as ``python -m benchmarks.bench_elevator [--seeds N] [--cpsat M] [--cpsat-seven K] [--warmups W --repeat R --save FILE.json]``.
Times are each instance's median over repetitions (`benchmarks.timing`).  Part 1
instances have 4 floors and 5 pairs spread over the lower three floors (seeded
`generate`, safe start); part 2 is their extended variant (7 pairs).  Prints for
`elevator-quotient` the median and maximum wall time over the feasible instances (and
over all of them) with the median's ratio to the target (50 ms for five pairs, 0.3 s
for seven), then for `elevator-cpsat` on the first M feasible five-pair instances (and
the first K feasible seven-pair ones; a count above the feasible ones takes them all) how
many it proved optimal within 60 s, with the median and maximum seconds, and each with
its status, cost, proven bound, horizons tried, the timer's seconds, the process's CPU
seconds (every CP-SAT worker thread counts) and the load average when it finished: on a
shared machine the wall clock alone says little.  Every plan is replayed by the model's
`check_plan`.  Not a timed test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from benchmarks.targets import report
from benchmarks.timing import Timed, Timer, add_options
from crosscheck.models.elevator import Facility, check_plan, extended, generate
from crosscheck.solvers.base import Status
from crosscheck.solvers.registry import get_solver

TARGETS = {5: 0.05, 7: 0.3}  # seconds, median of elevator-quotient
CPSAT_LIMIT = 60.0


def run(timer: Timer, solver_name: str, instance, limit: float, group: str) -> Timed:
    timed = timer.solve(get_solver(solver_name), instance, limit, group)
    if timed.result.plan is not None:
        assert check_plan(instance, timed.result.plan) == timed.result.cost
    return timed


def run_cpsat(timer: Timer, instances: list[Facility], pairs: int) -> None:
    """`elevator-cpsat` on `instances` with the `CPSAT_LIMIT`: one line each, then the count proven."""
    print(f"\nelevator-cpsat on {len(instances)} feasible {pairs}-pair instances, {CPSAT_LIMIT:.0f} s each, "
          f"{timer.clock} clock, load average {os.getloadavg()[0]:.1f} at the start")
    times, proved = [], 0
    for instance in instances:
        cpu = time.process_time()
        timed = run(timer, "elevator-cpsat", instance, CPSAT_LIMIT, f"{pairs}pairs")
        result = timed.result
        times.append(timed.median)
        proved += result.status is Status.OPTIMAL
        print(f"{instance.name}: {result.status.value} cost={result.cost} bound={result.bound} "
              f"horizons={result.stats.get('horizons')} {timed.median:.1f} s, "
              f"{(time.process_time() - cpu) / (timer.warmups + timer.repeat):.1f} s CPU per solve, "
              f"load {os.getloadavg()[0]:.1f}", flush=True)
    if times:
        print(f"proved optimal within {CPSAT_LIMIT:.0f} s: {proved}/{len(times)}; median {statistics.median(times):.1f} s, "
              f"max {max(times):.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=30, help="part 1 instances (seeds 0..N-1)")
    parser.add_argument("--cpsat", type=int, default=5, help="feasible five-pair instances for CP-SAT (0 skips)")
    parser.add_argument("--cpsat-seven", type=int, default=0, help="feasible seven-pair instances for CP-SAT")
    add_options(parser)
    args = parser.parse_args()
    timer = Timer.from_args(args)
    parts = {5: [generate(seed, pairs=5) for seed in range(args.seeds)]}
    parts[7] = [extended(instance) for instance in parts[5]]
    print(f"elevator-quotient, seeds 0..{args.seeds - 1}, 4 floors, items on the lower three")
    print(f"{'pairs':>5} {'feasible':>8} {'median s':>9} {'max s':>8} {'all med s':>9} {'target s':>8} {'ratio':>6}")
    feasible: dict[int, list[Facility]] = {}
    for pairs, instances in parts.items():
        timings = [run(timer, "elevator-quotient", instance, 120, f"{pairs}pairs") for instance in instances]
        solved = [t.median for t in timings if t.result.status is Status.OPTIMAL]
        feasible[pairs] = [i for i, t in zip(instances, timings, strict=True) if t.result.status is Status.OPTIMAL]
        median = statistics.median(solved)
        print(f"{pairs:>5} {len(solved):>8} {median:>9.3f} {max(solved):>8.3f} "
              f"{statistics.median(t.median for t in timings):>9.3f} {TARGETS[pairs]:>8.2f} {median / TARGETS[pairs]:>6.2f}")
        report(f"elevator-quotient, {pairs} pairs, feasible ({timer.clock})", solved, median_limit=TARGETS[pairs])
    if args.cpsat:
        run_cpsat(timer, feasible[5][:args.cpsat], 5)
    if args.cpsat_seven:
        run_cpsat(timer, feasible[7][:args.cpsat_seven], 7)
    timer.save()


if __name__ == "__main__":
    main()
