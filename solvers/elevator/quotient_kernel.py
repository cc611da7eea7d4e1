"""The compiled kernel of ``elevator-quotient`` (numba): its moves, bound and A* on packed states.

All of the formulation's own compiled code lives in this one module because numba's cache
(``cache=True``) recompiles a function when its own module changes, not when a module it
calls into does.  The only compiled code it calls elsewhere is in the
trusted parts of the compiled searches (the heap, the node table, the search protocol,
`crosscheck.solvers.engines.kernel_cache.PARTS`), whose source digest this module records
(`ENGINE_SOURCE`): its cache is used only while they are the ones recorded.

It computes what `crosscheck.solvers.elevator.quotient.QuotientProblem` computes, on a state
packed into one integer: the count of elements of each pair code ``chip * floors + generator``
in `width` bits per code, code by code, then the elevator's floor above them.  Counts are the
sorted tuple of codes of the Python state (a multiset), so two states are equal exactly when
the Python ones are.  The same successors: per direction, every load of one or two items on
the elevator's floor (two copies of an item per code cover every load), kept when the floor
left and the floor reached are safe; the same crossing bound (written here again, on the
items per floor); the same order of ties (equal f pops the larger g first).  An action names
the pairs it moves by their position in the sorted codes, as the Python search's does.

`search` keeps its nodes, hash table and heap in arrays owned by the caller
(`crosscheck.solvers.elevator.quotient_compiled`), so it can stop after a budget of
expansions, or when they are full (`NEEDS_ROOM`), and resume.
"""

from __future__ import annotations

import numpy as np
from crosscheck.solvers.engines.heap import heap_pop, heap_push
from crosscheck.solvers.engines.kernel_cache import cache_enabled
from crosscheck.solvers.engines.node_table import find
from crosscheck.solvers.engines.search_protocol import (
    BUDGET_SPENT,
    EXHAUSTED,
    EXPANDED,
    G_BITS,
    GENERATED,
    GOAL,
    HEAP_SIZE,
    NEEDS_ROOM,
    NODES,
    SOLVED,
    STATUS,
    key_g,
    open_key,
)
from numba import njit

#: The digest of the compiled parts' sources (`crosscheck.solvers.engines.kernel_cache`) this
#: module's compiled code was last checked against; tests/test_compiled_engine.py says when to
#: update it.
ENGINE_SOURCE = "6ead824846b1cc85"
CACHE = cache_enabled(ENGINE_SOURCE)

#: Columns of an action: direction (+1/-1), then position and kind (0 generator, 1 chip) of
#: each item (the second position -1 for a load of one item).
STEP, FIRST, FIRST_KIND, SECOND, SECOND_KIND = range(5)
#: Slots of the shape array: floors, pairs, bits per count, whether A* uses the bound.
FLOORS, PAIRS, WIDTH, BOUNDED = range(4)


@njit(cache=CACHE)
def decode(shape: np.ndarray, state: int, codes: np.ndarray) -> int:
    """Fill `codes` with the state's pair codes, ascending; return the elevator's floor."""
    floors, width = shape[FLOORS], shape[WIDTH]
    mask = (1 << width) - 1
    p = 0
    for code in range(floors * floors):
        for _ in range((state >> (code * width)) & mask):
            codes[p] = code
            p += 1
    return state >> (floors * floors * width)


@njit(cache=CACHE)
def crossing(floors: int, elevator: int, items: np.ndarray) -> int:
    """The crossing bound of `crosscheck.solvers.elevator.common.crossing_bound`, written again:
    per boundary with n items below it, max(1, 2n - 3) crossings if the elevator is below, else 2n."""
    total = below = 0
    for boundary in range(floors - 1):
        below += items[boundary]
        if below:
            total += max(1, 2 * below - 3) if elevator <= boundary else 2 * below
    return total


