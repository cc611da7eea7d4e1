"""Elevator benchmark on instances shaped like the real ones.

Run as ``python -m benchmarks.bench_elevator [--seeds N] [--cpsat M] [--cpsat-seven K] [--cpsat-unsolvable]
[--no-quotient-targets] [--clock cpu --warmups W --repeat R --save FILE.json]``.
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
`check_plan`.  With ``--cpsat-unsolvable``, `elevator-cpsat` also runs on the published
``p5-no-solution`` and on every facility elevator-quotient proved without solution, each
to be proven infeasible within 60 s (issue 27).  Each group is stated as a target
(`benchmarks.targets.report`; a run not proven within the limit counts as ``inf``).
Not a timed test.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time
from pathlib import Path

from crosscheck.harness.reports.numbers import significant
from crosscheck.models.elevator.model import Facility, check_plan, extended, generate, parse
from crosscheck.solvers.base import Status
from crosscheck.solvers.registry import get_solver

from benchmarks.targets import report
from benchmarks.timing import Timed, Timer, add_options

TARGETS = {5: 0.05, 7: 0.3}  # seconds, median of elevator-quotient
CPSAT_LIMIT = 60.0
#: The published facility without solution (issue 27, item 3).
UNSOLVABLE_EXAMPLE = (Path(__file__).resolve().parent.parent / "instances" / "elevator" / "generated" / "p5-no-solution"
                      / "elevator-p5-f4-s3-6.txt")


def run(timer: Timer, solver_name: str, instance: Facility, limit: float, group: str) -> Timed:
    timed = timer.solve(get_solver(solver_name), instance, limit, group)
    if timed.result.plan is not None:
        assert check_plan(instance, timed.result.plan) == timed.result.cost
    return timed


def run_cpsat(timer: Timer, instances: list[Facility], label: str, proven: Status) -> list[float]:
    """`elevator-cpsat` on `instances` with the `CPSAT_LIMIT`: one line each, then the count
    proven; per instance its seconds when its answer is `proven`, else ``inf``."""
    print(f"\nelevator-cpsat on {len(instances)} {label} instances, {CPSAT_LIMIT:.0f} s each, "
          f"{timer.clock} clock, load average {os.getloadavg()[0]:.1f} at the start")
    times, values = [], []
    for instance in instances:
        cpu = time.process_time()
        timed = run(timer, "elevator-cpsat", instance, CPSAT_LIMIT, label)
        result = timed.result
        times.append(timed.median)
        values.append(timed.median if result.status is proven else math.inf)
        print(f"{instance.name}: {result.status.value} cost={result.cost} bound={result.bound} "
              f"horizons={result.stats.get('horizons')} {significant(timed.median)} s, "
              f"{significant((time.process_time() - cpu) / (timer.warmups + timer.repeat))} s CPU per solve, "
              f"load {os.getloadavg()[0]:.1f}", flush=True)
    if times:
        print(f"proved {proven.value} within {CPSAT_LIMIT:.0f} s: {sum(map(math.isfinite, values))}/{len(times)}; "
              f"median {significant(statistics.median(times))} s, max {significant(max(times))} s")
    return values


def cpsat_targets(timer: Timer, instances: list[Facility], pairs: int, proven: Status) -> None:
    """`run_cpsat` on `instances` (`pairs` pairs, answer `proven` expected), stated as a target."""
    label = f"{pairs}-pair {'feasible' if proven is Status.OPTIMAL else 'without solution'}"
    values = run_cpsat(timer, instances, label, proven)
    if values:
        report(f"elevator-cpsat, {label}, proven {proven.value} ({timer.clock})", values, max_limit=CPSAT_LIMIT)


def quotient_row(pairs: int, solved: list[float], medians: list[float]) -> str:
    """The table row of `pairs` pairs: the feasible instances' count, median and maximum seconds
    (`solved`), the median over all (`medians`), the target and the ratio of the median to it;
    every number to three significant digits (`significant`), ``-`` where there is none."""
    median = statistics.median(solved) if solved else math.nan
    cells = [significant(value) if math.isfinite(value) else "-" for value in (
        median, max(solved, default=math.nan), statistics.median(medians) if medians else math.nan, TARGETS[pairs],
        median / TARGETS[pairs])]
    return (f"{pairs:>5} {len(solved):>8} {cells[0]:>9} {cells[1]:>8} {cells[2]:>9} {cells[3]:>8} {cells[4]:>6}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=30, help="part 1 instances (seeds 0..N-1)")
    parser.add_argument("--cpsat", type=int, default=5, help="feasible five-pair instances for CP-SAT (0 skips)")
    parser.add_argument("--cpsat-seven", type=int, default=0, help="feasible seven-pair instances for CP-SAT")
    parser.add_argument("--cpsat-unsolvable", action="store_true",
                        help="CP-SAT on the published p5-no-solution and every facility without solution")
    parser.add_argument("--quotient-targets", action=argparse.BooleanOptionalAction, default=True,
                        help="state elevator-quotient's targets (off when another run states them)")
    add_options(parser)
    args = parser.parse_args()
    timer = Timer.from_args(args)
    parts = {5: [generate(seed, pairs=5) for seed in range(args.seeds)]}
    parts[7] = [extended(instance) for instance in parts[5]]
    print(f"elevator-quotient, seeds 0..{args.seeds - 1}, 4 floors, items on the lower three")
    print(f"{'pairs':>5} {'feasible':>8} {'median s':>9} {'max s':>8} {'all med s':>9} {'target s':>8} {'ratio':>6}")
    feasible: dict[int, list[Facility]] = {}
    unsolvable: dict[int, list[Facility]] = {}  # proven without solution by elevator-quotient
    for pairs, instances in parts.items():
        timings = [run(timer, "elevator-quotient", instance, 120, f"{pairs}pairs") for instance in instances]
        solved = [t.median for t in timings if t.result.status is Status.OPTIMAL]
        feasible[pairs] = [i for i, t in zip(instances, timings, strict=True) if t.result.status is Status.OPTIMAL]
        unsolvable[pairs] = [i for i, t in zip(instances, timings, strict=True) if t.result.status is Status.INFEASIBLE]
        print(quotient_row(pairs, solved, [t.median for t in timings]))
        if args.quotient_targets:
            report(f"elevator-quotient, {pairs} pairs, feasible ({timer.clock})", solved, median_limit=TARGETS[pairs])
    if args.cpsat:
        cpsat_targets(timer, feasible[5][:args.cpsat], 5, Status.OPTIMAL)
    if args.cpsat_seven:
        cpsat_targets(timer, feasible[7][:args.cpsat_seven], 7, Status.OPTIMAL)
    if args.cpsat_unsolvable:
        published = parse(UNSOLVABLE_EXAMPLE.read_text(encoding="utf-8"), str(UNSOLVABLE_EXAMPLE))
        values = run_cpsat(timer, [published], "published without solution", Status.INFEASIBLE)
        report(f"elevator-cpsat, p5-no-solution ({published.name}), proven infeasible ({timer.clock})", values,
               max_limit=CPSAT_LIMIT)
        for pairs, instances in unsolvable.items():
            cpsat_targets(timer, instances, pairs, Status.INFEASIBLE)
    timer.save()


if __name__ == "__main__":
    main()
