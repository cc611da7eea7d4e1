"""`crosscheck report` judges the morph relations its records link, as compare and morph did.

A related instance's runs carry ``related_to`` (the original, the relation, its
expectation), so ``report`` finds every morph-mismatch ``compare --morph`` and ``morph``
found, shows it in every format and exits 1 as they did; given ``morph-verdicts.jsonl``
(pairs, not runs) it says which file to give instead."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from crosscheck.harness.cli import main
from crosscheck.harness.judging.verdicts import Verdict, judged
from crosscheck.harness.records.evidence import Evidence
from crosscheck.harness.records.record import MalformedRecord, RelatedTo, RunRecord, append_record, parse_record
from crosscheck.solvers.base import Status

from tests.fixtures import INSTANCES, ROOT

INITIALS = f"elevator:initials={sys.executable} {ROOT / 'planted/externals/elevator_initials.py'} {{path}}"


def claim(instance: str, cost: int, related_to: RelatedTo | None = None, solver: str = "lone") -> RunRecord:
    """An external program's claimed optimum `cost` on `instance`."""
    return RunRecord(instance=instance, puzzle="elevator", solver=solver, status=Status.OPTIMAL, cost=cost,
                     evidence=Evidence.CLAIM, related_to=related_to)


SAME = RelatedTo(original="a.txt", relation="rename", detail="a->b", expectation="same")


def test_a_related_instance_whose_answer_breaks_the_relation_is_a_morph_mismatch() -> None:
    runs = judged([claim("a.txt", 7), claim("a~rename-1.txt", 9, SAME), claim("a~rename-2.txt", 7, SAME)])
    verdicts = {v.instance: (v.verdict, v.reason) for v in runs.verdicts}
    assert verdicts["a~rename-1.txt"] == (
        Verdict.MORPH_MISMATCH, "lone: ~rename of a.txt: expected the same answer, got 7 and 9")
    assert verdicts["a~rename-2.txt"][0] is Verdict.UNVERIFIED and verdicts["a.txt"][0] is Verdict.UNVERIFIED


def test_a_pair_is_only_judged_against_the_same_runner_on_the_original() -> None:
    other = claim("a~rename-1.txt", 9, SAME, solver="other")  # "other" never ran a.txt
    assert {v.verdict for v in judged([claim("a.txt", 7), other]).verdicts} == {Verdict.UNVERIFIED}
    unlinked = claim("a~rename-1.txt", 9)  # a record without related_to (schema 3) pairs with nothing
    assert {v.verdict for v in judged([claim("a.txt", 7), unlinked]).verdicts} == {Verdict.UNVERIFIED}


@pytest.mark.parametrize("fmt", ["table", "markdown", "latex", "csv", "jsonl", "html"])
def test_report_shows_a_recorded_morph_mismatch_in_every_format_and_exits_1(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / "runs.jsonl"
    for record in (claim("a.txt", 7), claim("a~rename-1.txt", 9, SAME)):
        append_record(path, record)
    result = CliRunner().invoke(main, ["report", str(path), "--format", fmt, "-o", str(tmp_path / "out")])
    assert result.exit_code == 1, result.output
    assert "morph-mismatch" in (tmp_path / "out").read_text(encoding="utf-8")


def test_report_of_compare_morph_finds_what_compare_found_and_exits_alike(tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    compared = CliRunner().invoke(main, ["compare", str(INSTANCES / "elevator/three-matched.txt"), "--morph", "2",
                                         "--external", INITIALS, "--out", str(out), "--progress", "none"])
    assert compared.exit_code == 1 and "morph: 2 pairs judged, 1 morph-mismatch" in compared.output, compared.output
    reported = CliRunner().invoke(main, ["report", str(out)])
    assert reported.exit_code == 1, reported.output
    [summary] = [line for line in reported.output.splitlines() if line.startswith("3 instances:")]
    assert "1 morph-mismatch" in summary and summary in compared.output.splitlines()  # as compare counted


def test_report_of_a_morph_folder_counts_its_mismatches_and_refuses_the_pair_file(tmp_path: Path) -> None:
    morphed = CliRunner().invoke(main, ["morph", str(INSTANCES / "elevator/three-matched.txt"), "--external",
                                        INITIALS, "--relations", "rename", "--count", "2", "--out", str(tmp_path)])
    # cobalt and curium collide: the swap of two names and new names sharing a prefix both show it
    assert morphed.exit_code == 1 and "2 pairs judged: 2 morph-mismatch;" in morphed.output, morphed.output
    assert morphed.output.count("morph-mismatch: initials") == 2  # each pair's line, not its verdict again
    reported = CliRunner().invoke(main, ["report", str(tmp_path / "morph.jsonl")])
    [summary] = [line for line in reported.output.splitlines() if line.startswith("3 instances:")]
    assert reported.exit_code == 1 and "2 morph-mismatch" in summary and f"; {summary};" in morphed.output
    refused = CliRunner().invoke(main, ["report", str(tmp_path / "morph-verdicts.jsonl")])
    assert refused.exit_code == 2
    assert "morph-verdicts.jsonl:1: not a run record but a pair verdict of morph" in refused.output
    assert "give the runs beside it, morph.jsonl" in refused.output


def test_a_recorded_expectation_that_cannot_be_read_names_the_line() -> None:
    line = claim("a~r-1.txt", 9, SAME).model_dump_json().replace('"same"', '"similar"')
    with pytest.raises(MalformedRecord, match=r"runs.jsonl:4: not a run record: field 'related_to.expectation'"):
        parse_record(line.encode(), "runs.jsonl:4")


def test_compare_resume_runs_again_a_related_run_recorded_without_its_link(tmp_path: Path) -> None:
    """A file of before related_to: its related runs are run again (nothing else), so that
    compare and a later report judge the same pairs."""
    out = tmp_path / "runs.jsonl"
    args = ["compare", str(INSTANCES / "elevator/three-matched.txt"), "--morph", "2", "--external", INITIALS,
            "--out", str(out), "--progress", "none"]
    assert CliRunner().invoke(main, args).exit_code == 1
    lines = out.read_text(encoding="utf-8").splitlines()
    unlinked = [RunRecord.model_validate_json(line).model_copy(update={"related_to": None}) for line in lines]
    out.write_text("".join(record.model_dump_json() + "\n" for record in unlinked), encoding="utf-8")
    resumed = CliRunner().invoke(main, [*args, "--resume"])
    assert resumed.exit_code == 1 and "morph: 2 pairs judged, 1 morph-mismatch" in resumed.output, resumed.output
    again = [RunRecord.model_validate_json(line) for line in out.read_text(encoding="utf-8").splitlines()[len(lines):]]
    assert len(again) == 2 and all(r.related_to is not None and r.related_to.original == "elevator/three-matched.txt"
                                   for r in again)
    assert CliRunner().invoke(main, ["report", str(out)]).exit_code == 1
