"""The fault audit's machinery (`benchmarks.fault_audit`), without running the audit itself.

The catalogue must keep applying (each snippet once in its file), planting must change
exactly the snippet, the canary must tell a faulted copy from an unfaulted one, and the
judging must classify compare's verdicts as the audit's table reports them.  The slow
test runs one real fault (the issue's door fault) through compare and the tests.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

from benchmarks.fault_audit import (
    ROOT,
    SETS,
    CrossCheck,
    Outcome,
    audit_fault,
    canary,
    copy_tracked,
    enclosing,
    environment_for,
    generate_sets,
    judge_crosscheck,
    plant,
    stage,
    table,
    truth,
)
from benchmarks.fault_catalogue import FAULTS, Fault
from crosscheck.harness.verdicts import InstanceVerdict, Verdict
from crosscheck.solvers.trusted import is_trusted

BY_NAME = {fault.name: fault for fault in FAULTS}


def test_catalogue_has_thirty_distinct_faults_over_every_area() -> None:
    assert len(BY_NAME) == len(FAULTS) >= 30
    assert {fault.area for fault in FAULTS} >= {"keys", "elevator", "amphipods", "engine", "cpsat", "checker"}


@pytest.mark.parametrize("fault", FAULTS, ids=lambda fault: fault.name)
def test_every_snippet_occurs_exactly_once_and_its_tests_exist(fault: Fault) -> None:
    text = (ROOT / fault.path).read_text(encoding="utf-8")
    assert text.count(fault.original) == 1, f"{fault.name}: snippet no longer occurs once in {fault.path}"
    assert fault.replacement != fault.original
    assert all((ROOT / test).is_file() for test in fault.tests)
    assert set(fault.puzzles) <= set(SETS)


def test_planting_changes_exactly_the_snippet_and_refuses_a_second_time(tmp_path: Path) -> None:
    fault = BY_NAME["keys-door-b-never-opens"]
    (tmp_path / "models").mkdir()
    before = (ROOT / fault.path).read_text(encoding="utf-8")
    (tmp_path / fault.path).write_text(before, encoding="utf-8")
    plant(fault, tmp_path)
    after = (tmp_path / fault.path).read_text(encoding="utf-8")
    start = before.index(fault.original)
    assert after == before[:start] + fault.replacement + before[start + len(fault.original):]
    with pytest.raises(ValueError, match="occurs 0 times"):
        plant(fault, tmp_path)


def test_the_canary_tells_a_faulted_copy_from_an_unfaulted_one(tmp_path: Path) -> None:
    fault = BY_NAME["elevator-start-unchecked"]
    copy = tmp_path / "copy"
    copy_tracked(ROOT, copy)
    env = environment_for(stage(copy))
    with pytest.raises(RuntimeError, match="not active"):
        canary(fault, env, copy)
    plant(fault, copy)
    canary(fault, env, copy)  # the staged copy, not the installed package, is imported


def test_enclosing_names_decide_whether_a_fault_is_in_the_trusted_base() -> None:
    assert enclosing(BY_NAME["keys-door-b-never-opens"]) == "crosscheck.models.keys.Vault.passable"
    assert enclosing(BY_NAME["amphipods-no-stop-left-end"]) == "crosscheck.models.amphipods"
    assert is_trusted(enclosing(BY_NAME["checker-keys-door-b"]))
    assert is_trusted(enclosing(BY_NAME["engine-no-reopen"]))
    assert not is_trusted(enclosing(BY_NAME["keys-door-b-never-opens"]))
    assert not is_trusted(enclosing(BY_NAME["amphipods-no-stop-left-end"]))


def _verdict(instance: str, verdict: Verdict, answer: int | str | None, independent: int = 0) -> InstanceVerdict:
    return InstanceVerdict(verdict, answer, "planted", independent=independent, instance=instance, variant=False)


def test_judging_classifies_wrong_agreement_by_its_independent_provers() -> None:
    truth_answers: dict[str, int | str] = {"a": 10, "b": 20, "c": "infeasible", "d": 40}
    missed = judge_crosscheck(truth_answers, [
        _verdict("a", Verdict.AGREE, 10, 2),  # right: not counted
        _verdict("b", Verdict.AGREE, 22, 2),  # wrong, two independent provers: a miss
        _verdict("c", Verdict.AGREE, 30, 1),  # wrong, one line
        _verdict("d", Verdict.DISAGREE, None),  # flagged
    ])
    assert (missed.wrong_agreed, missed.one_line, missed.missed) == (1, 1, True)
    assert missed.verdicts == Counter({"wrong agree (2 independent)": 1, "wrong agree (1 independent)": 1,
                                       "disagree": 1})
    assert missed.summary().startswith("MISSED")
    caught = judge_crosscheck(truth_answers, [_verdict("b", Verdict.FALSE_OPTIMAL, 20),
                                              _verdict("c", Verdict.AGREE, 30, 1)])
    assert not caught.missed and caught.flagged and caught.summary().startswith("caught")
    one_line = judge_crosscheck(truth_answers, [_verdict("c", Verdict.AGREE, 30, 1)])
    assert not one_line.missed and not one_line.flagged and one_line.summary().startswith("one line")
    quiet = judge_crosscheck(truth_answers, [_verdict("a", Verdict.AGREE, 10, 2),
                                             _verdict("e", Verdict.AGREE, 7, 2)])  # no unfaulted answer for e
    assert quiet == CrossCheck(0, 0, Counter(), 0) and quiet.summary() == "no wrong answer, nothing flagged"
    assert judge_crosscheck(truth_answers, [], failed_runs=2).flagged


def test_table_marks_only_a_fault_missed_by_the_cross_check_and_the_tests() -> None:
    wrong = CrossCheck(1, 0, Counter({"wrong agree (2 independent)": 1}), 0)
    fault = BY_NAME["keys-door-b-never-opens"]
    both = Outcome(fault, wrong, tests_failed=False, tests_line="9 passed")
    tested = Outcome(BY_NAME["checker-keys-door-b"], wrong, tests_failed=True, tests_line="1 failed")
    assert both.missed_by_both and not tested.missed_by_both
    text = table([both, tested])
    rows = text.splitlines()
    assert rows[1].split()[:3] == [fault.name, "keys", "no"] and rows[1].endswith("YES")
    assert rows[2].split()[:3] == ["checker-keys-door-b", "checker", "yes"] and rows[2].endswith("no")
    assert "missed by both 1 (keys-door-b-never-opens)" in text


@pytest.mark.slow
@pytest.mark.parametrize("name", ["keys-door-b-never-opens", "elevator-start-unchecked"])
def test_the_issues_two_faults_are_caught(name: str, tmp_path: Path) -> None:
    fault = BY_NAME[name]
    puzzle = fault.puzzles[0]
    sets = {puzzle: generate_sets([puzzle], tmp_path / "sets", dict(os.environ))}
    outcome = audit_fault(fault, sets, truth(sets, tmp_path), tmp_path)
    assert not outcome.missed_by_both
    assert outcome.crosscheck.flagged or outcome.tests_failed
