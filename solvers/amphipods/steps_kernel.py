"""The compiled kernel of ``amphipods-steps`` (numba): step rules, projection, A*.

All of the formulation's own compiled code lives in this one module because numba's cache
(``cache=True``) recompiles a function when its own module changes, not when a module it
calls into does: split across modules, an edited rule could keep running from a stale cache.
The only compiled code it calls elsewhere is in the
trusted parts of the compiled searches (the heap, the node table, the search protocol,
`crosscheck.solvers.engines.kernel_cache.PARTS`), whose source digest this module records
(`ENGINE_SOURCE`): its cache is used only while they are the ones recorded.

Everything here works on a *state row*: ``size + 2`` bytes, the cells (0 empty, 1-4
kinds A-D), the mover's cell (`NO_MOVER`: none) and its phase (1: homing).  A layout
(`Burrowing` in `crosscheck.solvers.amphipods.steps`) gives the burrow's shape as arrays:
each cell's neighbours and room.  The rules and their correctness arguments are in
that module's docstring and in docs/puzzles/amphipods.md; this module only states
how each is computed.

The searches (`search`, the A* over literal states, and `explore`, the enumeration of the
stack projection of `crosscheck.solvers.amphipods.steps_projection`) keep their states in
arrays owned by the caller (growing them when `NEEDS_ROOM` is returned) so they can stop
after a budget of expansions and resume.  States are packed into
`words` unsigned 64-bit words, 3 bits per cell, 21 cells per word, then the mover (two
3-bit digits) and the phase (one digit).
"""

from __future__ import annotations

