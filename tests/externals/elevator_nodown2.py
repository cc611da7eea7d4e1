"""A planted wrong external elevator solver: BFS that never carries two items down.

Usage: python tests/externals/elevator_nodown2.py INSTANCE.  Prints ``plan: [...]``
and the cost, or ``infeasible``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from models.elevator import all_safe, parse  # noqa: E402
from solvers.search import Strategy, best_first_search  # noqa: E402
from tests.hunt_solvers import _Lift  # noqa: E402


def main(path: str) -> None:
    facility = parse(Path(path).read_text(encoding="utf-8"), path)
    outcome = best_first_search(_Lift(facility, two_down=False), Strategy.BFS)
    if not all_safe(facility.chips, facility.generators) or outcome.status != "solved":
        print("infeasible")
        return
    print("plan: " + json.dumps([[direction, list(items)] for direction, items in outcome.actions or []]))
    print(outcome.cost)


if __name__ == "__main__":
    main(sys.argv[1])
