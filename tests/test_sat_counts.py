"""elevator-sat over counts of pair types: the encoding (`sat_counts`, `sat_counts_plans`), the walk
that proposes its invariants (`sat_counts_reach`), the two lemmas it rests on, tested on other
formulations' plans, and the certificates the harness checks."""

from __future__ import annotations

from pathlib import Path

import pytest
from crosscheck.harness.judging.verdicts import Verdict, judge
from crosscheck.harness.records.evidence import Evidence
from crosscheck.harness.records.record import RunRecord
from crosscheck.harness.runs import certify
from crosscheck.harness.runs.encoding_ledger import plan_check
from crosscheck.models.elevator.model import UP, Facility, check_plan, generate, parse
from crosscheck.solvers.base import Deadline, Status
from crosscheck.solvers.certificate import INVARIANT_KINDS, UnsatQuery, unproven
from crosscheck.solvers.elevator import sat_counts
from crosscheck.solvers.elevator.quotient import ElevatorQuotient
from crosscheck.solvers.elevator.sat import ElevatorSat
from crosscheck.solvers.elevator.sat_counts_plans import COUNTS_ENCODING, assignment, decode
from crosscheck.solvers.elevator.sat_counts_reach import reach
from crosscheck.solvers.engines.sat import Cnf, discard_proofs, solve

from tests.fixtures.known import INSTANCES

pytest.importorskip("pysat", reason="the certificates extra is not installed")
pytest.importorskip("dratify", reason="the certificates extra is not installed")

EXAMPLE = INSTANCES / "elevator" / "two-pairs-example.txt"


def load(path: Path) -> Facility:
    return parse(path.read_text(), str(path))


def facilities() -> list[Facility]:
    """Small generated facilities, some without a plan."""
    return [generate(seed, pairs=1 + seed % 3, floors=2 + seed % 4) for seed in range(16)]


def optimal_plan(facility: Facility) -> list[list[object]] | None:
    plan = ElevatorQuotient().solve(facility, time_limit=20).plan
    return None if plan is None else [list(move) for move in plan]


def wasteful_steps(facility: Facility, plan: list[list[object]]) -> int:
    """Up steps with one rider and down steps with two."""
    return sum((direction == UP) == (len(riders) == 1) for direction, riders in plan)  # type: ignore[arg-type]


@pytest.mark.parametrize("facility", facilities(), ids=lambda facility: facility.name)
def test_a_checked_plan_satisfies_the_cnf_at_its_cost_and_beyond_and_makes_the_wasteful_steps_the_lemma_says(
        facility: Facility) -> None:
    plan = optimal_plan(facility)
    if plan is None:
        pytest.skip("no plan: nothing to write as an assignment")
    cost = check_plan(facility, plan)
    if cost:
        assert cost == sat_counts.potential(facility) + 2 * wasteful_steps(facility, plan)  # the potential lemma
    for bound in (cost, cost + 1):
        assert sat_counts.encode(facility, bound).first_falsified(assignment(facility, plan, bound)) is None
    assert COUNTS_ENCODING.assignment(facility, plan) == assignment(facility, plan, cost)


@pytest.mark.parametrize("facility", facilities()[:12], ids=lambda facility: facility.name)
def test_the_walk_proposes_the_optimum_and_a_model_there_decodes_to_a_plan_of_that_length(facility: Facility) -> None:
    walk = reach(facility, Deadline(20))
    assert walk is not None
    plan = optimal_plan(facility)
    if walk.goal is None:
        assert plan is None
        return
    optimum = sat_counts.potential(facility) + 2 * walk.goal
    assert plan is not None and check_plan(facility, plan) == optimum or optimum <= 0 == len(plan or [])
    found = solve(sat_counts.encode(facility, max(optimum, 0)), Deadline(20), Path("/dev/null"))
    assert found.satisfiable
    assert check_plan(facility, decode(facility, max(optimum, 0), found.model)) == len(plan or [])


