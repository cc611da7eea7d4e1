"""The compiled kernel of ``keys-graph`` for robots alone in their parts (numba): bound and A*.

All of the formulation's own compiled code lives in this one module because numba's cache
(``cache=True``) recompiles a function when its own module changes, not when a module it
calls into does: split across modules, an edited rule could keep running from a stale cache.
The only compiled code it calls elsewhere is in the
trusted parts of the compiled searches (the heap, the node table, the search protocol,
`crosscheck.solvers.engines.kernel_cache.PARTS`), whose source digest this module records
(`ENGINE_SOURCE`): its cache is used only while they are the ones recorded.

It computes exactly what the Python `crosscheck.solvers.keys.graph.ContractedProblem`
computes for a vault whose robots are each alone in their part of it (every key in one's
reach): the same successors (per robot and key not held, the shortest usable route), the
same bound (per robot `RemainingKeysBound.walk`: the bridge walk around the keys' ring, the
cycle components' tours and paths of `CycleTours`, the best last key, the re-entry term; the
arguments are in those modules' docstrings; the robots' walks add up) and the same skipping
of dominated states.  Its tables are built, and checked against the Python bound
(tests/test_keys_bounds.py), in `crosscheck.solvers.keys.graph_compiled`.

A state is the Python one: ``mask of keys held | node of robot r << (keys + r * bits)``;
robot r starts on node r and key k is node ``robots + k``.  `search` keeps its nodes (states
reached), hash table and heap in arrays owned by the caller, so it can stop after a budget of
expansions, or when they are full (`NEEDS_ROOM`: the caller grows them), and resume.
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

#: Which bound `BoundTables` stands for (keys-graph's option ``bound``): the walk, the farthest
#: remaining key by door-free distance, or none (0).
WALK, DOOR_FREE, NO_BOUND = range(3)


class BoundTables(NamedTuple):
    """`RemainingKeysBound`'s tables for a robot alone in its part, as arrays (`graph_compiled`).

    Keys sit on a ring in preorder; ``ring_low[m & low_mask] | ring_high[m >> half]`` is the
    key mask m as ring positions.  Per node n: `slot` (ring positions ranked before it),
    `ring_rows[n]` (bridge distance to each ring position).  `ring_bridges` between ring
    positions.  Cycle components c: `port_low`/`port_high` (split at `port_half`) map a key
    mask to a port signature, `comp_offset`/`comp_size` its ports' bits, `comp_port[c, n]` the
    node's port (-1 none), `tours[tour_base[c] + ports]`, `opens[open_base[c] + ports * size
    + start]` (Held-Karp).  `far[kind, n, i]`, `far_bit`, `far_needers`: the i-th farthest key
    of node n by door-free (kind 0) or bridge (kind 1) distance, its bit and needers (padding
    has bit 0).  `triple_start[n] .. triple_start[n + 1]`: node n's re-entry paths
    (`triple_twice`, `triple_keys`), longest first.  `kind`: which bound (`WALK`, `DOOR_FREE`
    or `NO_BOUND`, keys-graph's option ``bound``).
    """

    half: int
    ring_low: np.ndarray
    ring_high: np.ndarray
    slot: np.ndarray
    ring_rows: np.ndarray
    ring_bridges: np.ndarray
    port_half: int
    port_low: np.ndarray
    port_high: np.ndarray
    comp_offset: np.ndarray
    comp_size: np.ndarray
    comp_port: np.ndarray
    tour_base: np.ndarray
    tours: np.ndarray
    open_base: np.ndarray
    opens: np.ndarray
    far: np.ndarray
    far_bit: np.ndarray
    far_needers: np.ndarray
    triple_start: np.ndarray
    triple_twice: np.ndarray
    triple_keys: np.ndarray
    kind: int = WALK


class RouteTables(NamedTuple):
    """The robots and the routes per node: robot r's node is bits ``keys + r * bits`` on of
    a state, and it reaches the keys of ``reach[r]``; ``start[n] .. start[n + 1]`` index node
    n's routes, by target key (`key`, its bit index), then by length; `needs` and `length`
    per route; `dominance`: whether dominated states are skipped (keys-graph's option)."""

    keys: int
    robots: int
    bits: int
    reach: np.ndarray
    start: np.ndarray
    key: np.ndarray
    needs: np.ndarray
    length: np.ndarray
    dominance: bool = True


@njit(cache=CACHE)
def _top(x: int) -> int:
    """The index of the highest set bit of x > 0 (``bit_length() - 1``)."""
    i = -1
    while x:
        x >>= 1
        i += 1
    return i


@njit(cache=CACHE)
def _neighbours(ring: int, slot: int) -> tuple[int, int]:
    """The set positions of `ring` (not empty) cyclically before and from `slot` on."""
    below = ring & ((1 << slot) - 1)
    above = ring >> slot
    before = _top(below if below else ring)
    after = slot + _top(above & -above) if above else _top(ring & -ring)
    return before, after


@njit(cache=CACHE)
def _around(ring: int, between: np.ndarray) -> int:
    """The bridge length around the ring positions of `ring`, in order, back to the first."""
    first, previous, total, position = -1, -1, 0, 0
    while ring:
        if ring & 1:
            if first < 0:
                first = position
            else:
                total += between[previous, position]
            previous = position
        ring >>= 1
        position += 1
    return total + between[previous, first]


@njit(cache=CACHE)
def _cycle_sums(b: BoundTables, node: int, mask: int) -> tuple[int, int]:
    """`CycleTours.bound`: the sums of the cycle components' tours and open paths."""
    signature = b.port_low[mask & ((1 << b.port_half) - 1)] | b.port_high[mask >> b.port_half]
    tours = paths = 0
    for c in range(len(b.comp_offset)):
        size = b.comp_size[c]
        ports = signature >> b.comp_offset[c] & ((1 << size) - 1)
        if not ports:
            continue
        start = b.comp_port[c, node]
        if start < 0:  # outside a spread subset: the best start's path is still a bound
            tours += b.tours[b.tour_base[c] + ports]
            best = -1
            for p in range(size):
                if ports >> p & 1:
                    here = b.opens[b.open_base[c] + ports * size + p]
                    best = here if best < 0 or here < best else best
            paths += best
            continue
        ports |= 1 << start
        tours += b.tours[b.tour_base[c] + ports]
        paths += b.opens[b.open_base[c] + ports * size + start]
    return tours, paths


@njit(cache=CACHE)
def _last(b: BoundTables, kind: int, node: int, mask: int) -> int:
    """The farthest key of `mask` that can be last (`bounds._last`)."""
    farthest = -1
    for i in range(b.far.shape[2]):
        bit = b.far_bit[kind, node, i]
        if mask & bit:
            if farthest < 0:
                farthest = b.far[kind, node, i]
            if not mask & b.far_needers[kind, node, i]:
                return b.far[kind, node, i]
    return farthest


@njit(cache=CACHE)
def bound(b: BoundTables, node: int, mask: int) -> int:
    """`RemainingKeysBound.walk` of the robot on `node` with the keys of `mask` left (or the
    weaker bound `b.kind` names: `ContractedProblem._weak_bound`'s)."""
    if not mask or b.kind == NO_BOUND:
        return 0
    if b.kind == DOOR_FREE:
        for i in range(b.far.shape[2]):  # farthest first
            if mask & b.far_bit[0, node, i]:
                return b.far[0, node, i]
        return 0
    ring = b.ring_low[mask & ((1 << b.half) - 1)] | b.ring_high[mask >> b.half]
    before, after = _neighbours(ring, b.slot[node])
    row = b.ring_rows[node]
    around = _around(ring, b.ring_bridges) + row[before] + row[after] - b.ring_bridges[before, after]
    tours, paths = _cycle_sums(b, node, mask)
    walk = around + max(tours - _last(b, 0, node, mask), paths - _last(b, 1, node, mask))
    for t in range(b.triple_start[node], b.triple_start[node + 1]):
        keys = b.triple_keys[t]
        if mask & keys == keys:
            return walk + b.triple_twice[t]
    return walk


@njit(cache=CACHE)
def _dominated(table: np.ndarray, states: np.ndarray, g: np.ndarray, state: int, goal: int, cost: int) -> bool:
    """Whether the same node holding one more key was reached at cost `cost` or less."""
    missing = goal & ~state
    while missing:
        bit = missing & -missing
        missing ^= bit
        other, _ = find(table, states, state | bit)
        if other >= 0 and g[other] <= cost:
            return True
    return False


@njit(cache=CACHE)
def state_bound(b: BoundTables, r: RouteTables, state: int) -> int:
    """The bound of `state`: the sum over robots of `bound` on its node and remaining keys."""
    remaining = ~state & ((1 << r.keys) - 1)
    total = 0
    for robot in range(r.robots):
        if r.reach[robot]:
            node = state >> (r.keys + robot * r.bits) & ((1 << r.bits) - 1)
            total += bound(b, node, remaining & r.reach[robot])
    return total


@njit(cache=CACHE)
def _expand(state: int, n: int, cost: int, states: np.ndarray, g: np.ndarray, h: np.ndarray, parent: np.ndarray,
            route: np.ndarray, table: np.ndarray, heap_key: np.ndarray, heap_node: np.ndarray, counters: np.ndarray,
            b: BoundTables, r: RouteTables) -> None:
    """Reach node n's successors: per robot and key not held, its shortest usable route (routes
    to one key are consecutive, shortest first); a successor reached more cheaply is (re)opened."""
    held = state & ((1 << r.keys) - 1)
    for robot in range(r.robots):
        shift = r.keys + robot * r.bits
        node = state >> shift & ((1 << r.bits) - 1)
        others = state & ~(((1 << r.bits) - 1) << shift)
        taken = -1
        for i in range(r.start[node], r.start[node + 1]):
            k = r.key[i]
            if held >> k & 1 or k == taken or r.needs[i] & held != r.needs[i]:
                continue
            taken = k
            child = others | 1 << k | (r.robots + k) << shift
            new_g = cost + r.length[i]
            counters[GENERATED] += 1
            m, slot = find(table, states, child)
            if m >= 0 and g[m] <= new_g:
                continue
            if m < 0:
                m = counters[NODES]
                counters[NODES] += 1
                states[m], table[slot], h[m] = child, m, state_bound(b, r, child)
            g[m], parent[m], route[m] = new_g, n, i * r.robots + robot
            heap_push(heap_key, heap_node, counters[HEAP_SIZE], open_key(new_g + h[m], new_g, G_BITS), m)
            counters[HEAP_SIZE] += 1


@njit(cache=CACHE)
def search(states: np.ndarray, g: np.ndarray, h: np.ndarray, parent: np.ndarray, route: np.ndarray,
           table: np.ndarray, heap_key: np.ndarray, heap_node: np.ndarray, counters: np.ndarray,
           b: BoundTables, r: RouteTables, budget: int) -> None:
    """A* (the engine's rules, `crosscheck.solvers.engines.search`) for at most `budget` expansions.

    Per node: its state, best cost `g`, bound `h`, `parent` node and how it was reached from
    it, ``route * robots + robot`` (-1 for the start).  Sets counters[STATUS]: `SOLVED` (counters[GOAL] the goal's node),
    `EXHAUSTED`, `BUDGET_SPENT`, or `NEEDS_ROOM` before an expansion that might not fit
    (the caller grows the arrays and calls again: nothing is lost).
    """
    goal = (1 << r.keys) - 1
    while counters[HEAP_SIZE]:
        if budget <= 0:
            counters[STATUS] = BUDGET_SPENT
            return
        fanout = r.keys * r.robots
        if counters[NODES] + fanout > len(states) or counters[HEAP_SIZE] + fanout > len(heap_key):
            counters[STATUS] = NEEDS_ROOM
            return
        key, n = heap_pop(heap_key, heap_node, counters[HEAP_SIZE])
        counters[HEAP_SIZE] -= 1
        cost = key_g(key, G_BITS)
        if cost > g[n]:
            continue  # stale entry: the state was reached more cheaply since
        state = states[n]
        if state & goal == goal:
            counters[STATUS], counters[GOAL] = SOLVED, n
            return
        if r.dominance and _dominated(table, states, g, state, goal, cost):
            continue
        counters[EXPANDED] += 1
        budget -= 1
        _expand(state, n, cost, states, g, h, parent, route, table, heap_key, heap_node, counters, b, r)
    counters[STATUS] = EXHAUSTED
