"""The one mapping of a finished CP-SAT run to an `Answer`, and the limits of a run (solvers/engines/cpsat.py)."""

from __future__ import annotations

import math
import random

import pytest
from crosscheck.solvers.base import Answer, Deadline, Status
from crosscheck.solvers.engines.cpsat import (
    WORK_PER_DETERMINISTIC_SECOND,
    configured_solver,
    has_solution,
    integer_bound,
    run_answer,
    run_stats,
    solve,
)
from ortools.sat.python import cp_model


def _run(model: cp_model.CpModel, offset: int = 0) -> Answer:
    solver = configured_solver(Deadline(10))
    status = solver.solve(model)
    return run_answer(solver, status, model, lambda: ["witness"], run_stats(solver), offset=offset,
                      infeasible="because")


def test_an_optimum_carries_the_offset_in_cost_bound_and_stats() -> None:
    model = cp_model.CpModel()
    x = model.new_int_var(3, 10, "x")
    model.minimize(x)
    answer = _run(model, offset=5)
    assert (answer.status, answer.cost, answer.bound, answer.plan) == (Status.OPTIMAL, 8, 8, ["witness"])
    assert answer.stats["best_bound"] == 8 and answer.stats["cp_status"] == "OPTIMAL"


def test_infeasible_model_is_infeasible_with_the_reason() -> None:
    model = cp_model.CpModel()
    x = model.new_int_var(0, 1, "x")
    model.add(x >= 2)
    model.minimize(x)
    answer = _run(model)
    assert (answer.status, answer.message, answer.plan) == (Status.INFEASIBLE, "because", None)


def test_each_cpsat_status_maps_to_its_own_answer() -> None:
    """FEASIBLE is a plan without a proof, UNKNOWN a timeout with CP-SAT's bound: neither
    becomes an optimum or an infeasibility (the status is given, the solved run supplies
    the values; the fault audit found no other test that tells them apart)."""
    model = cp_model.CpModel()
    x = model.new_int_var(3, 10, "x")
    model.minimize(x)
    solver = configured_solver(Deadline(10))
    solver.solve(model)

    def answer(status: cp_model.CpSolverStatus) -> tuple[Status, int | None, int | None]:
        found = run_answer(solver, status, model, lambda: ["witness"], {}, offset=5)
        return found.status, found.cost, found.bound

    assert answer(cp_model.OPTIMAL) == (Status.OPTIMAL, 8, 8)
    assert answer(cp_model.FEASIBLE) == (Status.FEASIBLE, 8, 8)
    assert answer(cp_model.UNKNOWN) == (Status.TIMEOUT, None, 8)
    assert answer(cp_model.INFEASIBLE) == (Status.INFEASIBLE, None, None)
    assert [has_solution(status, model) for status in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE,
                                                       cp_model.UNKNOWN)] == [True, True, False, None]


def test_the_objective_bound_becomes_the_smallest_integer_at_or_above_it() -> None:
    assert [integer_bound(value) for value in (42.0, 42.0000001, 41.2, 41.9999999, 0.0, -3.0)] == [42, 42, 42, 42, 0, 0]
    assert integer_bound(math.inf) == 0 and integer_bound(-math.inf) == 0 and integer_bound(math.nan) == 0


def test_an_invalid_model_is_a_bug_not_an_answer() -> None:
    model = cp_model.CpModel()
    x, y = model.new_int_var(0, 2**60, "x"), model.new_int_var(0, 2**60, "y")
    model.add(8 * x + 8 * y >= 1)  # may overflow 64 bits: CP-SAT refuses the model
    model.minimize(x)
    with pytest.raises(RuntimeError, match="CP-SAT rejected the model"):
        _run(model)


def hard_knapsack() -> cp_model.CpModel:
    """A knapsack with 60 random constraints: seconds from a proof."""
    model = cp_model.CpModel()
    rng = random.Random(1)
    items = [model.new_bool_var(f"x{i}") for i in range(400)]
    for _ in range(60):
        model.add(sum(rng.randint(1, 50) * items[i] for i in rng.sample(range(400), 40)) <= 300)
    model.maximize(sum(rng.randint(1, 60) * item for item in items))
    return model


def test_a_work_limit_stops_cpsat_at_its_deterministic_time_and_is_counted() -> None:
    """2,000 units are 0.02 s of CP-SAT's deterministic time, which it measures alike on any
    machine: the proof is not reached, and the deterministic time spent is counted as work."""
    deadline = Deadline(None, work=2_000)
    solver = configured_solver(deadline, workers=2)
    assert solver.parameters.max_deterministic_time == pytest.approx(2_000 / WORK_PER_DETERMINISTIC_SECOND)
    status = solve(solver, hard_knapsack(), deadline)
    assert status != cp_model.OPTIMAL and 0.02 <= solver.deterministic_time < 0.1, solver.deterministic_time
    assert deadline.spent == math.ceil(solver.deterministic_time * WORK_PER_DETERMINISTIC_SECOND)
    assert deadline.expired() and deadline.limit_reached() == "work limit"
