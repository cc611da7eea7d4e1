"""Admissible lower bounds on the moves still needed to collect the remaining keys.

keys-graph uses them, with distances from its routes and the layout (`door_free_layout`)
computed on the corridor graph of `crosscheck.solvers.keys.routes` (so the grid search, keys-grid,
has its own bounds and depends on neither).

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
  that can be last (from the caller's `needers`): a key that every walk from `p` to some
  other remaining key needs (a door on it, or the key lies on it) is collected before
  that key, so it is not last.  The caller must prove "every walk": a key needed only
  by the shortest route to another can still be the last (tests/test_keys_bounds.py).
- One robot at `p`, re-entries (`RemainingKeysBound._reentry`): when key i must be
  collected before j and j before k, a bridge with i and k beyond it and j on this
  side is crossed twice more than the bridge bound counts; the longest such bridge
  path is added.
- One robot at `p`, cycle components (`crosscheck.solvers.keys.cycle_tours.CycleTours`): the
  bridge bound counts only steps across bridges; the steps inside each biconnected component
  with a cycle are bounded separately and added, in one of two ways, the larger taken (each
  proved in `CycleTours`): each component's shortest path from the robot's projection through
  its keys' projections (ending anywhere), with the bridge bound as above; or each
  component's shortest closed tour through them, with the bridges' ``2 w(T)``, less the
  door-free distance ``d(p, e)`` (not only its bridges) to a key that can be last.
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
from typing import NamedTuple

from crosscheck.solvers.keys.cycle_tours import CycleTours, subset_unions

#: Distance between points that cannot reach each other even with every door open.
UNREACHABLE = 1 << 30


#: A corridor of the door-free vault: (vertex, other vertex, length in moves).
Corridor = tuple[int, int, int]


@dataclass(frozen=True)
class DoorFreeLayout:
    """A depth-first search of the vault's corridor graph with every (existing key's) door open.

    Vertices are those of `crosscheck.solvers.keys.routes.CorridorGraph` (junctions, dead ends,
    keys, doors, starts), joined by corridors: runs of grid cells, each walked in
    ``length`` moves.  `rank[v]` is v's preorder number and `component[v]` its
    component id.  `bridge_depth[v]` is the length of the bridge corridors (those on
    no cycle) between v and its component's root: every walk between two vertices
    walks every bridge that separates them end to end, so `bridge_distance` (the
    length of such bridges) is a lower bound on walking distance, and it is a tree
    metric (the tree of 2-edge-connected blocks).  A corridor is a run of grid edges
    that are all bridges or all on one cycle, so these are the grid's blocks and
    bridge lengths.  `parent_depth[i]` is the bridge depth of the parent of the vertex
    ranked i.
    """

    rank: list[int]
    component: list[int]
    bridge_depth: list[int]
    parent_depth: list[int]

    def bridge_distances(self, vertices: Sequence[int]) -> list[list[int]]:
        """Bridge distances between all `vertices` (`UNREACHABLE` across components).

        The deepest common ancestor of two vertices in the search tree has the smallest
        parent bridge depth among the vertices ranked after the first up to the second.
        """
        order = sorted(range(len(vertices)), key=lambda i: self.rank[vertices[i]])
        ranks = [self.rank[vertices[i]] for i in order]
        gaps = [min(self.parent_depth[a + 1 : b + 1], default=UNREACHABLE) for a, b in pairwise(ranks)]
        result = [[UNREACHABLE] * len(vertices) for _ in vertices]
        for a, i in enumerate(order):
            result[i][i] = 0
            common = UNREACHABLE
            for b in range(a + 1, len(order)):
                j = order[b]
                common = min(common, gaps[b - 1])
                if self.component[vertices[i]] == self.component[vertices[j]]:
                    result[i][j] = result[j][i] = (
                        self.bridge_depth[vertices[i]] + self.bridge_depth[vertices[j]] - 2 * common
                    )
        return result


def door_free_layout(vertices: int, corridors: Sequence[Corridor]) -> DoorFreeLayout:
    """Depth-first search with Tarjan's low links to find bridges and bridge depths.

    Roots are taken in vertex order, corridors in the order given.  Parallel corridors
    between two vertices close a cycle: the search skips only the very corridor it
    came in by, so neither is taken for a bridge.
    """
    around: list[list[tuple[int, int, int]]] = [[] for _ in range(vertices)]
    for e, (u, v, length) in enumerate(corridors):
        around[u].append((v, e, length))
        around[v].append((u, e, length))
    search = _LowLinks(around)
    depth, parent_depth = _bridge_tree(search)
    return DoorFreeLayout(search.rank, search.component, depth, parent_depth)


class _LowLinks:
    """An iterative depth-first search of every vertex, roots in index order: preorder
    `order`, `rank`, Tarjan's `low` links, `parent` (-1 for roots) with the corridor
    from it (`via`, its length `step`), and `component` labels."""

    def __init__(self, around: list[list[tuple[int, int, int]]]) -> None:
        size = len(around)
        self.rank, self.low, self.parent, self.component = [-1] * size, [0] * size, [-1] * size, [0] * size
        self.via, self.step = [-1] * size, [0] * size
        self.order: list[int] = []
        roots = 0
        for root in range(size):
            if self.rank[root] < 0:
                self._search(root, roots, around)
                roots += 1

    def _visit(self, vertex: int, parent: int, label: int) -> None:
        self.rank[vertex] = self.low[vertex] = len(self.order)
        self.order.append(vertex)
        self.parent[vertex], self.component[vertex] = parent, label

    def _search(self, root: int, label: int, around: list[list[tuple[int, int, int]]]) -> None:
        self._visit(root, -1, label)
        stack = [(root, iter(around[root]))]
        while stack:
            vertex, corridors = stack[-1]
            for other, e, length in corridors:
                if self.rank[other] < 0:
                    self._visit(other, vertex, label)
                    self.via[other], self.step[other] = e, length
                    stack.append((other, iter(around[other])))
                    break
                if e != self.via[vertex] and self.rank[other] < self.low[vertex]:
                    self.low[vertex] = self.rank[other]
            else:
                stack.pop()
                if stack:
                    above = stack[-1][0]
                    self.low[above] = min(self.low[above], self.low[vertex])


def _bridge_tree(search: _LowLinks) -> tuple[list[int], list[int]]:
    """Bridge depths and parents' bridge depths (by rank).

    The tree corridor from a vertex's parent is a bridge iff no back corridor from the
    vertex's subtree climbs above the vertex (``low > parent's rank``).
    """
    depth = [0] * len(search.parent)
    parent_depth: list[int] = []
    for vertex in search.order:
        above = search.parent[vertex]
        if above < 0:
            parent_depth.append(0)
            continue
        bridge = search.low[vertex] > search.rank[above]
        depth[vertex] = depth[above] + bridge * search.step[vertex]
        parent_depth.append(depth[above])
    return depth, parent_depth


class LoneRobotTables(NamedTuple):
    """What `RemainingKeysBound.walk` reads for a robot alone in its part, for a compiled copy of
    it (`crosscheck.solvers.keys.graph_kernel`); see `RemainingKeysBound.__init__` for each."""

    half: int  # keys on the low side of the ring's split key set
    low: list[int]  # ring-position mask of each subset of the low keys
    high: list[int]  # ... and of the high keys
    slot: list[int]  # per node, the keys ranked before it
    ring_rows: list[list[int]]  # per node, bridge distances by ring position
    ring_bridges: list[list[int]]  # between ring positions
    far: list[list[tuple[int, int, int]]]  # per node, (door-free distance, bit, needers), farthest first
    far_bridges: list[list[tuple[int, int, int]]]  # the same in bridge distance
    triples: list[list[tuple[int, int]]]  # per node, re-entries (twice a length, keys), longest first


class RemainingKeysBound:
    """``bound(nodes, remaining)``: a lower bound on the moves to collect `remaining`.

    Nodes are robot starts ``0 .. robots-1``, then key k is node ``robots + k``.

    Args:
        distances: ``distances[n][k]``, door-free walking distance from node n to key k
            (`UNREACHABLE` if none).
        bridges: the same in bridge distance (`DoorFreeLayout.bridge_distances`).
        ranks: ``ranks[n]``, node n's `DoorFreeLayout.rank`.
        robots: the number of robot nodes.
        needers: ``needers[n][k]``, the mask of keys j that *every* walk from node n to
            j needs key k for (a door on it, or k lies on it): k is collected before
            any of them, so while one of them remains, k is not a robot's last key.
        blocks: a robot alone in its component adds its steps inside cycles (`CycleTours`).
        cyclic: whether the door-free vault has a cycle (`blocks` may leave them out).
    """

    def __init__(
        self,
        distances: Sequence[Sequence[int]],
        bridges: Sequence[Sequence[int]],
        ranks: Sequence[int],
        robots: int,
        needers: Sequence[Sequence[int]],
        blocks: CycleTours,
        cyclic: bool = False,
    ) -> None:
        self.blocks = blocks
        self.cyclic = cyclic
        self._distances = [list(row) for row in distances[robots:]]
        for k, row in enumerate(self._distances):
            row[k] = 0
        self._bridges = [list(row) for row in bridges[robots:]]
        self._bridge_rows = [list(row) for row in bridges]
        self._rows = [list(row) for row in distances]
        self._node_ranks = list(ranks)
        self._ranks = list(ranks[robots:])
        # per node: (twice a bridge path's length, keys i, j, k) forcing a re-entry, longest first
        self._triples = [
            _reentries(self._bridge_rows[n], self._bridges, needers[n]) for n in range(len(needers))
        ]
        # per node: (door-free distance, bit, needers) of every reachable key, farthest first; and by bridge distance
        self._far = [_farthest_first(row, needers[n]) for n, row in enumerate(distances)]
        self._far_bridges = [_farthest_first(row, needers[n]) for n, row in enumerate(self._bridge_rows)]
        groups: dict[int, list[int]] = {}
        for robot in range(robots):
            keys = sum(1 << k for k, d in enumerate(distances[robot]) if d < UNREACHABLE)
            if keys:
                groups.setdefault(keys, []).append(robot)
        self.groups = [(tuple(members), keys) for keys, members in groups.items()]
        # the ring: keys in preorder; a key set as a mask of ring positions (`_ordered`)
        by_rank = sorted(range(len(self._ranks)), key=self._ranks.__getitem__)
        position = {k: i for i, k in enumerate(by_rank)}
        self._half = (len(by_rank) + 1) // 2
        self._low = subset_unions([1 << position[k] for k in range(self._half)])
        self._high = subset_unions([1 << position[k] for k in range(self._half, len(by_rank))])
        self._ring_bridges = [[self._bridges[a][b] for b in by_rank] for a in by_rank]
        sorted_ranks = sorted(self._ranks)
        # per node: its bridge distances by ring position, the keys ranked before it,
        # and its own key's ring position (-1 for a robot start)
        self._ring_rows = [[row[k] for k in by_rank] for row in self._bridge_rows]
        self._slot = [bisect_left(sorted_ranks, rank) for rank in ranks]
        self._own = [-1] * robots + [position[k] for k in range(len(by_rank))]
        self._arounds: dict[int, int] = {}  # bridge length around a ring-position mask

    def bound(self, nodes: Sequence[int], remaining: int) -> int:
        """The bound with robot i on node ``nodes[i]``: the sum of the groups' `walk`s."""
        if len(self.groups) == 1:  # one robot, or all in one part: no sum to build
            return self.walk(0, nodes, remaining)
        return sum(self.walk(group, nodes, remaining) for group in range(len(self.groups)))

    def lone_robot_tables(self) -> LoneRobotTables:
        """The tables `walk` reads for a robot alone in its part (the cycle components' are `blocks`)."""
        return LoneRobotTables(self._half, self._low, self._high, self._slot, self._ring_rows, self._ring_bridges,
                               self._far, self._far_bridges, self._triples)

    def walk(self, group: int, nodes: Sequence[int], remaining: int) -> int:
        """The bound on the moves of the robots of ``groups[group]`` (robot i on node
        ``nodes[i]``) collecting their part of `remaining`; it depends on nothing else,
        so a caller may memoise it on those robots' nodes and keys."""
        robots, keys = self.groups[group]
        left = remaining & keys
        if not left:
            return 0
        if len(robots) == 1:
            node = nodes[robots[0]]
            return self._tree_walk(node, left) + self._reentry(node, left)
        bits = [k for k in range(left.bit_length()) if left >> k & 1]
        attach = [min(self._rows[nodes[i]][k] for i in robots) for k in bits]
        return _prim_rest(self._distances, bits, attach)

    def _tree_walk(self, node: int, mask: int) -> int:
        """The larger of two bounds over possible last keys `e` of `mask`: ``2 w(T)`` plus
        the cycle components' tours less ``max_e d(p, e)``, and ``2 w(T) - max_e b(p, e)``
        (bridge distance) plus the components' open paths (`CycleTours`)."""
        ring = self._low[mask & ((1 << self._half) - 1)] | self._high[mask >> self._half]
        before, after = _neighbours(ring, self._slot[node])
        row = self._ring_rows[node]
        around = self._around(ring, self._own[node]) + row[before] + row[after] - self._ring_bridges[before][after]
        tours, paths = self.blocks.bound(node, mask)
        return around + max(tours - _last(self._far[node], mask), paths - _last(self._far_bridges[node], mask))

    def _reentry(self, node: int, mask: int) -> int:
        """Twice the longest bridge path the robot must cross twice more than the tree walk counts.

        Key i must be collected before j and j before k (i is in the needs of every
        walk from the robot's node p to j, and j in those of every walk from p to k).
        In the tree of blocks rooted at p, a bridge whose far side holds i and k but not
        j is crossed in, out and in again: three times, four if the walk ends on p's
        side, so two more than the tree walk's count (two, or one on the way to the
        last key) whatever the last key.  The bridges above both i and k and not above
        j form the path from where i and k branch off the way to j down to where they
        part; with ``g(x, y) = d(p, x) + d(p, y) - d(x, y)`` (twice the depth of
        where x and y part, in bridge distance), twice its length is
        ``g(i, k) - g(i, j)`` when positive (then ``g(k, j) = g(i, j)``: in a tree the
        two smallest of the three are equal).  Only the longest such path over all
        (i, j, k) is counted, so overlapping paths are never counted twice: the
        triples with a positive path are listed per node, longest first, as (twice the
        length, the mask of i, j and k), and the first one all of whose keys remain wins.
        """
        for twice, keys in self._triples[node]:
            if mask & keys == keys:
                return twice
        return 0

    def _around(self, ring: int, taken: int) -> int:
        """The bridge length around the keys of ring-position mask `ring` (in preorder).

        Memoised per mask.  The robot usually stands on the key it just took (at ring
        position `taken`), so the length around `ring` plus that key is known: take
        the key out between its neighbours.
        """
        known = self._arounds.get(ring)
        if known is not None:
            return known
        larger = self._arounds.get(ring | 1 << taken) if taken >= 0 else None
        between = self._ring_bridges
        if larger is not None:
            before, after = _neighbours(ring, taken)
            known = larger + between[before][after] - between[before][taken] - between[taken][after]
        else:
            keys = [i for i in range(ring.bit_length()) if ring >> i & 1]
            known = sum(between[a][b] for a, b in zip(keys, keys[1:] + keys[:1], strict=True))
        self._arounds[ring] = known
        return known


