"""The contracted vault: Pareto-optimal routes between robot starts and keys.

Nodes are the robot start cells followed by the key cells (keys in alphabetical
order, key ``k`` is bit ``k`` of a key mask).  A `Route` from node u to key node v
is a walk that needs a set of keys: the keys of the doors it crosses and the keys it
walks over before v.  Requiring the walked-over keys keeps the contraction exact: a
walk over an uncollected key collects it, so an optimal plan always splits there.

Between two nodes we keep every Pareto-optimal route over (length, needed keys):
with cycles, the shortest route may need doors that a longer one avoids
(``examples/keys/loop-1.txt``).

How (for speed): the grid is first compressed into a corridor graph
(`corridor_graph`): dead-end branches holding no key or robot are pruned (a walk
into one and back is longer and needs no fewer keys, so it is never Pareto-optimal),
and maximal runs of plain floor cells of degree two become weighted edges between
the remaining junctions, dead ends, keys, doors and robot starts.  The Pareto label
search (Dijkstra by length, a label dominated by an earlier one at the same node
that needs a subset of its keys) then runs on that small graph.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, partial

from crosscheck.models.keys.model import DIRECTIONS, FLOOR, WALL, Cell, Vault, door_key
from crosscheck.solvers.base import Deadline

#: How many nodes or labels a contraction's loops take between two deadline checks.
CHECK_EVERY = 4096


@dataclass(frozen=True)
class Route:
    """A walk from a node to key node `target` of `length` moves.

    `needs` is the mask of keys that must be held before it is walked; `path` the
    directions (``N``/``S``/``E``/``W``) from the start cell to the key cell, spelled by
    `spell` when first read (most routes are never walked).
    """

    target: int
    length: int
    needs: int
    spell: Callable[[], str] = field(compare=False, repr=False)

    @cached_property
    def path(self) -> str:
        return self.spell()


@dataclass(frozen=True)
class ContractedVault:
    """Nodes and routes of a vault.

    `cells[i]` is node i's cell; nodes ``0 .. robots-1`` are robot starts, then one
    node per key in `letters` order (key bit ``k`` is node ``robots + k``).
    `routes[u]` lists the Pareto-optimal routes from node u to every key node.
    """

    letters: str
    cells: tuple[Cell, ...]
    robots: int
    routes: tuple[tuple[Route, ...], ...]
    #: the corridor graph the routes were found on, and each node's vertex in it
    graph: CorridorGraph
    graph_nodes: tuple[int, ...]

    @property
    def all_keys(self) -> int:
        return (1 << len(self.letters)) - 1

    def key_node(self, bit: int) -> int:
        return self.robots + bit


@dataclass
class CorridorGraph:
    """The compressed grid.

    `cells[n]` is graph node n's cell; `door[n]` the key bit its door needs (0 if no
    door); `key[n]` the key bit found there (0 if none); `edges[n]` lists
    (neighbour, length, directions) for the shortest corridor to each neighbour;
    `corridors` lists every corridor once as (node, other node, length), parallel ones
    included (they close a cycle), corridors back to their own start left out.
    """

    cells: list[Cell]
    index: dict[Cell, int]
    door: list[int]
    key: list[int]
    edges: list[list[tuple[int, int, str]]]
    corridors: list[tuple[int, int, int]]


def contract(vault: Vault, deadline: Deadline | None = None) -> ContractedVault:
    """Build the contracted vault: one Pareto search per node on the corridor graph, within
    `deadline` (`crosscheck.solvers.base.LimitReached` once it passes)."""
    deadline = deadline or Deadline(None)
    letters = vault.letters
    bit_of = vault.key_bits()
    cells = tuple(vault.robots) + tuple(vault.keys[letter] for letter in letters)
    robots = len(vault.robots)
    graph = corridor_graph(vault, bit_of, set(cells), deadline)
    node_of_graph = {graph.index[cell]: node for node, cell in enumerate(cells) if node >= robots}
    routes = tuple(
        tuple(_pareto_routes(graph, graph.index[cell], node_of_graph, deadline))
        for cell in cells
    )
    return ContractedVault(
        letters=letters, cells=cells, robots=robots, routes=routes, graph=graph,
        graph_nodes=tuple(graph.index[cell] for cell in cells),
    )


def corridor_graph(vault: Vault, bit_of: dict[str, int], keep: set[Cell], deadline: Deadline) -> CorridorGraph:
    """Compress the grid's open cells into junctions, dead ends, keys, doors and starts (within `deadline`).

    Cells are flat indices ``(r + 1) * (width + 1) + c`` of the grid padded with a wall
    row above and below and a wall column on the right, so a neighbour is one addition
    away and never off the grid.
    """
    stride = vault.width + 1
    wall_row = WALL * stride
    flat = wall_row + "".join(row.ljust(vault.width, WALL) + WALL for row in vault.rows) + wall_row
    passable = {char for char in set(flat) if vault.passable(char)}
    is_open = [char in passable for char in flat]
    kept = {(r + 1) * stride + c for r, c in keep}
    steps = [(direction, dr * stride + dc) for direction, (dr, dc) in DIRECTIONS.items()]
    degree = _prune_dead_ends(is_open, kept, [offset for _, offset in steps])
    deadline.check("contracting the grid")
    nodes = [
        i for i, here in enumerate(is_open) if here and (i in kept or flat[i] != FLOOR or degree[i] != 2)
    ]
    index = {i: n for n, i in enumerate(nodes)}
    cells = [(i // stride - 1, i % stride) for i in nodes]
    door, key = [], []
    for i in nodes:
        door.append(bit_of.get(door_key(flat[i]) or "", 0))
        key.append(bit_of.get(flat[i], 0))
    edges: list[list[tuple[int, int, str]]] = []
    corridors: list[tuple[int, int, int]] = []
    for n, start in enumerate(nodes):
        if n % CHECK_EVERY == 0:
            deadline.check("contracting the grid")
        best: dict[int, tuple[int, str]] = {}
        for direction, offset in steps:
            if not is_open[start + offset]:
                continue
            path, previous, cell = [direction], start, start + offset
            while cell not in index:  # a corridor cell: exactly two open neighbours
                for turn, shift in steps:  # noqa: B007 (the turn taken is the one the loop breaks on)
                    if cell + shift != previous and is_open[cell + shift]:
                        break
                path.append(turn)
                previous, cell = cell, cell + shift
            target = index[cell]
            if target > n:
                corridors.append((n, target, len(path)))
            if target != n and (target not in best or len(path) < best[target][0]):
                best[target] = (len(path), "".join(path))
        edges.append([(target, length, path) for target, (length, path) in best.items()])
    return CorridorGraph(cells, {cell: n for n, cell in enumerate(cells)}, door, key, edges, corridors)


def _prune_dead_ends(is_open: list[bool], kept: set[int], offsets: list[int]) -> list[int]:
    """Close (in `is_open`) the dead-end branches that hold no cell of `kept`; return
    every cell's number of open neighbours afterwards (valid for open cells)."""
    degree = [0] * len(is_open)
    stack = []
    north, south, east, west = offsets
    for i, here in enumerate(is_open):
        if here:
            degree[i] = is_open[i + north] + is_open[i + south] + is_open[i + east] + is_open[i + west]
            if degree[i] <= 1 and i not in kept:
                stack.append(i)
    while stack:
        cell = stack.pop()
        if not is_open[cell]:
            continue
        is_open[cell] = False
        for offset in offsets:
            other = cell + offset
            if is_open[other]:
                degree[other] -= 1
                if degree[other] <= 1 and other not in kept:
                    stack.append(other)
    return degree


