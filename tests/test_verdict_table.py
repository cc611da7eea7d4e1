"""The table of verdicts (`crosscheck.harness.judging.verdicts.VERDICTS`) and everything read from it:
the exit status of ``solve`` and ``compare``, where a hunt stops, the order reports count
verdicts in, and the README's table.  Each verdict has an example set of runs that earns
it, so a verdict added to the enum without a row and an example fails here."""

from __future__ import annotations

import re
from pathlib import Path

import crosscheck.harness.workflows.hunt
import pytest
from crosscheck.harness.judging.verdicts import FAILURES, HUNT_STOPS, VERDICTS, Verdict, judge, judged
from crosscheck.harness.records.evidence import Evidence
from crosscheck.harness.records.record import UNREADABLE, RunRecord, Task
from crosscheck.harness.reports.tables import notes
from crosscheck.harness.runs.settings import RunSettings
from crosscheck.harness.workflows.exits import EXIT_FAILED_RUNS, EXIT_OK, EXIT_WRONG, runs_status
from crosscheck.harness.workflows.hunt import HuntSettings, _Judge, _Wrong
from crosscheck.harness.workflows.morph import judge_pair
from crosscheck.models.answers import from_json
from crosscheck.models.keys import model as keys
from crosscheck.models.registry import puzzles
from crosscheck.models.relations import Related, Same
from crosscheck.solvers.base import Status
from crosscheck.solvers.certificate import Certificate

from tests.fixtures import ROOT
from tests.fixtures.cli import VAULT

README = ROOT / "README.md"
RULES = {rule.verdict: rule for rule in VERDICTS}


def run(solver: str, status: Status, cost: int | None = None, bound: int | None = None, valid: bool | None = None,
        evidence: Evidence = Evidence.PROOF, expected: int | None = None) -> RunRecord:
    return RunRecord(instance="x.txt", puzzle="keys", solver=solver, status=status, cost=cost, bound=bound,
                     plan_valid=valid, checked_cost=cost if valid else None, evidence=evidence,
                     expected=from_json(expected))


#: The verdicts of one instance's runs (`judge`); `morph-mismatch` judges a pair of instances.
INSTANCE_VERDICTS = [verdict for verdict in Verdict if verdict is not Verdict.MORPH_MISMATCH]

#: Runs of one instance that earn each verdict.
EXAMPLES: dict[Verdict, list[RunRecord]] = {
    Verdict.ERROR: [RunRecord(instance="x.txt", puzzle=None, solver=UNREADABLE, status=Status.ERROR,
                              message="x.txt:2:3: unknown cell '?'")],
    Verdict.INVALID_PLAN: [run("a", Status.OPTIMAL, 8, 8, False), run("b", Status.OPTIMAL, 8, 8, True)],
    Verdict.BAD_CERTIFICATE: [run("a", Status.OPTIMAL, 8, 8, True).model_copy(update={"certificate": Certificate(
        claim="lower-bound", bound=8, checked=False, error="the proof of bound 7 is rejected")})],
    Verdict.FALSE_INFEASIBLE: [run("a", Status.INFEASIBLE), run("b", Status.FEASIBLE, 8, 2, True)],
    Verdict.FALSE_OPTIMAL: [run("a", Status.OPTIMAL, 9, 9, True), run("b", Status.FEASIBLE, 8, 2, True)],
    Verdict.DISAGREE: [run("a", Status.TIMEOUT, bound=10), run("b", Status.OPTIMAL, 8, 8, True)],
    Verdict.WRONG_EXPECTED: [run("a", Status.OPTIMAL, 8, 8, True, expected=9)],
    Verdict.UNVERIFIED: [run("a", Status.OPTIMAL, 8, valid=True, evidence=Evidence.CLAIM)],
    Verdict.AGREE: [run("a", Status.OPTIMAL, 8, 8, True), run("b", Status.OPTIMAL, 8, 8, True, expected=8)],
}


