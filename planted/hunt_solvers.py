"""Planted wrong formulations for the hunt tests (registered through CROSSCHECK_SOLVERS).

Each one is an honest search except for one popular shortcut that breaks a rule of
``shared/specs/puzzles.md``; `crosscheck hunt` must find an instance that exposes it.
None of them is a formulation of the project.  ``elevator-floorcounts`` is the open
question of the elevator issue (is a per-floor-count state key ever wrong from a safe
start?), hunted for at length rather than in the default tests.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from itertools import combinations
from typing import Any

from crosscheck.models.amphipods import model as amphipods
from crosscheck.models.elevator import model as elevator
from crosscheck.models.keys.model import KeyMove, Vault
from crosscheck.solvers.base import Answer, Deadline, Solver, Status
from crosscheck.solvers.engines.search import SearchProblem, Strategy, best_first_search

Cell = tuple[int, int]


def _answer(problem: SearchProblem[Any, Any], strategy: Strategy, deadline: Deadline) -> Answer:
    """The search's outcome as an answer: an optimum with its plan, infeasible, or a timeout."""
    outcome = best_first_search(problem, strategy, deadline)
    if outcome.status == "solved":
        return Answer(Status.OPTIMAL, cost=outcome.cost, bound=outcome.cost, plan=outcome.actions)
    if outcome.status == "exhausted":
        return Answer(Status.INFEASIBLE)
    return Answer(Status.TIMEOUT, bound=outcome.bound)


# --- key vault: door requirements from one shortest path --------------------------------

def _one_shortest_path(vault: Vault, start: Cell) -> dict[Cell, list[tuple[str, Cell]]]:
    """For every cell, the (direction, cell) steps of one shortest path from `start`,
    walking through doors as if they were floor."""
    routes: dict[Cell, list[tuple[str, Cell]]] = {start: []}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for direction, target in vault.open_neighbours(cell):
            if target not in routes:
                routes[target] = routes[cell] + [(direction, target)]
                queue.append(target)
    return routes


class _OnePath(SearchProblem[tuple[tuple[Cell, ...], frozenset[str]], tuple[int, str]]):
    """States (robot cells, keys held); a move walks one robot to a key along the one
    shortest path found, which it may take only once every door on it is open."""

    def __init__(self, vault: Vault) -> None:
        self.vault = vault
        self.routes = {cell: _one_shortest_path(vault, cell) for cell in (*vault.robots, *vault.keys.values())}

    def initial(self) -> tuple[tuple[Cell, ...], frozenset[str]]:
        return self.vault.robots, frozenset()

    def is_goal(self, state: tuple[tuple[Cell, ...], frozenset[str]]) -> bool:
        return len(state[1]) == len(self.vault.keys)

    def successors(self, state: tuple[tuple[Cell, ...], frozenset[str]]) -> Iterator[Any]:
        cells, held = state
        for robot, cell in enumerate(cells):
            for key, target in self.vault.keys.items():
                route = self.routes[cell].get(target)
                if key in held or route is None:
                    continue
                doors = {self.vault.at(step).lower() for _, step in route if self.vault.at(step).isupper()}
                if doors <= held:  # the shortcut: this one route decides which doors the walk needs
                    moved = cells[:robot] + (target,) + cells[robot + 1:]
                    picked = held | {self.vault.at(step) for _, step in route if self.vault.at(step).islower()}
                    yield [(robot, d) for d, _ in route], (moved, frozenset(picked)), len(route)


class KeysOnePath(Solver):
    """Takes each pair of keys' door requirements from one shortest path (wrong on loops)."""

    name, puzzle, summary = "keys-onepath", "keys", "planted: doors from one shortest path per pair"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        answer = _answer(_OnePath(instance), Strategy.DIJKSTRA, deadline)
        if answer.plan is not None:
            answer.plan = [KeyMove(robot, d) for walk in answer.plan for robot, d in walk]
        return answer


# --- amphipods: may stop directly above a room ----------------------------------------

Layout = tuple[str, ...]  # 11 hallway cells, then the rooms' cells slot by slot


