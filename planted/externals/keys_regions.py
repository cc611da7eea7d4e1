"""A planted wrong external vault solver: adds up per-region optima.

Each region (the cells a robot reaches through floor, keys and doors) is solved on its
own by BFS, with the doors whose key lies in another region taken as open; the answer
is the sum.  Right for one robot, wrong when a region has to wait for a key from
another.  Usage: python planted/externals/keys_regions.py INSTANCE; prints a bare number
(no plan) or ``infeasible``.
"""

from __future__ import annotations

import sys
from collections import deque
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from crosscheck.models.keys.model import Vault, parse  # noqa: E402

Cell = tuple[int, int]


def region(vault: Vault, start: Cell) -> set[Cell]:
    seen, queue = {start}, deque([start])
    while queue:
        for _, target in vault.open_neighbours(queue.popleft()):
            if target not in seen:
                seen.add(target)
                queue.append(target)
    return seen


def solve_region(vault: Vault, cells: set[Cell]) -> int | None:
    """BFS over (robot cells, keys held) in one region; doors of other regions' keys are open."""
    robots = tuple(r for r in vault.robots if r in cells)
    mine = {key for key, cell in vault.keys.items() if cell in cells}
    foreign = set(vault.keys) - mine
    start = (robots, frozenset[str]())
    depth, seen, frontier = 0, {start}, [start]
    while frontier:
        if any(len(held) == len(mine) for _, held in frontier):
            return depth
        depth += 1
        following = []
        for positions, held in frontier:
            for index, cell in enumerate(positions):
                for _, target in vault.open_neighbours(cell):
                    char = vault.at(target)
                    if char.isupper() and char.lower() not in held | foreign:
                        continue
                    state = (positions[:index] + (target,) + positions[index + 1:],
                             held | {char} if char in mine else held)
                    if state not in seen:
                        seen.add(state)
                        following.append(state)
        frontier = following
    return None


def main(path: str) -> None:
    vault = parse(Path(path).read_text(encoding="utf-8"), path)
    regions: list[set[Cell]] = []
    for robot in vault.robots:
        if not any(robot in cells for cells in regions):
            regions.append(region(vault, robot))
    costs = [solve_region(vault, cells) for cells in regions]
    if any(cost is None for cost in costs) or set(vault.keys) - {k for k, c in vault.keys.items()
                                                                 if any(c in r for r in regions)}:
        print("infeasible")
    else:
        print(sum(cost for cost in costs if cost is not None))


if __name__ == "__main__":
    main(sys.argv[1])
