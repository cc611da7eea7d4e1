"""Measurements researchers analyse: repetitions, CPU and memory, the record schema,
tidy output, progress, and independent provers."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import crosscheck.solvers.registry
import pytest
from crosscheck.harness.judging.verdicts import Verdict, judge_all, judged
from crosscheck.harness.records.evidence import Evidence
from crosscheck.harness.records.record import (
    SOURCE_PACKAGES,
    Expected,
    RunRecord,
    Task,
    append_record,
    read_records,
    source_digest,
)
from crosscheck.harness.records.schema import SCHEMA_VERSION, NewerSchemaError
from crosscheck.harness.records.tidy import COLUMNS, load, rows, to_csv
from crosscheck.harness.reports.progress import Progress
from crosscheck.harness.reports.tables import effort, notes, render, spread
from crosscheck.harness.runs.batch import _scheduled, core_share, run_tasks, start_order, threads
from crosscheck.harness.runs.isolated import run_launched
from crosscheck.harness.runs.measure import core_groups, cores, oversubscription, resident_mb
from crosscheck.harness.runs.runner import (
    Start,
    failed_figures,
    memout_if_limited,
    run_here,
    run_isolated,
    run_task,
    settled,
)
from crosscheck.harness.runs.tree_memory import TreeWatch
from crosscheck.solvers.base import Deadline, Status
from crosscheck.solvers.engines.cpsat import (
    STOP_MARGIN_SECONDS,
    WORKERS_VARIABLE,
    configured_solver,
    default_workers,
    solve,
)
from ortools.sat.python import cp_model

from tests.fixtures import INSTANCES, ROOT
from tests.fixtures.cli import VAULT, invoke
from tests.fixtures.memory_solvers import LIMIT_MB
from tests.fixtures.plugin_solvers import HELD_MB, SPAWNED_CPU, SPAWNED_MB
from tests.test_cpsat import hard_knapsack

pytestmark = pytest.mark.usefixtures("misbehaving_solvers")


@pytest.fixture
def vaults(tmp_path: Path) -> Path:
    """A folder with a vault of known optimum 8 and an unreadable one."""
    root = tmp_path / "vaults"
    root.mkdir()
    (root / "small.txt").write_text(VAULT)
    (root / "broken.txt").write_text("#####\n#@.?#\n#####\n")
    (root / "index.toml").write_text('["small.txt"]\noptimum = 8\n')
    return root


def record(solver: str, status: Status = Status.OPTIMAL, cost: int | None = 8, *, instance: str = "x.txt",
           shares: tuple[str, ...] = (), seconds: float = 0.1, repeat: int = 0) -> RunRecord:
    exact = status is Status.OPTIMAL
    return RunRecord(instance=instance, puzzle="keys", solver=solver, status=status, cost=cost if exact else None,
                     bound=cost, plan_valid=True if exact else None, checked_cost=cost if exact else None,
                     plan=[1] * 8 if exact else None, shares=list(shares), seconds=seconds, repeat=repeat,
                     stats={"expanded": 12, "traceback": "not a column"}, features={"keys": 2})


def save(path: Path, records: list[RunRecord]) -> Path:
    for one in records:
        append_record(path, one)
    return path


# --- the schema ------------------------------------------------------------------------

def test_every_record_carries_the_schema_version_and_old_ones_still_load(tmp_path: Path) -> None:
    path = save(tmp_path / "runs.jsonl", [record("a")])
    assert json.loads(path.read_text())["schema_version"] == SCHEMA_VERSION
    old = {"instance": "x.txt", "puzzle": "keys", "solver": "a", "status": "timeout", "seconds": 1.5}
    path.write_text(json.dumps(old) + "\n")
    [loaded] = read_records(path)
    assert (loaded.schema_version, loaded.repeat, loaded.cpu_seconds) == (1, 0, None)


def test_a_record_from_before_the_start_memory_field_loads_without_it(tmp_path: Path) -> None:
    fields = record("a").model_dump(mode="json") | {"schema_version": 4, "peak_memory_mb": 220.0}
    del fields["start_memory_mb"]
    (tmp_path / "runs.jsonl").write_text(json.dumps(fields) + "\n")
    [loaded] = read_records(tmp_path / "runs.jsonl")
    assert (loaded.schema_version, loaded.peak_memory_mb, loaded.start_memory_mb) == (4, 220.0, None)


@pytest.mark.parametrize("version", [None, 2])
def test_records_older_than_the_evidence_field_load_with_the_evidence_they_were_judged_by(
        tmp_path: Path, version: int | None) -> None:
    """Before schema 3 an external program's record was the one whose stats named its
    command: it loads as a claim (its checked optimum is no exact answer), any other as a
    proof, so an old results file is judged as it was."""
    def old(instance: str, solver: str, stats: dict[str, Any]) -> dict[str, Any]:
        fields = {"instance": instance, "puzzle": "keys", "solver": solver, "status": "optimal", "cost": 8,
                  "bound": 8, "plan_valid": True, "checked_cost": 8, "stats": stats}
        return fields if version is None else fields | {"schema_version": version}

    path = tmp_path / "runs.jsonl"
    path.write_text("".join(json.dumps(one) + "\n" for one in (
        old("claimed.txt", "mine", {"external": "mine {path}"}), old("proved.txt", "keys-graph", {"expanded": 3}))))
    claimed, proved = read_records(path)
    assert (claimed.evidence, proved.evidence) == (Evidence.CLAIM, Evidence.PROOF)
    assert [(v.instance, v.verdict) for v in judge_all([claimed, proved])] == [
        ("claimed.txt", Verdict.UNVERIFIED), ("proved.txt", Verdict.AGREE)]


def test_the_evidence_field_not_a_stats_key_decides_what_a_record_proves(tmp_path: Path) -> None:
    """A current record is what its field says, whatever its stats hold."""
    path = save(tmp_path / "runs.jsonl", [record("a").model_copy(update={"stats": {"external": "a {path}"}}),
                                          record("b", instance="y.txt").model_copy(update={"evidence": Evidence.CLAIM})])
    assert [json.loads(line)["evidence"] for line in path.read_text().splitlines()] == ["proof", "claim"]
    assert [r.exact for r in read_records(path)] == [True, False]


def test_a_newer_schema_version_fails_clearly(tmp_path: Path) -> None:
    path = save(tmp_path / "runs.jsonl", [record("a")])
    newer = json.loads(path.read_text()) | {"schema_version": SCHEMA_VERSION + 1}
    path.write_text(path.read_text() + json.dumps(newer) + "\n")
    with pytest.raises(NewerSchemaError, match=rf"runs.jsonl:2: record schema version {SCHEMA_VERSION + 1} is newer"):
        read_records(path)
    result = invoke("report", str(path))
    assert result.exit_code == 2 and "upgrade crosscheck" in result.output


def test_schema_command_prints_the_json_schema() -> None:
    result = invoke("schema")
    schema = json.loads(result.stdout)
    assert f"schema version {SCHEMA_VERSION}" in schema["title"]
    assert {"schema_version", "repeat", "cpu_seconds", "peak_memory_mb", "wall_seconds",
            "cpsat_workers", "evidence", "certificate", "encoding_checks"} <= set(schema["properties"])
    assert schema["$defs"]["Evidence"]["enum"] == ["proof", "certified", "claim", "plan"]
    assert "peak_memory_mb includes" in schema["properties"]["start_memory_mb"]["description"]


# --- repetitions -----------------------------------------------------------------------

def test_the_source_digest_tells_uncommitted_edits_apart(tmp_path: Path) -> None:
    for package in SOURCE_PACKAGES:
        (tmp_path / package).mkdir()
        (tmp_path / package / "a.py").write_text(f"X = '{package}'\n")
    (tmp_path / "README.md").write_text("not code\n")
    before = source_digest(tmp_path)
    (tmp_path / "README.md").write_text("edited, still not code\n")
    (tmp_path / "solvers" / "__pycache__").mkdir()
    (tmp_path / "solvers" / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\0")
    assert source_digest(tmp_path) == before  # only the packages' Python files count
    (tmp_path / "solvers" / "a.py").write_text("X = 'edited'\n")
    edited = source_digest(tmp_path)
    (tmp_path / "solvers" / "a.py").rename(tmp_path / "solvers" / "b.py")
    assert len({before, edited, source_digest(tmp_path)}) == 3  # contents and names both count


def test_a_plugin_formulation_is_named_by_a_digest_of_its_code_and_a_built_in_one_is_not(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = tmp_path / "my_vault.py"
    module.write_text(PLUGIN)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(crosscheck.solvers.registry, "SOLVERS", dict(crosscheck.solvers.registry.SOLVERS))
    (tmp_path / "v.txt").write_text(VAULT)

    def environment(solver: str) -> dict[str, Any]:
        task = Task(path=str(tmp_path / "v.txt"), instance="v.txt", solver=solver, time_limit=10,
                    plugins=("my_vault",))
        return run_task(task).environment

    digest = environment("keys-mine")["solver_source"]
    module.write_text(PLUGIN + "# edited\n")
    assert environment("keys-mine")["solver_source"] not in (digest, None)
    assert "solver_source" not in environment("keys-graph")


PLUGIN = """
from crosscheck.solvers.keys.graph import KeysGraph

