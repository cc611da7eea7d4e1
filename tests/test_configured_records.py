"""Records of configurations: what they carry, how old records read, and how verdicts weigh
them: two configurations of one formulation are one line of evidence, and a configuration
that gives up optimality offers its checked plan and nothing else."""

from __future__ import annotations

import json
from pathlib import Path

from crosscheck.harness.judging.same_effort import same_effort
from crosscheck.harness.judging.verdicts import Verdict, judge, judged
from crosscheck.harness.records.evidence import Evidence
from crosscheck.harness.records.record import RunRecord, Task, read_records
from crosscheck.harness.records.schema import SCHEMA_VERSION
from crosscheck.harness.records.tidy import rows
from crosscheck.harness.runs.runner import run_task
from crosscheck.models.answers import Optimum
from crosscheck.solvers.base import Status

from tests.fixtures import ROOT


def record(solver: str, status: Status, cost: int | None = None, bound: int | None = None,
           evidence: Evidence = Evidence.PROOF, shares: tuple[str, ...] = (), expanded: int = 0) -> RunRecord:
    """A run of `solver` (a label) on ``x.txt`` whose plan, when it has a cost, was accepted."""
    return RunRecord(instance="x.txt", puzzle="keys", solver=solver, status=status, cost=cost, bound=bound,
                     plan_valid=True if cost is not None else None, checked_cost=cost, evidence=evidence,
                     shares=list(shares), stats={"expanded": expanded} if expanded else {})


def test_a_record_names_its_formulation_and_configuration_from_its_label() -> None:
    named = record("keys-graph[bound=none]", Status.TIMEOUT)
    assert (named.formulation, named.configuration, named.options) == ("keys-graph", "keys-graph[bound=none]", {})


def test_records_of_schema_5_read_as_their_formulation_s_default(tmp_path: Path) -> None:
    old = record("keys-graph", Status.OPTIMAL, 8, 8).model_dump(mode="json")
    for field in ("formulation", "configuration", "options"):
        del old[field]
    old["schema_version"] = 5
    (tmp_path / "old.jsonl").write_text(json.dumps(old) + "\n")
    (read,) = read_records(tmp_path / "old.jsonl")
    assert (read.schema_version, read.formulation, read.configuration, read.options) == (5, "keys-graph",
                                                                                          "keys-graph", {})
    assert SCHEMA_VERSION > 5  # a record older than the one that added the fields


def test_two_configurations_of_one_formulation_are_one_line_of_evidence() -> None:
    alike = judge([record("keys-graph", Status.OPTIMAL, 8, 8), record("keys-graph[bound=none]", Status.OPTIMAL, 8, 8)])
    assert (alike.verdict, alike.provers, alike.independent) == (
        Verdict.AGREE, ("keys-graph", "keys-graph[bound=none]"), 1)
    apart = judge([record("keys-graph", Status.OPTIMAL, 8, 8), record("keys-graph[bound=none]", Status.OPTIMAL, 8, 8),
                   record("keys-grid", Status.OPTIMAL, 8, 8)])
    assert apart.independent == 2


def test_identical_effort_of_two_configurations_raises_no_doubt() -> None:
    def runs(solver: str) -> list[RunRecord]:
        return [record(solver, Status.OPTIMAL, 8, 8, expanded=effort).model_copy(update={"instance": f"{effort}.txt"})
                for effort in (73, 4506, 38)]

    assert same_effort(runs("keys-graph") + runs("keys-graph[cycle-tours=off]")) == []
    assert len(same_effort(runs("keys-graph") + runs("other"))) == 1  # two formulations' same effort still is


def test_a_plan_only_optimum_beside_a_proof_is_a_plan_not_a_false_optimum() -> None:
    """The planted configuration claims 12 optimal with bound 12; the optimum is 8."""
    planted = record("test-detour[detour=on]", Status.OPTIMAL, 12, 12, Evidence.PLAN)
    outcome = judge([planted, record("keys-grid", Status.OPTIMAL, 8, 8)])
    assert (outcome.verdict, outcome.answer, outcome.provers) == (Verdict.AGREE, Optimum(8), ("keys-grid",))