@njit(cache=CACHE)
def state_bound(shape: np.ndarray, state: int) -> int:
    """The bound of `state` (0 when A* runs without it)."""
    floors = shape[FLOORS]
    codes = np.empty(shape[PAIRS], dtype=np.int64)
    elevator = decode(shape, state, codes)
    items = np.zeros(floors, dtype=np.int64)
    for code in codes:
        items[code // floors] += 1
        items[code % floors] += 1
    return crossing(floors, elevator, items) if shape[BOUNDED] else 0


@njit(cache=CACHE)
def floor_census(floors: int, codes: np.ndarray, generators: np.ndarray, exposed: np.ndarray,
                 items: np.ndarray) -> None:
    """Per floor: generators, chips away from their generator, and items there."""
    generators[:] = 0
    exposed[:] = 0
    items[:] = 0
    for code in codes:
        chip, generator = code // floors, code % floors
        generators[generator] += 1
        items[generator] += 1
        items[chip] += 1
        if chip != generator:
            exposed[chip] += 1


@njit(cache=CACHE)
def recount(floors: int, code: int, sign: int, generators: np.ndarray, exposed: np.ndarray, items: np.ndarray) -> None:
    """Add (`sign` 1) or remove (-1) one element of pair code `code` in the per-floor counts."""
    chip, generator = code // floors, code % floors
    generators[generator] += sign
    items[generator] += sign
    items[chip] += sign
    if chip != generator:
        exposed[chip] += sign


@njit(cache=CACHE)
def on_floor(floors: int, elevator: int, codes: np.ndarray, where: np.ndarray, kinds: np.ndarray) -> int:
    """The items on the elevator's floor, two copies at most per code and kind: their positions
    and kinds (0 generator, 1 chip) in `where` and `kinds`; returns how many."""
    count = run_start = 0
    for p in range(len(codes)):
        if p == 0 or codes[p] != codes[p - 1]:
            run_start = p
        if p - run_start >= 2:
            continue
        if codes[p] % floors == elevator:
            where[count], kinds[count] = p, 0
            count += 1
        if codes[p] // floors == elevator:
            where[count], kinds[count] = p, 1
            count += 1
    return count


@njit(cache=CACHE)
def moved_code(floors: int, code: int, kind: int, target: int) -> int:
    """The pair code after moving its generator (`kind` 0) or chip (1) to floor `target`."""
    return code // floors * floors + target if kind == 0 else target * floors + code % floors


@njit(cache=CACHE)
def add_child(states: np.ndarray, g: np.ndarray, parent: np.ndarray, action: np.ndarray, table: np.ndarray,
              counters: np.ndarray, state: int, cost: int, node: int, load: np.ndarray) -> int:
    """Record reaching `state` at `cost` from `node` by `load`; return its node, or -1 when it
    was reached at no greater cost before."""
    child, slot = find(table, states, state)
    if child >= 0 and g[child] <= cost:
        return -1
    if child < 0:
        child = counters[NODES]
        counters[NODES] += 1
        states[child] = state
        table[slot] = child
    g[child], parent[child] = cost, node
    action[child, :] = load
    return child


@njit(cache=CACHE)
def expand(shape: np.ndarray, state: int, node: int, cost: int, codes: np.ndarray, where: np.ndarray,
           kinds: np.ndarray, census: np.ndarray, moved: np.ndarray, load: np.ndarray, states: np.ndarray,
           g: np.ndarray, parent: np.ndarray, action: np.ndarray, table: np.ndarray, heap_key: np.ndarray,
           heap_node: np.ndarray, counters: np.ndarray) -> None:
    """Reach every safe successor of `state` (node `node`, reached at `cost`) and open the improved ones."""
    floors, width = shape[FLOORS], shape[WIDTH]
    shift = floors * floors * width
    elevator = decode(shape, state, codes)
    floor_census(floors, codes, census[0], census[1], census[2])
    n = on_floor(floors, elevator, codes, where, kinds)
    for step in (1, -1):
        target = elevator + step
        if target < 0 or target >= floors:
            continue
        for i in range(n):
            for j in range(i, n):  # j == i: the item of position i alone
                moved[:, :] = census
                child = state + (step << shift)
                first, kind = where[i], kinds[i]
                old = codes[first]
                new = moved_code(floors, old, kind, target)
                second = -1 if j == i else where[j]
                if second == first:
                    new = target * floors + target  # both items of one element ride
                elif second >= 0:
                    other = codes[second]
                    other_new = moved_code(floors, other, kinds[j], target)
                    recount(floors, other, -1, moved[0], moved[1], moved[2])
                    recount(floors, other_new, 1, moved[0], moved[1], moved[2])
                    child += (1 << (other_new * width)) - (1 << (other * width))
                recount(floors, old, -1, moved[0], moved[1], moved[2])
                recount(floors, new, 1, moved[0], moved[1], moved[2])
                child += (1 << (new * width)) - (1 << (old * width))
                if (moved[0, elevator] and moved[1, elevator]) or (moved[0, target] and moved[1, target]):
                    continue  # a chip left beside a foreign generator
                counters[GENERATED] += 1
                load[STEP], load[FIRST], load[FIRST_KIND] = step, first, kind
                load[SECOND], load[SECOND_KIND] = second, kinds[j] if second >= 0 else 0
                reached = add_child(states, g, parent, action, table, counters, child, cost + 1, node, load)
                if reached >= 0:
                    h = crossing(floors, target, moved[2]) if shape[BOUNDED] else 0
                    key = open_key(cost + 1 + h, cost + 1, G_BITS)
                    heap_push(heap_key, heap_node, counters[HEAP_SIZE], key, reached)
                    counters[HEAP_SIZE] += 1


@njit(cache=CACHE)
def search(shape: np.ndarray, goal: int, states: np.ndarray, g: np.ndarray, parent: np.ndarray,
           action: np.ndarray, table: np.ndarray, heap_key: np.ndarray, heap_node: np.ndarray,
           counters: np.ndarray, budget: int) -> None:
    """A* from the open nodes for at most `budget` expansions (module doc); sets counters[STATUS]:
    `SOLVED` (counters[GOAL] the goal's node), `EXHAUSTED`, `NEEDS_ROOM` or `BUDGET_SPENT`."""
    floors, pairs = shape[FLOORS], shape[PAIRS]
    items_mask = (1 << (floors * floors * shape[WIDTH])) - 1
    codes, where, kinds = np.empty(pairs, np.int64), np.empty(2 * pairs, np.int64), np.empty(2 * pairs, np.int64)
    census, moved, load = np.zeros((3, floors), np.int64), np.zeros((3, floors), np.int64), np.zeros(5, np.int64)
    fanout = 2 * pairs * (2 * pairs + 1) + 1  # two directions, one or two of at most 2 * pairs items
    done = 0
    counters[STATUS] = BUDGET_SPENT
    while counters[HEAP_SIZE] > 0:
        if done >= budget:
            return
        if counters[NODES] + fanout > len(states) or counters[HEAP_SIZE] + fanout > len(heap_key):
            counters[STATUS] = NEEDS_ROOM
            return
        key, node = heap_pop(heap_key, heap_node, counters[HEAP_SIZE])
        counters[HEAP_SIZE] -= 1
        cost = key_g(key, G_BITS)
        if cost > g[node]:
            continue  # stale entry: the state was reached more cheaply since
        if states[node] & items_mask == goal:
            counters[GOAL], counters[STATUS] = node, SOLVED
            return
        counters[EXPANDED] += 1
        done += 1
        expand(shape, states[node], node, cost, codes, where, kinds, census, moved, load, states, g, parent, action,
               table, heap_key, heap_node, counters)
    counters[STATUS] = EXHAUSTED
