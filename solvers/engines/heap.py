"""The binary min-heap of the compiled searches (numba): their priority queue, in two arrays.

`heap_push` and `heap_pop` keep a heap of (key, node) entries in the arrays `heap_key` and
`heap_node`, owned by the caller, who also keeps the number of entries: `heap_push` adds one
at index `size` (the arrays must have room), `heap_pop` removes the smallest key of `size`
entries.  Entries of equal keys come out in no particular order.  It is in the trusted base
(`crosscheck.harness.independence.trusted`), held against `heapq` by tests/test_heap.py; how a
kernel that calls it keeps numba's cache fresh is in `crosscheck.solvers.engines.kernel_cache`.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def heap_push(heap_key: np.ndarray, heap_node: np.ndarray, size: int, key: int, node: int) -> None:
    """Add (key, node) to the heap of `size` entries (index `size` must exist)."""
    i = size
    while i > 0:
        parent = (i - 1) >> 1
        if heap_key[parent] <= key:
            break
        heap_key[i], heap_node[i] = heap_key[parent], heap_node[parent]
        i = parent
    heap_key[i], heap_node[i] = key, node


@njit(cache=True)
def heap_pop(heap_key: np.ndarray, heap_node: np.ndarray, size: int) -> tuple[int, int]:
    """Remove the smallest entry of the heap of `size` entries (at least one); return it (key, node)."""
    top_key, top_node = heap_key[0], heap_node[0]
    last_key, last_node = heap_key[size - 1], heap_node[size - 1]
    size -= 1
    i = 0
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and heap_key[child + 1] < heap_key[child]:
            child += 1
        if heap_key[child] >= last_key:
            break
        heap_key[i], heap_node[i] = heap_key[child], heap_node[child]
        i = child
    if size > 0:
        heap_key[i], heap_node[i] = last_key, last_node
    return top_key, top_node
