"""Admissible lower bounds on the moves still needed to collect the remaining keys.

Both key-vault searches use them, each with distances it computes itself (the grid
search from breadth-first searches over cells, the graph search from its routes), so
neither depends on the other's model of the vault.

Why they never overestimate.  Distances `d` ignore doors (a door only ever makes a walk
longer), so every walk between two cells is at least `d` long.  Robots that cannot
reach each other's keys even with every door open (different components) work
independently, so their bounds add up.  Per component:

- One robot at `p`, component a tree (no cycles with every door open): the robot's walk
  starts at `p`, visits every remaining key and ends at some remaining key `e`.  It
  covers the Steiner tree `T` of `p` and the keys; every edge of `T` off the path from
  `p` to `e` is walked at least twice (in and back out), so the walk is at least
  ``2 w(T) - d(p, e) >= 2 w(T) - max_k d(p, k)``.  In a tree, ``2 w(T)`` is the sum of
  the distances between cyclically consecutive terminals in depth-first preorder.
- One robot at `p`, component with cycles: the robot visits the remaining keys ``R`` in
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
from dataclasses import dataclass
from typing import Sequence

from models.keys import DIRECTIONS, WALL, Cell, Vault

#: Distance between points that cannot reach each other even with every door open.
UNREACHABLE = 1 << 30


@dataclass(frozen=True)
class DoorFreeLayout:
    """The vault's open cells with every (existing key's) door open.

    `rank[cell]` is the cell's depth-first preorder number, `component[cell]` its
    component id and `tree[c]` whether component c has no cycle.
    """

    rank: dict[Cell, int]
    component: dict[Cell, int]
    tree: list[bool]


def door_free_layout(vault: Vault) -> DoorFreeLayout:
    """Depth-first preorder, components and tree test of the door-free grid."""
    keys = set(vault.keys)

    def passable(cell: Cell) -> bool:
        char = vault.at(cell)
        return char != WALL and not (char.isupper() and char.lower() not in keys)

    rank: dict[Cell, int] = {}
    component: dict[Cell, int] = {}
    tree: list[bool] = []
    for r in range(vault.height):
        for c in range(vault.width):
            if (r, c) in rank or not passable((r, c)):
                continue
            label, cells, pairs = len(tree), 0, 0
            stack = [(r, c)]
            while stack:
                cell = stack.pop()
                if cell in rank:
                    continue
                rank[cell], component[cell] = len(rank), label
                cells += 1
                for dr, dc in DIRECTIONS.values():
                    other = (cell[0] + dr, cell[1] + dc)
                    if passable(other):
                        pairs += 1
                        if other not in rank:
                            stack.append(other)
            tree.append(pairs // 2 == cells - 1)
    return DoorFreeLayout(rank, component, tree)


class RemainingKeysBound:
    """``bound(rows, remaining, ranks)``: a lower bound on the moves to collect `remaining`.

    Args:
        key_distances: ``key_distances[k][j]``, door-free walking distance between keys
            k and j (`UNREACHABLE` if none).
        robot_keys: ``robot_keys[i]``, the mask of keys robot i can reach with every
            door open (robots with equal masks share a component).
        in_tree: ``in_tree[i]``, whether robot i's door-free component has no cycle.
        key_ranks: ``key_ranks[k]``, key k's `DoorFreeLayout.rank`.
    `rows[i]` passed to `bound` lists robot i's door-free distance to every key and
    `ranks[i]` the rank of its cell.
    """

    def __init__(
        self,
        key_distances: Sequence[Sequence[int]],
        robot_keys: Sequence[int],
        in_tree: Sequence[bool],
        key_ranks: Sequence[int],
    ) -> None:
        self._distances = [list(row) for row in key_distances]
        for k, row in enumerate(self._distances):
            row[k] = 0
        self._ranks = list(key_ranks)
        groups: dict[int, list[int]] = {}
        for robot, keys in enumerate(robot_keys):
            if keys:
                groups.setdefault(keys, []).append(robot)
        # (robots, keys, kind): kind 0 = one robot in a tree, 1 = one robot, 2 = several
        self.groups = [
            (tuple(robots), keys, 2 if len(robots) > 1 else (0 if in_tree[robots[0]] else 1))
            for keys, robots in groups.items()
        ]
        self._trees: dict[int, tuple[tuple[int, ...], int]] = {}
        self._cycles: dict[int, tuple[tuple[int, ...], list[int], int]] = {}

    def bound(self, rows: Sequence[Sequence[int]], remaining: int, ranks: Sequence[int]) -> int:
        total = 0
        for robots, keys, kind in self.groups:
            left = remaining & keys
            if not left:
                continue
            if kind == 0:
                total += self._tree_walk(rows[robots[0]], ranks[robots[0]], left)
            elif kind == 1:
                bits, tree = self._tree(left)
                row = rows[robots[0]]
                total += min(row[k] for k in bits) + tree
            else:
                bits, _ = self._tree(left)
                total += self._prim(bits, [min(rows[i][k] for i in robots) for k in bits], first=None)
        return total

    def _tree_walk(self, row: Sequence[int], rank: int, mask: int) -> int:
        """``2 w(T) - max_k d(p, k)`` for the robot at rank `rank` in a tree component."""
        known = self._cycles.get(mask)
        if known is None:
            order = sorted((k for k in range(mask.bit_length()) if mask >> k & 1), key=self._ranks.__getitem__)
            ranks = [self._ranks[k] for k in order]
            around = sum(self._distances[a][b] for a, b in zip(order, order[1:] + order[:1]))
            known = self._cycles[mask] = (tuple(order), ranks, around)
        order, ranks, around = known
        at = bisect_left(ranks, rank)
        before, after = order[at - 1], order[at % len(order)]
        around += row[before] + row[after] - self._distances[before][after]
        return around - max(row[k] for k in order)

    def _tree(self, mask: int) -> tuple[tuple[int, ...], int]:
        """The key bits of `mask` and the weight of their minimum spanning tree (memoised)."""
        known = self._trees.get(mask)
        if known is None:
            bits = tuple(k for k in range(mask.bit_length()) if mask >> k & 1)
            known = self._trees[mask] = (bits, self._prim(bits, [], first=0))
        return known

    def _prim(self, bits: tuple[int, ...], attach: list[int], first: int | None) -> int:
        """Prim's algorithm; `attach[i]` is key i's distance to the tree started so far.

        With `first` set, the tree starts at that key (`attach` is recomputed);
        otherwise it starts at the super node whose distances `attach` holds.
        """
        left = list(range(len(bits)))
        weight = 0
        if first is not None:
            left.remove(first)
            attach = [self._distances[bits[first]][bits[i]] for i in range(len(bits))]
        while left:
            nearest = min(left, key=attach.__getitem__)
            weight += attach[nearest]
            left.remove(nearest)
            row = self._distances[bits[nearest]]
            for i in left:
                if row[bits[i]] < attach[i]:
                    attach[i] = row[bits[i]]
        return weight
