"""Array helpers of the searches that run in compiled code (amphipods-steps, amphipods-search,
keys-graph, elevator-quotient), and the driver's side of their protocol (`SearchArrays`).

Plain numpy, not compiled: the compiled kernels keep their own numba functions in their own
module (numba's on-disk cache does not notice changes in a module a cached function calls
into), so only what runs outside them is shared here; the compiled parts they share (the heap,
the node table, the search protocol) are another matter, told in
`crosscheck.solvers.engines.kernel_cache`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
from crosscheck.solvers.base import Deadline
from crosscheck.solvers.engines import node_table
from crosscheck.solvers.engines.search import Ending, SearchOutcome
from crosscheck.solvers.engines.search_protocol import (
    COUNTER_SLOTS,
    EXHAUSTED,
    EXPANDED,
    G_BITS,
    GENERATED,
    HEAP_SIZE,
    NEEDS_ROOM,
    NODES,
    SOLVED,
    STATUS,
    key_f,
    open_key,
)

A = TypeVar("A")


def doubled(array: np.ndarray, fill: int = 0) -> np.ndarray:
    """A copy of `array` twice as long (first axis), the new part set to `fill`."""
    shape = (2 * len(array),) + array.shape[1:]
    # zeros come from the system already zeroed, page by page as they are first touched
    bigger = np.zeros(shape, dtype=array.dtype) if fill == 0 else np.full(shape, fill, dtype=array.dtype)
    bigger[:len(array)] = array
    return bigger


def doubled_index(keys: np.ndarray, table: np.ndarray, nodes: int,
                  rehash: Callable[[np.ndarray, np.ndarray, int], None]) -> tuple[np.ndarray, np.ndarray]:
    """`keys` (packed states, the first `nodes` in use) and their hash `table`, both twice as
    large, the table refilled by the kernel's `rehash(table, keys, nodes)` for its new size."""
    bigger_keys, bigger_table = doubled(keys), np.full(2 * len(table), -1, dtype=table.dtype)
    rehash(bigger_table, bigger_keys, nodes)
    return bigger_keys, bigger_table


class SearchArrays:
    """The arrays a compiled search shares with its driver (`crosscheck.solvers.engines.search_protocol`):
    `states` (packed states, one per node: a row of words where a state takes several), their hash
    `table` (`table_factor` slots a node), the heap (`heap_key`, `heap_node`), the `counters`.

    A driver's store adds its own per-node arrays and doubles them in `grow` after calling this
    one's.  `index` is the (find, rehash) pair of the table: `node_table`'s unless the states are rows.
    """

    def __init__(self, states: np.ndarray, table_factor: int, g_bits: int = G_BITS,
                 index: tuple[Callable[..., Any], Callable[..., Any]] = (node_table.find, node_table.rehash),
                 node_dtype: type = np.int64) -> None:
        capacity = len(states)
        self.states = states
        self.table: np.ndarray = np.full(table_factor * capacity, -1, dtype=node_dtype)
        self.heap_key = np.zeros(capacity, dtype=np.int64)
        self.heap_node: np.ndarray = np.zeros(capacity, dtype=node_dtype)
        self.counters = np.zeros(COUNTER_SLOTS, dtype=np.int64)
        self.g_bits = g_bits
        self.find, self.rehash = index

    def add_start(self, state: int | np.ndarray, f: int) -> None:
        """Make `state` node 0, reached at cost 0, the one open node, of priority `f`."""
        self.states[0] = state
        _, slot = self.find(self.table, self.states, self.states[0])
        self.table[slot] = 0
        self.heap_key[0], self.heap_node[0] = open_key(f, 0, self.g_bits), 0
        self.counters[NODES] = self.counters[HEAP_SIZE] = self.counters[GENERATED] = 1

    def grow(self) -> None:
        """Double the states, the table (refilled) and the heap."""
        nodes = int(self.counters[NODES])
        self.states, self.table = doubled_index(self.states, self.table, nodes, self.rehash)
        self.heap_key, self.heap_node = doubled(self.heap_key), doubled(self.heap_node)

    def drive(self, run: Callable[[int], None], deadline: Deadline, chunk: int) -> Ending:
        """Call ``run(budget)`` (the kernel's search on these arrays, for `budget` expansions at
        most `chunk`) until it is solved or exhausted or the `deadline` passes, growing the arrays
        when the kernel needs room; how it ended."""
        expanded = 0
        while True:
            work_left = deadline.work_left()
            run(chunk if work_left is None else max(1, min(chunk, work_left)))
            status = int(self.counters[STATUS])
            done, expanded = int(self.counters[EXPANDED]) - expanded, int(self.counters[EXPANDED])
            if status == SOLVED:
                return Ending.SOLVED
            if status == EXHAUSTED:
                return Ending.EXHAUSTED
            if status == NEEDS_ROOM:
                self.grow()
            if deadline.expired(done):
                return Ending.TIMEOUT

    def outcome(self, ending: Ending, cost: int | None = None, plan: list[A] | None = None) -> SearchOutcome[A]:
        """The search's outcome: its bound is the `cost` once solved, the smallest f still open
        at a timeout."""
        bound = cost
        if ending is Ending.TIMEOUT and self.counters[HEAP_SIZE]:
            bound = key_f(self.heap_key[0], self.g_bits)
        return SearchOutcome(ending, cost, plan, bound, int(self.counters[EXPANDED]), int(self.counters[GENERATED]))
