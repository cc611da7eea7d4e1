"""Admissible lower bounds on the moves still needed to collect the remaining keys.

Both key-vault searches use them, each with distances it computes itself (the grid
search from breadth-first searches over cells, the graph search from its routes), so
neither depends on the other's model of the vault.

Why they never overestimate.  Distances `d` ignore doors (a door only ever makes a walk
longer), so every walk between two cells is at least `d` long.  Robots that cannot
reach each other's keys even with every door open (different components) work
independently, so their bounds add up.  Per component:

- One robot at `p`, bridge bound: contract every cycle of the door-free grid (its
  2-edge-connected blocks) to a point; what is left is a tree whose edges are the
  bridges, and a walk is at least as long as its image there (contraction never
  lengthens a walk).  In a tree, the robot's walk starts at `p`, visits every
  remaining key and ends at some remaining key `e`; it covers the Steiner tree `T` of
  `p` and the keys, and every edge of `T` off the path from `p` to `e` is walked at
  least twice (in and back out), so the walk is at least
  ``2 w(T) - d(p, e) >= 2 w(T) - max_e d(p, e)``; ``2 w(T)`` is the sum of the
  distances between cyclically consecutive terminals in depth-first preorder.  On a
  loop-free vault this is the exact door-free optimum.  The max runs over the keys
  that can be last (`ends`, from the caller): a key that every walk from `p` to some
  other remaining key needs (a door on it, or the key lies on it) is collected before
  that key, so it is not last.  The caller must prove "every walk": a key needed only
  by the shortest route to another can still be the last (tests/test_keys_bounds.py).
- One robot at `p`, spanning-tree bound (the larger of the two is used where the
  vault has long cycles, see `SPANNING_SLACK`): it visits the remaining keys ``R`` in
  some order ``k1 .. km``; its walk is at least ``d(p, k1) + d(k1, k2) + ... ``, and the
  path ``k1 .. km`` is a spanning tree of ``R``, so the walk is at least
  ``min_k d(p, k) + MST(R)``.
- Several robots in one component: each robot's visiting order is a path hanging from
  its start; joining all starts into one super node (distance to a key = the nearest
  robot's distance) turns these paths into a spanning tree of ``R`` plus the super
  node, so the moves are at least that tree's minimum weight.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from models.keys import WALL, Cell, Vault

#: Distance between points that cannot reach each other even with every door open.
UNREACHABLE = 1 << 30
#: The spanning-tree bound is computed only where some two keys' distance exceeds their
#: bridge distance by more than this (a speed choice: both bounds are admissible).
SPANNING_SLACK = 8


@dataclass(frozen=True)
class DoorFreeLayout:
    """A depth-first search of the vault's open cells with every (existing key's) door open.

    `rank[cell]` is the cell's preorder number and `component[cell]` its component id.
    `bridge_depth[cell]` counts the bridges (edges on no cycle) between the cell and
    its component's root: every walk between two cells crosses every bridge that
    separates them, so `bridge_distance` (the number of such bridges) is a lower bound
    on walking distance, and it is a tree metric (the tree of 2-edge-connected blocks).
    `parent_depth[i]` is the bridge depth of the parent of the cell ranked i.
    """

    rank: dict[Cell, int]
    component: dict[Cell, int]
    bridge_depth: dict[Cell, int]
    parent_depth: list[int]

    def bridge_distances(self, cells: Sequence[Cell]) -> list[list[int]]:
        """Bridge distances between all `cells` (`UNREACHABLE` across components).

        The deepest common ancestor of two cells in the search tree has the smallest
        parent bridge depth among the cells ranked after the first up to the second.
        """
        order = sorted(range(len(cells)), key=lambda i: self.rank[cells[i]])
        ranks = [self.rank[cells[i]] for i in order]
        gaps = [min(self.parent_depth[a + 1 : b + 1]) for a, b in pairwise(ranks)]
        result = [[UNREACHABLE] * len(cells) for _ in cells]
        for a, i in enumerate(order):
            result[i][i] = 0
            common = UNREACHABLE
            for b in range(a + 1, len(order)):
                j = order[b]
                common = min(common, gaps[b - 1])
                if self.component[cells[i]] == self.component[cells[j]]:
                    result[i][j] = result[j][i] = (
                        self.bridge_depth[cells[i]] + self.bridge_depth[cells[j]] - 2 * common
                    )
        return result


def door_free_layout(vault: Vault) -> DoorFreeLayout:
    """Depth-first search with Tarjan's low links to find bridges and bridge depths.

    Roots are taken in row-major order and neighbours in the order north, south, east,
    west.  Cells are flat indices ``r * (width + 1) + c`` inside (a wall column pads
    every row, so east and west never wrap), turned back into cells at the end.
    """
    stride = vault.width + 1
    search = _LowLinks(*_door_free_grid(vault, stride))
    depth = [0] * len(search.rank)
    parent_depth: list[int] = []
    for cell in search.order:
        above = search.parent[cell]
        if above < 0:
            parent_depth.append(0)
        else:
            depth[cell] = depth[above] + (search.low[cell] > search.rank[above])  # a bridge above `cell`
            parent_depth.append(depth[above])
    cells = {cell: divmod(cell, stride) for cell in search.order}
    return DoorFreeLayout(
        {cells[i]: search.rank[i] for i in search.order},
        {cells[i]: search.component[i] for i in search.order},
        {cells[i]: depth[i] for i in search.order},
        parent_depth,
    )


def _door_free_grid(vault: Vault, stride: int) -> tuple[list[bool], list[list[int]]]:
    """Per flat cell, whether it is passable with every door open, and its passable
    neighbours (north, south, east, west)."""
    flat = "".join(row.ljust(vault.width, WALL) + WALL for row in vault.rows)
    size = len(flat)
    passable = [vault.passable(char) for char in flat]
    return passable, [
        [j for j in (i - stride, i + stride, i + 1, i - 1) if 0 <= j < size and passable[j]] if passable[i] else []
        for i in range(size)
    ]


class _LowLinks:
    """An iterative depth-first search of the passable cells, roots in index order:
    preorder `order`, `rank` (-1 off the grid), Tarjan's `low` links, `parent` (-1 for
    roots) and `component` labels."""

    def __init__(self, passable: list[bool], around: list[list[int]]) -> None:
        size = len(around)
        self.rank, self.low, self.parent, self.component = [-1] * size, [0] * size, [-1] * size, [0] * size
        self.order: list[int] = []
        roots = 0
        for root in range(size):
            if passable[root] and self.rank[root] < 0:
                self._search(root, roots, around)
                roots += 1

    def _visit(self, cell: int, parent: int, label: int) -> None:
        self.rank[cell] = self.low[cell] = len(self.order)
        self.order.append(cell)
        self.parent[cell], self.component[cell] = parent, label

    def _search(self, root: int, label: int, around: list[list[int]]) -> None:
        self._visit(root, -1, label)
        stack = [(root, iter(around[root]))]
        while stack:
            cell, neighbours = stack[-1]
            for other in neighbours:
                if self.rank[other] < 0:
                    self._visit(other, cell, label)
                    stack.append((other, iter(around[other])))
                    break
                if other != self.parent[cell] and self.rank[other] < self.low[cell]:
                    self.low[cell] = self.rank[other]
            else:
                stack.pop()
                if stack:
                    above = stack[-1][0]
                    self.low[above] = min(self.low[above], self.low[cell])


class RemainingKeysBound:
    """``bound(rows, bridge_rows, remaining, ranks)``: a lower bound on the moves to collect `remaining`.

    Args:
        key_distances: ``key_distances[k][j]``, door-free walking distance between keys
            k and j (`UNREACHABLE` if none).
        key_bridges: the same in bridge distance (`DoorFreeLayout.bridge_distances`).
        robot_keys: ``robot_keys[i]``, the mask of keys robot i can reach with every
            door open (robots with equal masks share a component).
        key_ranks: ``key_ranks[k]``, key k's `DoorFreeLayout.rank`.
    `rows[i]` and `bridge_rows[i]` passed to `bound` list robot i's door-free and bridge
    distances to every key, `ranks[i]` the rank of its cell.
    """

    def __init__(
        self,
        key_distances: Sequence[Sequence[int]],
        key_bridges: Sequence[Sequence[int]],
        robot_keys: Sequence[int],
        key_ranks: Sequence[int],
    ) -> None:
        self._distances = [list(row) for row in key_distances]
        for k, row in enumerate(self._distances):
            row[k] = 0
        self._bridges = [list(row) for row in key_bridges]
        self._ranks = list(key_ranks)
        groups: dict[int, list[int]] = {}
        for robot, keys in enumerate(robot_keys):
            if keys:
                groups.setdefault(keys, []).append(robot)
        # (robots, keys, whether to compute the spanning-tree bound too): it only pays
        # where cycles are long, i.e. bridge distance falls well short of distance
        self.groups = [(tuple(robots), keys, self._slack(keys) > SPANNING_SLACK) for keys, robots in groups.items()]
        self._trees: dict[int, tuple[tuple[int, ...], int]] = {}
        self._cycles: dict[int, tuple[tuple[int, ...], list[int], int]] = {}
        self._by_rank = sorted(range(len(self._ranks)), key=self._ranks.__getitem__)
        # bound per component, keyed by its robots' ranks (which fix their rows) and keys
        self._memo: dict[tuple[int | tuple[int, ...], ...], int] = {}

    def bound(
        self,
        rows: Sequence[Sequence[int]],
        bridge_rows: Sequence[Sequence[int]],
        remaining: int,
        ranks: Sequence[int],
        ends: Sequence[int] | None = None,
    ) -> int:
        """The bound; per component memoised on its robots' ranks and remaining keys.

        `ends[i]`, if given, holds every key that can be the last one robot i collects
        (the caller's proof); it is used for robots alone in their component.
        """
        total = 0
        # with one component every call is a new (rank, keys) pair: no memo to pay for
        memo = self._memo if len(self.groups) > 1 else {}
        for robots, keys, spanning in self.groups:
            left = remaining & keys
            if not left:
                continue
            if len(robots) == 1:
                robot = robots[0]
                end = left if ends is None else ends[robot] & left or left
                key: tuple[int | tuple[int, ...], ...] = (ranks[robot], left, end)
                walk = memo.get(key)
                if walk is None:
                    walk = self._tree_walk(bridge_rows[robot], ranks[robot], left, end)
                    if spanning:
                        bits, tree = self._tree(left)
                        walk = max(walk, min(map(rows[robot].__getitem__, bits)) + tree)
                    memo[key] = walk
            else:
                key = (tuple(ranks[i] for i in robots), left)
                walk = memo.get(key)
                if walk is None:
                    bits, _ = self._tree(left)
                    walk = memo[key] = self._prim(bits, [min(rows[i][k] for i in robots) for k in bits], first=None)
            total += walk
        return total

    def _slack(self, keys: int) -> int:
        """How far bridge distance falls short of distance between the keys of `keys`."""
        bits = [k for k in range(keys.bit_length()) if keys >> k & 1]
        return max((self._distances[a][b] - self._bridges[a][b] for a in bits for b in bits), default=0)

    def _tree_walk(self, row: Sequence[int], rank: int, mask: int, ends: int) -> int:
        """``2 w(T) - max_e d(p, e)`` over possible last keys `e` of `ends`, in bridge distance."""
        known = self._cycles.get(mask)
        if known is None:
            ring = [k for k in self._by_rank if mask >> k & 1]
            ranks = [self._ranks[k] for k in ring]
            around = sum(self._bridges[a][b] for a, b in zip(ring, ring[1:] + ring[:1], strict=True))
            known = self._cycles[mask] = (tuple(ring), ranks, around)
        order, ranks, around = known
        at = bisect_left(ranks, rank)
        before, after = order[at - 1], order[at % len(order)]
        around += row[before] + row[after] - self._bridges[before][after]
        if ends == mask:
            return around - max(map(row.__getitem__, order))
        return around - max(row[k] for k in order if ends >> k & 1)

    def _tree(self, mask: int) -> tuple[tuple[int, ...], int]:
        """The key bits of `mask` and the weight of their minimum spanning tree (memoised)."""
        known = self._trees.get(mask)
        if known is None:
            bits = tuple(k for k in range(mask.bit_length()) if mask >> k & 1)
            known = self._trees[mask] = (bits, self._prim(bits, [], first=0))
        return known

    def _prim(self, bits: tuple[int, ...], attach: list[int], first: int | None) -> int:
        """Prim's algorithm; `attach[i]` is key ``bits[i]``'s distance to the tree so far.

        With `first` set, the tree starts at that key (`attach` is recomputed);
        otherwise it starts at the super node whose distances `attach` holds.
        """
        distances = self._distances
        left = list(bits)
        if first is not None:
            start = left.pop(first)
            attach = [distances[start][k] for k in left]
        else:
            attach = list(attach)
        weight = 0
        while left:
            nearest = min(attach)
            at = attach.index(nearest)
            weight += nearest
            row = distances[left.pop(at)]
            del attach[at]
            attach = [a if a < row[k] else row[k] for a, k in zip(attach, left, strict=True)]
        return weight
