"""``keys-grid``: the classic search over (robot cells, keys held), one cell move at a time.

It deliberately ignores the route contraction (`solvers.keys.routes`) so that it checks
it independently.  States are packed into one int: the low bits hold the key mask,
then each robot's cell index ``row * width + column``.  Every action is one
`KeyMove` of cost 1: onto any non-wall cell, onto a door only while its key is held;
entering a key's cell adds the key.  A* runs on the shared engine with the admissible
`RemainingKeysBound` over door-free breadth-first distances from each key (in moves
and in bridges crossed).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from models.keys import DIRECTIONS, WALL, KeyMove, Vault, collectable_keys
from solvers.base import Answer, Deadline, Solver, Status
from solvers.keys.bounds import UNREACHABLE, RemainingKeysBound, door_free_layout
from solvers.search import SearchProblem, Strategy, best_first_search


class CellProblem(SearchProblem[int, KeyMove]):
    """Collect every key moving robots one cell at a time."""

    def __init__(self, vault: Vault) -> None:
        letters = "".join(sorted(vault.keys))
        bit_of = {letter: 1 << index for index, letter in enumerate(letters)}
        self.keys = len(letters)
        self.goal = (1 << self.keys) - 1
        self.robots = len(vault.robots)
        width = vault.width
        cells = vault.height * width
        self.width = max(1, (cells - 1).bit_length())  # bits per robot cell
        self.cell_mask = (1 << self.width) - 1
        self.starts = [r * width + c for r, c in vault.robots]
        # moves[cell]: (direction, next cell, door key bit or 0, key bit found or 0)
        self.moves: list[list[tuple[str, int, int, int]]] = [[] for _ in range(cells)]
        for r in range(vault.height):
            for c in range(width):
                if vault.rows[r][c] == WALL:
                    continue
                for direction, (dr, dc) in DIRECTIONS.items():
                    char = vault.at((r + dr, c + dc))
                    if char == WALL or (char.isupper() and char.lower() not in bit_of):
                        continue  # a wall, or a door whose key is not in the grid
                    door = bit_of[char.lower()] if char.isupper() else 0
                    key = bit_of[char] if char.islower() else 0
                    self.moves[r * width + c].append((direction, (r + dr) * width + c + dc, door, key))
        # distances[cell][k]: door-free moves from cell to key k
        self.distances = [[UNREACHABLE] * self.keys for _ in range(cells)]
        for k, letter in enumerate(letters):
            r, c = vault.keys[letter]
            self._door_free_distances(r * width + c, k)
        layout = door_free_layout(vault)
        # bridges[cell][k]: bridge distance from cell to key k (0-1 breadth-first search:
        # a step costs the difference of the two cells' bridge depths)
        depth = [layout.bridge_depth.get((index // width, index % width), 0) for index in range(cells)]
        self.bridges = [[UNREACHABLE] * self.keys for _ in range(cells)]
        key_cells = [r * width + c for r, c in (vault.keys[letter] for letter in letters)]
        for k, source in enumerate(key_cells):
            self._bridge_distances(source, k, depth)
        self.ranks = [layout.rank.get((index // width, index % width), 0) for index in range(cells)]
        robot_keys = [
            sum(1 << k for k in range(self.keys) if self.distances[start][k] < UNREACHABLE) for start in self.starts
        ]
        self.bound = RemainingKeysBound(
            [self.distances[cell] for cell in key_cells],
            [self.bridges[cell] for cell in key_cells],
            robot_keys,
            [self.ranks[cell] for cell in key_cells],
        )

    def _door_free_distances(self, source: int, key: int) -> None:
        self.distances[source][key] = 0
        queue = deque([source])
        while queue:
            cell = queue.popleft()
            step = self.distances[cell][key] + 1
            for _, other, _, _ in self.moves[cell]:
                if self.distances[other][key] > step:
                    self.distances[other][key] = step
                    queue.append(other)

    def _bridge_distances(self, source: int, key: int, depth: list[int]) -> None:
        self.bridges[source][key] = 0
        queue = deque([source])
        while queue:
            cell = queue.popleft()
            here = self.bridges[cell][key]
            for _, other, _, _ in self.moves[cell]:
                weight = abs(depth[other] - depth[cell])
                if self.bridges[other][key] > here + weight:
                    self.bridges[other][key] = here + weight
                    if weight:
                        queue.append(other)
                    else:
                        queue.appendleft(other)

    def initial(self) -> int:
        state = 0
        for robot, start in enumerate(self.starts):
            state |= start << (self.keys + robot * self.width)
        return state

    def is_goal(self, state: int) -> bool:
        return state & self.goal == self.goal

    def positions(self, state: int) -> list[int]:
        packed = state >> self.keys
        return [(packed >> (robot * self.width)) & self.cell_mask for robot in range(self.robots)]

    def successors(self, state: int) -> Iterable[tuple[KeyMove, int, int]]:
        held = state & self.goal
        for robot, cell in enumerate(self.positions(state)):
            shift = self.keys + robot * self.width
            others = state ^ (cell << shift)
            for direction, target, door, key in self.moves[cell]:
                if door & held == door:
                    yield KeyMove(robot, direction), others | (target << shift) | key, 1

    def heuristic(self, state: int) -> int:
        cells = self.positions(state)
        return self.bound.bound(
            [self.distances[cell] for cell in cells],
            [self.bridges[cell] for cell in cells],
            self.goal & ~state,
            [self.ranks[cell] for cell in cells],
        )


class GridSearch(Solver):
    name = "keys-grid"
    puzzle = "keys"
    summary = "A* over (robot cells, keys held), one cell move per action"
    shares = frozenset({"solvers.keys.bounds"})

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        if collectable_keys(instance) != set(instance.keys):
            return Answer(Status.INFEASIBLE, message="some key cannot be reached even with every reachable door open")
        outcome = best_first_search(CellProblem(instance), Strategy.ASTAR, deadline)
        return outcome.answer(infeasible="every reachable state expanded")
