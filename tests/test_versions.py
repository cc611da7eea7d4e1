"""Runs of different versions of a formulation's code never mix unnoticed: `compare --resume`
runs again a recorded run of another version, and `report` notes a solver whose runs come
from more than one (crosscheck.harness.records.versions)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from crosscheck.harness.records.record import RunRecord, Task, command_source, plugin_source, read_records
from crosscheck.harness.records.versions import mixed_versions
from crosscheck.harness.runs.runner import run_task
from crosscheck.solvers.base import Status

from tests.fixtures.cli import VAULT, invoke
from tests.fixtures.plugin_solvers import Plain

pytestmark = pytest.mark.usefixtures("misbehaving_solvers")

#: An external program that claims the optimum 8 of any instance.
CLAIM = "import sys\nopen(sys.argv[1])\nprint('answer:', 8)\n"


def _record(instance: str, solver_source: str | None, solver: str = "mine") -> RunRecord:
    environment = {} if solver_source is None else {"solver_source": solver_source}
    return RunRecord(instance=instance, puzzle="keys", solver=solver, status=Status.FEASIBLE, cost=8,
                     environment=environment)


def test_resume_runs_again_the_runs_of_an_edited_external_program_and_keeps_the_rest(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(VAULT)
    (tmp_path / "b.txt").write_text(VAULT)
    script, out = tmp_path / "claim.py", tmp_path / "runs.jsonl"
    script.write_text(CLAIM)
    command = ("compare", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"), "--solver", "test-plain",
               "--external", f"mine={sys.executable} {script} {{path}}", "--out", str(out))
    invoke(*command)
    old = {r.environment["solver_source"] for r in read_records(out) if r.solver == "mine"}
    unchanged = invoke(*command, "--resume")
    assert len(read_records(out)) == 4 and "another version" not in unchanged.output  # the same code: nothing runs
    script.write_text(CLAIM + "# edited\n")
    edited = invoke(*command, "--resume")
    records = read_records(out)
    assert [r.solver for r in records[4:]] == ["mine", "mine"]  # test-plain is unchanged: kept
    [new] = {r.environment["solver_source"] for r in records[4:]}
    assert {new} != old
    [warning] = [line for line in edited.output.splitlines() if "another version" in line]
    assert f"2 runs of mine made by another version of its code (solver_source {old.pop()}: 2 runs; now {new})" \
        in warning
    assert "run again" in warning


def test_resume_runs_again_a_plugin_run_recorded_by_another_version(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(VAULT)
    out = tmp_path / "runs.jsonl"
    out.write_text(_record("a.txt", "000000000000", "test-plain").model_dump_json() + "\n")
    result = invoke("compare", str(tmp_path / "a.txt"), "--solver", "test-plain", "--out", str(out), "--resume")
    records = read_records(out)
    assert [r.environment.get("solver_source") for r in records] == ["000000000000", plugin_source(Plain)]
    assert "1 run of test-plain made by another version" in result.output


def test_resume_keeps_a_run_of_unknown_version(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(VAULT)
    out = tmp_path / "runs.jsonl"
    out.write_text(_record("a.txt", None, "test-plain").model_dump_json() + "\n")
    invoke("compare", str(tmp_path / "a.txt"), "--solver", "test-plain", "--out", str(out), "--resume")
    assert len(read_records(out)) == 1


def test_a_note_names_a_solver_whose_runs_come_from_two_versions() -> None:
    records = [_record("a.txt", "aaa"), _record("b.txt", "bbb"), _record("c.txt", "bbb"), _record("d.txt", None),
               _record("a.txt", "ccc", "theirs"), _record("b.txt", None, "theirs"), _record("a.txt", None, "built-in")]
    assert mixed_versions(records) == [
        "mine: runs of 2 versions of its code mixed (solver_source bbb: 2 runs, aaa: 1 run, unknown: 1 run)"]


def test_report_notes_mixed_versions_in_every_format(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(VAULT)
    out = tmp_path / "runs.jsonl"
    out.write_text(_record("a.txt", "aaa").model_dump_json() + "\n" + _record("b.txt", "bbb").model_dump_json() + "\n")
    note = "mine: runs of 2 versions of its code mixed (solver_source aaa: 1 run, bbb: 1 run)"
    assert note in invoke("report", str(out)).output
    assert note in invoke("report", str(out), "--format", "csv").stderr
    invoke("report", str(out), "--format", "html", "-o", str(tmp_path / "report.html"))
    assert note in (tmp_path / "report.html").read_text()


#: An external program that edits its own file as it runs (as a researcher saving an edit
#: in the middle of a long comparison would), then claims 8.
SELF_EDITING = "import sys\nopen(sys.argv[1])\nwith open(__file__, 'a') as own:\n    own.write('# ran\\n')\nprint(8)\n"


def test_every_record_of_one_invocation_names_the_version_it_started_with(tmp_path: Path) -> None:
    """The program's file changes during the first run: the records of both runs name the
    version as the invocation started (not one each), and a warning says the results mix versions."""
    (tmp_path / "a.txt").write_text(VAULT)
    (tmp_path / "b.txt").write_text(VAULT)
    script, out = tmp_path / "mine.py", tmp_path / "runs.jsonl"
    script.write_text(SELF_EDITING)
    command = f"{sys.executable} {script} {{path}}"
    before = command_source(command)
    result = invoke("compare", str(tmp_path), "--external", f"mine={command}", "--jobs", "1", "--out", str(out))
    assert script.read_text() == SELF_EDITING + "# ran\n" * 2  # each run edited it
    assert [r.environment["solver_source"] for r in read_records(out)] == [before, before]
    [warning] = [line for line in result.stderr.splitlines() if "changed during this run" in line]
    assert warning.startswith(f"warning: the code of mine changed during this run (solver_source {before} as it "
                              f"started, {command_source(command)} now)")


def test_an_unchanged_program_gets_no_warning_of_a_change(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(VAULT)
    script = tmp_path / "mine.py"
    script.write_text(CLAIM)
    result = invoke("solve", str(tmp_path / "a.txt"), "--external", f"mine={sys.executable} {script} {{path}}")
    assert result.exit_code == 0 and "changed during this run" not in result.output


#: An external program whose answer comes from its own helper module, beside it.
IMPORTING = "import sys\nsys.path.insert(0, sys.argv[2])\nimport helper\nopen(sys.argv[1])\nprint(helper.ANSWER)\n"


def test_an_external_source_is_digested_so_resume_sees_its_edit(tmp_path: Path) -> None:
    """The helper module is named by --external-source (a file, or its folder): editing it
    changes solver_source and --resume runs the program again; bytecode written beside it does not."""
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "helper.py").write_text("ANSWER = 8\n")
    (tmp_path / "a.txt").write_text(VAULT)
    script = tmp_path / "mine.py"
    script.write_text(IMPORTING)
    for source in (lib / "helper.py", lib):
        out = tmp_path / f"runs-{source.name}.jsonl"
        command = ("compare", str(tmp_path / "a.txt"), "--external", f"mine={sys.executable} {script} {{path}} {lib}",
                   "--external-source", f"mine={source}", "--out", str(out))
        assert invoke(*command).exit_code == 0
        (lib / "__pycache__").mkdir(exist_ok=True)  # bytecode, written by running: no source
        (lib / "__pycache__" / "helper.cpython.pyc").write_bytes(source.name.encode())
        assert invoke(*command, "--resume").output.count("another version") == 0
        (lib / "helper.py").write_text("ANSWER = 8  # edited\n")
        resumed = invoke(*command, "--resume")
        assert "1 run of mine made by another version" in resumed.output, source
        first, again = read_records(out)
        assert first.environment["solver_source"] != again.environment["solver_source"]
        (lib / "helper.py").write_text("ANSWER = 8\n")


def test_an_external_source_must_name_an_external_and_an_existing_path(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(VAULT)
    external = ("--external", f"mine={sys.executable} mine.py {{path}}")
    for spec, why in ((f"theirs={tmp_path}", "'theirs' is no --external program (given: mine)"),
                      (f"mine={tmp_path / 'gone.py'}", "gone.py: no such file or folder"),
                      ("mine", "expected NAME=PATH")):
        result = invoke("solve", str(tmp_path / "a.txt"), *external, "--external-source", spec)
        assert result.exit_code == 2 and why in result.output, spec


def test_a_task_made_without_a_pinned_version_digests_its_programs_sources_too(tmp_path: Path) -> None:
    """A task built by hand (a benchmark, a script) carries the program's further sources, so
    its record names the same version as `compare --external-source` would."""
    (tmp_path / "a.txt").write_text(VAULT)
    (tmp_path / "mine.py").write_text(CLAIM)
    (tmp_path / "helper.py").write_text("ANSWER = 8\n")
    command, sources = f"{sys.executable} {tmp_path / 'mine.py'} {{path}}", (str(tmp_path / "helper.py"),)
    task = Task(path=str(tmp_path / "a.txt"), instance="a.txt", solver="mine", external=command,
                external_sources=sources)
    record = run_task(task)
    assert record.status is Status.OPTIMAL, record.message
    assert record.environment["solver_source"] == command_source(command, sources) != command_source(command)
