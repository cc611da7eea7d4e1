"""A planted wrong external elevator solver: it keys elements by their first letter.

Elements sharing a first letter (plutonium and promethium) become one element, the
later one's chip and generator floors overwriting the earlier one's; the collapsed
facility is then solved exactly.  Right whenever the initials are distinct (as in most
published inputs), wrong otherwise: the renaming relation finds it with no second
solver.  Usage: python planted/externals/elevator_initials.py INSTANCE; prints a bare
number (no plan) or ``infeasible``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from crosscheck.models.elevator.model import Facility, parse  # noqa: E402
from crosscheck.solvers.elevator.bfs import ElevatorBfs  # noqa: E402

from planted.externals import print_claim  # noqa: E402


def by_prefix(facility: Facility, letters: int = 1) -> Facility:
    """`facility` with each element known only by its first `letters` letters (an element
    listed later in name order overwrites an earlier one it collides with)."""
    floors: dict[str, tuple[int, int]] = {}
    for element, chip, generator in zip(facility.elements, facility.chips, facility.generators, strict=True):
        floors[element[:letters]] = (chip, generator)
    initials = tuple(sorted(floors))
    return Facility(facility.name, facility.floors, initials, tuple(floors[i][0] for i in initials),
                    tuple(floors[i][1] for i in initials))


def main(path: str) -> None:
    result = ElevatorBfs().solve(by_prefix(parse(Path(path).read_text(encoding="utf-8"), path)))
    print_claim(result)


if __name__ == "__main__":
    main(sys.argv[1])
