"""The contracted vault: Pareto-optimal routes between robot starts and keys.

Nodes are the robot start cells followed by the key cells (keys in alphabetical
order, key ``k`` is bit ``k`` of a key mask).  A `Route` from node u to key node v
is a walk that needs a set of keys: the keys of the doors it crosses and the keys it
walks over before v.  Requiring the walked-over keys keeps the contraction exact: a
walk over an uncollected key collects it, so an optimal plan always splits there.

Between two nodes we keep every Pareto-optimal route over (length, needed keys):
with cycles, the shortest route may need doors that a longer one avoids
(``examples/keys/loop-1.txt``).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from models.keys import WALL, Cell, Vault


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


_STEPS = (("N", -1, 0), ("S", 1, 0), ("E", 0, 1), ("W", 0, -1))


def contract(vault: Vault) -> ContractedVault:
    """Build the contracted vault: one Pareto search per node."""
    letters = "".join(sorted(vault.keys))
    bit_of = {letter: 1 << index for index, letter in enumerate(letters)}
    cells = tuple(vault.robots) + tuple(vault.keys[letter] for letter in letters)
    robots = len(vault.robots)
    node_of_key_cell = {cell: robots + index for index, cell in enumerate(cells[robots:])}
    routes = tuple(
        tuple(_pareto_routes(vault, source, bit_of, node_of_key_cell))
        for source in cells
    )
    return ContractedVault(letters=letters, cells=cells, robots=robots, routes=routes)


def _pareto_routes(vault: Vault, source: Cell, bit_of: dict[str, int], node_of_key_cell: dict[Cell, int]) -> list[Route]:
    """Breadth-first over (cell, needed keys) labels, keeping non-dominated labels.

    Labels come out in order of length, so a new label at a cell is dominated iff an
    earlier label there needs a subset of its keys.  A label that reaches a key cell
    yields a route to it; walking on from there adds that key to the needs.
    """
    rows = vault.rows
    # Each label: (cell, needs, parent label index, direction into cell).
    labels: list[tuple[Cell, int, int, str]] = [(source, 0, -1, "")]
    frontier_at: dict[Cell, list[int]] = {source: [0]}
    queue: deque[tuple[int, int]] = deque([(0, 0)])  # (label index, length)
    found: list[Route] = []
    while queue:
        index, length = queue.popleft()
        cell, needs, _, _ = labels[index]
        char = rows[cell[0]][cell[1]]
        if cell != source and char.islower():
            found.append(Route(node_of_key_cell[cell], length, needs, _path(labels, index)))
            needs |= bit_of[char]
        for direction, dr, dc in _STEPS:
            target = (cell[0] + dr, cell[1] + dc)
            if not (0 <= target[0] < len(rows) and 0 <= target[1] < len(rows[0])):
                continue
            next_char = rows[target[0]][target[1]]
            if next_char == WALL:
                continue
            next_needs = needs
            if next_char.isupper():
                door_bit = bit_of.get(next_char.lower())
                if door_bit is None:
                    continue  # a door whose key is not in the grid never opens
                next_needs |= door_bit
            earlier = frontier_at.setdefault(target, [])
            if any(labels[other][1] & next_needs == labels[other][1] for other in earlier):
                continue
            labels.append((target, next_needs, index, direction))
            earlier.append(len(labels) - 1)
            queue.append((len(labels) - 1, length + 1))
    return found


def _path(labels: list[tuple[Cell, int, int, str]], index: int) -> str:
    steps = []
    while labels[index][2] != -1:
        steps.append(labels[index][3])
        index = labels[index][2]
    return "".join(reversed(steps))
