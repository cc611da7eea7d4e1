"""A second lower bound for keys-grid: penalised spanning trees over door-free grid distances.

For a robot alone in its component (no other robot can pick up its keys), standing on
terminal `p` with remaining keys `R`.  Number the keys in the order its walk first reaches
them, ``k1 .. km``.  Between two consecutive ones it walks at least the door-free distance
`d` (a breadth-first search of the grid with every existing key's door open: a door only
ever makes a walk longer), so the walk is at least ``d(p, k1) + len(P)`` where `P` is the
path ``k1 - k2 - ... - km`` over `R` with edge lengths `d`.

Penalties (Held and Karp's Lagrangian relaxation): for any integers ``pi[k]``, give edge
``(u, v)`` the weight ``d(u, v) + pi[u] + pi[v]``.  In the path `P` every key has degree 2
except its ends ``k1`` and ``km``, which have degree 1, so
``len(P) = w_pi(P) - 2 sum(pi[R]) + pi[k1] + pi[km]``, and `P` is a spanning tree of `R`, so
``w_pi(P) >= MST_pi(R)``.  Hence the walk is at least

    min_k (d(p, k) + pi[k]) + MST_pi(R) - 2 sum(pi[R]) + min_e pi[e]

(``k1`` and ``km`` replaced by the smallest choices; with one key left this is ``d(p, k)``).
A key that needs another remaining key first (every walk from `p` to it crosses that key's
cell or door: `crosscheck.solvers.keys.grid_cuts`' `needs`) is not ``k1``, and a key some
remaining key needs is not ``km``, so the minima skip them.
It holds for every choice of penalties, so they are chosen once per robot, before the search,
by a subgradient ascent on the bound of its start state (keys whose tree degree is above 2
get dearer, leaves cheaper), and kept for every later state.  With ``pi = 0`` it is the
plain spanning-tree bound.  The part that depends on `R` alone is memoised per key mask.
"""

from __future__ import annotations

from crosscheck.solvers.base import Deadline
from crosscheck.solvers.keys.grid_walks import CellGraph

#: Distance between cells no door-free walk joins.
UNREACHABLE = 1 << 30

#: Subgradient steps per robot before the search (each one spanning tree over its keys).
ASCENT_STEPS = 150


