"""No plan exists: a closed set of states up to renaming without the goal, checked by CP-SAT.

*The argument.* Let S be a set of states up to renaming (the elevator's floor and how many
elements have their chip and generator on each pair of floors) that holds the start, not
the goal, and that no safe step leaves: from no state in S does a safe step lead to a
state outside S.  Then no plan exists: a plan's states, up to renaming, start in S and each
step keeps them there (induction), so they never reach the goal.  Nothing here needs S to
be the reachable set, or to be computed correctly.

*Who proves what.* S is proposed by a depth-first search of the exact game of
`crosscheck.solvers.elevator.top_floors` (every floor kept: the puzzle up to renaming),
which gives up when it meets the goal.  That S holds the start and not the goal is checked
here directly; that no step leaves it is CP-SAT's to prove: `ClosureModel` is one step of
`crosscheck.solvers.elevator.transitions.Transitions` (the rules the horizon model plans
with, complete for every safe step) from a state in S to a state not in S, and
``infeasible`` from CP-SAT is the proof.  A search that missed a move would propose a set
that is not closed, and CP-SAT would find the step that leaves it: no claim is made then.
"""

from __future__ import annotations

from collections.abc import Collection

from crosscheck.models.elevator.model import Facility
from crosscheck.solvers.base import Deadline
from crosscheck.solvers.elevator.top_floors import GameState, TopFloors
from crosscheck.solvers.elevator.transitions import Transitions
from crosscheck.solvers.engines.cpsat import configured_solver, cp_model, solve

#: Propose no set of more than this many states (the closure check's tables grow with it).
STATE_LIMIT = 200_000


class ClosureModel(Transitions):
    """One safe step from a state in `states` to a state not in it: infeasible iff no safe
    step leaves `states` (a state is ``(elevator floor, counts per pair type in the order of
    `crosscheck.solvers.elevator.common.pair_types`)``)."""

    def __init__(self, facility: Facility, states: Collection[GameState]) -> None:
        super().__init__(facility, 1)
        rows = [[elevator, *counts] for elevator, counts in states]
        self.model.add_allowed_assignments(self._state(0), rows)
        self.model.add_forbidden_assignments(self._state(1), rows)

    def _state(self, t: int) -> list[cp_model.IntVar]:
        """The elevator's floor and the counts per type at time t, as integer variables."""
        floor = self.model.new_int_var(0, self.floors - 1, f"floor_{t}")
        self.model.add(floor == self.floor(t))
        return [floor, *(self.count[t][pair_type] for pair_type in self.types)]


def exact_game(facility: Facility) -> TopFloors:
    """The game of `crosscheck.solvers.elevator.top_floors` that keeps every floor: the puzzle up to renaming."""
    return TopFloors(facility.floors, len(facility.elements), kept=facility.floors - 1)


def closed_without_goal(facility: Facility, deadline: Deadline) -> int | None:
    """The size of a set of states up to renaming that holds the start and not the goal and
    that CP-SAT proved no safe step leaves (so no plan exists); None when there is no such
    proof: the search met the goal, or stopped at `STATE_LIMIT` or `deadline`, or the set
    is not closed, or CP-SAT ran out of time.  Of a facility with a safe start."""
    game = exact_game(facility)
    start = game.state(0, facility.chips, facility.generators)
    states = game.reachable(start, STATE_LIMIT, deadline)
    if states is None or start not in states or game.goal in states:
        return None
    solver = configured_solver(deadline)
    status = solve(solver, ClosureModel(facility, states).model, deadline)
    return len(states) if status == cp_model.INFEASIBLE else None
