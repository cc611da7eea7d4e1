"""A lower bound on the moves still needed, from a packing of edge-disjoint cuts of the grid.

The relaxation: every door opens (a door only ever makes a walk longer).  A cut is a
set of edges whose removal splits a component of this door-free grid into two sides.
If the cuts of a family share no edge, a walk is at least as long as the sum, over the
cuts, of the number of times it crosses each (every crossing is a move over an edge of
that cut, and no move counts for two cuts).  A robot that starts on one side of a cut
and must collect a key on the other side crosses the cut at least once, and at least
twice unless its walk ends on the far side; a walk ends at the last key it collects.
So one robot at `p` with remaining keys `R` needs at least

    2 * sum(w(C) for C that have a key of R on the side away from p) - max(d(p, e) for e in R)

where d(p, e) sums the weights of the cuts that separate p from e (every such cut has
e, a key of R, away from p).  Several robots in one component: a cut with keys of R on
a side that holds no robot is crossed at least once.

The family (built per component from a breadth-first spanning tree and its
non-tree edges; nothing here is shared with another formulation):

- every bridge (a tree edge on no cycle) is a cut of its own;
- every 2-edge-connected block ``B`` with more than one cell contributes its level
  cuts: with levels ``l(v)`` the breadth-first distances inside ``B`` from its cell
  nearest to the tree root, cut ``r`` separates the cells whose attachment to ``B``
  has level at most ``r`` from the rest.  Whatever hangs off ``B`` hangs off one cell
  of ``B`` (its attachment; otherwise it would lie on a cycle through ``B``), so cut
  ``r`` consists exactly of the edges of ``B`` between levels ``r`` and ``r + 1``:
  the level cuts of a block share no edge with each other, with bridges or with other
  blocks.  A cycle of length L thus counts as about L/2 cuts instead of one point.

Doors enter through the keys needed first: from a robot's terminal `p`, key `x` is
needed before key `k` when removing the cell of door X (or of key x) disconnects `p`
from `k` in the door-free grid; with the robot alone in its component, only it can
pick `x` up.  A needed key is not the last one; and a cut whose near side holds a
remaining key that needs a remaining key on the far side is crossed out and back
first, so at least three times if the walk ends on the far side (``+w`` instead of
``-w`` in the end term); if moreover a remaining far key needs that near key, the walk
goes out, back and out again: four crossings if it ends on the near side, three if not.

Only the sides' terminals matter (robot starts and keys: robots stand only on
them), so cuts with equal terminal sides are merged into one with summed weight.
"""

from __future__ import annotations

from collections import defaultdict

from crosscheck.solvers.base import Deadline
from crosscheck.solvers.keys.grid_walks import CHECK_LAYERS, CellGraph

#: A cut: (terminals on one side as a bit mask, weight).
Cut = tuple[int, int]


