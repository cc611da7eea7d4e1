"""The Result validator refuses answers that contradict themselves."""

import pytest
from pydantic import ValidationError

from crosscheck.solvers.base import Answer, Deadline, Result, Solver, Status

PLAN = [(0, "E")]


def make(**fields) -> Result:
    return Result(solver="s", instance="i", **fields)


def test_consistent_results_are_accepted() -> None:
    assert make(status=Status.OPTIMAL, cost=3, bound=3, plan=PLAN).cost == 3
    assert make(status=Status.FEASIBLE, cost=5, bound=2, plan=PLAN).bound == 2
    assert make(status=Status.TIMEOUT, bound=4).cost is None
    assert make(status=Status.INFEASIBLE).plan is None


@pytest.mark.parametrize(
    "fields",
    [
        dict(status=Status.OPTIMAL, cost=3, bound=3),  # optimal without a plan
        dict(status=Status.OPTIMAL, cost=3, bound=2, plan=PLAN),  # optimal but bound differs
        dict(status=Status.FEASIBLE, plan=PLAN),  # feasible without a cost
        dict(status=Status.FEASIBLE, cost=2, bound=5, plan=PLAN),  # cost below its own bound
        dict(status=Status.INFEASIBLE, cost=4, plan=PLAN),  # infeasible with a plan
        dict(status=Status.TIMEOUT, cost=4, plan=PLAN),  # timeout with a plan
        dict(status=Status.OPTIMAL, cost=-1, bound=-1, plan=PLAN),  # negative cost
    ],
)
def test_inconsistent_results_are_rejected(fields: dict) -> None:
    with pytest.raises(ValidationError):
        make(**fields)


class _Raises(Solver):
    name, puzzle, summary = "raises", "keys", "always raises"

    def _solve(self, instance, deadline: Deadline) -> Answer:
        raise RuntimeError("boom")


class _Named:
    name = "inst"


def test_a_crashing_solver_becomes_an_error_result() -> None:
    result = _Raises().solve(_Named(), time_limit=1)
    assert result.status is Status.ERROR
    assert "RuntimeError: boom" in result.message
    assert result.instance == "inst" and result.solver == "raises"
