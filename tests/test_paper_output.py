"""What a paper takes from crosscheck, on hand-made records (no timing): figures as vector
files with captions and the time floor marked, LaTeX that typesets as written, the
remark that unrepeated runs leave the noise unknown, and provenance of old and new records."""

from __future__ import annotations

import html
import shlex
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from crosscheck.harness.cli import main
from crosscheck.harness.inputs.index import InstanceFile
from crosscheck.harness.judging.verdicts import judged
from crosscheck.harness.records.record import RunRecord, Task, append_record, cpu_model, environment, start_facts
from crosscheck.harness.reports.conditions import conditions
from crosscheck.harness.reports.html import build
from crosscheck.harness.reports.latex import LONG_TABLE_ROWS, cell, escape
from crosscheck.harness.reports.plots import plot_all, plots, svg
from crosscheck.harness.reports.tables import render
from crosscheck.harness.runs.batch import run_tasks
from crosscheck.harness.runs.runner import run_task
from crosscheck.harness.runs.schedule import instance_tasks
from crosscheck.harness.runs.settings import RunSettings
from crosscheck.models.answers import Optimum
from crosscheck.solvers.base import Status

from tests.fixtures import INSTANCES


def run(instance: str, solver: str, seconds: float, repeat: int = 0, **environment: object) -> RunRecord:
    """An exact run of `solver` on the vault `instance` (optimum 8) taking `seconds`."""
    return RunRecord(instance=instance, puzzle="keys", solver=solver, status=Status.OPTIMAL, cost=8, bound=8,
                     plan_valid=True, checked_cost=8, seconds=seconds, repeat=repeat, expected=Optimum(8), plan=[],
                     features={"keys": 2 + int(instance[-5])}, environment=environment)


def six(times: dict[str, float], repeats: int = 1) -> list[RunRecord]:
    """Each solver of `times` on six instances, each run `repeats` times."""
    return [run(f"keys/gen/{n}.txt", solver, seconds * (n + 1), r)
            for n in range(6) for solver, seconds in times.items() for r in range(repeats)]


def test_plot_writes_vector_files_and_their_captions(tmp_path: Path) -> None:
    records = six({"a": 0.01, "b": 0.02})
    for fmt, magic in (("pdf", b"%PDF"), ("svg", b"<?xml"), ("png", b"\x89PNG")):
        written = plot_all(records, tmp_path / fmt, fmt)
        assert {p.name for p in written} == {f"{name}.{fmt}" for name in
                                             ("cactus", "profile-keys", "scatter-keys-a-vs-b", "size-keys")}
        assert all(path.read_bytes().startswith(magic) for path in written)
        captions = (tmp_path / fmt / "captions.txt").read_text().splitlines()
        assert [line.split(":")[0] for line in captions] == [p.name for p in written]
    again = plot_all(records, tmp_path / "again", "pdf")
    assert again[0].read_bytes() == (tmp_path / "pdf" / "cactus.pdf").read_bytes()  # no creation date
    result = CliRunner().invoke(main, ["plot", str(_saved(records, tmp_path)), "-o", str(tmp_path / "cli"),
                                       "--format", "svg"])
    assert result.exit_code == 0 and (tmp_path / "cli" / "cactus.svg").exists(), result.output


def _saved(records: list[RunRecord], folder: Path) -> Path:
    path = folder / "runs.jsonl"
    for record in records:
        append_record(path, record)
    return path


def test_times_below_the_floor_are_marked_on_the_figure() -> None:
    """A 5e-5 s answer is drawn at 1e-4 s: the figure shows the floor line; above it, no line."""
    fast = {p.name: p for p in plots(six({"a": 5e-5, "b": 0.02}))}
    slow = {p.name: p for p in plots(six({"a": 0.01, "b": 0.02}))}
    for name in ("cactus", "size-keys", "scatter-keys-a-vs-b"):
        assert "floor 0.0001 s" in svg(fast[name]) and "floor 0.0001 s" not in svg(slow[name]), name
        assert "0.0001 s" in fast[name].caption