def test_a_plan_only_optimum_alone_proves_nothing() -> None:
    outcome = judge([record("test-detour[detour=on]", Status.OPTIMAL, 8, 8, Evidence.PLAN)])
    assert (outcome.verdict, outcome.answer) == (Verdict.UNVERIFIED, None)
    assert "best plan 8, no bound" in outcome.reason


def test_a_plan_only_optimum_that_came_late_is_still_only_a_plan() -> None:
    """Past its limit the planted configuration claimed 12 optimal (a timeout in the figures,
    `late_status` optimal): its late answer too reads as a plan, not as an optimum beaten by 8."""
    late = record("test-detour[detour=on]", Status.TIMEOUT, 12, 12, Evidence.PLAN).model_copy(
        update={"late_status": Status.OPTIMAL})
    outcome = judge([late, record("keys-grid", Status.OPTIMAL, 8, 8)])
    assert (outcome.verdict, outcome.answer, outcome.provers) == (Verdict.AGREE, Optimum(8), ("keys-grid",))


def test_a_plan_only_bound_or_infeasibility_contradicts_nobody() -> None:
    proof = record("keys-grid", Status.OPTIMAL, 8, 8)
    too_high = record("test-detour[detour=on]", Status.TIMEOUT, bound=20, evidence=Evidence.PLAN)
    infeasible = record("test-detour[detour=on]", Status.INFEASIBLE, evidence=Evidence.PLAN)
    assert judge([proof, too_high]).verdict is Verdict.AGREE
    assert judge([proof, infeasible]).verdict is Verdict.AGREE
    below = record("keys-grid", Status.OPTIMAL, 8, 8)
    lower_claim = record("test-detour[detour=on]", Status.FEASIBLE, 9, 9, Evidence.PLAN)
    assert judge([below, lower_claim]).verdict is Verdict.AGREE


def test_a_run_of_a_configuration_records_it(tmp_path: Path) -> None:
    vault = tmp_path / "v.txt"
    vault.write_text("#####\n#@.a#\n#####\n")
    made = run_task(Task(path=str(vault), instance="v.txt", solver="amphipods-search", puzzle=None))
    assert made.status is Status.UNSUPPORTED and made.formulation == "amphipods-search"
    run = run_task(Task(path=str(vault), instance="v.txt", solver="keys-graph[bound=none,dominance=off]"))
    assert (run.solver, run.formulation, run.configuration, run.status, run.evidence) == (
        "keys-graph[bound=none,dominance=off]", "keys-graph", "keys-graph[bound=none,dominance=off]",
        Status.OPTIMAL, Evidence.PROOF)
    assert run.options == {"bound": "none", "cycle-tours": "on", "dominance": "off"}
    burrow = tmp_path / "b.txt"
    burrow.write_text((ROOT / "instances" / "amphipods" / "depth2-example.txt").read_text())
    weighted = run_task(Task(path=str(burrow), instance="b.txt", solver="amphipods-search[weight=2]"))
    assert (weighted.status, weighted.evidence, weighted.bound, weighted.exact) == (
        Status.FEASIBLE, Evidence.PLAN, None, False)
    assert weighted.plan_valid is True


def test_tidy_rows_carry_the_configuration_and_each_option() -> None:
    runs = [record("keys-graph", Status.OPTIMAL, 8, 8).model_copy(update={"options": {"bound": "walk"}}),
            record("keys-cpsat[cpsat.linearization_level=2]", Status.OPTIMAL, 8, 8).model_copy(
                update={"options": {"level-cuts": "on", "cpsat": {"linearization_level": 2}}})]
    first, second = rows(judged(runs))
    assert (first["formulation"], first["configuration"], first["option_bound"]) == ("keys-graph", "keys-graph",
                                                                                     "walk")
    assert (second["option_cpsat.linearization_level"], second["option_bound"]) == (2, None)