def test_the_published_optimum_is_certified_by_an_invariant_one_below_it() -> None:
    facility = load(EXAMPLE)
    result = ElevatorSat().solve(facility, time_limit=60)
    assert (result.status, result.cost, result.bound) == (Status.OPTIMAL, 11, 11)
    assert result.plan is not None and check_plan(facility, result.plan) == 11
    assert "renaming and potential lemmas" in result.message
    certificate = result.certificate
    assert certificate is not None and (certificate.claim, certificate.bound) == ("lower-bound", 11)
    assert [(query.kind, query.bound) for query in certificate.queries] == [(kind, 10) for kind in INVARIANT_KINDS]
    checked = certify.check(certificate, COUNTS_ENCODING, facility)
    assert checked.checked is True and checked.error == ""
    discard_proofs(certificate)


def test_an_invariant_that_misses_a_state_or_holds_the_goal_is_refused() -> None:
    """The walk's states below the goal, less one, are no invariant; with every settled state
    (the goal's wasteful steps allowed), one holds a goal or leads to one."""
    facility = generate(1, pairs=3, floors=3)
    walk = reach(facility, Deadline(20))
    assert walk is not None and walk.goal == 1 and len(walk.below_goal()) == 13
    bound = sat_counts.potential(facility) + 2 * walk.goal - 1
    below = walk.below_goal()

    def refuted(states: list[tuple[int, ...]], kind: str, at: int) -> bool:
        outcome = solve(COUNTS_ENCODING.cnf(facility, kind, at, states), Deadline(20), Path("/dev/null"))
        return outcome.satisfiable is False

    assert all(refuted(below, kind, bound) for kind in INVARIANT_KINDS)
    for missing in range(len(below)):
        fewer = below[:missing] + below[missing + 1:]
        assert not all(refuted(fewer, kind, bound) for kind in INVARIANT_KINDS)
    assert not all(refuted(below, kind, bound + 2) for kind in INVARIANT_KINDS)


def test_a_lower_bound_by_invariants_needs_all_three_one_below_it_over_one_set() -> None:
    def query(kind: str, bound: int | None, data: str = "s.json") -> UnsatQuery:
        return UnsatQuery(kind=kind, bound=bound, data_file=data, digest="d", proof_file="p")

    assert unproven("lower-bound", 11, [query(kind, 10) for kind in INVARIANT_KINDS]) == ""
    assert unproven("lower-bound", 12, [query(kind, 10) for kind in INVARIANT_KINDS])
    assert unproven("lower-bound", 11, [query(kind, 10) for kind in INVARIANT_KINDS[:2]])
    assert unproven("infeasible", None, [query(kind, 10) for kind in INVARIANT_KINDS])


def test_a_move_the_counts_encoding_leaves_out_is_a_bad_certificate(monkeypatch: pytest.MonkeyPatch) -> None:
    """An encoder whose steps carry one item (the second transfer never moves) falsifies the
    published example's optimal plans, which carry two items up."""
    facility = load(EXAMPLE)
    plan = optimal_plan(facility)
    checked = RunRecord(instance="x", puzzle="elevator", solver="elevator-quotient", status=Status.OPTIMAL,
                        cost=11, bound=11, plan=plan, plan_valid=True, checked_cost=11)
    assert plan_check(COUNTS_ENCODING, "elevator-sat", facility, checked).satisfied
    honest = sat_counts._in_order

    def one_rider(cnf: Cnf, layout: sat_counts.CountLayout, time: int) -> None:
        honest(cnf, layout, time)
        for number in range(len(layout.edges)):
            cnf.add(-layout.edge(time, 1, number))

    monkeypatch.setattr(sat_counts, "_in_order", one_rider)
    check = plan_check(COUNTS_ENCODING, "elevator-sat", facility, checked)
    assert not check.satisfied
    certified = checked.model_copy(update={"solver": "elevator-sat", "evidence": Evidence.CERTIFIED,
                                           "encoding_checks": [check]})
    assert judge([checked, certified]).verdict is Verdict.BAD_CERTIFICATE


def test_a_start_that_is_the_goal_is_optimal_at_zero_steps() -> None:
    """The potential lemma holds for plans of one step or more: the empty plan is found as it is."""
    facility = parse("The first floor contains nothing relevant.\n"
                     "The second floor contains a hydrogen generator and a hydrogen-compatible microchip.\n", "done")
    result = ElevatorSat().solve(facility, time_limit=20)
    assert (result.status, result.cost, result.bound, result.plan) == (Status.OPTIMAL, 0, 0, [])
    discard_proofs(result.certificate)