class Mine(KeysGraph):
    name = "keys-mine"

SOLVERS = [Mine]
"""


def test_a_cpu_deadline_counts_cpu_seconds_not_waiting() -> None:
    wall, cpu = Deadline(0.2), Deadline(0.2, "cpu")
    time.sleep(0.3)
    assert wall.expired() and not cpu.expired()
    give_up = time.monotonic() + 30
    while not cpu.expired() and time.monotonic() < give_up:
        pass  # spend CPU time
    assert cpu.expired() and cpu.remaining() == 0


def test_cpsat_stops_at_a_cpu_deadline_counting_all_its_workers() -> None:
    model = hard_knapsack()
    deadline = Deadline(1.0, "cpu")
    solver = configured_solver(deadline, workers=2)
    assert solver.parameters.max_time_in_seconds > 1e9  # CP-SAT counts only wall time: no limit of its own
    start = time.process_time()
    status = solve(solver, model, deadline)
    spent = time.process_time() - start
    assert status != cp_model.OPTIMAL and 1.0 - STOP_MARGIN_SECONDS <= spent < 2.0, (solver.status_name(status), spent)


def test_repeats_are_separate_records_and_resume_counts_them(vaults: Path, tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    invoke("compare", str(vaults / "small.txt"), "--solver", "test-plain", "--repeat", "2",
           "--out", str(out), "--jobs", "1")
    assert sorted(r.repeat for r in read_records(out)) == [0, 1]
    result = invoke("compare", str(vaults / "small.txt"), "--solver", "test-plain", "--repeat", "3",
                    "--out", str(out), "--resume", "--jobs", "1")
    assert sorted(r.repeat for r in read_records(out)) == [0, 1, 2]  # only the third one ran
    assert "median s" in result.stdout and "iqr s" in result.stdout


def test_resuming_under_other_limits_is_warned_about(vaults: Path, tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    invoke("compare", str(vaults), "--solver", "test-plain", "--out", str(out), "--jobs", "1")
    for other, named in ((("--clock", "cpu"), "clock wall (asked: cpu)"), (("--time-limit", "30"), "time_limit 60.0"),
                         (("--memory-limit", "4096"), "memory_limit_mb 8192")):
        result = invoke("compare", str(vaults), "--solver", "test-plain", "--out", str(out), "--resume", *other)
        assert "will mix limits" in result.stderr and named in result.stderr, other
    assert "warning" not in invoke("compare", str(vaults), "--solver", "test-plain", "--out", str(out),
                                   "--resume").stderr


def test_the_table_shows_median_min_and_iqr_over_repetitions() -> None:
    runs = [record("a", seconds=s, repeat=n) for n, s in enumerate((3.0, 1.0, 2.0))]
    lines = render(judged(runs)).splitlines()
    assert lines[0].split()[6:10] == ["runs", "median", "s", "min"]
    assert lines[1].split()[6:10] == ["3", "2.00", "1.00", "1.00"]  # quartiles 1.5 and 2.5
    assert spread([4.0]) == (4.0, 4.0, 0.0)


def test_the_solver_summary_weighs_each_instance_once() -> None:
    runs = [record("a", instance="x.txt", seconds=1.0, repeat=n) for n in range(3)]
    runs.append(record("a", instance="y.txt", seconds=5.0))
    [row] = list(csv.DictReader(io.StringIO(render(judged(runs), "csv", "solver"))))
    assert (row["instances"], row["runs"], row["median s (exact)"]) == ("2", "4", "3.0")


def test_the_solver_summary_leaves_failed_runs_out_of_times_and_memouts_out_of_the_peak() -> None:
    """A memout's resident peak (older records have one) is not what it needed; a crash's seconds are no speed."""
    runs = [record("a", instance="x.txt", seconds=1.0).model_copy(update={"peak_memory_mb": 90.0}),
            record("a", Status.MEMOUT, instance="y.txt", seconds=0.0).model_copy(update={"peak_memory_mb": 39.0}),
            record("a", Status.MEMOUT, instance="z.txt", seconds=0.0).model_copy(update={"peak_memory_mb": 400.0}),
            record("a", Status.ERROR, instance="w.txt", seconds=9.0)]
    [row] = list(csv.DictReader(io.StringIO(render(judged(runs), "csv", "solver"))))
    assert (row["memout"], row["error"], row["max peak MB"]) == ("2", "1", "90")
    assert (row["median s (exact)"], row["max s (exact)"]) == ("1.0", "1.0")


def test_the_solver_summary_counts_a_runs_own_memory_over_the_runs_that_recorded_their_start() -> None:
    """``max own MB`` is the largest peak minus start memory; older records (no start memory) count in
    ``max peak MB`` only, and a solver none of whose runs has both figures has none (empty in CSV)."""
    def measured(solver: str, instance: str, peak: float, start: float | None) -> RunRecord:
        return record(solver, instance=instance).model_copy(update={"peak_memory_mb": peak, "start_memory_mb": start})
    runs = [measured("a", "x.txt", 230.0, 220.0), measured("a", "y.txt", 240.0, 200.0),
            measured("a", "z.txt", 300.0, None),  # an older record: the largest peak, no own figure
            record("a", Status.MEMOUT, instance="w.txt").model_copy(update={"peak_memory_mb": 900.0,
                                                                            "start_memory_mb": 220.0}),
            measured("b", "x.txt", 91.0, None)]
    rows = {row["solver"]: row for row in csv.DictReader(io.StringIO(render(judged(runs), "csv", "solver")))}
    assert (rows["a"]["max peak MB"], rows["a"]["max own MB"]) == ("300", "40")
    assert (rows["b"]["max peak MB"], rows["b"]["max own MB"]) == ("91", "")  # the table's "-": unknown


# --- what a run cost -------------------------------------------------------------------

def test_cpu_and_memory_include_the_children_of_a_run(vaults: Path) -> None:
    result = invoke("solve", str(vaults / "small.txt"), "--solver", "test-spawner", "--format", "json")
    [run] = json.loads(result.stdout)
    assert run["cpu_seconds"] >= SPAWNED_CPU and run["peak_memory_mb"] >= SPAWNED_MB
    assert run["wall_seconds"] >= run["seconds"] > 0


def test_a_run_records_the_memory_it_started_with_below_its_peak(vaults: Path) -> None:
    """The start memory is read before the formulation runs: the 64 MB it writes to lie between the two."""
    result = invoke("solve", str(vaults / "small.txt"), "--solver", "test-holder", "--format", "json")
    [run] = json.loads(result.stdout)
    assert 0 < run["start_memory_mb"] < run["peak_memory_mb"]
    assert run["peak_memory_mb"] - run["start_memory_mb"] >= HELD_MB


def test_a_launched_run_records_the_memory_its_interpreter_started_the_run_with(tmp_path: Path) -> None:
    (tmp_path / "vault.txt").write_text(VAULT)
    task = Task(path=str(tmp_path / "vault.txt"), instance="vault.txt", solver="test-holder",
                plugins=("tests.fixtures.plugin_solvers",))
    record = run_launched(task)
    assert record.start_memory_mb is not None and record.peak_memory_mb is not None, record.message
    assert record.peak_memory_mb - record.start_memory_mb >= HELD_MB


def test_the_resident_memory_is_read_from_proc_status_and_unknown_without_it(tmp_path: Path) -> None:
    status = tmp_path / "status"
    status.write_text("Name:\tpython\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\n")
    assert resident_mb(status) == 100.0
    assert resident_mb(tmp_path / "absent") is None


def test_cpsat_workers_reach_the_solver_and_the_record() -> None:
    result = invoke("solve", str(INSTANCES / "keys" / "loop-1.txt"), "--solver", "keys-cpsat",
                    "--cpsat-workers", "1", "--format", "json")
    [run] = json.loads(result.stdout)
    assert run["cpsat_workers"] == 1 and run["stats"]["num_workers"] == 1


def test_more_threads_than_cores_is_warned_about(vaults: Path) -> None:
    assert oversubscription(cores(), cores()) == ""
    assert f"{cores() + 1} jobs at a time exceed the {cores()} cores" in oversubscription(cores() + 1, 1)
    assert f"a run of {cores() + 1} solver threads exceeds the {cores()} cores" in oversubscription(1, cores() + 1)
    result = invoke("solve", str(INSTANCES / "keys" / "loop-1.txt"), "--solver", "keys-cpsat",
                    "--cpsat-workers", str(cores() + 1))
    assert "warning" in result.stderr and "--cpsat-workers" in result.stderr


def test_the_default_comparison_fits_a_two_core_machine(vaults: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No --jobs nor --cpsat-workers, CP-SAT among the solvers, two cores: no warning (the
    runs' threads fit). The solvers are named only to leave out the test plugins' slow ones."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    result = invoke("compare", str(vaults), "--solver", "keys-cpsat", "--solver", "keys-graph",
                    "--out", str(vaults / "runs.jsonl"))
    assert "keys-cpsat" in result.stdout
    assert "warning" not in result.stderr
    assert "--jobs" in invoke("compare", "--help").stdout and "the cores" in invoke("compare", "--help").stdout
    workers = {record.cpsat_workers for record in read_records(vaults / "runs.jsonl") if record.solver == "keys-cpsat"}
    assert workers == {1}  # its share of the two cores, so it runs beside keys-graph


@pytest.mark.parametrize(("available", "jobs", "share"), [(2, 2, 1), (2, 1, 2), (4, 2, 2), (1, 2, 1), (8, 3, 2)])
def test_a_cpsat_run_gets_its_share_of_the_cores(available: int, jobs: int, share: int,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The cores over the runs at a time, at least one, at most CP-SAT's two; whatever a run
    made in this process left in its environment."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(available)))
    monkeypatch.setenv(WORKERS_VARIABLE, "5")
    assert core_share(jobs) == share


def test_a_run_made_here_gives_back_the_cpsat_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run in this process sets its CP-SAT workers for the process while it runs, not after;
    runs made here two at a time keep the process's default (they share its environment)."""
    monkeypatch.delenv(WORKERS_VARIABLE, raising=False)
    run_here(Task(path=str(INSTANCES / "keys" / "loop-1.txt"), instance="v", solver="keys-graph", cpsat_workers=1))
    assert WORKERS_VARIABLE not in os.environ
    tasks = [(Task(path=str(INSTANCES / "keys" / name), instance=name, solver="keys-cpsat"), None)
             for name in ("loop-1.txt", "one-robot-1.txt", "one-robot-2.txt")]
    records = run_tasks(tasks, jobs=2, isolate=False)
    assert WORKERS_VARIABLE not in os.environ
    assert {record.cpsat_workers for record in records} == {default_workers()}