class CutBound:
    """Lower bounds on the moves that remain, for robots standing on terminals.

    Terminal ``i`` is the key with bit ``1 << i`` for ``i < keys`` and the robot start
    ``i - keys`` after them.  `bound(terminals, remaining)` takes each robot's terminal.
    """

    def __init__(self, graph: CellGraph, deadline: Deadline | None = None) -> None:
        deadline = deadline or Deadline(None)
        self.keys = len(graph.key_cells)
        self.key_mask = (1 << self.keys) - 1
        cells = graph.key_cells + graph.starts
        forest = _SpanningForest(graph, cells, deadline)
        self.component = [forest.root_of[cell] for cell in cells]
        #: per component root: (terminal mask of the component, merged cuts)
        self.cuts: dict[int, tuple[int, list[Cut]]] = {}
        forest_cuts = forest.cuts(deadline)
        for root in dict.fromkeys(self.component):  # a component of one cell has no cut
            cuts = forest_cuts.get(root, [])
            members = sum(1 << t for t, comp in enumerate(self.component) if comp == root)
            merged: dict[int, int] = defaultdict(int)
            for side, weight in cuts:
                side = min(side, members & ~side)  # one name per pair of sides
                if side and members & ~side:
                    merged[side] += weight
            self.cuts[root] = (members, sorted(merged.items()))
        # far[t]: per cut, the keys on the side away from terminal t, and the cut's weight
        self.far: list[list[Cut]] = []
        # separation[t][k]: total weight of the cuts separating terminal t from key k
        self.separation: list[list[int]] = []
        for terminal, root in enumerate(self.component):
            members, cuts = self.cuts[root]
            far: dict[int, int] = defaultdict(int)
            for side, weight in cuts:
                away = side if not side >> terminal & 1 else members & ~side
                if away & self.key_mask:
                    far[away & self.key_mask] += weight
            self.far.append(sorted(far.items()))
            self.separation.append(
                [sum(weight for away, weight in far.items() if away >> k & 1) for k in range(self.keys)]
            )
        self.needs = _needs(graph, cells, self.component, deadline)
        # near[t]: the keys of t's component (the near side of a cut is these minus its far keys)
        self.near = [
            sum(1 << k for k in range(self.keys) if self.component[k] == root) for root in self.component
        ]

    @property
    def robots_alone(self) -> bool:
        """Whether every robot is alone in its component (robots only stand on their start's)."""
        starts = self.component[self.keys:]
        return len(set(starts)) == len(starts)

    def bound(self, terminals: list[int], remaining: int) -> int:
        """A lower bound on the moves that collect the keys `remaining` from `terminals`."""
        if len({self.component[t] for t in terminals}) == len(terminals):
            return sum(self.alone(t, remaining) for t in terminals)
        total = 0
        for root, (members, cuts) in self.cuts.items():
            robots = sum(1 << t for t in terminals if self.component[t] == root)
            if not robots:
                continue
            for side, weight in cuts:
                for part in (side, members & ~side):
                    if part & remaining and not part & robots:
                        total += weight
                        break
        return total

    def alone(self, terminal: int, remaining: int) -> int:
        """The bound for one robot that is alone in its component.

        Refined by the keys that must be held first (`needs`): such a key is not the
        last one, and a cut with a remaining key on the near side that needs one on the
        far side is crossed out and back before the walk can end anywhere: at least
        three times if the walk ends on the far side; and if a far key needs that near
        key in turn, out, back and out again: four times if it ends on the near side.
        """
        if not remaining:
            return 0
        needs, near_keys = self.needs[terminal], self.near[terminal]
        needers = []  # (key, what it needs first) for the remaining keys that need some
        needed, rest = 0, remaining
        while rest:
            low = rest & -rest
            first = needs[low.bit_length() - 1] & remaining & ~low
            if first:
                needers.append((low, first))
                needed |= first
            rest ^= low
        # (key, what it needs first, the keys that need it)
        chained = [(key, first, sum(other for other, before in needers if before & key)) for key, first in needers]
        crossings = 0
        ordered = []  # the active cuts crossed out and back before any end: (far keys, weight)
        for away, weight in self.far[terminal]:
            if away & remaining:
                crossings += weight
                near = near_keys & ~away
                back = [after for key, first, after in chained if key & near and first & away]
                if any(after & away for after in back):
                    crossings += weight  # far, near, far: out, back and out again before any end
                elif back:
                    ordered.append((away, weight))
        separation = self.separation[terminal]
        last = 0
        rest = remaining & ~needed
        while rest:
            low = rest & -rest
            saving = separation[low.bit_length() - 1]
            for away, weight in ordered:
                if away & low:
                    saving -= 2 * weight
            if saving > last:
                last = saving
            rest ^= low
        return 2 * crossings - last


def _needs(graph: CellGraph, terminals: list[int], component: list[int], deadline: Deadline) -> list[list[int]]:
    """needs[t][k]: the keys of t's component that a robot at terminal t holds before it reaches key k.

    A door or key cell that every door-free walk from t to k crosses (removing it
    disconnects them) must be passed with its key held: a key of t's component that
    only a robot alone there can pick up.  Found by a flood fill around each such cell.
    """
    keys = len(graph.key_cells)
    needs = [[0] * keys for _ in terminals]
    at = {cell: t for t, cell in enumerate(terminals)}
    for cell, letter in enumerate(graph.letter):
        if not letter or not graph.walkable[cell]:
            continue
        side: dict[int, int] = {}  # terminal -> which neighbour of the removed cell reaches it
        seen = {cell}
        for label, start in enumerate(graph.neighbours[cell]):
            frontier = [start] if start not in seen else []
            seen.update(frontier)
            layer = 0
            while frontier:
                layer += 1
                if layer % CHECK_LAYERS == 0:
                    deadline.check("finding the keys each key needs")
                following: list[int] = []
                for here in frontier:
                    if here in at:
                        side[at[here]] = label
                    following.extend(other for other in graph.neighbours[here] if other not in seen)
                    seen.update(graph.neighbours[here])
                frontier = following
        for t, t_side in side.items():
            for k, k_side in side.items():
                if k < keys and k_side != t_side:
                    needs[t][k] |= letter
    for t, row in enumerate(needs):
        same = sum(1 << k for k in range(keys) if component[k] == component[t])
        needs[t] = [mask & same for mask in row]
    return needs