class SpanBound:
    """Spanning-tree bounds for robots alone in their door-free components.

    Terminals are numbered as in `crosscheck.solvers.keys.grid_cuts.CutBound`: key ``i`` is
    terminal ``i``, robot start ``j`` is terminal ``keys + j``.  `component[t]` names
    terminal t's door-free component.
    """

    def __init__(self, graph: CellGraph, component: list[int], deadline: Deadline | None = None) -> None:
        self.keys = len(graph.key_cells)
        terminals = graph.key_cells + graph.starts
        deadline = deadline or Deadline(None)
        self.distance = []
        for cell in terminals:
            deadline.check("measuring door-free distances")
            self.distance.append(_door_free_distances(graph, cell, terminals))
        self.component_keys = [
            sum(1 << k for k in range(self.keys) if component[k] == root) for root in component
        ]
        self.penalty = [0] * self.keys
        starts = component[self.keys:]
        for start in range(self.keys, len(terminals)):
            if starts.count(component[start]) == 1:  # the bound serves robots alone in their component
                self._ascend(start, self.component_keys[start])
        self.weight = [
            [self.distance[u][v] + self.penalty[u] + self.penalty[v] for v in range(self.keys)]
            for u in range(self.keys)
        ]
        self._trees: dict[int, tuple[list[int], int]] = {}  # key mask -> (its keys, MST_pi - 2 sum(pi))

    def bound(self, terminal: int, remaining: int, needs: list[int] | None = None) -> int:
        """A lower bound on the moves a robot alone in its component, standing on `terminal`,
        makes to collect the keys `remaining` (all of them in its component).

        `needs[k]`, if given: keys that every walk from `terminal` collects before key k (so
        k is not the first key while one of them remains, and they are not the last)."""
        if not remaining:
            return 0
        found = self._trees.get(remaining)
        if found is None:
            keys = _members(remaining)
            found = self._trees[remaining] = (keys, _tree_part(self.weight, self.penalty, keys))
        keys, tree = found
        row, penalty = self.distance[terminal], self.penalty
        first = last = UNREACHABLE
        needed = 0
        for k in keys:
            before = needs[k] & remaining if needs else 0
            needed |= before
            if not before and row[k] + penalty[k] < first:
                first = row[k] + penalty[k]
        for k in keys:
            if not needed >> k & 1 and penalty[k] < last:
                last = penalty[k]
        if first == UNREACHABLE or last == UNREACHABLE:  # cyclic needs: no walk; the plain bound still holds
            return self.bound(terminal, remaining)
        return first + tree + last

    def _weights(self, penalty: list[int]) -> list[list[int]]:
        return [[self.distance[u][v] + penalty[u] + penalty[v] for v in range(self.keys)] for u in range(self.keys)]

    def _ascend(self, start: int, keys_mask: int) -> None:
        """Set the penalties of the keys in `keys_mask` to the best found for a walk from `start`."""
        keys = _members(keys_mask)
        if len(keys) < 3:
            return  # two keys or fewer: a path is its own spanning tree, penalties gain nothing
        trial = [float(p) for p in self.penalty]
        best_value, best = -1, list(self.penalty)
        step = sum(self.distance[start][k] for k in keys) / len(keys) / 4
        for _ in range(ASCENT_STEPS):
            penalty = [round(p) for p in trial]
            weight = self._weights(penalty)
            tree, degree = _spanning_tree(weight, keys)
            first = min(keys, key=lambda k: self.distance[start][k] + penalty[k])
            last = min(keys, key=lambda k: penalty[k])
            value = (self.distance[start][first] + penalty[first] + tree
                     - 2 * sum(penalty[k] for k in keys) + penalty[last])
            if value > best_value:
                best_value, best = value, penalty
            slope = {k: degree[k] - 2 + (k == first) + (k == last) for k in keys}
            norm = sum(g * g for g in slope.values())
            if norm == 0:
                break  # the tree is a path from `first` to `last`: the bound is tight for these penalties
            for k, g in slope.items():
                trial[k] += step * g
            step *= 0.97
        for k in keys:
            self.penalty[k] = best[k]


def _tree_part(weight: list[list[int]], penalty: list[int], keys: list[int]) -> int:
    """The part of the bound that depends on the keys alone: ``MST_pi - 2 sum(pi)``."""
    total, _ = _spanning_tree(weight, keys)
    return total - 2 * sum(penalty[k] for k in keys)


def _members(mask: int) -> list[int]:
    """The bit positions set in `mask`, lowest first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def _spanning_tree(weight: list[list[int]], nodes: list[int]) -> tuple[int, dict[int, int]]:
    """Prim's minimum spanning tree of `nodes` under `weight`: (its weight, each node's degree)."""
    rest = nodes[1:]
    best = [weight[nodes[0]][v] for v in rest]
    via = [nodes[0]] * len(rest)
    degree = dict.fromkeys(nodes, 0)
    total = 0
    while rest:
        i = best.index(min(best))
        total += best[i]
        node, parent = rest[i], via[i]
        degree[node] += 1
        degree[parent] += 1
        last = len(rest) - 1
        rest[i], best[i], via[i] = rest[last], best[last], via[last]
        del rest[last], best[last], via[last]
        row = weight[node]
        for j, v in enumerate(rest):
            if row[v] < best[j]:
                best[j], via[j] = row[v], node
    return total, degree


def _door_free_distances(graph: CellGraph, source: int, targets: list[int]) -> list[int]:
    """Moves from `source` to each of `targets` with every existing key's door open
    (`UNREACHABLE` where none leads; such pairs lie in different components and never meet)."""
    distance = {source: 0}
    frontier, moves = [source], 0
    while frontier:
        moves += 1
        following = []
        for cell in frontier:
            for other in graph.neighbours[cell]:
                if other not in distance:
                    distance[other] = moves
                    following.append(other)
        frontier = following
    return [distance.get(target, UNREACHABLE) for target in targets]

