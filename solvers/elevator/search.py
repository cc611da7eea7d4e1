"""``elevator-bfs``: the classic breadth-first search over labelled states.

States keep element names (`solvers.elevator.common.Labelled`), so symmetric states
are explored separately: exact, and slow on seven pairs by nature.  Exhausting the
reachable safe states proves that no plan exists.
"""

from __future__ import annotations

from collections.abc import Iterable

from models.elevator import ElevatorMove, Facility
from solvers.base import Answer, Deadline, Solver, Status
from solvers.elevator.common import Labelled, item_names, labelled_moves, start_is_safe, start_state, to_move
from solvers.search import SearchProblem, Strategy, best_first_search


class LabelledProblem(SearchProblem[Labelled, ElevatorMove]):
    """Move one or two items a floor up or down, keeping every floor safe."""

    def __init__(self, facility: Facility) -> None:
        self.floors = facility.floors
        self.top = facility.top
        self.names = item_names(facility)
        self.start = start_state(facility)

    def initial(self) -> Labelled:
        return self.start

    def is_goal(self, state: Labelled) -> bool:
        return all(floor == self.top for floor in state[1:])

    def successors(self, state: Labelled) -> Iterable[tuple[ElevatorMove, Labelled, int]]:
        for step, load, successor in labelled_moves(state, self.floors):
            yield to_move(step, load, self.names), successor, 1


class BreadthFirst(Solver):
    """Breadth-first search over labelled states: ``optimal``, ``infeasible`` (unsafe
    start, or every reachable safe state explored) or ``timeout`` with the depth reached."""

    name = "elevator-bfs"
    puzzle = "elevator"
    summary = "breadth-first search over labelled states (element names kept)"
    shares = frozenset({"solvers.elevator.common.labelled_moves"})

    def _solve(self, instance: Facility, deadline: Deadline) -> Answer:
        if not start_is_safe(instance):
            return Answer(Status.INFEASIBLE, message="the start is unsafe")
        outcome = best_first_search(LabelledProblem(instance), Strategy.BFS, deadline)
        return outcome.answer(infeasible="every reachable safe state explored")
