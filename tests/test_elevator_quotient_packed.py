"""elevator-quotient's Python search on packed states (solvers/elevator/quotient.py) against the
labelled moves: the same successors up to renaming, the same bound, and plans named back."""

from __future__ import annotations

from crosscheck.models.elevator.model import ELEMENT_NAMES, Facility, check_plan, generate
from crosscheck.solvers.base import Deadline
from crosscheck.solvers.elevator.common import labelled_bound, labelled_moves, start_is_safe, start_state
from crosscheck.solvers.elevator.quotient import WIDE, QuotientProblem, canonical, labelled_plan, positioned, width
from crosscheck.solvers.engines.search import Ending, best_first_search

FACILITIES = [generate(seed, pairs=pairs, floors=floors, safe=seed % 3 != 0)
              for seed in range(4) for pairs, floors in ((2, 3), (3, 4), (5, 3), (4, 5), (9, 4))]


def _unpacked(facility: Facility, state: int) -> tuple[int, ...]:
    """The canonical tuple (elevator, sorted codes) of a packed state, read field by field."""
    floors, bits = facility.floors, width(facility)
    codes = []
    for code in range(floors * floors):
        codes += [code] * (state >> code * bits & (1 << bits) - 1)
    return (state >> floors * floors * bits & (1 << max(1, (floors - 1).bit_length())) - 1, *codes)


def _labelled(facility: Facility, state: tuple[int, ...]) -> tuple[int, ...]:
    """A labelled state (generator, chip per element) with the pairs of a canonical state."""
    labelled = [state[0]]
    for code in state[1:]:
        labelled += [code % facility.floors, code // facility.floors]
    return tuple(labelled)


def _reached(problem: QuotientProblem, limit: int) -> list[int]:
    """Up to `limit` packed states reached from the start, breadth first."""
    seen, order = {problem.initial()}, [problem.initial()]
    for state in order:
        for _, successor, _ in problem.successors(state):
            if successor not in seen and len(order) < limit:
                seen.add(successor)
                order.append(successor)
    return order


def test_successors_are_the_labelled_moves_up_to_renaming() -> None:
    """Each packed state's successors are the canonical labelled successors, each once; its
    tallies give the bound of the labelled state."""
    for facility in FACILITIES:
        if not start_is_safe(facility):
            continue
        problem = QuotientProblem(facility)
        assert _unpacked(facility, problem.initial()) == canonical(start_state(facility), facility.floors)
        for state in _reached(problem, 150):
            canonical_state = _unpacked(facility, state)
            labelled = _labelled(facility, canonical_state)
            moves = labelled_moves(labelled, facility.floors)
            expected = {canonical(successor, facility.floors) for _, _, successor in moves}
            reached = [_unpacked(facility, successor) for _, successor, _ in problem.successors(state)]
            assert sorted(reached) == sorted(expected), (facility.name, canonical_state)
            assert problem.heuristic(state) == labelled_bound(labelled, facility.floors)


def test_positioned_actions_rebuild_checked_plans() -> None:
    """A solved search's coded actions, named by position, make a plan the checker accepts at its cost."""
    solved = 0
    for facility in FACILITIES:
        if not start_is_safe(facility):
            continue
        outcome = best_first_search(QuotientProblem(facility))
        if outcome.status is Ending.SOLVED:
            cost, actions = outcome.solution()
            assert check_plan(facility, labelled_plan(facility, positioned(facility, actions))) == cost
            solved += 1
    assert solved


def test_a_wide_state_checks_the_deadline_at_each_expansion() -> None:
    """Past `WIDE` bits (200 floors) the first expansion after the limit stops the search, with
    the start's bound; a narrow facility's search runs on to the engine's own check."""
    elements = tuple(sorted(ELEMENT_NAMES[:10]))
    placed = (0, 1, 2) * 3 + (0,)  # each pair together on one of the three lowest floors
    for floor_count, expanded in ((200, 1), (4, None)):
        facility = Facility(name="tower", floors=floor_count, elements=elements, chips=placed, generators=placed)
        deadline = Deadline(None, work=1)
        problem = QuotientProblem(facility, deadline)
        assert (problem.shift > WIDE) == (expanded is not None)
        deadline.spent = 1  # the work limit met once the problem is built
        outcome = best_first_search(problem, deadline=deadline)
        if expanded is not None:
            assert (outcome.status, outcome.expanded, outcome.bound) == (Ending.TIMEOUT, expanded,
                                                                       problem.heuristic(problem.initial()))
        else:
            assert outcome.expanded > 1
