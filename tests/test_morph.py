"""`crosscheck morph`: a lone solver judged against itself on related instances.

Each planted wrong program (planted/externals) is found with no built-in formulation
running; the built-in formulations show no mismatch on a few published instances; a
pair is judged on exact answers only (a claim counts, a timeout does not)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from crosscheck.harness.cli import EXIT_INTERRUPTED, main
from crosscheck.harness.judging.verdicts import Verdict, judged
from crosscheck.harness.records.evidence import Evidence
from crosscheck.harness.records.record import RunRecord, read_records
from crosscheck.harness.reports.tables import notes
from crosscheck.harness.workflows import morph as morphing
from crosscheck.harness.workflows.morph import judge_pair, numbered_files, save_related
from crosscheck.models.answers import Optimum
from crosscheck.models.elevator import model as elevator
from crosscheck.models.keys import model as keys
from crosscheck.models.relations import Offset, Related, Same
from crosscheck.solvers.base import Status

from planted.externals import EXTERNALS
from tests.fixtures import INSTANCES


def morph(out: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["morph", *args, "--out", str(out), "--time-limit", "60"],
                              catch_exceptions=False)


def external(puzzle: str, name: str, script: str) -> tuple[str, str]:
    return "--external", f"{puzzle}:{name}={sys.executable} {EXTERNALS / script} {{path}}"


@pytest.mark.parametrize(("puzzle", "script", "instance", "relation"), [
    ("elevator", "elevator_initials.py", "elevator/three-matched.txt", "rename"),
    ("keys", "keys_last_column.py", "keys/one-robot-3.txt", "symmetry"),
    ("amphipods", "burrow_from_bottom.py", "amphipods/depth2-example.txt", "settled-row"),
])
def test_morph_finds_each_planted_program_running_it_alone(tmp_path: Path, puzzle: str, script: str,
                                                           instance: str, relation: str) -> None:
    result = morph(tmp_path, str(INSTANCES / instance), *external(puzzle, "planted", script),
                   "--relations", relation, "--count", "2")
    assert result.exit_code == 1, result.output
    assert {r.solver for r in read_records(tmp_path / "morph.jsonl")} == {"planted"}  # no built-in ran
    pairs = [json.loads(line) for line in (tmp_path / "morph-verdicts.jsonl").read_text().splitlines()]
    [mismatch, *_] = [p for p in pairs if p["verdict"] == "morph-mismatch"]
    assert mismatch["relation"] == relation and mismatch["original_answer"] != mismatch["related_answer"]
    assert (tmp_path / mismatch["related"]).is_file()  # saved, to be replayed
    assert f"{instance} ~{relation}" in result.output and "morph-mismatch: planted" in result.output


def test_the_built_in_formulations_keep_every_relation_on_published_instances(tmp_path: Path) -> None:
    paths = [str(INSTANCES / name) for name in ("keys/one-robot-1.txt", "elevator/two-pairs-example.txt")]
    result = morph(tmp_path, *paths, "--count", "3", "--seed", "3")
    assert result.exit_code == 0, result.output
    pairs = [json.loads(line) for line in (tmp_path / "morph-verdicts.jsonl").read_text().splitlines()]
    assert len({p["relation"] for p in pairs}) >= 3 and all(p["verdict"] == "agree" for p in pairs), pairs
    assert len({p["runner"] for p in pairs}) >= 4


def off_by(offset: int) -> tuple[str, str]:
    """A lone program answering the exact optimum plus `offset` on every instance."""
    return "--external", f"keys:off={sys.executable} {EXTERNALS / 'keys_off_by.py'} {offset} {{path}}"


def indexed_set(folder: Path) -> Path:
    """A folder of two copies of one vault (optimum 8): ``listed.txt``, whose optimum its
    index.toml holds, and ``unlisted.txt``, which it does not list."""
    folder.mkdir()
    vault = (INSTANCES / "keys/one-robot-1.txt").read_text(encoding="utf-8")
    for name in ("listed.txt", "unlisted.txt"):
        (folder / name).write_text(vault, encoding="utf-8")
    (folder / "index.toml").write_text('["listed.txt"]\noptimum = 8\n', encoding="utf-8")
    return folder


def test_a_lone_program_off_by_two_everywhere_is_wrong_expected_on_the_indexed_original(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = morph(out, str(indexed_set(tmp_path / "set")), *off_by(2), "--relations", "symmetry", "--count", "2")
    assert result.exit_code == 1, result.output
    pairs = [json.loads(line) for line in (out / "morph-verdicts.jsonl").read_text().splitlines()]
    assert len(pairs) == 4 and all(p["verdict"] == "agree" for p in pairs), pairs  # consistent: no pair catches it
    wrong = [line for line in result.output.splitlines() if "wrong-expected" in line and "judged" not in line]
    assert wrong == ["listed.txt: wrong-expected: off claims 10, index says 8"], result.output
    assert "6 instances: 1 wrong-expected, 5 unverified" in result.output  # the summary counts it
    records = read_records(out / "morph.jsonl")
    assert {r.instance: r.expected for r in records if not r.instance.startswith("related/")} == {
        "listed.txt": Optimum(8), "unlisted.txt": None}
    assert all(r.expected is None for r in records if r.instance.startswith("related/"))  # no entry invented
    assert "listed.txt: wrong-expected: off claims 10, index says 8" in notes(judged(records))  # report reads it too


@pytest.mark.parametrize(("offset", "path"), [(0, ""), (2, "unlisted.txt")])
def test_a_right_program_or_an_instance_the_index_does_not_list_passes(tmp_path: Path, offset: int,
                                                                       path: str) -> None:
    result = morph(tmp_path / "out", str(indexed_set(tmp_path / "set") / path), *off_by(offset),
                   "--relations", "symmetry", "--count", "1")
    assert result.exit_code == 0, result.output
    assert "wrong-expected" not in result.output and "morph-mismatch" not in result.output
    assert f"instances: {4 if offset == 0 else 2} unverified;" in result.output  # claims only: none exact


def run(status: Status, cost: int | None = None, valid: bool | None = True,
        evidence: Evidence = Evidence.PROOF) -> RunRecord:
    return RunRecord(instance="x.txt", puzzle="keys", solver="s", status=status, cost=cost, plan_valid=valid,
                     checked_cost=cost if valid else None, evidence=evidence)


VAULT = keys.parse("#####\n#@.a#\n#####\n", "v")


def test_a_pair_is_judged_on_exact_answers_and_claims_only() -> None:
    same, offset = Related(VAULT, Same(), "d"), Related(VAULT, Offset(2), "d")
    claim = run(Status.OPTIMAL, 7, valid=None, evidence=Evidence.CLAIM)
    assert judge_pair(same, "r", claim, run(Status.OPTIMAL, 5)).verdict is Verdict.MORPH_MISMATCH
    assert judge_pair(offset, "r", claim, run(Status.OPTIMAL, 5)).verdict is Verdict.AGREE
    assert judge_pair(same, "r", run(Status.INFEASIBLE, valid=None), run(Status.INFEASIBLE, valid=None)
                      ).verdict is Verdict.AGREE
    assert judge_pair(same, "r", claim, run(Status.TIMEOUT, valid=None)).verdict is Verdict.UNVERIFIED
    assert judge_pair(same, "r", claim, run(Status.OPTIMAL, 5, valid=False)).verdict is Verdict.UNVERIFIED
    assert judge_pair(same, "r", claim, run(Status.FEASIBLE, 5)).verdict is Verdict.UNVERIFIED


def test_an_external_program_alone_runs_without_the_built_ins_in_compare(tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    CliRunner().invoke(main, ["compare", str(INSTANCES / "keys/one-robot-1.txt"), *external(
        "keys", "lone", "keys_last_column.py"), "--out", str(out)], catch_exceptions=False)
    assert {r.solver for r in read_records(out)} == {"lone"}


def test_morph_progress_lines_count_the_related_runs_as_they_are_planned(tmp_path: Path) -> None:
    args = (str(INSTANCES / "keys/one-robot-1.txt"), "--solver", "keys-graph", "--relations", "symmetry,letters",
            "--count", "1")
    quiet, loud = morph(tmp_path / "quiet", *args), morph(tmp_path / "loud", *args, "--progress", "lines")
    assert quiet.exit_code == loud.exit_code == 0, loud.output
    assert "[1/" not in quiet.stderr  # not a terminal: nothing by default
    counts = [line.split("]")[0] + "]" for line in loud.stderr.splitlines() if line.startswith("[")]
    assert counts == ["[1/1]", "[2/3]", "[3/3]"]  # the original's run, then its two related instances'
    related = [line for line in loud.stderr.splitlines() if line.startswith(("[2/3] ", "[3/3] "))]
    assert all(line.split()[1].startswith("related/") and "keys-graph optimal" in line for line in related)
    assert loud.stdout == quiet.stdout.replace(str(tmp_path / "quiet"), str(tmp_path / "loud"))


def test_related_files_of_originals_named_alike_but_for_dots_stay_apart(tmp_path: Path) -> None:
    """Files renamed by their paths (two files had one name) may climb out with ``..``: their
    related instances must neither leave the folder nor overwrite another original's."""
    related = Related(keys.parse("#####\n#@.a#\n#####\n"), Same(), "renamed")
    names = {save_related(tmp_path / "m", original, "rename", 1, related)
             for original in ("../other/x.txt", "other/x.txt", "/other/x.txt")}
    assert len(names) == 3
    assert all((tmp_path / "m" / name).resolve().is_relative_to((tmp_path / "m").resolve()) for name in names)


