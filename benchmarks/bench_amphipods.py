"""Amphipod timings: ``python -m benchmarks.bench_amphipods [--search N] [--cpsat N]``.

Targets (issue 3): ``amphipods-search`` median at most 0.5 s on depth-2 and 1 s on
depth-4 burrows of the real kind; ``amphipods-cpsat`` proves optimality within 60 s on
depth 4 (or reports its bound).  Real-kind depth-4 burrows without any solution are
timed separately (real puzzle inputs always have one).
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from models.amphipods import Burrow, generate, parse
from solvers.amphipods.cpsat import ScheduleModel
from solvers.amphipods.search import MacroSearch
from solvers.base import Result, Solver, Status

EXAMPLES = Path(__file__).resolve().parent.parent / "instances" / "amphipods"
TARGETS = {2: 0.5, 4: 1.0}
CPSAT_LIMIT = 60.0


def run(solver: Solver, burrows: list[Burrow], limit: float) -> list[Result]:
    return [solver.solve(burrow, limit) for burrow in burrows]


def describe(results: list[Result]) -> str:
    times = [r.seconds for r in results]
    statuses = ", ".join(f"{status}: {sum(r.status == status for r in results)}" for status in Status
                         if any(r.status == status for r in results))
    return f"median {statistics.median(times):.3f} s, max {max(times):.3f} s ({statuses})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--search", type=int, default=20, help="real-kind burrows per depth for the search")
    parser.add_argument("--cpsat", type=int, default=5, help="solvable real-kind depth-4 burrows for CP-SAT")
    args = parser.parse_args()

    examples = [parse(path.read_text(encoding="utf-8"), path.name) for path in sorted(EXAMPLES.glob("depth*.txt"))]
    print("amphipods-search on the published examples:")
    for burrow, result in zip(examples, run(MacroSearch(), examples, 60), strict=True):
        print(f"  {burrow.name:16} {result.status:8} {result.cost} in {result.seconds:.3f} s, "
              f"{result.stats['expanded']} expanded")

    solvable: list[Burrow] = []
    for depth, target in TARGETS.items():
        burrows = [generate(seed, depth=depth, style="real") for seed in range(args.search)]
        results = run(MacroSearch(), burrows, 60)
        solved = [r for r in results if r.status is Status.OPTIMAL]
        unsolvable = [r for r in results if r.status is Status.INFEASIBLE]
        median = statistics.median(r.seconds for r in solved)
        print(f"amphipods-search, real kind, depth {depth}: solvable {describe(solved)}; "
              f"ratio to the {target} s target {median / target:.2f}")
        if unsolvable:
            print(f"  without solution: {describe(unsolvable)}")
        if depth == 4:
            solvable = [b for b, r in zip(burrows, results, strict=True) if r.status is Status.OPTIMAL]

    if not args.cpsat:
        return
    cpsat = run(ScheduleModel(), solvable[:args.cpsat], CPSAT_LIMIT)
    print(f"amphipods-cpsat, solvable real-kind depth 4 ({len(cpsat)}, limit {CPSAT_LIMIT:.0f} s): {describe(cpsat)}")
    for result in cpsat:
        print(f"  {result.instance:22} {result.status:8} cost {result.cost} bound {result.bound} "
              f"in {result.seconds:.1f} s, {result.stats.get('conflicts')} conflicts")


if __name__ == "__main__":
    main()
