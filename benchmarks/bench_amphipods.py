"""Amphipod timings: ``python -m benchmarks.bench_amphipods [--search N] [--cpsat N] [--warmups W --repeat R --save FILE.json]``.

Times are each burrow's median over repetitions (`benchmarks.timing`).

Targets (issue 3): ``amphipods-search`` median at most 0.5 s on depth-2 and 1 s on
depth-4 burrows of the real kind; ``amphipods-cpsat`` proves optimality within 60 s on
depth 4 (or reports its bound).  Real-kind depth-4 burrows without any solution are
timed separately (real puzzle inputs always have one).
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from benchmarks.timing import Timed, Timer, add_options
from models.amphipods import Burrow, generate, parse
from solvers.amphipods.cpsat import ScheduleModel
from solvers.amphipods.search import MacroSearch
from solvers.base import Solver, Status

EXAMPLES = Path(__file__).resolve().parent.parent / "instances" / "amphipods"
TARGETS = {2: 0.5, 4: 1.0}
CPSAT_LIMIT = 60.0


def run(timer: Timer, solver: Solver, burrows: list[Burrow], limit: float) -> list[Timed]:
    return [timer.solve(solver, burrow, limit) for burrow in burrows]


def describe(timings: list[Timed]) -> str:
    times = [t.median for t in timings]
    statuses = ", ".join(f"{status}: {sum(t.result.status == status for t in timings)}" for status in Status
                         if any(t.result.status == status for t in timings))
    return f"median {statistics.median(times):.3f} s, max {max(times):.3f} s ({statuses})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--search", type=int, default=20, help="real-kind burrows per depth for the search")
    parser.add_argument("--cpsat", type=int, default=5, help="solvable real-kind depth-4 burrows for CP-SAT")
    add_options(parser)
    args = parser.parse_args()
    timer = Timer.from_args(args)

    examples = [parse(path.read_text(encoding="utf-8"), path.name) for path in sorted(EXAMPLES.glob("depth*.txt"))]
    print("amphipods-search on the published examples:")
    for burrow, timed in zip(examples, run(timer, MacroSearch(), examples, 60), strict=True):
        print(f"  {burrow.name:16} {timed.result.status:8} {timed.result.cost} in {timed.median:.3f} s, "
              f"{timed.result.stats['expanded']} expanded")

    solvable: list[Burrow] = []
    for depth, target in TARGETS.items():
        burrows = [generate(seed, depth=depth, style="real") for seed in range(args.search)]
        results = run(timer, MacroSearch(), burrows, 60)
        solved = [t for t in results if t.result.status is Status.OPTIMAL]
        unsolvable = [t for t in results if t.result.status is Status.INFEASIBLE]
        median = statistics.median(t.median for t in solved)
        print(f"amphipods-search, real kind, depth {depth}: solvable {describe(solved)}; "
              f"ratio to the {target} s target {median / target:.2f}")
        if unsolvable:
            print(f"  without solution: {describe(unsolvable)}")
        if depth == 4:
            solvable = [b for b, t in zip(burrows, results, strict=True) if t.result.status is Status.OPTIMAL]

    if args.cpsat:
        cpsat = run(timer, ScheduleModel(), solvable[:args.cpsat], CPSAT_LIMIT)
        print(f"amphipods-cpsat, solvable real-kind depth 4 ({len(cpsat)}, limit {CPSAT_LIMIT:.0f} s): "
              f"{describe(cpsat)}")
        for timed in cpsat:
            result = timed.result
            print(f"  {result.instance:22} {result.status:8} cost {result.cost} bound {result.bound} "
                  f"in {timed.median:.1f} s, {result.stats.get('conflicts')} conflicts")
    timer.save()


if __name__ == "__main__":
    main()