def _pareto_routes(graph: CorridorGraph, source: int, node_of_graph: dict[int, int], deadline: Deadline) -> list[Route]:
    """Dijkstra over (graph node, needed keys) labels, keeping non-dominated labels.

    Labels leave the heap in order of length, then of keys needed, so a label is
    dominated iff a label settled earlier at its node needs a subset of its keys.  A settled label at a key
    node yields a route to it; walking on from there adds that key to the needs.
    """
    edges, door, key = graph.edges, graph.door, graph.key
    # Each label: (graph node, needs, parent label index, directions into the node).
    labels: list[tuple[int, int, int, str]] = [(source, 0, -1, "")]
    settled: list[list[int]] = [[] for _ in edges]  # per graph node, the needs of its settled labels
    # (length, number of keys needed, label index): among labels of equal length a
    # subset of needs leaves first, so settling never keeps a dominated label.
    heap: list[tuple[int, int, int]] = [(0, 0, 0)]
    found: list[Route] = []
    popped = 0
    while heap:
        popped += 1
        if popped % CHECK_EVERY == 0:
            deadline.check("finding the Pareto routes")
        length, _, index = heapq.heappop(heap)
        node, needs, _, _ = labels[index]
        earlier = settled[node]
        if _dominated(earlier, needs):
            continue
        earlier.append(needs)
        if node != source and key[node]:
            found.append(Route(node_of_graph[node], length, needs, partial(_path, labels, index)))
            needs |= key[node]
        for target, step, path in edges[node]:
            next_needs = needs | door[target]
            if _dominated(settled[target], next_needs):
                continue
            labels.append((target, next_needs, index, path))
            heapq.heappush(heap, (length + step, next_needs.bit_count(), len(labels) - 1))
    return found


def _dominated(earlier: list[int], needs: int) -> bool:
    """Whether one of the `earlier` needs is a subset of `needs`."""
    for other in earlier:
        if other & needs == other:
            return True
    return False


def _path(labels: list[tuple[int, int, int, str]], index: int) -> str:
    pieces = []
    while labels[index][2] != -1:
        pieces.append(labels[index][3])
        index = labels[index][2]
    return "".join(reversed(pieces))