class _SpanningForest:
    """A breadth-first spanning forest of the door-free grid, rooted at terminals."""

    def __init__(self, graph: CellGraph, terminals: list[int], deadline: Deadline) -> None:
        self.graph = graph
        self.terminals = terminals
        self.parent: dict[int, int] = {}
        self.depth: dict[int, int] = {}
        self.root_of: dict[int, int] = {}
        self.order: list[int] = []
        for root in terminals:
            if root in self.parent:
                continue
            self.parent[root], self.depth[root], self.root_of[root] = root, 0, root
            frontier = [root]
            self.order.append(root)
            while frontier:
                following = []
                for cell in frontier:
                    for other in graph.neighbours[cell]:
                        if other not in self.parent:
                            self.parent[other], self.depth[other] = cell, self.depth[cell] + 1
                            self.root_of[other] = root
                            following.append(other)
                self.order.extend(following)
                frontier = following
        deadline.check("spanning the grid")
        self.block = self._blocks()

    def _blocks(self) -> dict[int, int]:
        """Union the cells of every fundamental cycle: the 2-edge-connected blocks (cell -> label)."""
        label = {cell: cell for cell in self.order}

        def find(cell: int) -> int:
            while label[cell] != cell:
                label[cell] = label[label[cell]]
                cell = label[cell]
            return cell

        for u in self.order:
            for v in self.graph.neighbours[u]:
                if u < v and self.parent[v] != u and self.parent[u] != v:
                    a, b = u, v
                    while a != b:  # climb to the lowest common ancestor, joining the cycle
                        if self.depth[a] < self.depth[b]:
                            a, b = b, a
                        label[find(a)] = find(self.parent[a])
                        a = self.parent[a]
                    label[find(u)] = find(v)
        return {cell: find(cell) for cell in self.order}

    def cuts(self, deadline: Deadline) -> dict[int, list[Cut]]:
        """Per component root, the bridge cuts and the blocks' level cuts (terminal masks, weight 1),
        within `deadline`."""
        below: dict[int, int] = defaultdict(int)  # terminal mask of each cell's subtree
        for t, cell in enumerate(self.terminals):
            below[cell] |= 1 << t
        result: dict[int, list[Cut]] = defaultdict(list)
        for cell in reversed(self.order):
            up = self.parent[cell]
            if up != cell:
                below[up] |= below[cell]
                if self.block[up] != self.block[cell]:  # a tree edge between blocks is a bridge
                    result[self.root_of[cell]].append((below[cell], 1))
        members: dict[int, list[int]] = defaultdict(list)
        for cell in self.order:
            members[self.block[cell]].append(cell)
        for cells in members.values():
            deadline.check("finding the grid's cuts")
            if len(cells) > 1:
                result[self.root_of[cells[0]]].extend(self._level_cuts(cells))
        return result

    def _level_cuts(self, cells: list[int]) -> list[Cut]:
        """The level cuts of one block (`cells` in breadth-first order, so the first is its top)."""
        block = self.block[cells[0]]
        level = {cells[0]: 0}
        frontier = [cells[0]]
        while frontier:
            following = []
            for cell in frontier:
                for other in self.graph.neighbours[cell]:
                    if other not in level and self.block[other] == block:
                        level[other] = level[cell] + 1
                        following.append(other)
            frontier = following
        attached = [0] * (max(level.values()) + 1)  # terminals by the level of their attachment
        for t, cell in enumerate(self.terminals):
            if self.root_of[cell] != self.root_of[cells[0]]:
                continue
            while self.block[cell] != block and self.parent[cell] != cell:
                cell = self.parent[cell]
            attached[level.get(cell, 0)] |= 1 << t  # a root path that misses the block enters at its top
        cuts, inside = [], 0
        for r in range(len(attached) - 1):
            inside |= attached[r]
            cuts.append((inside, 1))
        return cuts
