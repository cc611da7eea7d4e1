"""The node table of the compiled searches (numba): which node holds a packed state.

An open-addressing hash table in one array `table`, owned by the caller beside the array
`states` of the packed states of its nodes: ``table[slot]`` is a node (an index into
`states`) or -1 for an empty slot.  The table's length is a power of two, and the caller keeps
it at least twice the number of nodes (`crosscheck.solvers.engines.arrays.doubled_index`
doubles both), so a probe always ends at the state's node or at an empty slot.  It is in the
trusted base (`crosscheck.harness.independence.trusted`), held against a dict by
tests/test_compiled_engine.py; how a kernel that calls it keeps numba's cache fresh is in
`crosscheck.solvers.engines.kernel_cache`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: Fibonacci hashing's multiplier (2**64 divided by the golden ratio, as a signed 64-bit integer):
#: every bit of a state reaches the product's high half.
FIBONACCI = -7046029254386353131


@njit(cache=True)
def find(table: np.ndarray, states: np.ndarray, state: int) -> tuple[int, int]:
    """(node of `state` or -1, its slot in `table` or the empty slot where it would go)."""
    size = len(table)
    mixed = state * FIBONACCI
    slot = (mixed ^ (mixed >> 32)) & (size - 1)
    while True:
        node = table[slot]
        if node < 0 or states[node] == state:
            return node, slot
        slot = (slot + 1) & (size - 1)


@njit(cache=True)
def rehash(table: np.ndarray, states: np.ndarray, nodes: int) -> None:
    """Fill the empty (all -1) `table` with the first `nodes` nodes of `states`."""
    for node in range(nodes):
        _, slot = find(table, states, states[node])
        table[slot] = node
