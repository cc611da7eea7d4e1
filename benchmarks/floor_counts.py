"""Is a per-floor-count state key ever wrong from a safe start?  An exhaustive check.

Run as ``python -m benchmarks.floor_counts [--floors 2-5] [--pairs 1-3] [--seconds S]``.
For every safe start up to renaming of elements (a multiset of (chip floor,
generator floor) pairs; the elevator on the first floor) with the given numbers of
floors and pairs, compares the breadth-first search that keys visited states by the
elevator's floor and the per-floor counts of chips and generators
(``elevator-floorcounts`` in planted/hunt_solvers.py) with `elevator-quotient`, and
prints per size how many starts were checked, how many disagreed (with the first
disagreement), and the CPU seconds.  A size whose enumeration does not finish within
`--seconds` is reported as partial.  The hunt (`crosscheck hunt elevator`) samples
larger facilities; this settles the small ones completely.
"""

from __future__ import annotations

import argparse
import time
from itertools import combinations_with_replacement, product

from crosscheck.harness.reports.numbers import significant
from crosscheck.models.elevator.model import ELEMENT_NAMES, Facility, all_safe
from crosscheck.models.puzzle import parse_range
from crosscheck.solvers.registry import get_solver

from planted.hunt_solvers import ElevatorFloorCounts


def starts(floors: int, pairs: int) -> list[Facility]:
    """Every safe start with `floors` floors and `pairs` pairs, one per renaming class."""
    found = []
    for chosen in combinations_with_replacement(list(product(range(floors), repeat=2)), pairs):
        chips, generators = tuple(c for c, _ in chosen), tuple(g for _, g in chosen)
        if all_safe(chips, generators):
            found.append(Facility(name=f"f{floors}-{chosen}", floors=floors, elements=tuple(sorted(ELEMENT_NAMES[:pairs])),
                                  chips=chips, generators=generators))
    return found


def check(floors: int, pairs: int, seconds: float) -> None:
    counts, exact = ElevatorFloorCounts(), get_solver("elevator-quotient")
    start, checked, wrong = time.process_time(), 0, []
    candidates = starts(floors, pairs)
    for facility in candidates:
        if time.process_time() - start > seconds:
            break
        a, b = counts.solve(facility, 60), exact.solve(facility, 60)
        checked += 1
        if (a.status, a.cost) != (b.status, b.cost):
            wrong.append((facility, a.status, a.cost, b.status, b.cost))
    cpu = time.process_time() - start
    first = f"; first: chips {wrong[0][0].chips} generators {wrong[0][0].generators}: {wrong[0][1:]}" if wrong else ""
    partial = "" if checked == len(candidates) else f" (partial: {len(candidates)} safe starts)"
    print(f"floors {floors}, pairs {pairs}: {checked} starts checked{partial}, {len(wrong)} disagree, "
          f"{significant(cpu)} s CPU{first}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--floors", default="2-5", help="range of floor counts (default 2-5)")
    parser.add_argument("--pairs", default="1-3", help="range of pair counts (default 1-3)")
    parser.add_argument("--seconds", type=float, default=600.0, help="CPU seconds per size at most")
    args = parser.parse_args()
    floors, pairs = parse_range(args.floors), parse_range(args.pairs)
    for f in range(floors[0], floors[1] + 1):
        for p in range(pairs[0], pairs[1] + 1):
            check(f, p, args.seconds)


if __name__ == "__main__":
    main()
