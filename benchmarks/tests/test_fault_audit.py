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
from crosscheck.harness.independence.trusted import is_trusted
from crosscheck.harness.judging.verdicts import InstanceVerdict, Verdict
from crosscheck.models import registry
from crosscheck.models.answers import NO_SOLUTION, ExactAnswer, Optimum, from_json
from crosscheck.solvers.registry import get_solver

from benchmarks.fault_audit import (
    ROOT,
    CrossCheck,
    Outcome,
    audit_fault,
    audited_puzzles,
    canary,
    copy_tracked,
    enclosing,
    environment_for,
    generate_sets,
    judge_crosscheck,
    load,
    module_of,
    plant,
    prepared,
    save,
    stage,
    table,
    truth,
)
from benchmarks.fault_catalogue import FAULTS, Fault
from benchmarks.fault_relations import Relations, fed_formulations, judge_morph, run_morph, subprocess_runner

BY_NAME = {fault.name: fault for fault in FAULTS}


def test_catalogue_has_thirty_distinct_faults_over_every_area() -> None:
    assert len(BY_NAME) == len(FAULTS) >= 30
    assert {fault.area for fault in FAULTS} >= {"keys", "elevator", "amphipods", "tiles", "engine", "cpsat",
                                                "checker"}


@pytest.mark.parametrize("fault", FAULTS, ids=lambda fault: fault.name)
def test_every_snippet_occurs_exactly_once_and_its_tests_exist(fault: Fault) -> None:
    text = (ROOT / fault.path).read_text(encoding="utf-8")
    assert text.count(fault.original) == 1, f"{fault.name}: snippet no longer occurs once in {fault.path}"
    assert fault.replacement != fault.original
    assert all((ROOT / test).is_file() for test in fault.tests)
    assert set(fault.puzzles) <= set(audited_puzzles())


def test_planting_changes_exactly_the_snippet_and_refuses_a_second_time(tmp_path: Path) -> None:
    fault = BY_NAME["keys-door-b-never-opens"]
    (tmp_path / fault.path).parent.mkdir(parents=True)
    before = (ROOT / fault.path).read_text(encoding="utf-8")
    (tmp_path / fault.path).write_text(before, encoding="utf-8")
    plant(fault, tmp_path)
    after = (tmp_path / fault.path).read_text(encoding="utf-8")
    start = before.index(fault.original)
    assert after == before[:start] + fault.replacement + before[start + len(fault.original):]
    with pytest.raises(ValueError, match="occurs 0 times"):
        plant(fault, tmp_path)


def test_the_canary_tells_a_faulted_copy_from_an_unfaulted_one(tmp_path: Path) -> None:
    """In crosscheck, and in a distribution of examples/ (its copy comes before an installed one)."""
    copy = tmp_path / "copy"
    copy_tracked(ROOT, copy)
    env = environment_for(stage(copy))
    for fault in (BY_NAME["elevator-start-unchecked"], BY_NAME["tiles-cpsat-parity-flipped"]):
        with pytest.raises(RuntimeError, match="not active"):
            canary(fault, env, copy)
        plant(fault, copy)
        canary(fault, env, copy)  # the staged copy, not the installed package, is imported


def test_a_file_installs_as_the_module_of_its_distribution() -> None:
    assert module_of("models/keys/model.py") == "crosscheck.models.keys.model"
    assert module_of("examples/tiles/crosscheck_tiles/model.py") == "crosscheck_tiles.model"


def test_enclosing_names_decide_whether_a_fault_is_in_the_trusted_base() -> None:
    assert enclosing(BY_NAME["keys-door-b-never-opens"]) == "crosscheck.models.keys.model.Vault.passable"
    assert enclosing(BY_NAME["amphipods-no-stop-left-end"]) == "crosscheck.models.amphipods.model.STOPS"
    assert enclosing(BY_NAME["elevator-moves-pairs-only"]) == "crosscheck.solvers.elevator.common.labelled_moves"
    assert is_trusted(enclosing(BY_NAME["checker-keys-door-b"]))
    assert is_trusted(enclosing(BY_NAME["engine-no-reopen"]))
    assert is_trusted(enclosing(BY_NAME["amphipods-energy-b"])) and is_trusted(enclosing(BY_NAME["keys-key-a-not-a-key"]))
    assert not is_trusted(enclosing(BY_NAME["keys-door-b-never-opens"]))
    assert not is_trusted(enclosing(BY_NAME["amphipods-no-stop-left-end"]))
    assert enclosing(BY_NAME["tiles-cpsat-parity-flipped"]) == "crosscheck_tiles.cpsat.permutation_is_odd"
    if "tiles" in registry.puzzles():  # a plugin's trusted pieces are known once it is installed
        assert is_trusted(enclosing(BY_NAME["tiles-goal-blank-first"]))
        assert not is_trusted(enclosing(BY_NAME["tiles-cpsat-parity-flipped"]))