def test_a_second_morph_into_the_same_out_never_overwrites_a_related_file(tmp_path: Path) -> None:
    """Records are appended, so the files they point to must keep their text: a draw that
    differs gets the next number, one that is the same (a re-run) reuses its file."""
    args = (str(INSTANCES / "elevator/three-matched.txt"), "--solver", "elevator-quotient", "--relations", "rename",
            "--count", "1")
    related = tmp_path / "related" / "elevator" / "three-matched~rename-1.txt"
    assert morph(tmp_path, *args, "--seed", "1").exit_code == 0
    first = related.read_text()
    assert morph(tmp_path, *args, "--seed", "7").exit_code == 0
    assert morph(tmp_path, *args, "--seed", "1").exit_code == 0  # the same draw again
    assert related.read_text() == first
    assert sorted(p.name for p in related.parent.iterdir()) == ["three-matched~rename-1.txt",
                                                                "three-matched~rename-2.txt"]
    names = [r.instance for r in read_records(tmp_path / "morph.jsonl") if r.related_to is not None]
    assert names == [f"related/elevator/three-matched~rename-{n}.txt" for n in (1, 2, 1)]
    texts = {name: (tmp_path / name).read_text() for name in set(names)}
    assert len(set(texts.values())) == 2


def test_a_number_of_other_digits_than_ascii_is_no_number_of_a_related_or_judged_file(tmp_path: Path) -> None:
    """``str.isdigit`` takes ``²``, which `int` refuses: such a file is not one of the numbered."""
    related = Related(keys.parse("#####\n#@.a#\n#####\n"), Same(), "renamed")
    folder = tmp_path / "m"
    folder.mkdir()
    for name in ("x~rename-².txt", "x~rename-١.txt", "x~rename-2.txt", "hunt-².txt", "hunt-3.txt"):
        (folder / name).write_text("#\n")
    assert numbered_files(folder, "x~rename-") == {2: folder / "x~rename-2.txt"}
    assert numbered_files(folder, "hunt-") == {3: folder / "hunt-3.txt"}
    assert save_related(folder, "x.txt", "rename", 2, related) == "x~rename-3.txt"


