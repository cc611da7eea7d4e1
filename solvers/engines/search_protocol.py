"""What a compiled search (a numba kernel) and its Python driver agree on: statuses, counters, heap keys.

A kernel's ``search`` runs A* on arrays its driver owns, for a budget of expansions, and
reports in a counters array of `COUNTER_SLOTS` int64 slots: ``counters[NODES]`` nodes in
use, ``counters[HEAP_SIZE]`` heap entries, ``counters[EXPANDED]`` and
``counters[GENERATED]`` its statistics, ``counters[GOAL]`` the goal's node once solved,
and ``counters[STATUS]`` how it returned: `SOLVED`, `EXHAUSTED`, `BUDGET_SPENT`, or
`NEEDS_ROOM` (the driver grows the arrays and calls again: nothing is lost).

A heap entry's key packs f above g: ``open_key(f, g, g_bits)`` is ``f << g_bits | (2**g_bits
- 1 - g)``, so keys order by f and, at equal f, pop the larger g first; `key_g` and `key_f`
read them back.  `G_BITS` is the usual width of g; a kernel whose costs need another passes
its own.  The compiled functions are in the trusted base
(`crosscheck.harness.independence.trusted`), held against tuple order by
tests/test_compiled_engine.py; kernels read this module's constants and functions, so it is
one of the parts of `crosscheck.solvers.engines.kernel_cache`.
"""

from __future__ import annotations

from numba import njit

#: How a kernel's search returned (``counters[STATUS]``).
BUDGET_SPENT, SOLVED, EXHAUSTED, NEEDS_ROOM = 0, 1, 2, 3
#: Slots of the counters array, and how many there are.
NODES, HEAP_SIZE, EXPANDED, GENERATED, GOAL, STATUS = range(6)
COUNTER_SLOTS = 6
#: Bits of g in a heap key, unless a kernel passes another width.
G_BITS = 32


@njit(cache=True)
def open_key(f: int, g: int, g_bits: int) -> int:
    """The heap key of an entry of priority `f` reached at cost `g` (0 <= g < 2**g_bits)."""
    return f << g_bits | (((1 << g_bits) - 1) - g)


@njit(cache=True)
def key_g(key: int, g_bits: int) -> int:
    """The cost g that `open_key` packed into `key`."""
    mask = (1 << g_bits) - 1
    return mask - (key & mask)


def key_f(key: int, g_bits: int) -> int:
    """The priority f that `open_key` packed into `key`."""
    return int(key) >> g_bits