def _verdict(instance: str, verdict: Verdict, answer: int | str | None, independent: int = 0) -> InstanceVerdict:
    return InstanceVerdict(verdict, from_json(answer), "planted", independent=independent, instance=instance,
                           variant=False)


def test_judging_classifies_wrong_agreement_by_its_independent_provers() -> None:
    truth_answers: dict[str, ExactAnswer] = {"a": Optimum(10), "b": Optimum(20), "c": NO_SOLUTION, "d": Optimum(40)}
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
    quiet = Relations(4, Counter(), Counter(), 0)
    both = Outcome(fault, wrong, quiet, tests_failed=False, tests_line="9 passed")
    tested = Outcome(BY_NAME["checker-keys-door-b"], wrong, quiet, tests_failed=True, tests_line="1 failed")
    assert both.missed_by_both and not tested.missed_by_both
    text = table([both, tested])
    rows = text.splitlines()
    assert rows[1].split()[:3] == [fault.name, "keys", "no"] and rows[1].endswith("YES")
    assert rows[2].split()[:3] == ["checker-keys-door-b", "checker", "yes"] and rows[2].endswith("no")
    assert "missed by both 1 (keys-door-b-never-opens)" in text
    assert "by none 1 (keys-door-b-never-opens)" in text


@pytest.mark.slow
@pytest.mark.parametrize("name", ["keys-door-b-never-opens", "elevator-start-unchecked"])
def test_the_issues_two_faults_are_caught(name: str, tmp_path: Path) -> None:
    fault = BY_NAME[name]
    puzzle = fault.puzzles[0]
    sets = {puzzle: generate_sets([puzzle], tmp_path / "sets", dict(os.environ))}
    outcome = audit_fault(fault, sets, truth(sets, tmp_path), tmp_path)
    assert not outcome.missed_by_both
    assert outcome.crosscheck.flagged or outcome.tests_failed


# --- the relations column ------------------------------------------------------------------

def test_fed_formulations_come_from_the_catalogue_or_the_footprints() -> None:
    door = BY_NAME["keys-door-b-never-opens"]  # Vault.passable: what the footprints say runs it
    assert set(fed_formulations(door, enclosing(door))) == {"keys-graph", "keys-cpsat", "keys-fd"}
    grid = BY_NAME["keys-grid-door-b-never-opens"]
    assert fed_formulations(grid, enclosing(grid)) == ("keys-grid",)
    engine = BY_NAME["engine-no-reopen"]  # trusted: named in the catalogue
    assert fed_formulations(engine, enclosing(engine)) == engine.formulations != ()
    stops = BY_NAME["amphipods-no-stop-left-end"]  # a module-level constant: whoever runs its module's code
    footprints = {"amphipods-mine": frozenset({"crosscheck.models.amphipods.model.settled"}),
                  "amphipods-other": frozenset({"crosscheck.solvers.amphipods.stops.stack_moves"})}
    assert fed_formulations(stops, enclosing(stops), footprints) == ("amphipods-mine",)
    with pytest.raises(ValueError, match="no formulation's footprint holds"):
        fed_formulations(door, enclosing(door), footprints)


@pytest.mark.parametrize("fault", FAULTS, ids=lambda fault: fault.name)
def test_every_fault_feeds_registered_formulations_of_its_puzzles(fault: Fault) -> None:
    if not set(fault.puzzles) <= set(registry.puzzles()):
        pytest.skip(f"{', '.join(fault.puzzles)}: a puzzle not installed (the README's test command installs it)")
    fed = fed_formulations(fault, enclosing(fault))
    assert fed and {get_solver(name).puzzle for name in fed} <= set(fault.puzzles)


def test_morph_runs_once_per_puzzle_with_only_its_faulted_formulations_and_every_relation(tmp_path: Path) -> None:
    commands: list[list[str]] = []
    sets = {puzzle: [tmp_path / f"{puzzle}-0"] for puzzle in audited_puzzles()}
    engine = BY_NAME["engine-no-reopen"]
    relations = run_morph(engine, ("keys-graph", "amphipods-search"), sets, tmp_path / "morph", commands.append)
    assert relations == Relations(0, Counter(), Counter(), 0)  # nothing ran, nothing judged
    assert relations.summary() == "no pair judged" and not relations.caught
    assert len(commands) == 2  # elevator has no faulted formulation here
    keys_run, amphipods_run = commands
    assert str(tmp_path / "keys-0") in keys_run and str(tmp_path / "amphipods-0") in amphipods_run
    assert [keys_run[i + 1] for i, word in enumerate(keys_run) if word == "--solver"] == ["keys-graph"]
    assert keys_run[keys_run.index("--relations") + 1] == ",".join(sorted(registry.relations("keys")))
    assert "--seed" in keys_run and "--count" in keys_run