def test_unrepeated_runs_say_the_noise_is_unknown_beside_the_paired_statistics() -> None:
    single = build(judged(six({"a": 0.01, "b": 0.02})))
    assert 'id="noise-unknown"' in single and "No run was repeated" in single
    assert "count as 0.0001 s in the ratios" in single
    assert 'id="noise-unknown"' not in build(judged(six({"a": 0.01, "b": 0.02}, repeats=2)))


def test_latex_escapes_angle_brackets_and_writes_unknowns_as_dashes() -> None:
    assert escape("<a>") == r"\textless{}a\textgreater{}"
    timeout = run("keys/gen/0.txt", "a", 1.0).model_copy(update={"status": Status.TIMEOUT, "cost": None,
                                                                 "bound": None, "plan_valid": None})
    body = render(judged([timeout, run("keys/gen/0.txt", "b", 1.0)]), "latex").split(r"\midrule")[1]
    first, second = body.strip().splitlines()[:2]
    assert first.split(" & ")[3:5] == ["-", "-"]  # cost and bound unknown
    assert second.split(" & ")[0] == ""  # the instance stands on its first row only


def test_latex_sets_small_times_in_math_not_as_raw_exponents() -> None:
    assert [cell(text) for text in ("8.69e-04", "5.00e-05", "1.20e+05", "0.0523", "keys_1")] == [
        r"$8.69\times10^{-4}$", r"$5.00\times10^{-5}$", r"$1.20\times10^{5}$", "0.0523", r"keys\_1"]
    table = render(judged([run("keys/gen/0.txt", "a", 8.69e-4), run("keys/gen/0.txt", "b", 0.5)]), "latex")
    assert r"$8.69\times10^{-4}$" in table and "e-04" not in table


