"""Plugin formulations that paste built-in code in ways the fingerprints of
`crosscheck.harness.independence.copies` must see through (tests/test_copies.py), each beside one that
is not a copy and must stay independent.  None decides anything: what counts is the code
it runs.

- `PastesItsTuple` runs elevator-cpsat's `WasteTables.fitting` with the named tuple it
  builds (`Fit`) pasted under another name (`Window`); `OwnTuple` builds a tuple class of
  its own (other fields) with the same expression;
- `SetsUpItsBound` keeps elevator-quotient's `crossing_bound` in an attribute that a
  ``setup`` method (called by ``__init__``, which the walk from ``_solve`` never reaches) sets,
  and `BindsItsBound` in one ``__init__`` sets to a ``functools.partial`` of it;
  `BindsItsOwnBound` binds a bound of its own the same way;
- `SplitsItsModel` runs keys-cpsat's `VaultModel._key_node` pasted into a base class
  whose subclass holds the pasted `_node_name` it calls through ``self``; `NamesItsOwn`'s
  subclass names nodes its own way;
- `ImportsInside` runs keys-cpsat's `_distances` pasted, its helper `_neighbours` pasted
  under another name and imported inside the function's body; `ImportsOther` imports a
  helper that is other code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, NamedTuple

from crosscheck.models.elevator.model import Facility
from crosscheck.models.keys.model import Cell, Vault
from crosscheck.solvers.base import Answer, Deadline, Solver, Status
from crosscheck.solvers.elevator.common import crossing_bound

GameState = tuple[int, tuple[int, ...]]


class Window(NamedTuple):
    state: GameState
    before: int
    after: int


class Spread(NamedTuple):
    """Other fields than `Window`'s (and `crosscheck.solvers.elevator.cpsat.Fit`'s)."""

    state: GameState
    low: int
    high: int


class _Tables:
    def __init__(self, facility: Facility) -> None:
        start: GameState = (0, (len(facility.elements),))
        self.from_start, self.to_goal = {start: 0}, {start: facility.top}


class _Fits(_Tables):
    def fitting(self, wasteful: int) -> list[Window]:
        return [Window(state, before, after) for state, before in self.from_start.items()
                if (after := self.to_goal.get(state)) is not None and before + after <= wasteful]


class _Spreads(_Tables):
    def spread(self, wasteful: int) -> list[Spread]:
        return [Spread(state, before, after) for state, before in self.from_start.items()
                if (after := self.to_goal.get(state)) is not None and before + after <= wasteful]


class PastesItsTuple(Solver):
    name, puzzle, summary = "test-pastes-its-tuple", "elevator", "WasteTables.fitting with Fit renamed"

    def _solve(self, instance: Facility, deadline: Deadline) -> Answer:
        return Answer(Status.UNSUPPORTED, message=str(_Fits(instance).fitting(instance.top)))


class OwnTuple(Solver):
    name, puzzle, summary = "test-own-tuple", "elevator", "a tuple class of its own"

    def _solve(self, instance: Facility, deadline: Deadline) -> Answer:
        return Answer(Status.UNSUPPORTED, message=str(_Spreads(instance).spread(instance.top)))


def breadth_first(vault: Vault, start: Cell) -> dict[Cell, int]:
    from tests.pasted_helpers import adjacent

    distance = {start: 0}
    order = [start]
    for cell in order:
        for target in adjacent(vault, cell):
            if target not in distance:
                distance[target] = distance[cell] + 1
                order.append(target)
    return distance


def breadth_first_own(vault: Vault, start: Cell) -> dict[Cell, int]:
    from tests.pasted_helpers import adjacent_without_doors as adjacent

    distance = {start: 0}
    order = [start]
    for cell in order:
        for target in adjacent(vault, cell):
            if target not in distance:
                distance[target] = distance[cell] + 1
                order.append(target)
    return distance


class ImportsInside(Solver):
    name, puzzle, summary = "test-imports-inside", "keys", "_distances pasted, its helper imported inside"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        return Answer(Status.UNSUPPORTED, message=str(breadth_first(instance, instance.robots[0])))


class ImportsOther(Solver):
    name, puzzle, summary = "test-imports-other", "keys", "_distances' walk over a helper of its own"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        return Answer(Status.UNSUPPORTED, message=str(breadth_first_own(instance, instance.robots[0])))


class SetsUpItsBound(Solver):
    name, puzzle, summary = "test-sets-up-its-bound", "elevator", "crossing_bound kept by a setup method"

    def __init__(self) -> None:
        self.setup()

    def setup(self) -> None:
        self.bound: Callable[[int, int, Sequence[int]], int] = crossing_bound

    def _solve(self, instance: Facility, deadline: Deadline) -> Answer:
        return Answer(Status.UNSUPPORTED, message=str(self.bound(instance.floors, 0, [0] * instance.floors)))


def _lifts_needed(floors: int, elevator: int, counts: Sequence[int]) -> int:
    """A bound of its own: every item below the top needs a lift."""
    return sum(counts[:floors - 1]) + elevator


class BindsItsBound(Solver):
    name, puzzle, summary = "test-binds-its-bound", "elevator", "crossing_bound kept as a partial"

    def __init__(self) -> None:
        self.bound = partial(crossing_bound, elevator=0)

    def _solve(self, instance: Facility, deadline: Deadline) -> Answer:
        return Answer(Status.UNSUPPORTED, message=str(self.bound(instance.floors, counts=[0] * instance.floors)))


class BindsItsOwnBound(Solver):
    name, puzzle, summary = "test-binds-its-own-bound", "elevator", "a bound of its own kept as a partial"

    def __init__(self) -> None:
        self.bound = partial(_lifts_needed, elevator=0)

    def _solve(self, instance: Facility, deadline: Deadline) -> Answer:
        return Answer(Status.UNSUPPORTED, message=str(self.bound(instance.floors, counts=[0] * instance.floors)))


class _Arcs:
    """`crosscheck.solvers.keys.cpsat.VaultModel._key_node` pasted; `_node_name` is the subclass's."""

    def __init__(self, robots: int, cv: Any) -> None:
        self.robots, self.cv = robots, cv
        self.model: Any = None
        self.hint: Any = None
        self.ends: dict[int, dict[int, Any]] = {}

    def _node_name(self, node: int) -> str:
        raise NotImplementedError

    def _key_node(self, robot: int, node: int, local: int, visits: dict[int, list[Any]]) -> list[tuple[int, int, Any]]:
        name = self._node_name(node)
        skip = self.model.new_bool_var(f"skip_r{robot}_{name}")
        self.hint.value(skip, self.hint.owner.get(node, robot) != robot)
        visits[node].append(~skip)
        end = self.model.new_bool_var(f"end_r{robot}_{name}")
        self.ends[robot][node] = end
        self.hint.value(end, self.hint.arc(robot, node, robot))
        return [(local, local, skip), (local, 0, end)]


class _PastedNames(_Arcs):
    def _node_name(self, node: int) -> str:
        return f"start{node}" if node < self.robots else self.cv.letters[node - self.robots]


class _OwnNames(_Arcs):
    def _node_name(self, node: int) -> str:
        return f"node{node}"


class SplitsItsModel(Solver):
    name, puzzle, summary = "test-splits-its-model", "keys", "VaultModel._key_node pasted over two classes"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        return Answer(Status.UNSUPPORTED, message=str(_PastedNames(len(instance.robots), instance).ends))


class NamesItsOwn(Solver):
    name, puzzle, summary = "test-names-its-own", "keys", "_key_node's arcs over names of its own"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        return Answer(Status.UNSUPPORTED, message=str(_OwnNames(len(instance.robots), instance).ends))


SOLVERS = [SplitsItsModel, NamesItsOwn, PastesItsTuple, OwnTuple, SetsUpItsBound, BindsItsBound, BindsItsOwnBound, ImportsInside, ImportsOther]
