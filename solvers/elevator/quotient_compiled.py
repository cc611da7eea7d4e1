"""elevator-quotient's compiled A*: packing a facility for `quotient_kernel` and its search loop.

`compiled_search` runs the search of `crosscheck.solvers.elevator.quotient.QuotientProblem` in
compiled code (`crosscheck.solvers.elevator.quotient_kernel`), checking the deadline between
chunks of expansions, when a packed state (`crosscheck.solvers.elevator.quotient.packed`) fits a
63-bit integer (`crosscheck.solvers.elevator.quotient.fits`: four floors and up to seven elements
do).  Its actions name pairs by position in the sorted codes, so the plan is rebuilt by
`crosscheck.solvers.elevator.quotient.labelled_plan`.
"""

from __future__ import annotations

import numpy as np
from crosscheck.models.elevator.model import Facility
from crosscheck.solvers.base import Deadline
from crosscheck.solvers.elevator import quotient_kernel as kernel
from crosscheck.solvers.elevator.quotient import Action, packed, width
from crosscheck.solvers.engines.arrays import SearchArrays, doubled
from crosscheck.solvers.engines.search import Ending, SearchOutcome
from crosscheck.solvers.engines.search_protocol import GOAL

#: Expansions between two deadline checks of the compiled search.
CHUNK = 4096
#: Nodes the search's arrays first hold (they double when full).
FIRST_CAPACITY = 1 << 8


class Store(SearchArrays):
    """The compiled search's arrays (see `quotient_kernel.search`): per node its cost `g`, `parent`
    and `action` besides those of `SearchArrays`."""

    def __init__(self, capacity: int) -> None:
        super().__init__(np.zeros(capacity, dtype=np.int64), table_factor=2)
        self.g = np.zeros(capacity, dtype=np.int64)
        self.parent = np.full(capacity, -1, dtype=np.int64)
        self.action = np.zeros((capacity, 5), dtype=np.int64)

    def grow(self) -> None:
        """Double every array, the table refilled."""
        super().grow()
        self.g, self.parent, self.action = doubled(self.g), doubled(self.parent, -1), doubled(self.action)

    def actions(self, node: int) -> list[Action]:
        """The actions from the start to `node`."""
        actions: list[Action] = []
        while (link := int(self.parent[node])) >= 0:
            step, first, first_kind, second, second_kind = (int(value) for value in self.action[node])
            load = ((first, first_kind),) if second < 0 else ((first, first_kind), (second, second_kind))
            actions.append((step, load))
            node = link
        actions.reverse()
        return actions


def compiled_search(facility: Facility, start: list[int], bounded: bool = True, deadline: Deadline | None = None,
                    capacity: int = FIRST_CAPACITY) -> SearchOutcome[Action]:
    """A* (Dijkstra without `bounded`) from the pair codes `start`, elevator on the first floor, of
    `facility` (`crosscheck.solvers.elevator.quotient.fits`) in compiled code, until a goal,
    exhaustion or the deadline."""
    deadline = deadline or Deadline(None)
    floors, top = facility.floors, facility.top
    shape = np.array([floors, len(start), width(facility), int(bounded)], dtype=np.int64)
    state = packed(facility, 0, start)
    store = Store(capacity)
    store.add_start(state, int(kernel.state_bound(shape, state)))
    goal = packed(facility, 0, [top * floors + top] * len(start))

    def run(budget: int) -> None:
        kernel.search(shape, goal, store.states, store.g, store.parent, store.action, store.table, store.heap_key,
                      store.heap_node, store.counters, budget)

    ending = store.drive(run, deadline, CHUNK)
    if ending is not Ending.SOLVED:
        return store.outcome(ending)
    node = int(store.counters[GOAL])
    return store.outcome(ending, int(store.g[node]), store.actions(node))
