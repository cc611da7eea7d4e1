"""elevator-quotient's compiled search (solvers/elevator/quotient_kernel.py) against its Python
search: the same answers, bounds and plans on seeded facilities, solvable or not."""

from __future__ import annotations

import pytest
from crosscheck.models.elevator.model import Facility, check_plan, generate
from crosscheck.solvers.base import Deadline
from crosscheck.solvers.elevator import quotient, quotient_compiled
from crosscheck.solvers.elevator.common import start_state
from crosscheck.solvers.elevator.quotient import ElevatorQuotient, QuotientProblem, canonical, labelled_plan
from crosscheck.solvers.elevator.quotient_kernel import state_bound
from crosscheck.solvers.engines.search import Ending, Strategy, best_first_search

FACILITIES = [generate(seed, pairs=pairs, floors=floors, safe=seed % 3 != 0)
              for seed in range(6) for pairs, floors in ((1, 2), (2, 3), (3, 4), (4, 3), (2, 1))]


def _start(facility: Facility) -> list[int]:
    return list(canonical(start_state(facility), facility.floors)[1:])


@pytest.mark.parametrize("bounded", [True, False], ids=["astar", "dijkstra"])
def test_compiled_search_answers_as_the_python_search(bounded: bool) -> None:
    """Same ending and cost on every facility; each compiled plan is accepted by the checker at its cost."""
    for facility in FACILITIES:
        if not quotient.start_is_safe(facility):
            continue
        python = best_first_search(QuotientProblem(facility), Strategy.ASTAR if bounded else Strategy.DIJKSTRA)
        compiled = quotient_compiled.compiled_search(facility, _start(facility), bounded, capacity=16)
        assert (compiled.status, compiled.cost) == (python.status, python.cost), facility.name
        if compiled.status is Ending.SOLVED:
            assert compiled.cost is not None and compiled.actions is not None
            assert check_plan(facility, labelled_plan(facility, compiled.actions)) == compiled.cost


def test_compiled_bound_is_the_python_bound() -> None:
    """The kernel's crossing bound, written again, equals the Python one on each start."""
    for facility in FACILITIES:
        problem = QuotientProblem(facility)
        shape = quotient_compiled.np.array([facility.floors, len(facility.elements),
                                            quotient.width(facility), 1])
        state = quotient.packed(facility, 0, _start(facility))
        assert state_bound(shape, state) == problem.heuristic(problem.initial())


def test_a_work_limit_stops_it_with_a_proven_bound() -> None:
    facility = generate(0, pairs=5, floors=4)
    optimum = best_first_search(QuotientProblem(facility)).cost
    outcome = quotient_compiled.compiled_search(facility, _start(facility), deadline=Deadline(None, work=3))
    assert outcome.status is Ending.TIMEOUT
    assert outcome.bound is not None and optimum is not None and outcome.bound <= optimum


def test_the_formulation_runs_it_once_warmed_up() -> None:
    """After `warm_up` a facility that fits runs compiled, one that does not runs in Python."""
    ElevatorQuotient.warm_up()
    solver = ElevatorQuotient()
    assert solver.solve(generate(1, pairs=3, floors=4)).stats["kernel"] == "compiled"
    large = generate(1, pairs=8, floors=4)
    assert not quotient.fits(large)
    assert solver.solve(large, time_limit=0.5).stats["kernel"] == "python"


def test_what_fits_is_what_packs_into_63_bits() -> None:
    """`fits` holds exactly when the widest packed state (every pair at the top, the elevator there) takes 63 bits."""
    for pairs, floors in ((7, 4), (8, 4), (15, 4), (28, 3), (3, 8), (1, 2), (28, 2)):
        facility = generate(0, pairs=pairs, floors=floors, safe=False)
        widest = quotient.packed(facility, facility.top, [facility.top * (floors + 1)] * pairs)
        assert quotient.fits(facility) == (widest.bit_length() <= 63), facility.name
