"""Verdicts weigh checked plans against claims."""

from __future__ import annotations

import csv
import io

from crosscheck.harness.judging.verdicts import Verdict, judge, judged
from crosscheck.harness.records.evidence import Evidence
from crosscheck.harness.records.record import RunRecord
from crosscheck.harness.reports.tables import render
from crosscheck.models.answers import NO_SOLUTION, Optimum, from_json
from crosscheck.solvers.base import Status


def record(solver: str, status: Status, cost: int | None = None, bound: int | None = None,
           valid: bool | None = None, expected: int | str | None = None, shares: tuple[str, ...] = ()) -> RunRecord:
    return RunRecord(instance="x.txt", puzzle="keys", solver=solver, status=status, cost=cost, bound=bound,
                     plan_valid=valid, checked_cost=cost if valid else None, expected=from_json(expected),
                     shares=list(shares))


def verdict(*records: RunRecord) -> Verdict:
    return judge(records).verdict


def test_agreeing_optima() -> None:
    outcome = judge([record("a", Status.OPTIMAL, 8, 8, True, 8), record("b", Status.OPTIMAL, 8, 8, True, 8)])
    assert (outcome.verdict, outcome.answer) == (Verdict.AGREE, Optimum(8))


def test_a_solver_recorded_twice_counts_as_one_prover() -> None:
    """Results files merged from two runs must not let one solver vouch for itself."""
    outcome = judge([record("a", Status.OPTIMAL, 8, 8, True), record("a", Status.OPTIMAL, 8, 8, True),
                     record("b", Status.OPTIMAL, 8, 8, True)])
    assert outcome.provers == ("a", "b")


def test_a_timeout_beside_an_optimum_still_agrees() -> None:
    assert verdict(record("a", Status.OPTIMAL, 8, 8, True), record("b", Status.TIMEOUT, bound=5)) is Verdict.AGREE


def test_optimum_beaten_by_a_checked_plan_is_false_optimal() -> None:
    assert verdict(record("a", Status.OPTIMAL, 9, 9, True), record("b", Status.FEASIBLE, 8, 2, True)) is Verdict.FALSE_OPTIMAL


def test_infeasibility_contradicted_by_a_plan() -> None:
    assert verdict(record("a", Status.INFEASIBLE), record("b", Status.FEASIBLE, 8, 0, True)) is Verdict.FALSE_INFEASIBLE


def test_bound_above_a_checked_plan_disagrees() -> None:
    assert verdict(record("a", Status.TIMEOUT, bound=10), record("b", Status.OPTIMAL, 8, 8, True)) is Verdict.DISAGREE


def test_invalid_plan_is_reported_first() -> None:
    assert verdict(record("a", Status.OPTIMAL, 8, 8, False), record("b", Status.OPTIMAL, 8, 8, True)) is Verdict.INVALID_PLAN


def test_agreement_against_the_index() -> None:
    assert verdict(record("a", Status.OPTIMAL, 8, 8, True, expected=9)) is Verdict.WRONG_EXPECTED
    assert verdict(record("a", Status.INFEASIBLE, expected="infeasible")) is Verdict.AGREE
    assert verdict(record("a", Status.INFEASIBLE, expected=3)) is Verdict.WRONG_EXPECTED


def test_no_exact_answer_is_unverified() -> None:
    outcome = judge([record("a", Status.FEASIBLE, 9, 4, True), record("b", Status.TIMEOUT, bound=6)])
    assert outcome.verdict is Verdict.UNVERIFIED and outcome.reason == "no exact answer; best plan 9, best bound 6"


def test_an_unverified_reason_says_what_is_missing_in_words() -> None:
    """No Python None in a message: a missing plan or bound is named as such."""
    assert judge([record("a", Status.TIMEOUT)]).reason == "no exact answer; no plan, no bound"
    assert judge([record("a", Status.FEASIBLE, 9, None, True)]).reason == "no exact answer; best plan 9, no bound"


def test_bare_claim_below_a_proven_optimum_disagrees() -> None:
    claim = record("mine", Status.OPTIMAL, 5, 5, None)
    assert verdict(claim, record("a", Status.OPTIMAL, 8, 8, True)) is Verdict.DISAGREE


