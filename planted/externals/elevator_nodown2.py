"""A planted wrong external elevator solver: BFS that never carries two items down.

Usage: python planted/externals/elevator_nodown2.py INSTANCE.  Prints ``plan: [...]``
and the cost, or ``infeasible``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from crosscheck.models.elevator.model import parse  # noqa: E402
from crosscheck.solvers.base import Status  # noqa: E402

from planted.hunt_solvers import ElevatorNoDown2  # noqa: E402


def main(path: str) -> None:
    result = ElevatorNoDown2().solve(parse(Path(path).read_text(encoding="utf-8"), path))
    if result.status is Status.INFEASIBLE:
        print("infeasible")
        return
    if result.status is not Status.OPTIMAL:
        sys.exit(f"{result.status}: {result.message}")
    print("plan: " + json.dumps([[direction, list(items)] for direction, items in result.plan or []]))
    print(result.cost)


if __name__ == "__main__":
    main(sys.argv[1])
