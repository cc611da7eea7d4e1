"""A planted wrong external elevator solver: it pairs chips with generators by order of appearance.

Like the reviewer's ``my_lift.py``: the i-th microchip the text lists is taken to belong
with the i-th generator it lists, whatever their names, and that facility is solved
exactly.  Floors are listed bottom first, so what it reads is, in effect, the floors of
the chips sorted, beside the floors of the generators sorted: no renaming or reordering
of the text changes that, and no such relation exposes it (docs/hunting.md).  Usage:
python planted/externals/elevator_appearance_pairs.py INSTANCE; prints a bare number (no
plan) or ``infeasible``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from crosscheck.models.elevator.model import GENERATOR, MICROCHIP, Facility, parse  # noqa: E402
from crosscheck.solvers.elevator.bfs import ElevatorBfs  # noqa: E402

from planted.externals import print_claim  # noqa: E402


def text_order(facility: Facility) -> list[tuple[str, str]]:
    """The (element, kind) items in the order the text lists them: floor by floor, bottom first."""
    return sorted(facility.listing or facility.items(), key=lambda item: facility.floor_of(*item))


def paired_by_appearance(facility: Facility) -> Facility:
    """`facility` with the i-th chip listed paired with the i-th generator listed."""
    listing = text_order(facility)
    chips, generators = ([facility.floor_of(element, kind) for element, kind in listing if kind == wanted]
                         for wanted in (MICROCHIP, GENERATOR))
    return Facility(facility.name, facility.floors, facility.elements, tuple(chips), tuple(generators))


def main(path: str) -> None:
    result = ElevatorBfs().solve(paired_by_appearance(parse(Path(path).read_text(encoding="utf-8"), path)))
    print_claim(result)


if __name__ == "__main__":
    main(sys.argv[1])
