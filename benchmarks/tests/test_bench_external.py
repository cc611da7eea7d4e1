"""The side-by-side benchmark (benchmarks/bench_external.py): its plumbing and its judging,
never its timings.  A planted wrong program must show as a difference, a program that runs a
built-in formulation as agreement, and a program is never taken on its word."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from crosscheck.harness.records.evidence import Evidence
from crosscheck.harness.records.record import RunRecord
from crosscheck.solvers.base import Status

from benchmarks.bench_external import AGREE, DIFFER, NO_ANSWER, UNJUDGED, judge, main
from planted.externals import EXTERNALS

PLANTED_KEYS = f"keys:lastcol={sys.executable} {EXTERNALS / 'keys_last_column.py'} {{path}}"

#: A program that runs the built-in elevator-quotient and prints its plan and cost (in a test only:
#: a relabelled built-in checks the plumbing, it is no solver of one's own).
RELABELLED = """\
import json, sys
from pathlib import Path
from crosscheck.models.elevator.model import parse
from crosscheck.solvers.registry import get_solver
result = get_solver("elevator-quotient").solve(parse(Path(sys.argv[1]).read_text(), sys.argv[1]))
if result.status.value == "infeasible":
    print("infeasible")
else:
    print("plan: " + json.dumps([[direction, list(items)] for direction, items in result.plan]))
    print(result.cost)
"""


def _rows(out: str, variant: str) -> list[list[str]]:
    return [line.split() for line in out.splitlines() if line.startswith(variant + " ")]


def test_a_planted_wrong_program_shows_a_difference_on_every_variant(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["--puzzle", "keys", "--external", PLANTED_KEYS, "--seeds", "1", "--repeat", "1", "--clock", "cpu"])
    out = capsys.readouterr().out
    assert status == 1
    for variant in ("1-robot", "4-robots"):
        times, answers = _rows(out, variant)[:3], _rows(out, variant)[3]
        assert [row[1] for row in times] == ["lastcol", "keys-graph", "ratio"]
        assert times[0][2] == times[1][2] == "1/1" and all(len(row) == 7 for row in times[:2]) and len(times[2]) == 6
        assert answers[1:] == ["0", "1", "0", "0"]  # agree, differ, no answer, unjudged
        assert re.search(rf"!!! DIFFERS: {variant} seed 0 .*lastcol claims no solution, keys-graph proved \d+", out)
    assert "2 ANSWER(S) DIFFER" in out


def test_a_program_running_a_built_in_formulation_agrees(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "relabelled.py"
    script.write_text(RELABELLED)
    status = main(["--puzzle", "elevator", "--external", f"mine={sys.executable} {script} {{path}}", "--seeds", "2",
                   "--variant", "5-pairs", "--repeat", "1"])
    out = capsys.readouterr().out
    assert status == 0
    assert [row[1] for row in _rows(out, "5-pairs")[:3]] == ["mine", "elevator-quotient", "ratio"]
    assert _rows(out, "5-pairs")[3][1:] == ["2", "0", "0", "0"]
    assert not _rows(out, "7-pairs") and "DIFFER" not in out


@pytest.mark.parametrize("argv", [
    ["--puzzle", "keys", "--external", "mine=prog"],  # no {path}
    ["--puzzle", "elevator", "--external", PLANTED_KEYS],  # a keys program on the elevator
    ["--puzzle", "keys", "--external", "mine=prog {path}", "--solver", "elevator-quotient"],
    ["--puzzle", "keys", "--external", "mine=prog {path}", "--variant", "5-pairs"],
])
def test_bad_options_are_refused_with_usage_status(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2 and "error:" in capsys.readouterr().err


def _record(status: Status, cost: int | None = None, plan_valid: bool | None = None, claim: bool = False) -> RunRecord:
    return RunRecord(instance="i", puzzle="elevator", solver="mine" if claim else "built-in", status=status, cost=cost,
                     plan_valid=plan_valid, plan_error="" if plan_valid is not False else "move 3 is unsafe",
                     evidence=Evidence.CLAIM if claim else Evidence.PROOF, message="killed")


PROVED_11 = [_record(Status.OPTIMAL, 11, plan_valid=True)]


def test_a_claim_is_judged_against_the_checked_optimum() -> None:
    assert judge([_record(Status.OPTIMAL, 11, claim=True)], PROVED_11, "built-in").kind == AGREE
    assert judge([_record(Status.OPTIMAL, 12, claim=True)], PROVED_11, "built-in").kind == DIFFER
    assert judge([_record(Status.INFEASIBLE, claim=True)], PROVED_11, "built-in").kind == DIFFER
    assert judge([_record(Status.TIMEOUT, claim=True)], PROVED_11, "built-in").kind == NO_ANSWER


def test_a_right_number_with_a_rejected_plan_differs() -> None:
    judged = judge([_record(Status.OPTIMAL, 11, plan_valid=False, claim=True)], PROVED_11, "built-in")
    assert judged.kind == DIFFER and "move 3 is unsafe" in judged.why


def test_a_checked_plan_beating_the_built_in_says_the_built_in_is_wrong() -> None:
    judged = judge([_record(Status.OPTIMAL, 9, plan_valid=True, claim=True)], PROVED_11, "built-in")
    assert judged.kind == DIFFER and "built-in is wrong" in judged.why
    unchecked = judge([_record(Status.OPTIMAL, 9, claim=True)], PROVED_11, "built-in")
    assert unchecked.kind == DIFFER and "is wrong" not in unchecked.why


def test_one_wrong_repetition_makes_the_instance_differ() -> None:
    repetitions = [_record(Status.OPTIMAL, 11, claim=True), _record(Status.OPTIMAL, 10, claim=True)]
    assert judge(repetitions, PROVED_11, "built-in").kind == DIFFER


def test_without_a_checked_built_in_answer_nothing_is_judged() -> None:
    claim = [_record(Status.OPTIMAL, 11, claim=True)]
    assert judge(claim, [_record(Status.TIMEOUT)], "built-in").kind == UNJUDGED
    rejected = judge(claim, [_record(Status.OPTIMAL, 11, plan_valid=False)], "built-in")
    assert rejected.kind == UNJUDGED and "rejected by the checker" in rejected.why
    split = [_record(Status.OPTIMAL, 11, plan_valid=True), _record(Status.INFEASIBLE)]
    assert "disagree" in judge(claim, split, "built-in").why
