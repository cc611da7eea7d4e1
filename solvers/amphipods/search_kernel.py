"""The compiled kernel of ``amphipods-search`` (numba): its macro moves, dead-state tests and A*.

All of the formulation's own compiled code lives in this one module because numba's cache
(``cache=True``) recompiles a function when its own module changes, not when a module it
calls into does.  The only compiled code it calls elsewhere is in the
trusted parts of the compiled searches (the heap, the node table, the search protocol,
`crosscheck.solvers.engines.kernel_cache.PARTS`), whose source digest this module records
(`ENGINE_SOURCE`): its cache is used only while they are the ones recorded.

It computes what `crosscheck.solvers.amphipods.search.MacroMoves` computes, on a state packed
into one integer: hallway cell i's kind (0 empty, 1-4 for A-D) in bits ``3i .. 3i + 2``, then
room r's progress in the 4 bits from ``33 + 4r``.  The same moves (the start's forced moves
home; then each room's top mover to each free stop it reaches, followed by every move home
this unlocks), the same dead-state tests (mutual blocks, stranded rooms, jammed hallways:
their arguments are in that module's docstrings), the same heuristic, maintained the same
way.  The layout's tables come from `crosscheck.solvers.amphipods.search_compiled`.

`search` keeps its nodes, hash table and heap in arrays owned by the caller, so it can stop
after a budget of expansions, or when they are full (`NEEDS_ROOM`), and resume.
"""

from __future__ import annotations

from typing import NamedTuple

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

HALLWAY = 11
CELL_BITS, PROGRESS_BITS, PROGRESS_SHIFT = 3, 4, 33
DOORS = np.array([2, 4, 6, 8], dtype=np.int64)
#: A stop is a hallway cell not above a room.
IS_STOP = np.array([1, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1], dtype=np.int64)
#: How many stops s have lo <= s < hi (indexed [lo, hi], 0 <= lo, hi <= 11).
STOPS_BETWEEN = np.array([[IS_STOP[lo:hi].sum() if lo < hi else 0 for hi in range(HALLWAY + 1)]
                          for lo in range(HALLWAY + 1)], dtype=np.int64)
#: Per kind 1-4 (0: none): the energy of one step.
STEP_ENERGY = np.array([0, 1, 10, 100, 1000], dtype=np.int64)


class Tables(NamedTuple):
    """A burrow's layout as arrays (`search_compiled.tables`).

    `leave`, `enter` per room; `entry_base[t]`: the slot of room t's first entrant (the k-th
    takes ``entry_base[t] - k``); `leaver_kind[r, p]` (1-4) and `leaver_slot[r, p]`: room r's
    p-th leaver; `unlock_by[r, p]` (`MacroMoves._unlock_table`); `crossing[t, p, h]` and
    `has_crossing[t, p]` (`MacroMoves._crossing_table`); `homes[t, p, u]`: how many of room t's
    leavers from the p-th on have home room u.  `weight`: f = g + weight * h (0: Dijkstra);
    `prune`: whether dead states are dropped; `goal` the goal state.
    """

    leave: np.ndarray
    enter: np.ndarray
    entry_base: np.ndarray
    leaver_kind: np.ndarray
    leaver_slot: np.ndarray
    unlock_by: np.ndarray
    crossing: np.ndarray
    has_crossing: np.ndarray
    homes: np.ndarray
    weight: int
    prune: bool
    goal: int


@njit(cache=CACHE)
def unpack(state: int, hall: np.ndarray, progress: np.ndarray) -> None:
    for h in range(HALLWAY):
        hall[h] = (state >> (CELL_BITS * h)) & 7
    for r in range(4):
        progress[r] = (state >> (PROGRESS_SHIFT + PROGRESS_BITS * r)) & 15


@njit(cache=CACHE)
def pack(hall: np.ndarray, progress: np.ndarray) -> int:
    state = 0
    for h in range(HALLWAY):
        state |= hall[h] << (CELL_BITS * h)
    for r in range(4):
        state |= progress[r] << (PROGRESS_SHIFT + PROGRESS_BITS * r)
    return state


@njit(cache=CACHE)
def clear(hall: np.ndarray, lo: int, hi: int) -> bool:
    """Whether hallway cells lo..hi (inclusive) are empty."""
    for h in range(lo, hi + 1):
        if hall[h]:
            return False
    return True


