"""The compiled kernel of ``amphipods-steps`` (numba): step rules, bound, dead states, A*.

Everything here works on a *state row*: ``size + 2`` bytes, the cells (0 empty, 1-4
kinds A-D), the mover's cell (`NO_MOVER`: none) and its phase (1: homing).  A layout
(`Layout` in `crosscheck.solvers.amphipods.steps`) gives the burrow's shape as arrays:
each cell's neighbours and room.  The rules and their correctness arguments are in
that module's docstring and in docs/puzzles/amphipods.md; this module only states
how each is computed.

The search keeps its whole store in arrays owned by the caller (`Store`), so it can
stop after a budget of expansions (the caller checks its deadline, or grows the arrays
when `NEEDS_ROOM` is returned) and resume where it stopped.  States are packed into
`words` unsigned 64-bit words, 3 bits per cell, 21 cells per word, then the mover (two
3-bit digits) and the phase (one digit).
"""

from __future__ import annotations

import numpy as np
from numba import njit

HALLWAY = 11
DOORS = np.array([2, 4, 6, 8], dtype=np.int64)
STEP_ENERGY = np.array([0, 1, 10, 100, 1000], dtype=np.int64)
#: The mover byte when nobody is moving (two 3-bit digits when packed).
NO_MOVER = 63
#: Cells per packed word (3 bits each).
DIGITS_PER_WORD = 21
#: Heap keys: f above, (G_MASK - g) below, so equal f pops the larger g first.
G_BITS = 26
G_MASK = (1 << G_BITS) - 1
#: How `search` returned (counters[STATUS]).
BUDGET_SPENT, SOLVED, EXHAUSTED, NEEDS_ROOM = 0, 1, 2, 3
#: Slots of the counters array.
NODES, HEAP_SIZE, EXPANDED, GENERATED, GOAL, STATUS = range(6)
#: At most this many children per state: three neighbours per cell.
MAX_FANOUT = 3


@njit(cache=True)
def clean(row: np.ndarray, room: int, depth: int) -> bool:
    """Whether room `room` holds no amphipod of another kind than its own."""
    base = HALLWAY + room * depth
    for s in range(depth):
        kind = row[base + s]
        if kind != 0 and kind != room + 1:
            return False
    return True


@njit(cache=True)
def may_stop(row: np.ndarray, size: int, room_at: np.ndarray) -> bool:
    """Whether the mover (if any) may stop where it stands."""
    mover = row[size]
    if mover == NO_MOVER:
        return True
    room = room_at[mover]
    if room < 0:
        return row[size + 1] == 0 and mover != 2 and mover != 4 and mover != 6 and mover != 8
    return row[size + 1] == 0 or room + 1 == row[mover]


@njit(cache=True)
def walk_home(row: np.ndarray, here: int, depth: int, room_at: np.ndarray) -> int:
    """The steps the amphipod at `here` needs to get home if it were alone (0 if it is)."""
    kind = row[here]
    home = kind - 1
    room = room_at[here]
    if room < 0:
        return abs(here - DOORS[home]) + 1
    base = HALLWAY + room * depth
    slot = here - base
    if room != home:
        return slot + 1 + abs(DOORS[room] - DOORS[home]) + 1
    for below in range(here + 1, base + depth):
        if row[below] != 0 and row[below] != kind:
            return slot + 4  # a stranger below: out, one step aside, back, in
    return 0


@njit(cache=True)
def bound(row: np.ndarray, size: int, depth: int, room_at: np.ndarray) -> int:
    """The admissible heuristic: each amphipod's walk home alone, plus the room-filling term."""
    total = 0
    entering = np.zeros(4, dtype=np.int64)
    for here in range(size):
        kind = row[here]
        if kind == 0:
            continue
        steps = walk_home(row, here, depth, room_at)
        if steps > 0:
            entering[kind - 1] += 1
        total += steps * STEP_ENERGY[kind]
    for k in range(4):
        m = entering[k]
        total += m * (m - 1) // 2 * STEP_ENERGY[k + 1]
    return total


@njit(cache=True)
def stuck(row: np.ndarray, size: int, depth: int) -> bool:
    """Whether some amphipod stopped in the hallway can never get home (optimistic release)."""
    hall = row[:HALLWAY].copy()
    mover = row[size]
    if mover < HALLWAY and row[size + 1] == 0:
        hall[mover] = 0  # still walking out of a room: it need not stop where it is
    dirty = 0
    for r in range(4):
        if not clean(row, r, depth):
            dirty |= 1 << r
    progress = True
    while progress:
        progress = False
        for h in range(HALLWAY):
            kind = hall[h]
            if kind == 0:
                continue
            door = DOORS[kind - 1]
            low, high = (h + 1, door) if door > h else (door, h - 1)
            blocked = False
            for c in range(low, high + 1):
                if hall[c] != 0:
                    blocked = True
            if blocked or (dirty >> (kind - 1) & 1 and hall[door - 1] != 0 and hall[door + 1] != 0):
                continue
            hall[h] = 0
            progress = True
    for h in range(HALLWAY):
        if hall[h] != 0:
            return True
    return False


