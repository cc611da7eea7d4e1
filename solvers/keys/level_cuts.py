"""Level cuts: lower bounds on a lone robot's walk, cycles included (keys-cpsat's own).

Take the robot's component of passable cells (a door counts as passable when its key
exists, so every real walk stays inside it), and `dist`, the breadth-first distance
from the robot's start ignoring doors.  For every level ``r >= 1``, split the cells
with ``dist >= r`` into connected components; every such component ``C`` that holds a
key is a *level cut*, with key set ``keys(C)``.

Claim: if no other robot starts in the component, the robot's walk, which starts at
its start and ends on its last key ``e``, crosses the boundary of every level cut ``C``
at least ``2 - [e in C]`` times, and the boundaries of distinct level cuts share no
edge.

Proof.  The robot must collect every key of its component (no other robot can reach
them).  ``C`` does not hold the start (``dist = 0 < r``) but holds a key, so the walk
crosses its boundary once to get in, and once more to get out unless it ends in ``C``.
An edge leaving ``C`` (level r) joins a cell of ``C`` to a cell with ``dist < r`` (a
neighbour with ``dist >= r`` would lie in ``C``), and distances of neighbours differ by
at most one, so the edge joins levels ``r - 1`` and ``r``: it belongs to level r only,
and there to the one component holding its far end.

Use in the model: the walk is the chosen routes one after the other, so for each key
set ``A`` shared by ``m`` level cuts, the chosen routes' crossings of those cuts'
boundaries (counted along each route's cell path, `LevelCuts.crossings`) number at
least ``m (2 - [e in A])``, since ``e`` lies in a cut with key set ``A`` iff ``e`` is in
``A``.  Summed over the key sets, and as each move crosses at most one boundary, the
walk is at least ``2 N - dist(e)`` long (N level cuts); on a tree that is ``2 W - d(start,
e)``, W the edges of the subtree spanning the start and the keys.  The key sets form a
laminar family (a component of a deeper level lies inside one of a shallower level), so
there are fewer than twice as many as keys.
"""

from __future__ import annotations

from dataclasses import dataclass

from crosscheck.models.keys.model import DIRECTIONS, Cell, Vault
from crosscheck.solvers.base import Deadline
from crosscheck.solvers.keys.routes import ContractedVault


@dataclass(frozen=True)
class LevelCuts:
    """One robot's level cuts.

    `groups[mask]` is the number of level cuts whose key set is `mask` (key bits);
    `distance[cell]` is dist(start, cell) over the component; `inner[cell]` the key set
    of the level cut holding `cell` at its own level (0 when that component holds no key).
    """

    groups: dict[int, int]
    distance: dict[Cell, int]
    inner: dict[Cell, int]

    def crossings(self, start: Cell, path: str) -> dict[int, int]:
        """Per key set, how many times the walk `path` from `start` crosses a boundary of
        a level cut with that key set."""
        counts: dict[int, int] = {}
        cell = start
        for direction in path:
            dr, dc = DIRECTIONS[direction]
            step = (cell[0] + dr, cell[1] + dc)
            deeper = step if self.distance[step] > self.distance[cell] else cell
            mask = self.inner[deeper] if self.distance[step] != self.distance[cell] else 0
            if mask:
                counts[mask] = counts.get(mask, 0) + 1
            cell = step
        return counts


def level_cuts(vault: Vault, cv: ContractedVault, deadline: Deadline | None = None) -> list[LevelCuts | None]:
    """Per robot, its level cuts, or None when another robot starts in its component; found
    within `deadline` (`crosscheck.solvers.base.LimitReached`)."""
    deadline = deadline or Deadline(None)
    bit_of_cell = {cell: 1 << (node - cv.robots) for node, cell in enumerate(cv.cells) if node >= cv.robots}
    starts = set(cv.cells[:cv.robots])
    result: list[LevelCuts | None] = []
    for robot in range(cv.robots):
        deadline.check("measuring the level cuts' distances")
        distance = _distances(vault, cv.cells[robot])
        if any(cell in distance for cell in starts - {cv.cells[robot]}):
            result.append(None)
            continue
        groups, inner = _cuts(vault, distance, bit_of_cell, deadline)
        result.append(LevelCuts(groups, distance, inner))
    return result


def _neighbours(vault: Vault, cell: Cell) -> list[Cell]:
    return [target for _, target in vault.open_neighbours(cell) if vault.passable(vault.at(target))]


def _distances(vault: Vault, start: Cell) -> dict[Cell, int]:
    """Breadth-first distance from `start` to every cell of its component, doors open."""
    distance = {start: 0}
    order = [start]
    for cell in order:  # `order` grows while we walk it
        for target in _neighbours(vault, cell):
            if target not in distance:
                distance[target] = distance[cell] + 1
                order.append(target)
    return distance


def _cuts(vault: Vault, distance: dict[Cell, int], bit_of_cell: dict[Cell, int],
          deadline: Deadline) -> tuple[dict[int, int], dict[Cell, int]]:
    """The level cuts' key sets with their counts, and each cell's `inner` key set:
    levels from the deepest down, merging components with a union-find."""
    levels: dict[int, list[Cell]] = {}
    for cell, level in distance.items():
        levels.setdefault(level, []).append(cell)
    parent: dict[Cell, Cell] = {}
    mask: dict[Cell, int] = {}

    def find(cell: Cell) -> Cell:
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    groups: dict[int, int] = {}
    inner: dict[Cell, int] = {}
    roots: set[Cell] = set()
    for level in range(max(distance.values()), 0, -1):
        deadline.check("finding the level cuts")
        for cell in levels[level]:
            parent[cell], mask[cell] = cell, bit_of_cell.get(cell, 0)
            roots.add(cell)
        for cell in levels[level]:
            for target in _neighbours(vault, cell):
                low, high = find(cell), find(target) if target in parent else None
                if high is not None and low != high:
                    parent[low] = high
                    mask[high] |= mask[low]
                    roots.discard(low)
        for root in roots:
            if mask[root]:
                groups[mask[root]] = groups.get(mask[root], 0) + 1
        inner.update((cell, mask[find(cell)]) for cell in levels[level])
    return groups, inner
