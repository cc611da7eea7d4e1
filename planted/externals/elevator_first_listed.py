"""A planted wrong external elevator solver: it treats the element the text names first apart.

Exact, but one step less when the element of the first item listed (on the first
floor's line) has its microchip and generator on different floors, as a program that
seeds its search or its symmetry breaking from the first element it reads might slip.
Reordering the first floor's line so that it starts with another element's item exposes
it.  Usage: python planted/externals/elevator_first_listed.py INSTANCE; prints a bare
number (no plan) or ``infeasible``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from crosscheck.models.elevator.model import GENERATOR, MICROCHIP, Facility, parse  # noqa: E402
from crosscheck.solvers.base import Status  # noqa: E402
from crosscheck.solvers.elevator.bfs import ElevatorBfs  # noqa: E402

from planted.externals.elevator_appearance_pairs import text_order  # noqa: E402


def first_listed_apart(facility: Facility) -> bool:
    """Whether the element the text names first has its chip and generator apart."""
    listing = text_order(facility)
    if not listing:
        return False
    element = listing[0][0]
    return facility.floor_of(element, MICROCHIP) != facility.floor_of(element, GENERATOR)


def claim(facility: Facility) -> int | None:
    """The optimum, one step less when `first_listed_apart` (None: no solution)."""
    result = ElevatorBfs().solve(facility)
    if result.status is not Status.OPTIMAL or result.cost is None:
        return None
    return result.cost - (result.cost > 0 and first_listed_apart(facility))


def main(path: str) -> None:
    answer = claim(parse(Path(path).read_text(encoding="utf-8"), path))
    print("infeasible" if answer is None else answer)


if __name__ == "__main__":
    main(sys.argv[1])