def test_bare_claim_alone_is_not_an_exact_answer() -> None:
    assert verdict(record("mine", Status.OPTIMAL, 5, 5, None)) is Verdict.UNVERIFIED


def test_a_checked_plan_below_the_index_is_flagged_without_any_exact_answer() -> None:
    outcome = judge([record("a", Status.FEASIBLE, 8, 3, True, expected=10), record("b", Status.TIMEOUT, bound=4)])
    assert outcome.verdict is Verdict.WRONG_EXPECTED and "checked plan costs 8" in outcome.reason


def test_a_checked_plan_contradicting_an_infeasible_index_entry_is_flagged() -> None:
    assert verdict(record("a", Status.FEASIBLE, 8, 3, True, expected="infeasible")) is Verdict.WRONG_EXPECTED


def test_a_proven_bound_above_the_index_is_flagged() -> None:
    outcome = judge([record("a", Status.TIMEOUT, bound=12, expected=10)])
    assert outcome.verdict is Verdict.WRONG_EXPECTED and "lower bound 12" in outcome.reason


def test_bounds_and_plans_consistent_with_the_index_stay_unverified() -> None:
    assert verdict(record("a", Status.FEASIBLE, 12, 9, True, expected=10)) is Verdict.UNVERIFIED


def test_runs_that_all_crashed_are_not_mistaken_for_an_unreadable_file() -> None:
    crashed = [RunRecord(instance="x.txt", puzzle="keys", solver=name, status=Status.ERROR, message="boom")
               for name in ("a", "b")]
    outcome = judge(crashed)
    assert outcome.verdict is Verdict.UNVERIFIED and "unreadable" not in outcome.reason


def test_provers_sharing_a_component_count_as_one_piece_of_evidence() -> None:
    outcome = judge([record("grid", Status.OPTIMAL, 8, 8, True, shares=("bound",)),
                     record("graph", Status.OPTIMAL, 8, 8, True, shares=("routes", "bound")),
                     record("cpsat", Status.OPTIMAL, 8, 8, True, shares=("routes",))])
    assert outcome.independent == 2  # grid and cpsat share nothing; graph shares with both
    pair = judge([record("graph", Status.OPTIMAL, 8, 8, True, shares=("routes",)),
                  record("cpsat", Status.OPTIMAL, 8, 8, True, shares=("routes",))])
    assert (pair.verdict, pair.independent) == (Verdict.AGREE, 1)


def test_a_reason_repeated_by_repetitions_of_a_run_is_given_once() -> None:
    """Two repetitions of a lying run and of the prover it contradicts: each contradiction once."""
    liar, prover = record("liar", Status.OPTIMAL, 7, 7), record("b", Status.OPTIMAL, 9, 9, True)  # liar: no plan
    outcome = judge([liar, liar.model_copy(update={"repeat": 1}), prover, prover.model_copy(update={"repeat": 1})])
    assert outcome.verdict is Verdict.DISAGREE
    assert outcome.reason == "liar claimed optimum 7 below b's lower bound 9", outcome.reason


def external(status: Status, cost: int | None = None, valid: bool | None = None) -> RunRecord:
    """An external program's record: its answer is a claim, whatever it says."""
    return RunRecord(instance="x.txt", puzzle="keys", solver="mine", status=status, cost=cost,
                     plan_valid=valid, checked_cost=cost if valid else None, evidence=Evidence.CLAIM,
                     stats={"external": "mine {path}"})


def test_an_external_claim_never_acts_as_a_bound() -> None:
    """A claimed 70 must not make a proven-looking 72 of another external, or a built-in
    timeout's plan of 71, wrong: claims are contradicted, they never contradict."""
    legacy = external(Status.OPTIMAL, 72).model_copy(update={"bound": 72})  # records written before the fix
    assert verdict(external(Status.OPTIMAL, 70), legacy) is Verdict.UNVERIFIED
    assert verdict(legacy, record("b", Status.FEASIBLE, 71, 2, True)) is Verdict.FALSE_OPTIMAL
    assert verdict(external(Status.OPTIMAL, 72), record("b", Status.TIMEOUT, bound=70)) is Verdict.UNVERIFIED