class _Macro(SearchProblem[Layout, tuple[str, str]]):
    """Macro moves (room to a hallway stop, then straight into the amphipod's own room),
    by A* with each amphipod's distance to its room as the bound; planted shortcuts:
    `above`, the cells directly above the rooms count as stops; `hops`, an amphipod that
    stopped in the hallway may move to another hallway stop."""

    def __init__(self, burrow: amphipods.Burrow, above: bool, hops: bool) -> None:
        self.depth, self.above, self.hops = burrow.depth, above, hops
        self.positions: list[amphipods.Position] = [("H", h) for h in range(amphipods.HALLWAY_LENGTH)]
        self.positions += [(r, s) for r in range(4) for s in range(self.depth)]
        self.start = tuple(burrow.hallway) + tuple("".join(burrow.rooms))
        self.goal = tuple("." for _ in range(amphipods.HALLWAY_LENGTH)) + tuple(
            k for k in amphipods.KINDS for _ in range(self.depth))

    def initial(self) -> Layout:
        return self.start

    def is_goal(self, state: Layout) -> bool:
        return state == self.goal

    def heuristic(self, state: Layout) -> int:
        return sum(len(amphipods.path(p, (amphipods.KINDS.index(k), 0))) * amphipods.ENERGY[k]
                   for p, k in zip(self.positions, state, strict=True) if k != "." and p[0] != amphipods.KINDS.index(k))

    def successors(self, state: Layout) -> Iterator[tuple[tuple[str, str], Layout, int]]:
        cells = dict(zip(self.positions, state, strict=True))
        for source, kind in cells.items():
            if kind == ".":
                continue
            for target in self._targets(cells, source, kind):
                route = amphipods.path(source, target)
                if all(cells[c] == "." for c in route):
                    moved = dict(cells)
                    moved[source], moved[target] = ".", kind
                    move = (amphipods.position_label(source), amphipods.position_label(target))
                    yield move, tuple(moved.values()), len(route) * amphipods.ENERGY[kind]

    def _targets(self, cells: dict[amphipods.Position, str], source: Any, kind: str) -> list[Any]:
        own = amphipods.KINDS.index(kind)
        room = [cells[(own, s)] for s in range(self.depth)]
        if source[0] == own and all(k == kind for k in room[source[1]:]):
            return []  # settled: moving it again never pays
        if source[0] != "H" and any(cells[(source[0], s)] != "." for s in range(source[1])):
            return []  # not the top one of its room
        targets: list[Any] = []
        if all(k in (".", kind) for k in room) and "." in room and source[0] != own:
            targets.append((own, max(s for s in range(self.depth) if room[s] == ".")))
        if source[0] != "H" or self.hops:
            targets += [("H", h) for h in range(amphipods.HALLWAY_LENGTH) if self.above or h not in amphipods.ROOM_DOORS]
        return targets


class AmphipodsAboveRooms(Solver):
    """Lets an amphipod stop on a hallway cell directly above a room."""

    name, puzzle, summary = "amphipods-aboverooms", "amphipods", "planted: may stop above a room"
    above, hops = True, False

    def _solve(self, instance: amphipods.Burrow, deadline: Deadline) -> Answer:
        return _answer(_Macro(instance, self.above, self.hops), Strategy.ASTAR, deadline)


class AmphipodsHallHops(AmphipodsAboveRooms):
    """Lets an amphipod that stopped in the hallway move on to another hallway stop."""

    name, summary = "amphipods-hallhops", "planted: hallway to hallway moves"
    above, hops = False, True


# --- elevator: labelled BFS with a planted shortcut -------------------------------------

Floors = tuple[int, tuple[int, ...]]  # elevator floor; floor of item 2i (generator i) and 2i+1 (chip i)


class _Counted:
    """A state that equals every state with the same per-floor counts of chips and generators."""

    def __init__(self, floors: Floors, levels: int) -> None:
        self.floors = floors
        lift, items = floors
        self.key = (lift, tuple((items[0::2].count(f), items[1::2].count(f)) for f in range(levels)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Counted) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)