def _last(far: Sequence[tuple[int, int, int]], mask: int) -> int:
    """The largest distance in `far` (farthest first, as (distance, key bit, needers)) to a key
    of `mask` that can be last: none of `mask`'s keys needs it first (the farthest of `mask` if none can)."""
    farthest = -1
    for distance, bit, needers in far:
        if mask & bit:
            if farthest < 0:
                farthest = distance  # the fallback if no key can be last (no proof then)
            if not mask & needers:
                return distance
    return farthest


def _farthest_first(row: Sequence[int], needers: Sequence[int]) -> list[tuple[int, int, int]]:
    """(distance, bit, needers) of every key of `row` within reach, farthest first."""
    return sorted(((row[k], 1 << k, needers[k]) for k in range(len(row)) if row[k] < UNREACHABLE), reverse=True)


def _neighbours(ring: int, slot: int) -> tuple[int, int]:
    """The set positions of `ring` (not empty) cyclically before and from `slot` on."""
    below = ring & ((1 << slot) - 1)
    above = ring >> slot
    before = (below or ring).bit_length() - 1
    after = slot + (above & -above).bit_length() - 1 if above else (ring & -ring).bit_length() - 1
    return before, after


def _reentries(row: Sequence[int], between: Sequence[Sequence[int]], needers: Sequence[int]) -> list[tuple[int, int]]:
    """For a robot whose bridge distances to the keys are `row`, with `needers` its
    node's proof of order (see `RemainingKeysBound`): every (``g(i, k) - g(i, j)``,
    mask of i, j, k) that is positive, with i before j before k, largest first."""
    befores: list[list[int]] = [[] for _ in needers]
    for i, later in enumerate(needers):
        while later:  # each j that i is needed for, lowest first
            low = later & -later
            befores[low.bit_length() - 1].append(i)
            later ^= low
    triples: list[tuple[int, int]] = []
    for j, after in enumerate(needers):
        if not after or not befores[j]:
            continue
        lasts = [k for k in range(after.bit_length()) if after >> k & 1 and row[k] < UNREACHABLE]
        for i in befores[j]:
            to_i, base = between[i], between[i][j] - row[j]
            triples += [(twice, 1 << i | 1 << j | 1 << k) for k in lasts if (twice := row[k] - to_i[k] + base) > 0]
    triples.sort(reverse=True)
    return triples


def _prim_rest(distances: Sequence[Sequence[int]], left: list[int], attach: list[int]) -> int:
    """Prim's algorithm from a tree whose distance to ``left[i]`` is ``attach[i]``."""
    weight = 0
    while left:
        nearest = min(attach)
        at = attach.index(nearest)
        weight += nearest
        row = distances[left.pop(at)]
        del attach[at]
        attach = [a if a < row[p] else row[p] for a, p in zip(attach, left, strict=True)]
    return weight
