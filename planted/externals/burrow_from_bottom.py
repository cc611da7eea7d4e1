"""A planted wrong external burrow solver: steps into a room counted from its bottom.

Dijkstra over burrow states with two kinds of move (a room's top amphipod to a hallway
stop; a hallway amphipod into its own room, once that room holds only its kind), right
in every rule but one: a move into a room is charged the steps from the room's bottom
to the cell reached (1 for the bottom cell, the depth for the top one) instead of the
steps from the door (the depth for the bottom cell).  A bottom row of settled
amphipods makes every such move one step dearer, so the settled-row relation finds it
with no second solver.  Usage: python planted/externals/burrow_from_bottom.py INSTANCE;
prints a bare number (no plan) or ``infeasible``.
"""

from __future__ import annotations

import heapq
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from crosscheck.models.amphipods.model import EMPTY, ENERGY, KINDS, ROOM_DOORS, STOPS, parse  # noqa: E402

State = tuple[str, tuple[str, ...]]  # hallway, rooms (top to bottom)


def clear(hallway: str, start: int, end: int) -> bool:
    """Whether the hallway cells from `start` to `end` (both included, `start` excluded
    when it is where the amphipod stands) are empty."""
    low, high = min(start, end), max(start, end)
    return all(hallway[h] == EMPTY for h in range(low, high + 1) if h != start)


def moves(state: State) -> Iterator[tuple[int, State]]:
    hallway, rooms = state
    depth = len(rooms[0])
    for h, kind in enumerate(hallway):
        if kind == EMPTY:
            continue
        target = KINDS.index(kind)
        room, door = rooms[target], ROOM_DOORS[target]
        if all(c in (EMPTY, kind) for c in room) and clear(hallway, h, door):
            slot = room.rfind(EMPTY)
            steps = abs(h - door) + depth - slot  # the planted fault: from the bottom, not the door
            placed = room[:slot] + kind + room[slot + 1:]
            yield steps * ENERGY[kind], (hallway[:h] + EMPTY + hallway[h + 1:],
                                         rooms[:target] + (placed,) + rooms[target + 1:])
    for r, room in enumerate(rooms):
        if all(c in (EMPTY, KINDS[r]) for c in room):
            continue
        slot = len(room) - len(room.lstrip(EMPTY))
        kind, door = room[slot], ROOM_DOORS[r]
        emptied = room[:slot] + EMPTY + room[slot + 1:]
        for h in STOPS:
            if clear(hallway, door, h) and hallway[h] == EMPTY:
                yield (slot + 1 + abs(h - door)) * ENERGY[kind], (hallway[:h] + kind + hallway[h + 1:],
                                                                  rooms[:r] + (emptied,) + rooms[r + 1:])


def solve(start: State) -> int | None:
    goal = tuple(kind * len(start[1][0]) for kind in KINDS)
    best, queue = {start: 0}, [(0, start)]
    while queue:
        cost, state = heapq.heappop(queue)
        if state[1] == goal:
            return cost
        if cost > best[state]:
            continue
        for step, following in moves(state):
            if cost + step < best.get(following, cost + step + 1):
                best[following] = cost + step
                heapq.heappush(queue, (cost + step, following))
    return None


def main(path: str) -> None:
    burrow = parse(Path(path).read_text(encoding="utf-8"), path)
    cost = solve((burrow.hallway, tuple(burrow.rooms)))
    print("infeasible" if cost is None else cost)


if __name__ == "__main__":
    main(sys.argv[1])
