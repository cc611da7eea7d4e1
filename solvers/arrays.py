"""Array helpers of the searches that run in compiled code (amphipods-steps, keys-graph).

Plain numpy, not compiled: the compiled kernels keep every numba function they call in their
own module (numba's on-disk cache does not notice changes in a module a cached function calls
into), so only what runs outside them is shared here.
"""

from __future__ import annotations

import numpy as np


def doubled(array: np.ndarray, fill: int = 0) -> np.ndarray:
    """A copy of `array` twice as long (first axis), the new part set to `fill`."""
    bigger = np.full((2 * len(array),) + array.shape[1:], fill, dtype=array.dtype)
    bigger[:len(array)] = array
    return bigger