def test_an_external_claim_is_contradicted_by_a_proven_bound() -> None:
    assert verdict(external(Status.OPTIMAL, 70), record("b", Status.TIMEOUT, bound=72)) is Verdict.DISAGREE


def test_an_external_infeasibility_claim_is_judged_but_proves_nothing() -> None:
    assert verdict(external(Status.INFEASIBLE), record("b", Status.FEASIBLE, 8, 2, True)) is Verdict.FALSE_INFEASIBLE
    assert verdict(external(Status.INFEASIBLE), external(Status.OPTIMAL, 8)) is Verdict.UNVERIFIED
    assert verdict(external(Status.OPTIMAL, 8), record("b", Status.INFEASIBLE)) is Verdict.DISAGREE
    assert verdict(external(Status.INFEASIBLE)) is Verdict.UNVERIFIED


def test_an_external_plan_is_a_fact_but_its_optimum_only_a_claim() -> None:
    outcome = judge([external(Status.OPTIMAL, 8, True)])
    assert outcome.verdict is Verdict.UNVERIFIED
    assert verdict(external(Status.OPTIMAL, 8, True), record("b", Status.OPTIMAL, 9, 9, True)) is Verdict.FALSE_OPTIMAL
    assert verdict(external(Status.OPTIMAL, 8, False), record("b", Status.OPTIMAL, 8, 8, True)) is Verdict.INVALID_PLAN


def test_a_lone_claim_against_the_index_is_flagged() -> None:
    """An audit of a lone external program must not pass a wrong claimed optimum (or a wrong
    infeasibility claim) on an instance whose optimum the index holds."""
    below = judge([external(Status.OPTIMAL, 11).model_copy(update={"expected": Optimum(15)})])
    assert below.verdict is Verdict.WRONG_EXPECTED and "mine claims 11, index says 15" in below.reason
    infeasible = external(Status.INFEASIBLE).model_copy(update={"expected": Optimum(15)})
    assert verdict(infeasible) is Verdict.WRONG_EXPECTED
    assert verdict(external(Status.OPTIMAL, 15).model_copy(update={"expected": Optimum(15)})) is Verdict.UNVERIFIED
    assert verdict(external(Status.INFEASIBLE).model_copy(update={"expected": NO_SOLUTION})) is Verdict.UNVERIFIED


def test_wrong_expected_names_how_many_independent_provers_stand_against_the_index() -> None:
    """Three formulations (two sharing a bound: two independent) prove 10, the index says 8:
    how firmly the index is contradicted is what a reader weighs, so it is counted as for agree."""
    runs = [record("grid", Status.OPTIMAL, 10, 10, True, 8, shares=("bound",)),
            record("graph", Status.OPTIMAL, 10, 10, True, 8, shares=("bound",)),
            record("cpsat", Status.OPTIMAL, 10, 10, True, 8)]
    outcome = judge(runs)
    assert (outcome.verdict, outcome.answer, outcome.provers, outcome.independent) == (
        Verdict.WRONG_EXPECTED, Optimum(10), ("grid", "graph", "cpsat"), 2)
    assert outcome.reason == "solvers agree on 10, index says 8: 3 exact (2 independent): grid, graph, cpsat"
    rows = list(csv.DictReader(io.StringIO(render(judged(runs), "csv"))))
    assert {row["independent"] for row in rows} == {"2"}  # the tidy rows carry it
    table = render(judged(runs)).splitlines()
    assert table[1].split()[-2:] == ["wrong-expected", "2"]  # the table's first row of the instance


def test_wrong_expected_without_an_exact_answer_has_no_provers() -> None:
    outcome = judge([record("a", Status.FEASIBLE, 7, 0, True, 8)])  # a checked plan below the index's optimum
    assert (outcome.verdict, outcome.provers, outcome.independent) == (Verdict.WRONG_EXPECTED, (), 0)