def test_runs_at_a_time_never_hold_more_threads_than_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """A CP-SAT run of two workers holds both cores of a two-core machine: it never runs
    beside another run, while single-threaded runs go two at a time (each run sleeps, so
    a scheduler that ignored threads would overlap them)."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    held, most = [0], [0]
    lock = threading.Lock()

    def runner(task: Task, expected: object) -> RunRecord:
        with lock:
            held[0] += threads(task)
            most[0] = max(most[0], held[0])
        time.sleep(0.02)
        with lock:
            held[0] -= threads(task)
        return RunRecord(instance=task.instance, puzzle="keys", solver=task.solver, status=Status.TIMEOUT)

    names = ["keys-cpsat", "keys-graph", "keys-grid", "keys-cpsat", "keys-graph", "keys-cpsat"]
    tasks: list[tuple[Task, Expected]] = [
        (Task(path="v.txt", instance=f"v{number}", solver=name, cpsat_workers=2), None)
        for number, name in enumerate(names)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        records = _scheduled(pool, runner, tasks, jobs=2, budget=cores(), on_record=lambda record: None)
    assert [record.instance for record in records] == [f"v{number}" for number in range(len(names))]
    assert most[0] == 2



def test_a_one_thread_run_does_not_wait_behind_a_cpsat_run_waiting_for_two_cores(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """On two cores, with one run going, the CP-SAT run next in order cannot start: the
    single-threaded run after it starts on the idle core instead; the CP-SAT run starts once
    both cores are free, and the records still come back in task order."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    started: list[str] = []

    def runner(task: Task, expected: object) -> RunRecord:
        started.append(task.solver)
        return RunRecord(instance=task.instance, puzzle="keys", solver=task.solver, status=Status.TIMEOUT)

    names = ["keys-graph", "keys-cpsat", "keys-grid"]
    tasks: list[tuple[Task, Expected]] = [
        (Task(path="v.txt", instance=f"v{number}", solver=name, cpsat_workers=2), None)
        for number, name in enumerate(names)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        records = _scheduled(pool, runner, tasks, jobs=2, budget=cores(), on_record=lambda record: None)
    assert started[-1] == "keys-cpsat"  # (graph and grid start together, in either order)
    assert [record.solver for record in records] == names


def test_runs_at_a_time_start_with_the_largest_instance(tmp_path: Path) -> None:
    """The runs of the largest file start first (the longest runs do not finish alone at the
    end), files of one size in task order, unreadable ones last; records still come in task order."""
    sizes = {"small": 10, "large": 1000, "middle": 100, "same": 10}
    for name, size in sizes.items():
        (tmp_path / f"{name}.txt").write_text("#" * size)
    paths = [str(tmp_path / f"{name}.txt") for name in sizes] + [str(tmp_path / "missing.txt")]
    tasks = [Task(path=path, instance=Path(path).stem, solver="keys-graph") for path in paths]
    assert [tasks[number].instance for number in start_order(tasks)] == ["large", "middle", "small", "same",
                                                                          "missing"]
    started: list[str] = []

    def runner(task: Task, expected: object) -> RunRecord:
        started.append(task.instance)
        return RunRecord(instance=task.instance, puzzle="keys", solver=task.solver, status=Status.TIMEOUT)

    with ThreadPoolExecutor(max_workers=1) as pool:  # one at a time: they start in a known order
        records = _scheduled(pool, runner, [(task, None) for task in tasks], jobs=1, budget=2,
                             on_record=lambda record: None)
    assert started == ["large", "middle", "small", "same", "missing"]
    assert [record.instance for record in records] == [task.instance for task in tasks]


def test_pinned_runs_get_their_own_cores(vaults: Path, tmp_path: Path) -> None:
    groups = core_groups(2)
    assert len(groups) == 2 and all(groups)
    if cores() >= 2:
        assert not set(groups[0]) & set(groups[1])
    out = tmp_path / "runs.jsonl"
    invoke("compare", str(vaults / "small.txt"), "--solver", "test-affinity", "--repeat", "2", "--jobs", "2",
           "--pin-cores", "--out", str(out))
    runs = read_records(out)
    assert {str(r.stats["cores"]) for r in runs} <= {",".join(map(str, group)) for group in groups}
    assert all(r.environment["pinned_cores"] == [int(c) for c in str(r.stats["cores"]).split(",")] for r in runs)


# --- tidy data -------------------------------------------------------------------------

def test_tidy_csv_has_one_plain_row_per_record(vaults: Path, tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    invoke("compare", str(vaults), "--solver", "keys-grid", "--solver", "test-liar", "--out", str(out))
    result = invoke("report", str(out), "--format", "csv")
    table = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(table) == len(read_records(out)) == 3  # nothing but CSV: no prose rows
    assert list(table[0])[: len(COLUMNS)] == list(COLUMNS)
    assert all(row["verdict"] for row in table)  # the verdict on every row
    plain = next(row for row in table if row["solver"] == "keys-grid")
    assert (plain["instance"], plain["variant"], plain["puzzle"], plain["expected"]) == ("small.txt", "false",
                                                                                         "keys", "8")
    assert plain["checked_cost"] == "8" and int(plain["expanded"]) > 0 and float(plain["cpu_seconds"]) > 0
    assert plain["started"].endswith("+00:00") and plain["cpu_model"] and int(plain["jobs"]) >= 1  # provenance
    assert "instances:" in result.stderr  # the summary goes to stderr


def test_solve_and_compare_share_format_and_out(vaults: Path, tmp_path: Path) -> None:
    saved = tmp_path / "solve.jsonl"
    solved = invoke("solve", str(vaults / "small.txt"), "--solver", "test-plain", "--format", "csv",
                    "--out", str(saved))
    [row] = list(csv.DictReader(io.StringIO(solved.stdout)))
    assert (row["solver"], row["verdict"]) == ("test-plain", "agree")
    assert [r.solver for r in read_records(saved)] == ["test-plain"]
    compared = invoke("compare", str(vaults / "small.txt"), "--solver", "test-plain", "--format", "jsonl",
                      "--out", str(tmp_path / "compare.jsonl"))
    assert [json.loads(line)["solver"] for line in compared.stdout.splitlines()] == ["test-plain"]


def test_independent_provers_stand_in_the_table_and_on_every_tidy_row() -> None:
    shared = [record("a", shares=("routes",)), record("b", shares=("routes",)), record("c", Status.TIMEOUT)]
    assert {row["independent"] for row in rows(judged(shared))} == {1}
    apart = [record("a", shares=("routes",)), record("b", shares=("bounds",))]
    assert {row["independent"] for row in rows(judged(apart))} == {2}
    header, first = render(judged(apart)).splitlines()[:2]
    assert header.split()[-2:] == ["verdict", "independent"] and first.split()[-2:] == ["agree", "2"]


def test_jsonl_parquet_and_load_give_the_same_rows(tmp_path: Path) -> None:
    path = save(tmp_path / "runs.jsonl", [record("a"), record("b", Status.TIMEOUT, None)])
    flat = [json.loads(line) for line in invoke("report", str(path), "--format", "jsonl").stdout.splitlines()]
    assert [row["solver"] for row in flat] == ["a", "b"] and flat[0]["feature_keys"] == 2
    assert "traceback" not in flat[0] and flat[1]["cost"] is None
    parquet = tmp_path / "runs.parquet"
    assert invoke("report", str(path), "--format", "parquet", "-o", str(parquet)).exit_code == 0
    assert load(parquet).to_dict("records")[0]["expanded"] == 12
    assert list(load(path).solver) == ["a", "b"]
    (tmp_path / "runs.csv").write_text(to_csv(judged(read_records(path))))
    assert load(tmp_path / "runs.csv").exact.tolist() == [True, False]
    assert invoke("report", str(path), "--format", "parquet").exit_code == 2  # needs -o


def test_usage_example_loads_results_and_plots_median_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    usage = (ROOT / "docs" / "usage.md").read_text()
    start = usage.index("```python\n", usage.index("## report, tidy data and pandas")) + len("```python\n")
    example = usage[start: usage.index("```", start)]
    assert "crosscheck.harness.records.tidy.load(" in example
    save(tmp_path / "runs.jsonl", [record("a", seconds=1.0), record("b", seconds=2.0)])
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    exec(compile(example, "docs/usage.md", "exec"), {})
    assert (tmp_path / "median-time.png").stat().st_size > 0


# --- progress and the index ------------------------------------------------------------

class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_runs_in_flight_and_the_worst_case_left() -> None:
    progress = Progress(3, 1, _Terminal(), limit=10.0)
    task = Task(path="v.txt", instance="v.txt", solver="keys-grid", repeat=1)
    progress.started(task)
    start = progress.flight[task.key][1]
    lines = progress.lines(start + 4)
    # two runs waiting at 10 s each, plus 6 s left of the one in flight, on one job
    assert "worst case left 0:00:26" in lines[0] and "running 1" in lines[0]
    assert lines[1].split() == ["v.txt", "keys-grid", "#1", "4", "s"]
    progress.ended(task)  # its record is on its way: no longer in flight, not waiting either
    [line] = progress.lines(start + 5)
    progress.close()
    assert "worst case left 0:00:20" in line and "running 0" in line


def test_record_optima_refuses_a_single_independent_line(tmp_path: Path) -> None:
    path = save(tmp_path / "runs.jsonl", [record("a", shares=("routes",)), record("b", shares=("routes",))])
    (tmp_path / "x.txt").touch()  # an index names files under its folder
    index = tmp_path / "index.toml"
    refused = invoke("record-optima", str(path), "--index", str(index))
    assert "x.txt: not recorded" in refused.stderr and "--allow-single" in refused.stderr
    assert not index.exists() or "x.txt" not in index.read_text()
    allowed = invoke("record-optima", str(path), "--index", str(index), "--allow-single")
    assert allowed.exit_code == 0 and "optimum = 8" in index.read_text()


def test_recorded_optima_keep_their_provers_and_what_they_share(tmp_path: Path) -> None:
    path = save(tmp_path / "runs.jsonl", [record("a", shares=("routes", "x")), record("b", shares=("routes",)),
                                          record("c", shares=("bounds",))])
    (tmp_path / "x.txt").touch()  # an index names files under its folder
    index = tmp_path / "index.toml"
    assert invoke("record-optima", str(path), "--index", str(index)).exit_code == 0
    entry = tomllib.loads(index.read_text())["x.txt"]
    assert (entry["optimum"], entry["provers"], entry["independent"], entry["shared"]) == (8, ["a", "b", "c"], 2, ["routes"])


def test_record_optima_prints_the_index_tables_it_adds_as_written(tmp_path: Path) -> None:
    """stdout is TOML: exactly the text appended to the index, nothing when nothing was added."""
    path = save(tmp_path / "runs.jsonl", [record("a", shares=("routes",)), record("c", shares=("bounds",))])
    (tmp_path / "x.txt").touch()  # an index names files under its folder
    index = tmp_path / "index.toml"
    index.write_text('# kept\n["y.txt"]\noptimum = 5\n')
    before = index.read_text()
    result = invoke("record-optima", str(path), "--index", str(index))
    assert result.exit_code == 0 and result.stdout.startswith('["x.txt"]\noptimum = 8\n')
    assert index.read_text() == before + "\n" + result.stdout
    assert tomllib.loads(result.stdout) == {"x.txt": tomllib.loads(index.read_text())["x.txt"]}
    again = invoke("record-optima", str(path), "--index", str(index), "--refresh")
    assert again.exit_code == 0 and again.stdout == ""  # listed already: nothing added
    assert "x.txt: evidence refreshed" in again.stderr


def test_refresh_rewrites_evidence_but_never_an_answer(tmp_path: Path) -> None:
    index = tmp_path / "index.toml"
    index.write_text('# kept\n\n["x.txt"]\noptimum = 8\norigin = "published example"\nindependent = 3\n\n'
                     '["y.txt"]\noptimum = 5\norigin = "published example"\nindependent = 2\n')
    wrong = record("b", instance="y.txt", cost=4)  # disagrees with the index: y.txt keeps its evidence
    path = save(tmp_path / "runs.jsonl", [record("a", shares=("routes",)), record("b", shares=("routes",)), wrong])
    assert invoke("record-optima", str(path), "--index", str(index), "--refresh").exit_code == 0
    text = index.read_text()
    entries = tomllib.loads(text)
    assert text.startswith("# kept\n")
    assert entries["x.txt"] == {"optimum": 8, "origin": "published example", "provers": ["a", "b"],
                                "independent": 1, "shared": ["routes"]}
    assert entries["y.txt"] == {"optimum": 5, "origin": "published example", "independent": 2}


def test_notes_say_where_an_answer_rests_on_one_line() -> None:
    shared = [record("a", shares=("routes",)), record("b", shares=("routes",))]
    assert "x.txt: agree on one line of evidence: 2 exact (1 independent): a, b" in notes(judged(shared))
    assert "one line" not in notes(judged([record("a", shares=("routes",)), record("b", shares=("bounds",))]))


def test_a_run_stopped_without_a_time_limit_says_so_in_words() -> None:
    """A run ended from outside (exit code unknown) with no --time-limit: no 'limit None' in its message."""
    unlimited = Task(path="v.txt", instance="v.txt", solver="test-plain", time_limit=None)
    assert settled(None, unlimited, None, None, 2.0, None).message == "killed after 2.0 s wall (no time limit)"
    limited = unlimited.model_copy(update={"time_limit": 1.0})
    assert settled(None, limited, None, None, 2.0, None).message == "killed after 2.0 s wall (limit 1.0 s wall)"


@pytest.mark.parametrize("start", ["fork", "forkserver"])
def test_a_memory_limit_is_what_a_run_may_add_whatever_its_parent_mapped(start: str, tmp_path: Path) -> None:
    """Forked from a parent that mapped 1 GB (as one that loaded numba's LLVM has), a run may
    still allocate half its limit, and not twice it."""
    (tmp_path / "vault.txt").write_text(VAULT)
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "fixtures" / "memory_parent.py"), start, str(tmp_path / "vault.txt")],
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                          check=True)
    runs = {run["solver"]: run for run in map(json.loads, done.stdout.splitlines())}
    half = runs["test-grab-half"]["message"]
    assert half.startswith(f"allocated {LIMIT_MB // 2} MB with ") and runs["test-grab-half"]["status"] == "timeout"
    assert int(half.split(" with ")[1].split()[0]) > 1024  # it did inherit the gigabyte, four times its limit
    assert runs["test-grab-double"]["status"] == "memout"