@njit(cache=CACHE)
def go_home(t: Tables, hall: np.ndarray, progress: np.ndarray) -> int:
    """`MacroMoves._go_home`: send amphipods home while one can go; returns the cost (hall and
    progress updated in place)."""
    cost = 0
    moved = True
    while moved:
        moved = False
        for h in range(HALLWAY):
            kind = hall[h]
            if kind == 0 or progress[kind - 1] < t.leave[kind - 1]:
                continue
            home, door = kind - 1, DOORS[kind - 1]
            if (h < door and clear(hall, h + 1, door)) or (h > door and clear(hall, door, h - 1)):
                slot = t.entry_base[home] - (progress[home] - t.leave[home])
                cost += (abs(h - door) + slot + 1) * STEP_ENERGY[kind]
                hall[h] = 0
                progress[home] += 1
                moved = True
        for r in range(4):
            p = progress[r]
            if p >= t.leave[r]:
                continue
            kind, here = t.leaver_kind[r, p], t.leaver_slot[r, p]
            home = kind - 1
            if home == r or progress[home] < t.leave[home]:
                continue
            a, b = min(DOORS[r], DOORS[home]), max(DOORS[r], DOORS[home])
            if clear(hall, a, b):
                slot = t.entry_base[home] - (progress[home] - t.leave[home])
                cost += (here + 1 + b - a + slot + 1) * STEP_ENERGY[kind]
                progress[r] += 1
                progress[home] += 1
                moved = True
    return cost


@njit(cache=CACHE)
def stranded(t: Tables, hall: np.ndarray, kind: int, progress: np.ndarray) -> bool:
    """`MacroMoves._stranded` for `kind` with the crossing counts of its home room at `progress`."""
    home = kind - 1
    p = progress[home]
    if p >= t.leave[home] or not t.has_crossing[home, p]:
        return False
    door = DOORS[home]
    for h in range(HALLWAY):
        if hall[h] != kind or t.crossing[home, p, h] == 0:
            continue
        lo, hi = (door + 1, HALLWAY) if h < door else (0, door)
        room = 0
        for s in range(lo, hi):
            room += IS_STOP[s] - (hall[s] == kind)
        if t.crossing[home, p, h] > room:
            return True
    return False


@njit(cache=CACHE)
def jammed(t: Tables, hall: np.ndarray, progress: np.ndarray) -> bool:
    """`MacroMoves._jammed`: whether no room can be the next to become clean (the stuck amphipods,
    those whose home room is not clean, as bits of a mask of hallway cells)."""
    stuck = 0
    for h in range(HALLWAY):
        kind = hall[h]
        if kind and progress[kind - 1] < t.leave[kind - 1]:
            stuck |= 1 << h
    unclean = False
    for room in range(4):
        p = progress[room]
        if p >= t.leave[room]:
            continue
        unclean = True
        door = DOORS[room]
        left = door - 1
        while left >= 0 and not (stuck >> left) & 1:
            left -= 1
        right = door
        while right < HALLWAY and not (stuck >> right) & 1:
            right += 1
        stops = STOPS_BETWEEN[left + 1, right]
        leavers = must_stop = 0
        for u in range(4):
            n = t.homes[room, p, u]
            leavers += n
            if progress[u] < t.leave[u] or not left < DOORS[u] < right:
                must_stop += n
        if leavers <= stops or must_stop <= stops:
            return False
    return unclean


@njit(cache=CACHE)
def deadlocked(hall: np.ndarray, kind: int, h: int) -> bool:
    """Whether `kind` stopping at `h` blocks, and is blocked by, an amphipod between `h` and its home."""
    home = DOORS[kind - 1]
    lo, hi = (h + 1, home) if home > h else (home + 1, h)
    for s in range(lo, hi):
        other = hall[s]
        if other and (DOORS[other - 1] < h if home > h else DOORS[other - 1] > h):
            return True
    return False