def test_a_long_latex_table_is_a_longtable_that_repeats_its_header() -> None:
    """The run table of a study (more than a page of rows) breaks across pages; a short one
    stays one tabular."""
    short = render(judged(six({"a": 0.01, "b": 0.02})), "latex")
    assert r"\begin{tabular}" in short and "longtable" not in short
    times = {f"s{n}": 0.01 * (n + 1) for n in range(LONG_TABLE_ROWS // 6 + 1)}  # more than LONG_TABLE_ROWS rows
    long = render(judged(six(times)), "latex")
    lines = long.splitlines()
    assert "% needs \\usepackage{booktabs} and \\usepackage{longtable}" in lines and "tabular" not in long
    begin, end = lines.index(r"\begin{longtable}{lllrrlrrlr}"), lines.index(r"\end{longtable}")
    assert lines[begin + 1:begin + 7:2] == [r"\toprule", r"\midrule", r"\bottomrule"]
    assert lines[begin + 4] == r"\endhead" and lines[begin + 6] == r"\endfoot"
    assert end - begin - 7 == 6 * len(times) > LONG_TABLE_ROWS  # every row, after the header and foot


def test_longtable_rows_sets_when_a_latex_table_breaks_across_pages(tmp_path: Path) -> None:
    """Twelve rows stay a tabular by default and up to --longtable-rows 12; 11 (and 0) make a
    longtable, for every --by; the option means nothing without --format latex and says so."""
    path = str(_saved(six({"a": 0.01, "b": 0.02}), tmp_path))

    def environment(*options: str) -> str:
        done = CliRunner().invoke(main, ["report", path, "--format", "latex", *options])
        assert done.exit_code == 0, done.output
        return "longtable" if r"\begin{longtable}" in done.stdout else "tabular"

    assert [environment(), environment("--longtable-rows", "12"), environment("--longtable-rows", "11"),
            environment("--longtable-rows", "0")] == ["tabular", "tabular", "longtable", "longtable"]
    assert environment("--by", "solver", "--longtable-rows", "0") == "longtable"
    refused = CliRunner().invoke(main, ["report", path, "--longtable-rows", "5"])
    assert refused.exit_code == 2 and "--longtable-rows sets when a LaTeX table breaks across pages" in refused.stderr


def test_cpu_model_comes_from_cpuinfo_else_the_platform(tmp_path: Path) -> None:
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nmodel name\t: Test CPU 9000 @ 3.0GHz\n")
    assert cpu_model(info) == "Test CPU 9000 @ 3.0GHz"
    assert cpu_model(tmp_path / "missing")  # platform.processor() or machine(): never empty


def test_conditions_of_old_records_are_unknown_and_new_ones_ranged() -> None:
    old = run("keys/gen/0.txt", "a", 1.0, commit="abc", argv="crosscheck compare x")
    new = [run("keys/gen/1.txt", "a", 1.0, started=f"2026-01-0{day}T10:00:00+00:00", jobs=2, load_average=load,
               commit="abc", argv="crosscheck compare x", cpu_model="Test CPU", cpus=8)
           for day, load in ((2, 0.5), (1, 1.5))]
    assert dict(conditions([old]))["runs"].startswith("unknown")
    table = dict(conditions([old, *new]))
    assert table["runs"] == "2026-01-01T10:00:00+00:00 to 2026-01-02T10:00:00+00:00; 1 run unknown"
    assert table["jobs"] == "2 (2 runs); unknown (1 run)"
    assert table["load average"].startswith("0.5 to 1.5") and table["commit"] == "abc"
    assert table["machine"].startswith("Test CPU, 8 logical CPUs (2 runs)")


def test_each_record_names_the_jobs_of_its_command_and_when_it_started() -> None:
    """`run_tasks(jobs=2)` stamps every task as it starts: the records say jobs 2 and a UTC start."""
    path = INSTANCES / "keys" / "one-robot-1.txt"
    tasks = [(Task(path=str(path), instance=f"one-{n}", solver="keys-grid"), None) for n in range(2)]
    records = run_tasks(tasks, jobs=2, isolate=False)
    assert [r.environment["jobs"] for r in records] == [2, 2]
    assert all(datetime.fromisoformat(r.environment["started"]).utcoffset() == timedelta(0) for r in records)
    alone = run_task(tasks[0][0])
    assert "jobs" not in alone.environment and alone.environment["started"]  # run outside a command: unknown


def test_the_command_is_recorded_and_shown_quoted_as_a_shell_needs_it(monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ["/venv/bin/crosscheck", "compare", "study/", "--external", "elevator:wrong=python3 /tmp/wrong.py {path}"]
    monkeypatch.setattr(sys, "argv", argv)
    recorded = environment()["argv"]
    assert shlex.split(recorded) == ["crosscheck", *argv[1:]]  # pasted back, it is the same command
    runs = judged([run("keys/gen/0.txt", "a", 1.0, argv=recorded)])
    assert f"% command: {recorded}\n" in render(runs, "latex")
    assert f"<td>{html.escape(recorded)}</td>" in build(runs)
    assert f"command: {recorded}\n" in render(runs, "table", environment=True)


def test_an_unreadable_file_carries_the_provenance_of_every_run(tmp_path: Path) -> None:
    """Its record has every entry a run's has (command, commit, versions, start, limits), and the
    conditions of a report are those of the runs, with nothing unknown for it."""
    (tmp_path / "cut.txt").write_text("#########\n#b.A.@.a#\n####\n")  # a row cut short
    unreadable, scheduled = instance_tasks(InstanceFile(tmp_path / "cut.txt", "cut.txt", None, None),
                                           RunSettings(time_limit=5))
    [record] = unreadable
    assert record.status is Status.ERROR and not scheduled
    solved = run_task(Task(path=str(INSTANCES / "keys" / "one-robot-1.txt"), instance="one", solver="keys-grid",
                           time_limit=5, start=start_facts(1)))
    assert set(record.environment) == set(solved.environment) - {"jobs"}
    for entry in ("argv", "commit", "source", "python", "crosscheck", "time_limit", "clock"):
        assert record.environment[entry] == solved.environment[entry], entry
    assert record.environment["started"]
    table = dict(conditions([solved, record]))
    assert "unknown" not in table["command"] + table["commit"] + table["jobs"] + table["runs"], table