def _pair(verdict: Verdict, relation: str = "letters") -> dict[str, object]:
    return {"verdict": verdict.value, "relation": relation}


def test_judging_morph_counts_mismatches_and_failures_of_related_instances_only() -> None:
    caught = judge_morph([_pair(Verdict.MORPH_MISMATCH), _pair(Verdict.MORPH_MISMATCH), _pair(Verdict.AGREE, "ring"),
                          _pair(Verdict.UNVERIFIED, "suffix")],
                         [("keys-0/x.txt", Verdict.INVALID_PLAN),  # an original: compare sees it too
                          ("related/keys-0/x~ring-1.txt", Verdict.INVALID_PLAN),
                          ("related/keys-0/x~letters-2.txt", Verdict.AGREE)])
    assert caught == Relations(4, Counter({"letters": 2}), Counter({"invalid-plan": 1}), 1)
    assert caught.caught and caught.summary() == "caught: mismatch 2 (letters), related invalid-plan 1"
    quiet = judge_morph([_pair(Verdict.AGREE), _pair(Verdict.UNVERIFIED)], [("keys-0/x.txt", Verdict.INVALID_PLAN)])
    assert not quiet.caught and quiet.summary() == "1 of 2 pairs agree"


def test_outcomes_keep_the_relations_and_older_kept_outcomes_are_run_again(tmp_path: Path) -> None:
    fault = BY_NAME["keys-key-a-not-a-key"]
    outcome = Outcome(fault, CrossCheck(2, 0, Counter({"wrong agree (2 independent)": 2}), 0),
                      Relations(30, Counter({"letters": 8}), Counter(), 1), tests_failed=True, tests_line="1 failed")
    save(outcome, tmp_path / "kept.json")
    assert load(fault, tmp_path / "kept.json") == outcome
    (tmp_path / "old.json").write_text('{"wrong_agreed": 0, "one_line": 0, "verdicts": {}, "failed_runs": 0, '
                                       '"tests_failed": true, "tests_line": "1 failed"}\n', encoding="utf-8")
    assert load(fault, tmp_path / "old.json") is None


def test_table_says_which_faults_only_the_relations_and_none_caught() -> None:
    quiet_check, wrong = CrossCheck(0, 0, Counter(), 0), CrossCheck(1, 0, Counter({"wrong agree (2 independent)": 1}), 0)
    mismatch, agree = Relations(6, Counter({"letters": 2}), Counter(), 0), Relations(6, Counter(), Counter(), 0)
    only_relations = Outcome(BY_NAME["keys-key-a-not-a-key"], wrong, mismatch, False, "5 passed")
    nobody = Outcome(BY_NAME["keys-routes-corridor-short"], quiet_check, agree, False, "9 passed")
    tests = Outcome(BY_NAME["amphipods-energy-b"], wrong, agree, True, "1 failed")
    assert only_relations.caught_by == ("relations",) and nobody.caught_by == () and tests.caught_by == ("tests",)
    rows = table([only_relations, nobody, tests]).splitlines()
    assert rows[0].split()[:6] == ["fault", "area", "trusted", "cross-check", "relations", "tests"]
    assert "caught: mismatch 2 (letters)" in rows[1] and "relations  " in rows[1] and rows[1].endswith("YES")
    assert "6 of 6 pairs agree" in rows[2] and "NONE" in rows[2]
    assert rows[-1] == ("caught only by cross-check 0, relations 1 (keys-key-a-not-a-key), tests 1; "
                        "by none 1 (keys-routes-corridor-short)")


@pytest.mark.slow
@pytest.mark.parametrize(("name", "formulation", "caught"), [("keys-key-a-not-a-key", "keys-graph", True),
                                                              ("amphipods-energy-b", "amphipods-search", False)])
def test_relations_catch_a_lost_key_letter_but_not_a_consistent_step_cost(name: str, formulation: str, caught: bool,
                                                                          tmp_path: Path) -> None:
    """Renaming letters turns the lost key `a` into a key; a B step costing 11 on every
    instance keeps every relation's law."""
    fault = BY_NAME[name]
    sets = {puzzle: generate_sets([puzzle], tmp_path / "sets", dict(os.environ)) for puzzle in fault.puzzles}
    copy, env = prepared(fault, tmp_path / "work")
    log = tmp_path / "morph.log"
    relations = run_morph(fault, (formulation,), sets, tmp_path / "morph", subprocess_runner(env, copy, log))
    assert f"--solver {formulation}" in log.read_text()
    assert relations.pairs > 0 and relations.caught is caught
    assert bool(relations.mismatches) is caught
