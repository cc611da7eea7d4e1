"""elevator-bfs at seven pairs on four floors, against elevator-quotient in the same run.

Run as ``python -m benchmarks.bench_elevator_bfs [--seeds N] [--extended M] [--limit S]``.
Instances: `generate(seed, pairs=7)` for seeds 0..N-1 (four floors, items on the lower
three, safe start; some have no plan) and the extended variant (elerium and dilithium
pairs added on the first floor) of `generate(seed, pairs=5)` for seeds 0..M-1, the kind
of the published seven-pair inputs.  Each solve runs in a fresh process; the script
prints per instance both answers, wall and CPU seconds and the peak resident memory of
the elevator-bfs process (it includes the interpreter and imports, about 130 MB), then
per family and feasibility the median and max seconds of elevator-bfs and the ratio of
its median to elevator-quotient's.  Plans are replayed by the model's checker and the
two answers must agree (exit status 1 otherwise).  The load average is printed: on a
shared machine CPU seconds are the comparable figure.  Not a timed test.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from models.elevator import Facility, check_plan, extended, generate
from solvers.base import Status
from solvers.registry import get_solver


@dataclass(frozen=True)
class Run:
    status: Status
    cost: int | None
    wall: float
    cpu: float
    peak_mb: float


def solve(solver_name: str, facility: Facility, limit: float) -> Run:
    """One solve in this (fresh) process; the plan is replayed by the checker."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = get_solver(solver_name).solve(facility, limit)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if result.plan is not None and check_plan(facility, result.plan) != result.cost:
        raise AssertionError(f"{solver_name} on {facility.name}: the plan's cost differs from the claim")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux
    return Run(result.status, result.cost, wall, cpu, peak_mb)


def isolated(solver_name: str, facility: Facility, limit: float) -> Run:
    with ProcessPoolExecutor(max_workers=1, max_tasks_per_child=1) as pool:
        return pool.submit(solve, solver_name, facility, limit).result()


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
            f"{statistics.median(r.wall for r in bfs):>8.2f} {max(r.wall for r in bfs):>7.2f} "
            f"{statistics.median(r.cpu for r in bfs):>8.2f} {max(r.cpu for r in bfs):>7.2f} "
            f"{statistics.median(r.cpu for r in quotient):>9.3f} {ratio:>7.0f} {max(r.peak_mb for r in bfs):>8.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seeds", type=int, default=12, help="generated seven-pair instances (seeds 0..N-1)")
    parser.add_argument("--extended", type=int, default=6, help="extended five-pair instances (seeds 0..M-1)")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per solve")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cpus, limit {args.limit:.0f} s")
    print(f"{'instance':<34} {'bfs':>10} {'cost':>4} {'wall s':>7} {'cpu s':>6} {'peak MB':>7}"
          f" {'quotient':>10} {'cost':>4} {'cpu s':>6}")
    groups: dict[str, list[tuple[Run, Run]]] = {}
    agree = True
    for family, instances in families(args.seeds, args.extended).items():
        for facility in instances:
            bfs = isolated("elevator-bfs", facility, args.limit)
            quotient = isolated("elevator-quotient", facility, args.limit)
            agree &= (bfs.status, bfs.cost) == (quotient.status, quotient.cost) or bfs.status is Status.TIMEOUT
            print(f"{facility.name:<34} {bfs.status.value:>10} {bfs.cost or '-':>4} {bfs.wall:>7.2f} {bfs.cpu:>6.2f}"
                  f" {bfs.peak_mb:>7.0f} {quotient.status.value:>10} {quotient.cost or '-':>4} {quotient.cpu:>6.3f}",
                  flush=True)
            kind = "feasible" if quotient.status is Status.OPTIMAL else "infeasible"
            groups.setdefault(f"{family}, {kind}", []).append((bfs, quotient))
    print(f"\nelevator-bfs ({'exact' :>5} = optimal or infeasible proven); ratio = median CPU bfs / quotient")
    print(f"{'family':<26} {'n':>3} {'exact':>5} {'med wall':>8} {'max wall':>7} {'med cpu':>8} {'max cpu':>7}"
          f" {'quot cpu':>9} {'ratio':>7} {'peak MB':>8}")
    for label, runs in groups.items():
        print(summary(label, runs))
    every = [pair for runs in groups.values() for pair in runs]
    print(summary("all", every))
    print(f"load average {os.getloadavg()[0]:.1f}")
    if not agree:
        print("DISAGREEMENT between elevator-bfs and elevator-quotient (see the rows above)")
        sys.exit(1)


if __name__ == "__main__":
    main()