def test_a_related_file_of_another_size_is_never_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Saving compares the new text with each sibling's only where their sizes match:
    repeated morphs into one folder would otherwise read every sibling on every save."""
    related = Related(keys.parse("#####\n#@.a#\n#####\n"), Same(), "renamed")
    folder = tmp_path / "m"
    folder.mkdir()
    for number in range(1, 6):
        (folder / f"x~rename-{number}.txt").write_text("#" * number + "\n")
    same_size = folder / "x~rename-9.txt"
    same_size.write_text(related.text.replace("a", "b"))
    read: list[str] = []
    read_text = Path.read_text

    def counted(path: Path, *args: Any, **kwargs: Any) -> str:
        read.append(path.name)
        return read_text(path, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", counted)
    assert save_related(folder, "x.txt", "rename", 1, related) == "x~rename-10.txt"
    assert read == [same_size.name]
    assert save_related(folder, "x.txt", "rename", 1, related) == "x~rename-10.txt"  # its own text found again


def test_morph_says_why_runs_failed_as_compare_does(tmp_path: Path) -> None:
    missing = tmp_path / "my_lift.py"
    result = morph(tmp_path / "m", str(INSTANCES / "elevator/three-matched.txt"), "--external",
                   f"mine={sys.executable} {missing} {{path}}", "--relations", "rename", "--count", "1")
    assert result.exit_code == 3, result.output
    assert "2 runs crashed: 2 error (mine)" in result.output
    [reason] = [line for line in result.output.splitlines() if line.startswith("mine: ")]
    assert reason.startswith("mine: 2 error runs; on elevator/three-matched.txt: mine (") and "my_lift.py" in reason


def test_an_interrupted_morph_exits_130_not_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C is no broken relation: exit 130 (the shell's code for SIGINT), as compare's."""
    def interrupted(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(morphing, "morph", interrupted)
    result = morph(tmp_path / "m", str(INSTANCES / "keys" / "one-robot-1.txt"), "--solver", "keys-graph")
    assert result.exit_code == EXIT_INTERRUPTED
    assert f"interrupted: finished runs are saved in {tmp_path / 'm' / 'morph.jsonl'}" in result.output


def test_morph_names_each_file_it_could_not_read_with_line_and_column(tmp_path: Path) -> None:
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "good-keys.txt").write_text((INSTANCES / "keys/one-robot-1.txt").read_text())
    (folder / "keys-badchar.txt").write_text("#########\n#b.A.@.a#\n#####?###\n")
    result = morph(tmp_path / "out", str(folder), "--solver", "keys-graph", "--relations", "symmetry", "--count", "1")
    assert result.exit_code == 3, result.output
    assert "keys-badchar.txt: error: " in result.output and "keys-badchar.txt:3:6: unknown character '?'" in result.output


