"""elevator-bfs at seven pairs on four floors, against elevator-quotient in the same run.

Run as ``python -m benchmarks.bench_elevator_bfs [--seeds N] [--extended M] [--limit S]``
plus the `benchmarks.timing` options (``--warmups 0 --repeat 1`` for a quick look).
Instances: `generate(seed, pairs=7)` for seeds 0..N-1 (four floors, items on the lower
three, safe start; some have no plan) and the extended variant (elerium and dilithium
pairs added on the first floor) of `generate(seed, pairs=5)` for seeds 0..M-1, the kind
of the published seven-pair inputs.  Prints per instance both answers, the median
seconds (``--clock``) and the CPU seconds per solve (the process's user + system time
over its warm-up and timed solves), then per family and feasibility the median and max
of elevator-bfs, the ratio of its median CPU seconds to elevator-quotient's, and the
peak resident memory of the process (interpreter and imports included, about 130 MB;
solves run one after another, so it bounds every solve's peak).  Plans are replayed by
the model's checker; the two answers must agree (exit status 1 otherwise).  Targets
(`benchmarks.targets`): elevator-bfs exact on every instance within the limit (CPU seconds),
and the process's peak memory within the harness's default 8192 MB.  The load
average is printed: on a shared machine CPU seconds are the comparable figure.  Not a
timed test.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
from dataclasses import dataclass

from crosscheck.harness.reports.numbers import significant
from crosscheck.harness.runs.measure import own_usage
from crosscheck.models.elevator.model import Facility, check_plan, extended, generate
from crosscheck.solvers.base import Status
from crosscheck.solvers.registry import get_solver

from benchmarks.targets import report
from benchmarks.timing import Timer, add_options


@dataclass(frozen=True)
class Run:
    status: Status
    cost: int | None
    seconds: float  # median over the timed solves, on the timer's clock
    cpu: float  # CPU seconds per solve


def solve(timer: Timer, solver_name: str, facility: Facility, limit: float, group: str) -> Run:
    """Time `facility`'s solves; the last plan is replayed by the checker."""
    before = own_usage().cpu_seconds
    timed = timer.solve(get_solver(solver_name), facility, limit, group)
    cpu = (own_usage().cpu_seconds - before) / (timer.warmups + timer.repeat)
    result = timed.result
    if result.plan is not None and check_plan(facility, result.plan) != result.cost:
        raise AssertionError(f"{solver_name} on {facility.name}: the plan's cost differs from the claim")
    return Run(result.status, result.cost, timed.median, cpu)


def families(seeds: int, extended_seeds: int) -> dict[str, list[Facility]]:
    return {
        "p7 generated": [generate(seed, pairs=7) for seed in range(seeds)],
        "p5 extended": [extended(generate(seed, pairs=5)) for seed in range(extended_seeds)],
    }


def summary(label: str, runs: list[tuple[Run, Run]]) -> str:
    bfs, quotient = [pair[0] for pair in runs], [pair[1] for pair in runs]
    exact = [run for run in bfs if run.status in (Status.OPTIMAL, Status.INFEASIBLE)]
    ratio = statistics.median(r.cpu for r in bfs) / max(statistics.median(r.cpu for r in quotient), 1e-6)
    return (f"{label:<26} {len(runs):>3} {len(exact):>5} "
            f"{significant(statistics.median(r.seconds for r in bfs)):>8} "
            f"{significant(max(r.seconds for r in bfs)):>7} "
            f"{significant(statistics.median(r.cpu for r in bfs)):>8} {significant(max(r.cpu for r in bfs)):>7} "
            f"{significant(statistics.median(r.cpu for r in quotient)):>9} {significant(ratio):>7}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seeds", type=int, default=12, help="generated seven-pair instances (seeds 0..N-1)")
    parser.add_argument("--extended", type=int, default=6, help="extended five-pair instances (seeds 0..M-1)")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per solve")
    add_options(parser)
    args = parser.parse_args()
    timer = Timer.from_args(args)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cpus, limit {args.limit:.0f} s, "
          f"{args.clock} clock, {args.warmups} warm-up and {args.repeat} timed solves each")
    print(f"{'instance':<34} {'bfs':>10} {'cost':>4} {'s':>7} {'cpu s':>6}"
          f" {'quotient':>10} {'cost':>4} {'cpu s':>6}")
    groups: dict[str, list[tuple[Run, Run]]] = {}
    agree = True
    for family, instances in families(args.seeds, args.extended).items():
        for facility in instances:
            bfs = solve(timer, "elevator-bfs", facility, args.limit, family)
            quotient = solve(timer, "elevator-quotient", facility, args.limit, family)
            agree &= (bfs.status, bfs.cost) == (quotient.status, quotient.cost) or bfs.status is Status.TIMEOUT
            print(f"{facility.name:<34} {bfs.status.value:>10} {bfs.cost or '-':>4} "
                  f"{significant(bfs.seconds):>7} {significant(bfs.cpu):>6}"
                  f" {quotient.status.value:>10} {quotient.cost or '-':>4} {significant(quotient.cpu):>6}",
                  flush=True)
            kind = "feasible" if quotient.status is Status.OPTIMAL else "infeasible"
            groups.setdefault(f"{family}, {kind}", []).append((bfs, quotient))
    print("\nelevator-bfs (exact = optimal or infeasible proven); ratio = median CPU s bfs / quotient")
    print(f"{'family':<26} {'n':>3} {'exact':>5} {'med s':>8} {'max s':>7} {'med cpu':>8} {'max cpu':>7}"
          f" {'quot cpu':>9} {'ratio':>7}")
    for label, runs in groups.items():
        print(summary(label, runs))
    every = [pair for runs in groups.values() for pair in runs]
    print(summary("all", every))
    measured = own_usage().peak_memory_mb
    peak = math.inf if measured is None else measured  # unknown counts as over the limit, as in bench_main
    print(f"peak resident memory of the process {peak:.0f} MB; load average {os.getloadavg()[0]:.1f}")
    report("elevator-bfs exact, seven pairs (CPU s)",
           [bfs.cpu if bfs.status in (Status.OPTIMAL, Status.INFEASIBLE) else math.inf for bfs, _ in every],
           max_limit=args.limit)
    report("elevator-bfs, peak memory of the process", [peak], unit="MB", max_limit=8192)
    timer.save()
    if not agree:
        print("DISAGREEMENT between elevator-bfs and elevator-quotient (see the rows above)")
        sys.exit(1)


if __name__ == "__main__":
    main()
