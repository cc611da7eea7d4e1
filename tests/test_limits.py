"""A limit is a limit: a run that answers after its time limit counts as a timeout in every
figure, while its checked plan and proof stay evidence for the verdicts; a long phase that
checks its deadline ends the run as an honest timeout."""

from __future__ import annotations

from pathlib import Path

import pytest
from crosscheck.harness.judging.verdicts import Verdict, judged
from crosscheck.harness.records.record import RunRecord, read_records
from crosscheck.harness.records.tidy import rows as tidy_rows
from crosscheck.harness.reports.aggregate import FAMILY_COLUMNS, cells, family_rows
from crosscheck.harness.reports.tables import SUMMARY_COLUMNS, summary_rows
from crosscheck.harness.runs.limits import within_limit
from crosscheck.models.answers import Optimum
from crosscheck.models.keys.model import Vault, parse
from crosscheck.solvers.base import Answer, Deadline, LimitReached, Solver, Status
from crosscheck.solvers.engines.search import Ending, SearchProblem, Strategy, best_first_search

from tests.fixtures.cli import VAULT, invoke
from tests.fixtures.plugin_solvers import OVERRUN_SECONDS

pytestmark = pytest.mark.usefixtures("misbehaving_solvers")

LIMIT = OVERRUN_SECONDS / 4


def _compare(tmp_path: Path) -> list[RunRecord]:
    """`compare` of the small vault by an honest solver and one whose slow phase overruns `LIMIT`."""
    (tmp_path / "small.txt").write_text(VAULT)
    (tmp_path / "index.toml").write_text('["small.txt"]\noptimum = 8\n')
    out = tmp_path / "runs.jsonl"
    result = invoke("compare", str(tmp_path / "small.txt"), "--solver", "test-plain", "--solver", "test-overrunner",
                    "--time-limit", str(LIMIT), "--out", str(out))
    assert result.exit_code == 0, result.output
    return read_records(out)


def test_a_late_answer_is_a_timeout_in_every_figure_and_evidence_for_the_verdict(tmp_path: Path) -> None:
    records = _compare(tmp_path)
    late = {r.solver: r for r in records}["test-overrunner"]
    assert late.seconds > LIMIT
    assert (late.status, late.late_status, late.cost, late.bound, late.plan_valid) == (
        Status.TIMEOUT, Status.OPTIMAL, 8, 8, True)
    assert late.message.startswith("answered optimal after ") and f"past its time limit of {LIMIT:g} s" in late.message
    assert not late.exact and late.exact_answer and late.answer_status is Status.OPTIMAL
    [verdict] = judged(records).verdicts  # the late proof stays evidence
    assert verdict.verdict is Verdict.AGREE and verdict.answer == Optimum(8)
    assert set(verdict.provers) == {"test-plain", "test-overrunner"}
    _figures_count_it_a_timeout(records)


def _figures_count_it_a_timeout(records: list[RunRecord]) -> None:
    """Cells (cactus plots, profiles, medians), the family and per-solver tables and the tidy data."""
    by_solver = {cell.solver: cell for cell in cells(records)}
    assert (by_solver["test-overrunner"].exact, by_solver["test-overrunner"].solved) == (False, False)
    assert by_solver["test-overrunner"].outcome == "unproven" and by_solver["test-plain"].exact
    family = {row[FAMILY_COLUMNS.index("solver")]: row for row in family_rows(records)}
    solved, exact = FAMILY_COLUMNS.index("solved"), FAMILY_COLUMNS.index("exact")
    assert (family["test-overrunner"][solved], family["test-overrunner"][exact]) == ("0", "0")
    assert (family["test-plain"][solved], family["test-plain"][exact]) == ("1", "1")
    summary = {row[SUMMARY_COLUMNS.index("solver")]: row for row in summary_rows(records)}
    assert summary["test-overrunner"][SUMMARY_COLUMNS.index("exact")] == "0"
    assert summary["test-overrunner"][SUMMARY_COLUMNS.index("timeout")] == "1"
    tidy = {row["solver"]: row for row in tidy_rows(judged(records))}
    assert (tidy["test-overrunner"]["status"], tidy["test-overrunner"]["exact"],
            tidy["test-overrunner"]["late_status"]) == ("timeout", False, "optimal")


def test_the_limit_is_judged_on_the_run_s_own_clock() -> None:
    record = RunRecord(instance="a.txt", puzzle="keys", solver="s", status=Status.INFEASIBLE,
                       environment={"time_limit": 2.0, "clock": "cpu"})
    assert within_limit(record, 2.0) is record  # at the limit is within it
    late = within_limit(record, 2.5)
    assert (late.status, late.late_status) == (Status.TIMEOUT, Status.INFEASIBLE)
    assert late.message.startswith("answered infeasible after 2.50 s cpu")
    unlimited = record.model_copy(update={"environment": {}})
    assert within_limit(unlimited, 1e9) is unlimited
    timeout = record.model_copy(update={"status": Status.TIMEOUT})
    assert within_limit(timeout, 9.0) is timeout  # no answer to be late with


class _SlowSetUp(Solver):
    name, puzzle, summary = "slow-set-up", "keys", "a set-up phase that checks its deadline"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        while True:
            deadline.check("setting up the bound")


def test_a_phase_that_checks_its_deadline_ends_the_run_as_a_timeout() -> None:
    vault = parse(VAULT, "v.txt")
    result = _SlowSetUp().solve(vault, time_limit=0.05)
    assert result.status is Status.TIMEOUT
    assert result.message == "time limit reached setting up the bound"
    assert _SlowSetUp().solve(vault, work_limit=0).message == "work limit reached setting up the bound"


class _SlowExpansions(SearchProblem[int, int]):
    """A line of states whose expansions check the deadline themselves (as a grid walk does)."""

    def __init__(self, deadline: Deadline) -> None:
        self.deadline = deadline

    def initial(self) -> int:
        return 0

    def is_goal(self, state: int) -> bool:
        return False

    def successors(self, state: int) -> list[tuple[int, int, int]]:
        if state == 3:
            raise LimitReached("time limit", "walking")
        return [(state, state + 1, 2)]

    def heuristic(self, state: int) -> int:
        return 1


def test_the_search_engine_turns_a_limit_reached_in_an_expansion_into_a_timeout_with_its_bound() -> None:
    for strategy, bound in ((Strategy.ASTAR, 7), (Strategy.DIJKSTRA, 6)):
        outcome = best_first_search(_SlowExpansions(Deadline(None)), strategy)
        assert (outcome.status, outcome.bound, outcome.expanded) == (Ending.TIMEOUT, bound, 4)