def test_morph_notes_the_files_no_chosen_solver_runs_on(tmp_path: Path) -> None:
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "vault.txt").write_text((INSTANCES / "keys/one-robot-1.txt").read_text())
    (folder / "lift.txt").write_text((INSTANCES / "elevator/three-matched.txt").read_text())
    result = morph(tmp_path / "out", str(folder), "--solver", "keys-graph", "--relations", "symmetry", "--count", "1")
    assert result.exit_code == 0, result.output
    assert f"note: 1 elevator file not run (no chosen solver or program runs on elevator): {folder / 'lift.txt'}" in (
        result.stderr)


def test_unknown_relations_are_usage_errors(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["morph", str(INSTANCES / "keys/one-robot-1.txt"), "--relations", "spin",
                                       "--out", str(tmp_path)])
    assert result.exit_code == 2 and "symmetry" in result.output


def test_compare_morph_adds_related_instances_to_the_table_and_judges_them(tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    result = CliRunner().invoke(main, ["compare", str(INSTANCES / "elevator/three-matched.txt"), "--morph", "2",
                                       *external("elevator", "initials", "elevator_initials.py"), "--out", str(out)],
                                catch_exceptions=False)
    assert result.exit_code == 1, result.output
    names = {r.instance for r in read_records(out)}
    related = {name for name in names if name.startswith("runs-related/elevator/three-matched~")}
    assert len(related) == 2 and names == {"elevator/three-matched.txt", *related}
    assert all((tmp_path / name).is_file() for name in related)
    assert "runs-related/elevator/three-matched~" in result.output.split("instance")[1]  # in the table
    assert "morph-mismatch: initials" in result.output and "morph: 2 pairs judged, 1 morph-mismatch" in result.output


def test_hunt_morph_finds_and_shrinks_a_planted_program_running_alone(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, [
        "hunt", "elevator", "--morph", "--relations", "rename", *external("elevator", "initials", "elevator_initials.py"),
        "-p", "pairs=2-3", "-p", "floors=2-3", "--examples", "20", "--shrink-examples", "6", "--seed", "1",
        "--time-limit", "30", "--out", str(tmp_path), "--no-reference"], catch_exceptions=False)
    assert result.exit_code == 1, result.output
    assert "Counterexample (morph-mismatch)" in result.output and "~rename" in result.output
    runs = read_records(tmp_path / "runs.jsonl")
    assert {r.solver for r in runs} == {"initials"}  # no built-in formulation ran
    names = {r.instance for r in runs}
    assert "counterexample-elevator.txt" in names and any("~rename-" in name for name in names)
    shrunk = elevator.parse((tmp_path / "counterexample-elevator.txt").read_text(), "shrunk")
    found = elevator.parse((tmp_path / "counterexample-elevator-as-found.txt").read_text(), "found")
    assert len(shrunk.elements) <= len(found.elements) and shrunk.floors <= found.floors


def test_a_later_hunt_morph_replays_the_counterexample_and_its_draw_first(tmp_path: Path) -> None:
    """The database keeps the relation and seed drawn with a morph hunt's counterexample,
    so a later hunt (another seed) judges that same draw first and finds it at once."""
    def hunt(out: Path, seed: str, shrink: str) -> Result:
        return CliRunner().invoke(main, [
            "hunt", "elevator", "--morph", "--relations", "rename,reorder",
            *external("elevator", "initials", "elevator_initials.py"), "-p", "pairs=2-3", "-p", "floors=2-3",
            "--examples", "20", "--shrink-examples", shrink, "--seed", seed, "--time-limit", "30",
            "--db", str(tmp_path / "db"), "--out", str(out)], catch_exceptions=False)

    first = hunt(tmp_path / "first", "1", "6")
    assert first.exit_code == 1, first.output
    draws = list((tmp_path / "db").glob("*/*.draw"))
    assert len(draws) == 1 and draws[0].with_suffix(".txt").is_file()
    again = hunt(tmp_path / "again", "7", "0")
    assert again.exit_code == 1 and "after 1 instance " in again.output, again.output
    assert (tmp_path / "again" / "counterexample-elevator.txt").read_text() == (
        tmp_path / "first" / "counterexample-elevator.txt").read_text()
