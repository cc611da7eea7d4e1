"""The Result validator refuses answers that contradict themselves."""

from typing import TypedDict, Unpack

import pytest
from crosscheck.solvers.base import Answer, Deadline, Result, Solver, Status
from pydantic import ValidationError

PLAN = [(0, "E")]


class Fields(TypedDict, total=False):
    """The fields of a `Result` that the tests below set."""

    status: Status
    cost: int
    bound: int
    plan: list[tuple[int, str]]


def make(**fields: Unpack[Fields]) -> Result:
    return Result(solver="s", instance="i", **fields)


def test_consistent_results_are_accepted() -> None:
    assert make(status=Status.OPTIMAL, cost=3, bound=3, plan=PLAN).cost == 3
    assert make(status=Status.FEASIBLE, cost=5, bound=2, plan=PLAN).bound == 2
    assert make(status=Status.TIMEOUT, bound=4).cost is None
    assert make(status=Status.INFEASIBLE).plan is None


@pytest.mark.parametrize(
    "fields",
    [
        Fields(status=Status.OPTIMAL, cost=3, bound=3),  # optimal without a plan
        Fields(status=Status.OPTIMAL, cost=3, bound=2, plan=PLAN),  # optimal but bound differs
        Fields(status=Status.FEASIBLE, plan=PLAN),  # feasible without a cost
        Fields(status=Status.FEASIBLE, cost=2, bound=5, plan=PLAN),  # cost below its own bound
        Fields(status=Status.INFEASIBLE, cost=4, plan=PLAN),  # infeasible with a plan
        Fields(status=Status.TIMEOUT, cost=4, plan=PLAN),  # timeout with a plan
        Fields(status=Status.OPTIMAL, cost=-1, bound=-1, plan=PLAN),  # negative cost
    ],
)
def test_inconsistent_results_are_rejected(fields: Fields) -> None:
    with pytest.raises(ValidationError):
        make(**fields)


class _Raises(Solver):
    name, puzzle, summary = "raises", "keys", "always raises"

    def _solve(self, instance: object, deadline: Deadline) -> Answer:
        raise RuntimeError("boom")


class _Named:
    name = "inst"


def test_a_crashing_solver_becomes_an_error_result() -> None:
    result = _Raises().solve(_Named(), time_limit=1)
    assert result.status is Status.ERROR
    assert "RuntimeError: boom" in result.message
    assert result.instance == "inst" and result.solver == "raises"


class _Works(Solver):
    """Counts 700 units of work, then answers a timeout with bound 3 if its deadline expired."""

    name, puzzle, summary = "works", "keys", "counts work"

    def _solve(self, instance: object, deadline: Deadline) -> Answer:
        expired = deadline.expired(700)
        return Answer(Status.TIMEOUT, bound=3) if expired else Answer(Status.OPTIMAL, cost=3, bound=3, plan=PLAN)


def test_a_work_limit_reaches_the_formulation_and_its_count_is_recorded() -> None:
    cut = _Works().solve(_Named(), work_limit=500)
    assert (cut.status, cut.bound, cut.stats) == (Status.TIMEOUT, 3, {"work": 700, "work_limit": 500})
    whole = _Works().solve(_Named(), work_limit=1000)
    assert (whole.status, whole.stats) == (Status.OPTIMAL, {"work": 700, "work_limit": 1000})
    assert _Works().solve(_Named()).stats == {}  # no limit, nothing recorded


def test_a_formulation_that_cannot_count_its_work_refuses_a_work_limit() -> None:
    class Uncounted(_Works):
        counts_work = False

    result = Uncounted().solve(_Named(), work_limit=10**9)
    assert result.status is Status.UNSUPPORTED and "cannot count its work" in result.message
    assert Uncounted().solve(_Named()).status is Status.OPTIMAL


class _Inconsistent(Solver):
    """Answers whatever `answer` holds, however inconsistent."""

    name, puzzle, summary = "inconsistent", "keys", "breaks the contract"
    answer = Answer(Status.OPTIMAL, cost=3, bound=3)

    def _solve(self, instance: object, deadline: Deadline) -> Answer:
        return self.answer


@pytest.mark.parametrize(("answer", "rule"), [
    (Answer(Status.OPTIMAL, cost=13, bound=13), "an optimal result needs a cost and a plan"),
    (Answer(Status.FEASIBLE, cost=15, bound=16, plan=[]), "cost 15 is below its own lower bound 16"),
    (Answer(Status.INFEASIBLE, cost=4), "an infeasible result carries no cost or plan"),
    (Answer(Status.OPTIMAL, cost="many", bound=3, plan=PLAN), "cost: Input should be a valid integer"),  # type: ignore[arg-type]
])
def test_an_inconsistent_answer_is_an_error_naming_the_formulation_and_the_rule(answer: Answer, rule: str) -> None:
    """A plugin's answer that breaks the invariants is its error, in one line: no
    validation error escapes `solve`, and the message says who broke which rule."""
    solver = _Inconsistent()
    solver.answer = answer
    result = solver.solve(_Named(), time_limit=1)
    assert result.status is Status.ERROR and (result.cost, result.plan) == (None, None)
    assert result.message.startswith("inconsistent returned an inconsistent answer: ")
    assert rule in result.message and "\n" not in result.message and "ValidationError" not in result.message