def test_a_program_a_run_starts_may_map_the_runs_allowance_in_all() -> None:
    """A program starts with an empty address space, so its cap is the allowance itself,
    whatever the run that starts it had mapped (and the run's own cap counts from its size)."""
    script = ("import mmap, resource, subprocess, sys\n"
              "from crosscheck.solvers.base import Deadline, cap_address_space, mapped_bytes\n"
              "region = mmap.mmap(-1, 1 << 30)\n"
              "before = mapped_bytes()\n"
              "print(cap_address_space(256 << 20) - before >> 20)\n"
              "sys.stdout.flush()\n"
              "code = 'import resource; print(resource.getrlimit(resource.RLIMIT_AS)[0] >> 20)'\n"
              "subprocess.run([sys.executable, '-c', code], preexec_fn=Deadline(None).child_limits(), check=True)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["256", "256"]


@pytest.mark.parametrize(("message", "limit", "status"), [
    ("ImportError: /x/_parser.so: failed to map segment from shared object", 150, Status.MEMOUT),
    ("OSError: [Errno 12] Cannot allocate memory", 150, Status.MEMOUT),
    ("terminate called after throwing an instance of 'std::bad_alloc'", 150, Status.MEMOUT),
    ("ImportError: /x/_parser.so: failed to map segment from shared object", None, Status.ERROR),  # no limit
    ("ImportError: No module named 'pandas'", 150, Status.ERROR),  # a genuine error stays one
])
def test_an_allocation_failure_under_a_memory_limit_is_a_memout(message: str, limit: int | None,
                                                                 status: Status) -> None:
    crashed = RunRecord(instance="v.txt", puzzle="keys", solver="s", status=Status.ERROR, message=message)
    judged = memout_if_limited(crashed, limit)
    assert judged.status is status
    assert judged.message == (message if status is Status.ERROR else f"memory limit of {limit} MB reached: {message}")


def test_a_failed_runs_seconds_are_its_wall_time_and_a_memouts_peak_is_unknown() -> None:
    ran = RunRecord(instance="v.txt", puzzle="keys", solver="s", status=Status.TIMEOUT, seconds=0.0,
                    wall_seconds=1.5, peak_memory_mb=39.0)
    memout, error, timeout = (failed_figures(ran.model_copy(update={"status": status}))
                              for status in (Status.MEMOUT, Status.ERROR, Status.TIMEOUT))
    assert (memout.seconds, memout.peak_memory_mb) == (1.5, None)
    assert (error.seconds, error.peak_memory_mb) == (1.5, 39.0)
    assert (timeout.seconds, timeout.peak_memory_mb) == (0.0, 39.0)  # not a failure: its own figures


def test_record_optima_says_why_each_instance_was_not_recorded(tmp_path: Path) -> None:
    """An instance left out of the index is named with its verdict, and counted in the last line."""
    index = tmp_path / "index.toml"
    index.write_text('["w.txt"]\noptimum = 8\n')
    path = save(tmp_path / "runs.jsonl", [
        record("a"), record("b"),  # x.txt: recorded
        record("a", instance="w.txt"), record("b", instance="w.txt"),  # listed already
        record("a", instance="v.txt", shares=("routes",)), record("b", instance="v.txt", shares=("routes",)),
        record("a", instance="y.txt"), record("c", Status.TIMEOUT, 10, instance="y.txt"),  # bound above a plan
        record("a", Status.TIMEOUT, None, instance="z.txt"),
    ])
    for name in ("x.txt", "w.txt"):  # an index names files under its folder
        (tmp_path / name).touch()
    result = invoke("record-optima", str(path), "--index", str(index))
    assert result.exit_code == 0
    assert "y.txt: not recorded: disagree: c claimed lower bound 10 above checked plan cost 8\n" in result.stderr
    assert "z.txt: not recorded: unverified: no exact answer; no plan, no bound\n" in result.stderr
    assert result.stderr.splitlines()[-1] == ("recorded 1; 1 already in the index; refused 1: too few independent "
                                              "provers; skipped 2: disagree (1), unverified (1)")
    assert set(tomllib.loads(index.read_text())) == {"w.txt", "x.txt"}


def test_effort_reads_as_words_one_state_or_many() -> None:
    one = record("grid").model_copy(update={"stats": {"expanded": 1}})
    assert (effort(one), effort(record("grid"))) == ("1 state", "12 states")
    assert effort(one.model_copy(update={"stats": {"conflicts": 1}})) == "1 conflict"


@pytest.mark.parametrize("start", ["fork", "forkserver"])
def test_the_memory_limit_holds_for_a_runs_processes_together(start: Start, tmp_path: Path) -> None:
    """Four children of the run, each under its own address-space limit, hold 120% of the
    limit between them and never end on their own: the run is killed as a memout, not left
    to its time limit (a generous one: reaching it means the tree went unchecked)."""
    (tmp_path / "vault.txt").write_text(VAULT)
    task = Task(path=str(tmp_path / "vault.txt"), instance="vault.txt", solver="test-brood", memory_limit_mb=LIMIT_MB,
                time_limit=30.0, plugins=("tests.fixtures.memory_solvers",))
    record = run_isolated(task, start_method=start, solvers=())
    assert record.status is Status.MEMOUT, record.message
    assert f"over the memory limit of {LIMIT_MB} MB" in record.message


PROBABLY = "probably at the memory limit of 256 MB"
MAYBE = "the memory limit of 256 MB may be the cause"


@pytest.mark.parametrize(("exitcode", "held_mb", "status", "says"), [
    (-signal.SIGABRT, 1.0, Status.MEMOUT, PROBABLY),  # C++'s bad_alloc under RLIMIT_AS: reserved, not resident
    (-signal.SIGSEGV, 20.0, Status.MEMOUT, PROBABLY),
    (-signal.SIGKILL, 240.0, Status.MEMOUT, PROBABLY),  # the kernel's OOM killer
    (1, 240.0, Status.MEMOUT, "at the memory limit of 256 MB"),  # says "out of memory" on stderr, exits 1
    (3, 140.0, Status.ERROR, MAYBE),  # held over half of it: the limit may be why
    (3, 20.0, Status.ERROR, None),  # an ordinary failure: nothing about memory
    (-signal.SIGTERM, 240.0, Status.ERROR, None),  # no refused allocation ends a program so
])
def test_a_death_without_a_record_is_a_memout_by_an_allocation_signal_or_near_the_limit(
        exitcode: int, held_mb: float, status: Status, says: str | None) -> None:
    """A signal a refused allocation sends is a memout whatever was sampled (an address-space
    limit refuses far above what is resident); an exit status only near the limit."""
    task = Task(path="v.txt", instance="v.txt", solver="test-plain", memory_limit_mb=256)
    watch = TreeWatch(None, 256)
    watch.peak_mb = held_mb
    record = settled(None, task, None, exitcode, 1.0, None, watch)
    assert record.status is status, record.message
    assert (f"held at most {held_mb:.0f} MB" in record.message) is (says is not None)
    assert says is None or says in record.message
    for words in (PROBABLY, MAYBE):
        assert (words in record.message) is (words == says), record.message


def test_an_ordinary_exit_under_the_default_limit_says_nothing_about_memory() -> None:
    task = Task(path="v.txt", instance="v.txt", solver="test-plain", memory_limit_mb=8192)
    watch = TreeWatch(None, 8192)
    watch.peak_mb = 30.0
    record = settled(None, task, None, 3, 1.0, None, watch)
    assert (record.status, record.message) == (Status.ERROR, "solver process exited with status 3 before reporting")


@pytest.mark.parametrize("start", ["fork", "forkserver"])
def test_a_run_that_aborts_at_its_address_space_limit_is_a_memout(start: Start, tmp_path: Path) -> None:
    (tmp_path / "vault.txt").write_text(VAULT)
    task = Task(path=str(tmp_path / "vault.txt"), instance="vault.txt", solver="test-aborter", memory_limit_mb=LIMIT_MB,
                time_limit=30.0, plugins=("tests.fixtures.memory_solvers",))
    record = run_isolated(task, start_method=start, solvers=())
    assert record.status is Status.MEMOUT, record.message
    assert f"killed by signal {signal.SIGABRT.value} (SIGABRT) before reporting, probably at the memory limit of " \
           f"{LIMIT_MB} MB" in record.message


def test_a_death_without_a_record_and_without_a_memory_limit_is_an_error_of_its_own() -> None:
    task = Task(path="v.txt", instance="v.txt", solver="test-plain", memory_limit_mb=None)
    record = settled(None, task, None, -signal.SIGABRT, 1.0, None)
    assert (record.status, record.message) == (
        Status.ERROR, f"solver process killed by signal {signal.SIGABRT.value} (SIGABRT) before reporting")
    unnamed = settled(None, task, None, -40, 1.0, None)  # a real-time signal: no name, raised ValueError
    assert (unnamed.status, unnamed.message) == (Status.ERROR, "solver process killed by signal 40 before reporting")


def test_the_memory_limit_holds_for_the_processes_of_a_launched_run_together(tmp_path: Path) -> None:
    """The same in an interpreter of its own (a daemonic Dask worker's runs), whose imports,
    made before the run began, do not count."""
    (tmp_path / "vault.txt").write_text(VAULT)
    task = Task(path=str(tmp_path / "vault.txt"), instance="vault.txt", solver="test-brood", memory_limit_mb=LIMIT_MB,
                time_limit=30.0, plugins=("tests.fixtures.memory_solvers",))
    record = run_launched(task)
    assert record.status is Status.MEMOUT, record.message
    assert f"over the memory limit of {LIMIT_MB} MB" in record.message