import numpy as np
from crosscheck.solvers.engines.heap import heap_pop, heap_push
from crosscheck.solvers.engines.kernel_cache import cache_enabled
from crosscheck.solvers.engines.search_protocol import (
    BUDGET_SPENT,
    EXHAUSTED,
    EXPANDED,
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
DOORS = np.array([2, 4, 6, 8], dtype=np.int64)
STEP_ENERGY = np.array([0, 1, 10, 100, 1000], dtype=np.int64)
#: The mover byte when nobody is moving (two 3-bit digits when packed).
NO_MOVER = 63
#: Cells per packed word (3 bits each).
DIGITS_PER_WORD = 21
#: At most this many children per state: three neighbours per cell.
MAX_FANOUT = 3
#: Bits of g in a heap key (`crosscheck.solvers.engines.search_protocol.open_key`): this search's own width.
G_BITS = 26
#: Slots of the exploration's counters: states found, next state to expand, moves recorded, status
#: (`explore` returns with the statuses of `search`).
P_NODES, P_HEAD, P_EDGES, P_STATUS = range(4)
#: `bound` of a dead state (its projection cannot reach the goal).
DEAD = -1


@njit(cache=CACHE)
def clean(row: np.ndarray, room: int, depth: int) -> bool:
    """Whether room `room` holds no amphipod of another kind than its own."""
    base = HALLWAY + room * depth
    for s in range(depth):
        kind = row[base + s]
        if kind != 0 and kind != room + 1:
            return False
    return True


@njit(cache=CACHE)
def stops_in_hallway(row: np.ndarray, size: int, mover: int) -> bool:
    """Whether the mover, standing on hallway cell `mover`, may stop there: it left a room
    (phase 0) and stands above no room."""
    return row[size + 1] == 0 and mover != 2 and mover != 4 and mover != 6 and mover != 8


@njit(cache=CACHE)
def may_stop(row: np.ndarray, size: int, room_at: np.ndarray) -> bool:
    """Whether the mover (if any) may stop where it stands."""
    mover = row[size]
    if mover == NO_MOVER:
        return True
    room = room_at[mover]
    if room < 0:
        return stops_in_hallway(row, size, mover)
    return row[size + 1] == 0 or room + 1 == row[mover]


@njit(cache=CACHE)
def stuck(row: np.ndarray, size: int, depth: int) -> bool:
    """Whether some amphipod stopped in the hallway can never get home (optimistic release).

    The hallway amphipods still standing are the bits of `standing` (bit h: cell h)."""
    standing = 0
    for h in range(HALLWAY):
        if row[h] != 0:
            standing |= 1 << h
    mover = row[size]
    if mover < HALLWAY and row[size + 1] == 0:
        standing &= ~(1 << mover)  # still walking out of a room: it need not stop where it is
    dirty = 0
    for r in range(4):
        if not clean(row, r, depth):
            dirty |= 1 << r
    progress = True
    while progress:
        progress = False
        for h in range(HALLWAY):
            if not standing >> h & 1:
                continue
            kind = row[h]
            door = DOORS[kind - 1]
            low, high = (h + 1, door) if door > h else (door, h - 1)
            between = ((1 << (high + 1)) - 1) & ~((1 << low) - 1)  # cells low .. high
            beside = standing >> (door - 1) & 1 and standing >> (door + 1) & 1
            if standing & between or (dirty >> (kind - 1) & 1 and beside):
                continue
            standing &= ~(1 << h)
            progress = True
    return standing != 0


@njit(cache=CACHE)
def expand(row: np.ndarray, size: int, depth: int, neighbours: np.ndarray, room_at: np.ndarray,
           children: np.ndarray, steps: np.ndarray) -> int:
    """Write `row`'s successors into `children` (rows) and their steps into `steps`
    (from cell, to cell, energy); return how many."""
    mover = row[size]
    switch = may_stop(row, size, room_at)
    count = 0
    for here in range(size):
        kind = row[here]
        if kind == 0 or (here != mover and not switch):
            continue
        continuing = here == mover
        for n in range(MAX_FANOUT):
            there = neighbours[here, n]
            if there < 0 or row[there] != 0:
                continue
            room = room_at[there]
            if room >= 0 and here < HALLWAY and (room + 1 != kind or not clean(row, room, depth)):
                continue
            child = children[count]
            child[:] = row
            child[here], child[there], child[size] = 0, kind, there
            if not continuing:
                child[size + 1] = 1 if here < HALLWAY else 0
            steps[count, 0], steps[count, 1], steps[count, 2] = here, there, STEP_ENERGY[kind]
            count += 1
    return count


@njit(cache=CACHE)
def pack(row: np.ndarray, size: int, out: np.ndarray) -> None:
    """Pack `row` into the words `out` (see the module doc)."""
    out[:] = 0
    for i in range(size + 3):
        if i < size:
            digit = row[i]
        elif i == size:
            digit = row[size] & 7
        elif i == size + 1:
            digit = row[size] >> 3
        else:
            digit = row[size + 1]
        out[i // DIGITS_PER_WORD] |= np.uint64(digit) << np.uint64(3 * (i % DIGITS_PER_WORD))


@njit(cache=CACHE)
def unpack(words: np.ndarray, size: int, row: np.ndarray) -> None:
    """The inverse of `pack`."""
    digits = np.zeros(size + 3, dtype=np.uint8)
    for i in range(size + 3):
        digits[i] = (words[i // DIGITS_PER_WORD] >> np.uint64(3 * (i % DIGITS_PER_WORD))) & np.uint64(7)
    row[:size] = digits[:size]
    row[size] = digits[size] | digits[size + 1] << 3
    row[size + 1] = digits[size + 2]


@njit(cache=CACHE)
def _hash(words: np.ndarray) -> np.uint64:
    h = np.uint64(0x9E3779B97F4A7C15)
    for w in words:
        h = (h ^ w) * np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
    return h


@njit(cache=CACHE)
def find(table: np.ndarray, keys: np.ndarray, words: np.ndarray) -> tuple[int, int]:
    """(node holding `words` or -1, the table slot where it is or would go)."""
    mask = len(table) - 1
    slot = int(np.int64(_hash(words) >> np.uint64(1)) & mask)
    while True:
        node = table[slot]
        if node < 0:
            return -1, slot
        same = True
        for w in range(len(words)):
            if keys[node, w] != words[w]:
                same = False
                break
        if same:
            return node, slot
        slot = (slot + 1) & mask


@njit(cache=CACHE)
def rehash(table: np.ndarray, keys: np.ndarray, nodes: int) -> None:
    """Fill the empty (all -1) `table` with the first `nodes` nodes of `keys`."""
    for node in range(nodes):
        _, slot = find(table, keys, keys[node])
        table[slot] = node


@njit(cache=CACHE)
def is_goal(row: np.ndarray, depth: int) -> bool:
    for h in range(HALLWAY):
        if row[h] != 0:
            return False
    for r in range(4):
        for s in range(depth):
            if row[HALLWAY + r * depth + s] != r + 1:
                return False
    return True


@njit(cache=CACHE)
def project(row: np.ndarray, size: int, depth: int, out: np.ndarray) -> None:
    """Write the projection of the state `row` into `out` (a row of the same shape)."""
    out[:HALLWAY] = row[:HALLWAY]
    for room in range(4):
        base = HALLWAY + room * depth
        put = base + depth - 1
        for cell in range(base + depth - 1, base - 1, -1):
            if row[cell] != 0:
                out[put] = row[cell]
                put -= 1
        out[base:put + 1] = 0
    walking = row[size] < HALLWAY
    out[size] = row[size] if walking else NO_MOVER
    out[size + 1] = row[size + 1] if walking else 0


@njit(cache=CACHE)
def _walk(prow: np.ndarray, size: int, depth: int, here: int, phase: int, children: np.ndarray,
          costs: np.ndarray, count: int) -> int:
    """Append the moves of the hallway amphipod at `here` walking on in `phase`: a step
    along the hallway, or into its room's column when it stands at its door and the room
    is clean and not full.  Return the new count."""
    kind = prow[here]
    for there in (here - 1, here + 1):
        if 0 <= there < HALLWAY and prow[there] == 0:
            child = children[count]
            child[:] = prow
            child[here], child[there], child[size], child[size + 1] = 0, kind, there, phase
            costs[count] = STEP_ENERGY[kind]
            count += 1
    room = kind - 1
    base = HALLWAY + room * depth
    if here == DOORS[room] and prow[base] == 0 and clean(prow, room, depth):
        slot = depth - 1
        while prow[base + slot] != 0:
            slot -= 1
        child = children[count]
        child[:] = prow
        child[here], child[base + slot], child[size], child[size + 1] = 0, kind, NO_MOVER, 0
        costs[count] = STEP_ENERGY[kind]
        count += 1
    return count


@njit(cache=CACHE)
def _leave(prow: np.ndarray, size: int, depth: int, children: np.ndarray, costs: np.ndarray, count: int) -> int:
    """Append each room's top amphipod stepping out onto its free door cell, as a new
    mover (phase 0); one standing in its own room also as a homing mover stepping back out."""
    for room in range(4):
        door, base = DOORS[room], HALLWAY + room * depth
        top = base
        while top < base + depth and prow[top] == 0:
            top += 1
        if prow[door] != 0 or top == base + depth:
            continue
        kind = prow[top]
        for phase in range(2 if kind == room + 1 else 1):
            child = children[count]
            child[:] = prow
            child[top], child[door], child[size], child[size + 1] = 0, kind, door, phase
            costs[count] = STEP_ENERGY[kind]
            count += 1
    return count


@njit(cache=CACHE)
def moves(prow: np.ndarray, size: int, depth: int, children: np.ndarray, costs: np.ndarray) -> int:
    """Write the projected moves from `prow` into `children` and their energy into `costs`;
    return how many.  A mover in the hallway walks on; if it may stop (it left a room and
    is not above one) it may also stop (energy 0).  With no mover, any hallway amphipod
    starts a homing walk and any room's top amphipod may step out."""
    mover = prow[size]
    if mover != NO_MOVER:
        count = _walk(prow, size, depth, mover, prow[size + 1], children, costs, 0)
        if stops_in_hallway(prow, size, mover):
            children[count, :] = prow
            children[count, size], children[count, size + 1] = NO_MOVER, 0
            costs[count] = 0
            count += 1
        return count
    count = 0
    for here in range(HALLWAY):
        if prow[here] != 0:
            count = _walk(prow, size, depth, here, 1, children, costs, count)
    return _leave(prow, size, depth, children, costs, count)


@njit(cache=CACHE)
def explore(keys: np.ndarray, table: np.ndarray, edges: np.ndarray, counters: np.ndarray, size: int, depth: int,
            budget: int) -> None:
    """Breadth-first over the projected graph from node ``counters[P_HEAD]`` on: append each
    new state to `keys` (and `table`), each move to `edges` (from, to, energy).  Stops when
    every state is expanded (`EXHAUSTED`), after `budget` expansions, or when an array is
    nearly full (`NEEDS_ROOM`: the caller grows them and calls again)."""
    fanout = MAX_FANOUT * size
    prow = np.zeros(size + 2, dtype=np.uint8)
    children = np.zeros((fanout, size + 2), dtype=np.uint8)
    costs = np.zeros(fanout, dtype=np.int64)
    words = np.zeros(keys.shape[1], dtype=np.uint64)
    for _ in range(budget):
        head, nodes, count = counters[P_HEAD], counters[P_NODES], counters[P_EDGES]
        if head == nodes:
            counters[P_STATUS] = EXHAUSTED
            return
        if nodes + fanout > len(keys) or count + fanout > len(edges) or 2 * (nodes + fanout) > len(table):
            counters[P_STATUS] = NEEDS_ROOM
            return
        unpack(keys[head], size, prow)
        for c in range(moves(prow, size, depth, children, costs)):
            if stuck(children[c], size, depth):
                continue  # cannot reach the goal: left out, so its distance is never needed
            pack(children[c], size, words)
            node, slot = find(table, keys, words)
            if node < 0:
                node = nodes
                nodes += 1
                keys[node] = words
                table[slot] = node
            edges[count, 0], edges[count, 1], edges[count, 2] = head, node, costs[c]
            count += 1
        counters[P_HEAD], counters[P_NODES], counters[P_EDGES] = head + 1, nodes, count
    counters[P_STATUS] = BUDGET_SPENT


@njit(cache=CACHE)
def distances(edges: np.ndarray, count: int, nodes: int, goal: int) -> np.ndarray:
    """Each of the `nodes` states' least energy to `goal` along the first `count` edges
    (backward Dijkstra over the reversed edges); `DEAD` where the goal is out of reach."""
    first = np.zeros(nodes + 1, dtype=np.int64)
    for e in range(count):
        first[edges[e, 1] + 1] += 1
    for n in range(nodes):
        first[n + 1] += first[n]
    source = np.empty(count, dtype=np.int32)
    energy = np.empty(count, dtype=np.int64)
    fill = first[:nodes].copy()
    for e in range(count):
        target = edges[e, 1]
        source[fill[target]], energy[fill[target]] = edges[e, 0], edges[e, 2]
        fill[target] += 1
    dist = np.full(nodes, DEAD, dtype=np.int64)
    heap_key, heap_node = np.zeros(count + 1, dtype=np.int64), np.zeros(count + 1, dtype=np.int32)
    heap_push(heap_key, heap_node, 0, 0, goal)
    queued = 1
    while queued:
        d, node = heap_pop(heap_key, heap_node, queued)
        queued -= 1
        if dist[node] != DEAD:
            continue
        dist[node] = d
        for i in range(first[node], first[node + 1]):
            if dist[source[i]] == DEAD:
                heap_push(heap_key, heap_node, queued, d + energy[i], source[i])
                queued += 1
    return dist


@njit(cache=CACHE)
def column_energy(row: np.ndarray, depth: int) -> int:
    """A lower bound on the energy any plan from `row` spends on steps inside the columns.

    With ``depth(x)`` the sum of energy times slot (0 = top) over the amphipods in rooms,
    such steps spend ``depth(goal) - depth(x) + 2 * (their upward energy)``, and an
    amphipod above the lowest stranger of its room (or a stranger itself) must climb to
    the top at least once."""
    total = 0
    for room in range(4):
        base = HALLWAY + room * depth
        lowest_stranger = -1
        for slot in range(depth):
            kind = row[base + slot]
            if kind != 0 and kind != room + 1:
                lowest_stranger = slot
        for slot in range(depth):
            kind = row[base + slot]
            total += STEP_ENERGY[room + 1] * slot
            if kind != 0:
                total += STEP_ENERGY[kind] * slot * (1 if slot <= lowest_stranger else -1)
    return total


@njit(cache=CACHE)
def bound(row: np.ndarray, size: int, depth: int, keys: np.ndarray, table: np.ndarray, dist: np.ndarray,
          prow: np.ndarray, words: np.ndarray) -> int:
    """The admissible bound of the state `row` (`DEAD` if its projection cannot reach the
    goal); `prow` and `words` are scratch.  `row` must be reachable from the state the
    projection was built from: then a projection missing from `keys` is reached only
    through stuck projected states (left out by `explore`), so `row` is dead too."""
    project(row, size, depth, prow)
    pack(prow, size, words)
    node, _ = find(table, keys, words)
    if node < 0 or dist[node] == DEAD:
        return DEAD
    return dist[node] + column_energy(row, depth)


@njit(cache=CACHE)
def search(keys: np.ndarray, g: np.ndarray, parent: np.ndarray, step: np.ndarray, table: np.ndarray,
           heap_key: np.ndarray, heap_node: np.ndarray, counters: np.ndarray, size: int, depth: int,
           neighbours: np.ndarray, room_at: np.ndarray, use_bound: bool, projected_keys: np.ndarray,
           projected_table: np.ndarray, projected_dist: np.ndarray, budget: int) -> None:
    """A* (Dijkstra without `use_bound`) from the store's state until a goal is popped,
    the open list empties, `budget` expansions are done, or the arrays are nearly full;
    `counters[STATUS]` says which (`counters[GOAL]` is the goal's node when solved).
    With `use_bound`, the projection arrays give the bound and a child whose bound is
    `DEAD` is dropped (no plan from it reaches the goal).

    Lazy deletion: a state reached more cheaply is pushed again and its stale entries
    are skipped, so an inconsistent heuristic still gives optimal costs."""
    fanout = MAX_FANOUT * size
    row, prow = np.zeros(size + 2, dtype=np.uint8), np.zeros(size + 2, dtype=np.uint8)
    children = np.zeros((fanout, size + 2), dtype=np.uint8)
    steps = np.zeros((fanout, 3), dtype=np.int64)
    words = np.zeros(keys.shape[1], dtype=np.uint64)
    projected_words = np.zeros(projected_keys.shape[1], dtype=np.uint64)
    for _ in range(budget):
        nodes, heap_size = counters[NODES], counters[HEAP_SIZE]
        if heap_size == 0:
            counters[STATUS] = EXHAUSTED
            return
        if nodes + fanout > len(g) or heap_size + fanout > len(heap_key) or 2 * (nodes + fanout) > len(table):
            counters[STATUS] = NEEDS_ROOM
            return
        key, node = heap_pop(heap_key, heap_node, heap_size)
        counters[HEAP_SIZE] = heap_size - 1
        cost = key_g(key, G_BITS)
        if cost > g[node]:
            continue  # stale entry: the state was reached more cheaply since
        unpack(keys[node], size, row)
        if is_goal(row, depth):
            counters[GOAL], counters[STATUS] = node, SOLVED
            return
        counters[EXPANDED] += 1
        count = expand(row, size, depth, neighbours, room_at, children, steps)
        counters[GENERATED] += count
        for c in range(count):
            new_g = cost + steps[c, 2]
            pack(children[c], size, words)
            child, slot = find(table, keys, words)
            if child >= 0 and g[child] <= new_g:
                continue
            h = 0
            if use_bound:
                h = bound(children[c], size, depth, projected_keys, projected_table, projected_dist, prow,
                          projected_words)
                if h == DEAD:
                    continue
            if child < 0:
                child = counters[NODES]
                counters[NODES] += 1
                keys[child] = words
                table[slot] = child
            g[child], parent[child] = new_g, node
            step[child, 0], step[child, 1] = steps[c, 0], steps[c, 1]
            heap_push(heap_key, heap_node, counters[HEAP_SIZE], open_key(new_g + h, new_g, G_BITS), child)
            counters[HEAP_SIZE] += 1
    counters[STATUS] = BUDGET_SPENT

