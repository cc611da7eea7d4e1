"""The one mapping of a finished CP-SAT run to an `Answer` (solvers/cpsat.py)."""

from __future__ import annotations

import pytest
from ortools.sat.python import cp_model

from crosscheck.solvers.base import Deadline, Status
from crosscheck.solvers.cpsat import configured_solver, run_answer, run_stats


def _run(model: cp_model.CpModel, offset: int = 0):
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


def test_an_invalid_model_is_a_bug_not_an_answer() -> None:
    model = cp_model.CpModel()
    x, y = model.new_int_var(0, 2**60, "x"), model.new_int_var(0, 2**60, "y")
    model.add(8 * x + 8 * y >= 1)  # may overflow 64 bits: CP-SAT refuses the model
    model.minimize(x)
    with pytest.raises(RuntimeError, match="CP-SAT rejected the model"):
        _run(model)