def test_the_table_has_one_row_per_verdict_and_every_verdict_an_example() -> None:
    assert [rule.verdict for rule in VERDICTS] == list(Verdict)
    assert set(EXAMPLES) == set(INSTANCE_VERDICTS)
    assert {verdict: judge(runs).verdict for verdict, runs in EXAMPLES.items()} == {v: v for v in INSTANCE_VERDICTS}
    mismatch = judge_pair(Related(keys.parse(VAULT, "v.txt"), Same(), "rotate 90"), "symmetry",
                          run("a", Status.OPTIMAL, 8, 8, True), run("a", Status.OPTIMAL, 9, 9, True))
    assert mismatch.verdict is Verdict.MORPH_MISMATCH
    assert RULES[Verdict.MORPH_MISMATCH].failure and RULES[Verdict.MORPH_MISMATCH].stops_hunt


def test_the_sets_read_from_the_table() -> None:
    assert FAILURES == {rule.verdict for rule in VERDICTS if rule.failure}
    assert HUNT_STOPS == {rule.verdict for rule in VERDICTS if rule.stops_hunt}
    assert HUNT_STOPS <= FAILURES  # a hunt stops only where some answer is wrong
    assert not RULES[Verdict.AGREE].failure and not RULES[Verdict.UNVERIFIED].failure


@pytest.mark.parametrize("verdict", INSTANCE_VERDICTS)
def test_the_exit_status_of_a_comparison_comes_from_the_table(verdict: Verdict) -> None:
    """1 for a failure; otherwise 3 where a file was unreadable (its run's status), else 0."""
    others = EXIT_FAILED_RUNS if verdict is Verdict.ERROR else EXIT_OK
    assert runs_status(judged(EXAMPLES[verdict])) == (EXIT_WRONG if RULES[verdict].failure else others)


@pytest.mark.parametrize("verdict", INSTANCE_VERDICTS)
def test_a_hunt_stops_exactly_on_the_tables_hunt_stopping_verdicts(verdict: Verdict, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def runs(tasks: list[tuple[Task, None]], jobs: int) -> list[RunRecord]:
        return [record.model_copy(update={"instance": tasks[0][0].instance}) for record in EXAMPLES[verdict]]

    monkeypatch.setattr(crosscheck.harness.workflows.hunt, "run_tasks", runs)
    referee = _Judge(HuntSettings(puzzle=puzzles()["keys"], runs=RunSettings(solvers=("a", "b")), out=tmp_path,
                                  budget=10**6))
    instance = keys.parse(VAULT, "v.txt")
    if RULES[verdict].stops_hunt:
        with pytest.raises(_Wrong):
            referee(instance)
        assert referee.outcome.first is not None and referee.outcome.first.verdict.verdict is verdict
    else:
        referee(instance)
        assert referee.outcome.first is None and referee.outcome.tried == 1


def test_reports_count_verdicts_worst_first() -> None:
    records = [record.model_copy(update={"instance": f"{verdict.value}.txt"})
               for verdict in reversed(INSTANCE_VERDICTS) for record in EXAMPLES[verdict]]
    summary = notes(judged(records)).splitlines()[-1]
    assert summary == f"{len(INSTANCE_VERDICTS)} instances: " + ", ".join(
        f"1 {rule.verdict.value}" for rule in VERDICTS if rule.verdict in INSTANCE_VERDICTS)


def test_the_readme_gives_the_tables_meanings_and_exit_statuses() -> None:
    """Best first there, as a reader meets them; the exit status 1 list is `FAILURES`."""
    text = README.read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z-]+)` \| (.+) \|$", text, flags=re.MULTILINE)
    assert rows == [(rule.verdict.value, rule.meaning) for rule in reversed(VERDICTS)]
    failing = re.search(r"^\| \*\*1\*\* \| some answer is wrong \(([^)]*)\)", text, flags=re.MULTILINE)
    assert failing is not None and set(re.findall(r"`([a-z-]+)`", failing.group(1))) == {v.value for v in FAILURES}