@njit(cache=True)
def expand(row: np.ndarray, size: int, depth: int, neighbours: np.ndarray, room_at: np.ndarray, prune: bool,
           children: np.ndarray, steps: np.ndarray) -> int:
    """Write `row`'s successors into `children` (rows) and their steps into `steps`
    (from cell, to cell, energy); return how many.  With `prune`, dead children are left out."""
    mover = row[size]
    switch = may_stop(row, size, room_at)
    stopped_in_hallway = switch and mover < HALLWAY  # the mover stops there if another steps
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
            if prune and stopped_in_hallway and not continuing and stuck(child, size, depth):
                continue
            steps[count, 0], steps[count, 1], steps[count, 2] = here, there, STEP_ENERGY[kind]
            count += 1
    return count


@njit(cache=True)
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


@njit(cache=True)
def unpack(words: np.ndarray, size: int, row: np.ndarray) -> None:
    """The inverse of `pack`."""
    digits = np.zeros(size + 3, dtype=np.uint8)
    for i in range(size + 3):
        digits[i] = (words[i // DIGITS_PER_WORD] >> np.uint64(3 * (i % DIGITS_PER_WORD))) & np.uint64(7)
    row[:size] = digits[:size]
    row[size] = digits[size] | digits[size + 1] << 3
    row[size + 1] = digits[size + 2]


@njit(cache=True)
def _hash(words: np.ndarray) -> np.uint64:
    h = np.uint64(0x9E3779B97F4A7C15)
    for w in words:
        h = (h ^ w) * np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
    return h


@njit(cache=True)
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


@njit(cache=True)
def rehash(table: np.ndarray, keys: np.ndarray, nodes: int) -> None:
    """Fill the empty (all -1) `table` with the first `nodes` nodes of `keys`."""
    for node in range(nodes):
        _, slot = find(table, keys, keys[node])
        table[slot] = node


@njit(cache=True)
def _push(heap_key: np.ndarray, heap_node: np.ndarray, size: int, key: int, node: int) -> None:
    i = size
    while i > 0:
        parent = (i - 1) >> 1
        if heap_key[parent] <= key:
            break
        heap_key[i], heap_node[i] = heap_key[parent], heap_node[parent]
        i = parent
    heap_key[i], heap_node[i] = key, node


@njit(cache=True)
def _pop(heap_key: np.ndarray, heap_node: np.ndarray, size: int) -> tuple[int, int]:
    """Remove the smallest entry of the heap of `size` entries; return it (key, node)."""
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


@njit(cache=True)
def is_goal(row: np.ndarray, depth: int) -> bool:
    for h in range(HALLWAY):
        if row[h] != 0:
            return False
    for r in range(4):
        for s in range(depth):
            if row[HALLWAY + r * depth + s] != r + 1:
                return False
    return True


@njit(cache=True)
def search(keys: np.ndarray, g: np.ndarray, parent: np.ndarray, step: np.ndarray, table: np.ndarray,
           heap_key: np.ndarray, heap_node: np.ndarray, counters: np.ndarray, size: int, depth: int,
           neighbours: np.ndarray, room_at: np.ndarray, prune: bool, use_bound: bool, budget: int) -> None:
    """A* (Dijkstra without `use_bound`) from the store's state until a goal is popped,
    the open list empties, `budget` expansions are done, or the arrays are nearly full;
    `counters[STATUS]` says which (`counters[GOAL]` is the goal's node when solved).

    Lazy deletion: a state reached more cheaply is pushed again and its stale entries
    are skipped, so an inconsistent heuristic still gives optimal costs."""
    row = np.zeros(size + 2, dtype=np.uint8)
    children = np.zeros((MAX_FANOUT * size, size + 2), dtype=np.uint8)
    steps = np.zeros((MAX_FANOUT * size, 3), dtype=np.int64)
    words = np.zeros(keys.shape[1], dtype=np.uint64)
    fanout = MAX_FANOUT * size
    for _ in range(budget):
        nodes, heap_size = counters[NODES], counters[HEAP_SIZE]
        if heap_size == 0:
            counters[STATUS] = EXHAUSTED
            return
        if nodes + fanout > len(g) or heap_size + fanout > len(heap_key) or 2 * (nodes + fanout) > len(table):
            counters[STATUS] = NEEDS_ROOM
            return
        key, node = _pop(heap_key, heap_node, heap_size)
        counters[HEAP_SIZE] = heap_size - 1
        cost = G_MASK - (key & G_MASK)
        if cost > g[node]:
            continue  # stale entry: the state was reached more cheaply since
        unpack(keys[node], size, row)
        if is_goal(row, depth):
            counters[GOAL], counters[STATUS] = node, SOLVED
            return
        counters[EXPANDED] += 1
        count = expand(row, size, depth, neighbours, room_at, prune, children, steps)
        counters[GENERATED] += count
        for c in range(count):
            new_g = cost + steps[c, 2]
            pack(children[c], size, words)
            child, slot = find(table, keys, words)
            if child >= 0 and g[child] <= new_g:
                continue
            if child < 0:
                child = counters[NODES]
                counters[NODES] += 1
                keys[child] = words
                table[slot] = child
            g[child], parent[child] = new_g, node
            step[child, 0], step[child, 1] = steps[c, 0], steps[c, 1]
            f = new_g + (bound(children[c], size, depth, room_at) if use_bound else 0)
            _push(heap_key, heap_node, counters[HEAP_SIZE], (f << G_BITS) | (G_MASK - new_g), child)
            counters[HEAP_SIZE] += 1
    counters[STATUS] = BUDGET_SPENT