LiftState = Floors | _Counted  # the floors themselves, or (`counts`) their per-floor counts


class _Lift(SearchProblem[LiftState, tuple[str, tuple[str, ...]]]):
    """Every step of one or two items up or down, from one safe state to another.

    `two_down`: may two items be carried down together; `check_left`: is the floor the
    elevator leaves checked for safety too; `key`: what identifies a visited state.
    """

    def __init__(self, facility: elevator.Facility, two_down: bool = True, check_left: bool = True,
                 counts: bool = False) -> None:
        self.facility, self.two_down, self.check_left, self.counts = facility, two_down, check_left, counts
        self.names = [elevator.item_name(e, k) for e in facility.elements for k in (elevator.GENERATOR, elevator.MICROCHIP)]

    def initial(self) -> LiftState:
        floors = tuple(f for g, c in zip(self.facility.generators, self.facility.chips, strict=True) for f in (g, c))
        return self._state((0, floors))

    def _state(self, floors: Floors) -> LiftState:
        return _Counted(floors, self.facility.floors) if self.counts else floors

    def is_goal(self, state: LiftState) -> bool:
        return all(f == self.facility.top for f in _floors(state)[1])

    def successors(self, state: LiftState) -> Iterator[tuple[tuple[str, tuple[str, ...]], LiftState, int]]:
        lift, items = _floors(state)
        here = [i for i, f in enumerate(items) if f == lift]
        for step, direction in ((1, elevator.UP), (-1, elevator.DOWN)):
            if not 0 <= lift + step < self.facility.floors:
                continue
            groups = [(i,) for i in here] + ([] if step < 0 and not self.two_down else list(combinations(here, 2)))
            for group in groups:
                moved = tuple(lift + step if i in group else f for i, f in enumerate(items))
                chips, generators = moved[1::2], moved[0::2]
                checked = (lift, lift + step) if self.check_left else (lift + step,)
                if all(elevator.is_safe(chips, generators, f) for f in checked):
                    yield (direction, tuple(self.names[i] for i in group)), self._state((lift + step, moved)), 1


def _floors(state: LiftState) -> Floors:
    return state.floors if isinstance(state, _Counted) else state


class _ElevatorPlanted(Solver):
    puzzle = "elevator"
    planted: dict[str, bool] = {}

    def _solve(self, instance: elevator.Facility, deadline: Deadline) -> Answer:
        if not elevator.all_safe(instance.chips, instance.generators):
            return Answer(Status.INFEASIBLE)
        return _answer(_Lift(instance, **self.planted), Strategy.BFS, deadline)


class ElevatorLeftFloor(_ElevatorPlanted):
    """Checks only the floor the elevator arrives at, not the floor it leaves."""

    name, summary, planted = "elevator-leftfloor", "planted: the floor left is not checked", {"check_left": False}


class ElevatorNoDown2(_ElevatorPlanted):
    """Never carries two items down (run as an external program by planted/externals/elevator_nodown2.py)."""

    name, summary, planted = "elevator-nodown2", "planted: never two items down", {"two_down": False}


class ElevatorFloorCounts(_ElevatorPlanted):
    """Keys visited states by the elevator's floor and the per-floor counts of chips and generators."""

    name, summary, planted = "elevator-floorcounts", "BFS keyed by per-floor counts (issue 11)", {"counts": True}


class ElevatorCrashes(_ElevatorPlanted):
    """Right where it answers, but raises on every facility with two or more pairs."""

    name, summary = "elevator-crashes", "planted: crashes from two pairs up"

    def _solve(self, instance: elevator.Facility, deadline: Deadline) -> Answer:
        if len(instance.elements) >= 2:
            raise RuntimeError("planted crash")
        return super()._solve(instance, deadline)


SOLVERS: list[type[Solver]] = [KeysOnePath, AmphipodsAboveRooms, AmphipodsHallHops, ElevatorLeftFloor, ElevatorFloorCounts,
                               ElevatorCrashes]
