"""The stack projection: bound and dead-state test of ``amphipods-steps``.

A literal state *projects* to a smaller one: each room becomes the sequence of its
amphipods from top to bottom (where in the column each stands is forgotten: the
projected row packs them at the bottom), an amphipod moving inside a room is no longer
told apart from one standing there, and the hallway, the mover while it walks the
hallway and its phase are kept.  The projected graph's moves (`steps_kernel.moves`) are the images
of the literal steps that walk the hallway, leave a column at its top cell or enter one;
a step inside a column projects to standing still, a stop to a free *stop* move.  Every
literal path projects to a path of the projected graph that spends exactly its energy
outside the columns, so

    bound(x) = distance(projection(x)) + column_energy(x)

never exceeds the energy of any plan from x (`steps_kernel.column_energy` bounds the energy spent
inside the columns), and a state whose projection cannot reach the goal is dead.  The
distances are exact: `StackProjection.build` enumerates every projected state reachable
from the start's projection (`steps_kernel.explore`) and runs a backward Dijkstra from
the goal over them (`steps_kernel.distances`); the compiled code is in `steps_kernel`.
The argument in full: docs/puzzles/amphipods.md (amphipods-steps).
"""

from __future__ import annotations

import numpy as np
from crosscheck.solvers.amphipods.steps_kernel import (
    DEAD,
    DIGITS_PER_WORD,
    HALLWAY,
    NO_MOVER,
    P_EDGES,
    P_HEAD,
    P_NODES,
    P_STATUS,
    bound,
    distances,
    explore,
    find,
    pack,
    project,
    rehash,
)
from crosscheck.solvers.base import Deadline
from crosscheck.solvers.engines.arrays import doubled, doubled_index
from crosscheck.solvers.engines.search_protocol import EXHAUSTED, NEEDS_ROOM

#: Expansions between two deadline checks.
CHUNK = 1 << 16


class StackProjection:
    """The projected states reachable from one start's projection and their exact distances.

    `keys`, `table` and `dist` are what `bound` reads (packed states, their hash table,
    each one's distance to the goal or `DEAD`)."""

    def __init__(self, keys: np.ndarray, table: np.ndarray, dist: np.ndarray) -> None:
        self.keys, self.table, self.dist = keys, table, dist

    @classmethod
    def build(cls, start: np.ndarray, size: int, depth: int, deadline: Deadline) -> StackProjection | None:
        """Enumerate the projection of `start` (a state row) and its distances; ``None`` if
        `deadline` passes first (one work unit per projected state expanded)."""
        words = -(-(size + 3) // DIGITS_PER_WORD)
        capacity = 1 << 16
        keys, table = np.zeros((capacity, words), dtype=np.uint64), np.full(4 * capacity, -1, dtype=np.int32)
        edges, counters = np.zeros((4 * capacity, 3), dtype=np.int32), np.zeros(4, dtype=np.int64)
        first = np.zeros(size + 2, dtype=np.uint8)
        project(start, size, depth, first)
        pack(first, size, keys[0])
        table[find(table, keys, keys[0])[1]] = 0
        counters[P_NODES] = 1
        while True:
            expanded, work_left = int(counters[P_HEAD]), deadline.work_left()
            explore(keys, table, edges, counters, size, depth, CHUNK if work_left is None else max(1, min(CHUNK, work_left)))
            if counters[P_STATUS] == EXHAUSTED:
                break
            if counters[P_STATUS] == NEEDS_ROOM:
                keys, table = doubled_index(keys, table, int(counters[P_NODES]), rehash)
                edges = doubled(edges)
            if deadline.expired(int(counters[P_HEAD]) - expanded):
                return None
        nodes = int(counters[P_NODES])
        goal = _goal_node(keys, table, size, depth)
        dist = distances(edges, int(counters[P_EDGES]), nodes, goal) if goal >= 0 else np.full(nodes, DEAD)
        return cls(keys, table, dist)

    def bound(self, row: np.ndarray, size: int, depth: int) -> int:
        """`bound` of one state row (for tests and single states; the search calls the kernel)."""
        prow, words = np.zeros(size + 2, dtype=np.uint8), np.zeros(self.keys.shape[1], dtype=np.uint64)
        return int(bound(row, size, depth, self.keys, self.table, self.dist, prow, words))


def _goal_node(keys: np.ndarray, table: np.ndarray, size: int, depth: int) -> int:
    """The goal's node among the projected states, -1 if it is not reachable."""
    goal = np.zeros(size + 2, dtype=np.uint8)
    for room in range(4):
        goal[HALLWAY + room * depth:HALLWAY + (room + 1) * depth] = room + 1
    goal[size] = NO_MOVER
    words = np.zeros(keys.shape[1], dtype=np.uint64)
    pack(goal, size, words)
    return int(find(table, keys, words)[0])