@njit(cache=CACHE)
def reach(t: Tables, states: np.ndarray, g: np.ndarray, h: np.ndarray, parent: np.ndarray, table: np.ndarray,
          heap_key: np.ndarray, heap_node: np.ndarray, counters: np.ndarray, state: int, cost: int, bound: int,
          node: int) -> None:
    """Record reaching `state` (bound `bound`) at `cost` from `node`, and open it unless it was
    reached at no greater cost before."""
    counters[GENERATED] += 1
    child, slot = find(table, states, state)
    if child >= 0 and g[child] <= cost:
        return
    if child < 0:
        child = counters[NODES]
        counters[NODES] += 1
        states[child] = state
        table[slot] = child
    g[child], h[child], parent[child] = cost, bound, node
    heap_push(heap_key, heap_node, counters[HEAP_SIZE], open_key(cost + t.weight * bound, cost, G_BITS), child)
    counters[HEAP_SIZE] += 1


@njit(cache=CACHE)
def exits(t: Tables, work: np.ndarray, r: int, node: int, cost: int, bound: int,
          store: tuple[np.ndarray, ...]) -> None:
    """Every move of room r's top mover to a free stop, with the moves home it unlocks, from the
    state of `node` (reached at `cost`, its bound `bound`; hallway and progress in work rows 0
    and 2, rows 1 and 3 free for its successors; `store`: the arrays `reach` takes)."""
    states, g, h, parent, table, heap_key, heap_node, counters = store
    hall, moved_hall, progress, moved = work[0], work[1], work[2], work[3]
    p = progress[r]
    kind, slot = t.leaver_kind[r, p], t.leaver_slot[r, p]
    energy, door, home_door = STEP_ENERGY[kind], DOORS[r], DOORS[kind - 1]
    old_walk = abs(door - home_door) if home_door != door else 2
    u = t.unlock_by[r, p]
    unlock = u < 0 or (u < 4 and progress[u] >= t.leave[u])
    for direction in (-1, 1):
        stop = door
        while True:
            stop += direction
            if stop < 0 or stop >= HALLWAY or hall[stop]:
                break
            if not IS_STOP[stop] or (t.prune and deadlocked(hall, kind, stop)):
                continue
            moved_hall[:] = hall
            moved[:] = progress
            moved_hall[stop] = kind
            moved[r] += 1
            step_cost = (slot + 1 + abs(door - stop)) * energy
            drop = (slot + 1 + old_walk - abs(stop - home_door)) * energy
            chain = go_home(t, moved_hall, moved) if unlock else 0
            if t.prune and (stranded(t, moved_hall, kind, moved if unlock else progress)
                            or jammed(t, moved_hall, moved[:4])):
                continue
            reach(t, states, g, h, parent, table, heap_key, heap_node, counters, pack(moved_hall, moved),
                  cost + step_cost + chain, bound - drop - chain, node)


@njit(cache=CACHE)
def expand(t: Tables, node: int, store: tuple[np.ndarray, ...], work: np.ndarray) -> None:
    """Open every successor of `node` (`MacroMoves.successors`; `work`: four rows of scratch)."""
    states, g, h, parent, table, heap_key, heap_node, counters = store
    hall, progress = work[0], work[2]
    unpack(states[node], hall, progress)
    if node == 0:  # every other state is settled: nobody can go home
        chain = go_home(t, hall, progress)
        if chain:
            reach(t, states, g, h, parent, table, heap_key, heap_node, counters, pack(hall, progress), g[0] + chain,
                  h[0] - chain, 0)
            return
    for r in range(4):
        if progress[r] < t.leave[r]:
            exits(t, work, r, node, g[node], h[node], store)


@njit(cache=CACHE)
def search(t: Tables, states: np.ndarray, g: np.ndarray, h: np.ndarray, parent: np.ndarray, table: np.ndarray,
           heap_key: np.ndarray, heap_node: np.ndarray, counters: np.ndarray, budget: int) -> None:
    """A* from the open nodes for at most `budget` expansions (module doc); sets counters[STATUS]:
    `SOLVED` (counters[GOAL] the goal's node), `EXHAUSTED`, `NEEDS_ROOM` or `BUDGET_SPENT`."""
    store = (states, g, h, parent, table, heap_key, heap_node, counters)
    work = np.zeros((4, HALLWAY), np.int64)
    fanout = 4 * 7 + 1  # four top movers, seven stops each
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
        if key_g(key, G_BITS) > g[node]:
            continue  # stale entry: the state was reached more cheaply since
        if states[node] == t.goal:
            counters[GOAL], counters[STATUS] = node, SOLVED
            return
        counters[EXPANDED] += 1
        done += 1
        expand(t, node, store, work)
    counters[STATUS] = EXHAUSTED
