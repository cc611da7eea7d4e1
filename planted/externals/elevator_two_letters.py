"""A planted wrong external elevator solver: it keys elements by their first two letters.

Like the reviewer's ``my_lift2.py``: elements sharing their first two letters (calcium
and carbon) become one element, the later one's floors overwriting the earlier one's,
and the collapsed facility is solved exactly.  Right whenever no two names share two
letters; new names sharing only a first letter never expose it, names sharing a longer
prefix do.  Usage: python planted/externals/elevator_two_letters.py INSTANCE; prints a
bare number (no plan) or ``infeasible``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from crosscheck.models.elevator.model import parse  # noqa: E402
from crosscheck.solvers.elevator.bfs import ElevatorBfs  # noqa: E402

from planted.externals import print_claim  # noqa: E402
from planted.externals.elevator_initials import by_prefix  # noqa: E402


def main(path: str) -> None:
    result = ElevatorBfs().solve(by_prefix(parse(Path(path).read_text(encoding="utf-8"), path), letters=2))
    print_claim(result)


if __name__ == "__main__":
    main(sys.argv[1])
