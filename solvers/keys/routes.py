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
(`_corridor_graph`): dead-end branches holding no key or robot are pruned (a walk
into one and back is longer and needs no fewer keys, so it is never Pareto-optimal),
and maximal runs of plain floor cells of degree two become weighted edges between
the remaining junctions, dead ends, keys, doors and robot starts.  The Pareto label
search (Dijkstra by length, a label dominated by an earlier one at the same node
that needs a subset of its keys) then runs on that small graph.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from models.keys import DIRECTIONS, Cell, Vault, door_key


@dataclass(frozen=True)
class Route:
    """A walk from a node to key node `target` of `length` moves.

    `needs` is the mask of keys that must be held before it is walked; `path` the
    directions (``N``/``S``/``E``/``W``) from the start cell to the key cell.
    """

    target: int
    length: int
    needs: int
    path: str


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

    @property
    def all_keys(self) -> int:
        return (1 << len(self.letters)) - 1

    def key_node(self, bit: int) -> int:
        return self.robots + bit


@dataclass
class _CorridorGraph:
    """The compressed grid.

    `cells[n]` is graph node n's cell; `door[n]` the key bit its door needs (0 if no
    door); `key[n]` the key bit found there (0 if none); `edges[n]` lists
    (neighbour, length, directions) for the shortest corridor to each neighbour.
    """

    cells: list[Cell]
    index: dict[Cell, int]
    door: list[int]
    key: list[int]
    edges: list[list[tuple[int, int, str]]]


def contract(vault: Vault) -> ContractedVault:
    """Build the contracted vault: one Pareto search per node on the corridor graph."""
    letters = vault.letters
    bit_of = vault.key_bits()
    cells = tuple(vault.robots) + tuple(vault.keys[letter] for letter in letters)
    robots = len(vault.robots)
    graph = _corridor_graph(vault, bit_of, set(cells))
    node_of_graph = {graph.index[cell]: node for node, cell in enumerate(cells) if node >= robots}
    routes = tuple(
        tuple(_pareto_routes(graph, graph.index[cell], node_of_graph))
        for cell in cells
    )
    return ContractedVault(letters=letters, cells=cells, robots=robots, routes=routes)


def _corridor_graph(vault: Vault, bit_of: dict[str, int], keep: set[Cell]) -> _CorridorGraph:
    """Compress the grid's open cells into junctions, dead ends, keys, doors and starts."""
    rows, height, width = vault.rows, vault.height, vault.width

    def passable(r: int, c: int) -> bool:
        if not (0 <= r < height and 0 <= c < width):
            return False
        return vault.passable(rows[r][c])

    open_cells = {(r, c) for r in range(height) for c in range(width) if passable(r, c)}
    neighbours = {
        (r, c): [(d, (r + dr, c + dc)) for d, (dr, dc) in DIRECTIONS.items() if (r + dr, c + dc) in open_cells]
        for r, c in open_cells
    }
    # Prune dead-end branches that hold neither a key nor a robot start.
    degree = {cell: len(around) for cell, around in neighbours.items()}
    stack = [cell for cell, d in degree.items() if d <= 1 and cell not in keep]
    while stack:
        cell = stack.pop()
        if cell not in open_cells:
            continue
        open_cells.discard(cell)
        for _, other in neighbours[cell]:
            if other in open_cells:
                degree[other] -= 1
                if degree[other] <= 1 and other not in keep:
                    stack.append(other)
    for cell in open_cells:
        neighbours[cell] = [(d, other) for d, other in neighbours[cell] if other in open_cells]

    def is_node(cell: Cell) -> bool:
        return cell in keep or rows[cell[0]][cell[1]] != "." or len(neighbours[cell]) != 2

    cells = sorted(cell for cell in open_cells if is_node(cell))
    index = {cell: n for n, cell in enumerate(cells)}
    door, key = [], []
    for r, c in cells:
        char = rows[r][c]
        door.append(bit_of.get(door_key(char) or "", 0))
        key.append(bit_of.get(char, 0))
    edges: list[list[tuple[int, int, str]]] = []
    for start in cells:
        best: dict[int, tuple[int, str]] = {}
        for direction, cell in neighbours[start]:
            steps, previous = [direction], start
            while not is_node(cell):  # a corridor cell: exactly two neighbours
                (d1, c1), (d2, c2) = neighbours[cell]
                direction, following = (d2, c2) if c1 == previous else (d1, c1)
                steps.append(direction)
                previous, cell = cell, following
            target = index[cell]
            if cell != start and (target not in best or len(steps) < best[target][0]):
                best[target] = (len(steps), "".join(steps))
        edges.append([(target, length, path) for target, (length, path) in best.items()])
    return _CorridorGraph(cells, index, door, key, edges)


def _pareto_routes(graph: _CorridorGraph, source: int, node_of_graph: dict[int, int]) -> list[Route]:
    """Dijkstra over (graph node, needed keys) labels, keeping non-dominated labels.

    Labels leave the heap in order of length, then of keys needed, so a label is
    dominated iff a label settled earlier at its node needs a subset of its keys.  A settled label at a key
    node yields a route to it; walking on from there adds that key to the needs.
    """
    edges, door, key = graph.edges, graph.door, graph.key
    # Each label: (graph node, needs, parent label index, directions into the node).
    labels: list[tuple[int, int, int, str]] = [(source, 0, -1, "")]
    settled: dict[int, list[int]] = {}
    # (length, number of keys needed, label index): among labels of equal length a
    # subset of needs leaves first, so settling never keeps a dominated label.
    heap: list[tuple[int, int, int]] = [(0, 0, 0)]
    found: list[Route] = []
    while heap:
        length, _, index = heapq.heappop(heap)
        node, needs, _, _ = labels[index]
        earlier = settled.setdefault(node, [])
        if any(other & needs == other for other in earlier):
            continue
        earlier.append(needs)
        if node != source and key[node]:
            found.append(Route(node_of_graph[node], length, needs, _path(labels, index)))
            needs |= key[node]
        for target, step, path in edges[node]:
            next_needs = needs | door[target]
            if any(other & next_needs == other for other in settled.get(target, ())):
                continue
            labels.append((target, next_needs, index, path))
            heapq.heappush(heap, (length + step, next_needs.bit_count(), len(labels) - 1))
    return found


def _path(labels: list[tuple[int, int, int, str]], index: int) -> str:
    pieces = []
    while labels[index][2] != -1:
        pieces.append(labels[index][3])
        index = labels[index][2]
    return "".join(reversed(pieces))
