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
from crosscheck.solvers.engines.arrays import doubled, doubled_index
from crosscheck.solvers.engines.node_table import find, rehash
from crosscheck.solvers.engines import search_protocol as protocol
from crosscheck.solvers.engines.search import Ending, SearchOutcome

#: Expansions between two deadline checks of the compiled search.
CHUNK = 4096
#: Nodes the search's arrays first hold (they double when full).
FIRST_CAPACITY = 1 << 8


class Store:
    """The compiled search's arrays (see `quotient_kernel.search`)."""

    def __init__(self, capacity: int) -> None:
        self.states = np.zeros(capacity, dtype=np.int64)
        self.g = np.zeros(capacity, dtype=np.int64)
        self.parent = np.full(capacity, -1, dtype=np.int64)
        self.action = np.zeros((capacity, 5), dtype=np.int64)
        self.table = np.full(2 * capacity, -1, dtype=np.int64)
        self.heap_key = np.zeros(capacity, dtype=np.int64)
        self.heap_node = np.zeros(capacity, dtype=np.int64)
        self.counters = np.zeros(protocol.COUNTER_SLOTS, dtype=np.int64)

    def add_start(self, state: int, bound: int) -> None:
        """Make `state`, whose bound is `bound`, the first open node."""
        self.states[0] = state
        _, slot = find(self.table, self.states, state)
        self.table[slot] = 0
        self.heap_key[0], self.heap_node[0] = protocol.open_key(bound, 0, protocol.G_BITS), 0
        self.counters[protocol.NODES] = self.counters[protocol.HEAP_SIZE] = self.counters[protocol.GENERATED] = 1

    def grow(self) -> None:
        """Double the node arrays, the table and the heap."""
        nodes = int(self.counters[protocol.NODES])
        self.states, self.table = doubled_index(self.states, self.table, nodes, rehash)
        self.g, self.parent, self.action = doubled(self.g), doubled(self.parent, -1), doubled(self.action)
        self.heap_key, self.heap_node = doubled(self.heap_key), doubled(self.heap_node)

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

    def outcome(self, ending: Ending) -> SearchOutcome[Action]:
        """The search's outcome; at a timeout the bound is the smallest f still open."""
        counters = self.counters
        cost = actions = bound = None
        if ending is Ending.SOLVED:
            node = int(counters[protocol.GOAL])
            cost = bound = int(self.g[node])
            actions = self.actions(node)
        elif ending is Ending.TIMEOUT and counters[protocol.HEAP_SIZE]:
            bound = protocol.key_f(self.heap_key[0], protocol.G_BITS)
        return SearchOutcome(ending, cost, actions, bound, int(counters[protocol.EXPANDED]),
                             int(counters[protocol.GENERATED]))


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
    expanded = 0
    while True:
        work_left = deadline.work_left()
        kernel.search(shape, goal, store.states, store.g, store.parent, store.action, store.table, store.heap_key,
                      store.heap_node, store.counters, CHUNK if work_left is None else max(1, min(CHUNK, work_left)))
        status = int(store.counters[protocol.STATUS])
        done, expanded = int(store.counters[protocol.EXPANDED]) - expanded, int(store.counters[protocol.EXPANDED])
        if status == protocol.SOLVED:
            return store.outcome(Ending.SOLVED)
        if status == protocol.EXHAUSTED:
            return store.outcome(Ending.EXHAUSTED)
        if status == protocol.NEEDS_ROOM:
            store.grow()
        if deadline.expired(done):
            return store.outcome(Ending.TIMEOUT)
