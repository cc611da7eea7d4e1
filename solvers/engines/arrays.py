"""Array helpers of the searches that run in compiled code (amphipods-steps, amphipods-search,
keys-graph, elevator-quotient).

Plain numpy, not compiled: the compiled kernels keep their own numba functions in their own
module (numba's on-disk cache does not notice changes in a module a cached function calls
into), so only what runs outside them is shared here; the compiled parts they share (the heap and
the node table) are another matter, told in `crosscheck.solvers.engines.kernel_cache`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


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
