"""amphipods-search's compiled A*: the layout's tables for `search_kernel`, the search loop, the plan.

`compiled_search` runs the search of `crosscheck.solvers.amphipods.search.MacroMoves` in
compiled code (`crosscheck.solvers.amphipods.search_kernel`), checking the deadline between
chunks of expansions, when a room's progress fits 4 bits (depth 7 at most: `MacroMoves.fits`).  The
kernel returns the states along the plan; the plan's moves are those of the Python
successor leading from each state to the next (`MacroMoves.successors`), so a step the
Python rules do not make is an error, never a plan.
"""

from __future__ import annotations

import numpy as np
from crosscheck.models.amphipods.model import KINDS
from crosscheck.solvers.amphipods import search_kernel as kernel
from crosscheck.solvers.amphipods.search import Action, MacroMoves, State
from crosscheck.solvers.base import Deadline
from crosscheck.solvers.engines.arrays import SearchArrays, doubled
from crosscheck.solvers.engines.search import Ending, SearchOutcome
from crosscheck.solvers.engines.search_protocol import GOAL

#: Expansions between two deadline checks of the compiled search.
CHUNK = 4096
#: Nodes the search's arrays first hold (they double when full).
FIRST_CAPACITY = 1 << 13
CELLS = "." + KINDS


def packed(state: State) -> int:
    """The kernel's integer of a Python state (hallway characters, then progress digits)."""
    hall = np.array([CELLS.index(c) for c in state[:11]], dtype=np.int64)
    return int(kernel.pack(hall, np.array([ord(c) - 48 for c in state[11:]], dtype=np.int64)))


def unpacked(code: int) -> State:
    hall, progress = np.empty(11, dtype=np.int64), np.empty(4, dtype=np.int64)
    kernel.unpack(code, hall, progress)
    return "".join(CELLS[v] for v in hall) + "".join(chr(48 + int(p)) for p in progress)


def tables(problem: MacroMoves) -> kernel.Tables:
    """`problem`'s layout, options and goal as `search_kernel.Tables`."""
    layout, width = problem.layout, max(1, *problem.layout.leave)
    leaver_kind, leaver_slot = np.zeros((4, width), np.int64), np.zeros((4, width), np.int64)
    unlock_by, has_crossing = np.zeros((4, width), np.int64), np.zeros((4, width), np.bool_)
    crossing, homes = np.zeros((4, width, 11), np.int64), np.zeros((4, width, 4), np.int64)
    for r in range(4):
        for p in range(layout.leave[r]):
            kind, slot = layout.leaver(r, p)
            leaver_kind[r, p], leaver_slot[r, p] = KINDS.index(kind) + 1, slot
            unlock_by[r, p] = problem.unlock_by[r][p]
            counts = problem.crossing[r][p]
            if counts is not None:
                crossing[r, p], has_crossing[r, p] = counts, True
            for home in problem.leaver_homes[r][p]:
                homes[r, p, home] += 1
    weight = 0 if problem.options.heuristic == "off" else problem.weight
    return kernel.Tables(
        leave=np.array(layout.leave, np.int64), enter=np.array(layout.enter, np.int64),
        entry_base=np.array([layout.depth - s - 1 for s in layout.settled], np.int64),
        leaver_kind=leaver_kind, leaver_slot=leaver_slot, unlock_by=unlock_by, crossing=crossing,
        has_crossing=has_crossing, homes=homes, weight=weight, prune=problem.prune, goal=packed(problem.goal))


class Store(SearchArrays):
    """The compiled search's arrays (see `search_kernel.search`): per node its cost `g`, bound `h`
    and `parent` besides those of `SearchArrays`."""

    def __init__(self, capacity: int) -> None:
        super().__init__(np.zeros(capacity, np.int64), table_factor=2)
        self.g, self.h = np.zeros(capacity, np.int64), np.zeros(capacity, np.int64)
        self.parent = np.full(capacity, -1, np.int64)

    def grow(self) -> None:
        """Double every array, the table refilled."""
        super().grow()
        self.g, self.h, self.parent = doubled(self.g), doubled(self.h), doubled(self.parent, -1)

    def run(self, t: kernel.Tables, budget: int) -> None:
        kernel.search(t, self.states, self.g, self.h, self.parent, self.table, self.heap_key, self.heap_node,
                      self.counters, budget)

    def path(self) -> list[tuple[int, int]]:
        """The packed states from the start to the goal's node, each with its cost from the start."""
        node, path = int(self.counters[GOAL]), []
        while node >= 0:
            path.append((int(self.states[node]), int(self.g[node])))
            node = int(self.parent[node])
        return path[::-1]


def replayed(problem: MacroMoves, path: list[tuple[int, int]]) -> list[Action]:
    """The Python successors' actions along the kernel's `path`: from each state, the action
    reaching the next one at the cost the kernel paid (stops of different costs may lead to the
    same state once moves home follow); `ValueError` for a step the rules do not make."""
    actions = []
    for (before, paid), (after, total) in zip(path, path[1:], strict=False):
        target = unpacked(after)
        action = next((a for a, child, cost in problem.successors(unpacked(before))
                       if child == target and cost == total - paid), None)
        if action is None:
            raise ValueError(f"the compiled search stepped from {unpacked(before)} to {target} at cost "
                             f"{total - paid}, which the rules do not")
        actions.append(action)
    return actions


def compiled_search(problem: MacroMoves, deadline: Deadline | None = None,
                    capacity: int = FIRST_CAPACITY) -> SearchOutcome[Action]:
    """A* over `problem` (`MacroMoves.fits`) in compiled code, until a goal, exhaustion or the deadline."""
    deadline = deadline or Deadline(None)
    t = tables(problem)
    store = Store(capacity)
    h = problem.h[problem.start]
    store.add_start(packed(problem.start), t.weight * h)
    store.h[0] = h
    ending = store.drive(lambda budget: store.run(t, budget), deadline, CHUNK)
    if ending is not Ending.SOLVED:
        return store.outcome(ending)
    cost = int(store.g[int(store.counters[GOAL])])
    return store.outcome(ending, cost, replayed(problem, store.path()))
