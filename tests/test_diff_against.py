"""``report OLD --against NEW``: the clock times are compared on, the timing rule it
states, its exit status, its warning on other settings, and refusing --by; on hand-made
records files (no timing)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result
from crosscheck.harness.cli import EXIT_OK, EXIT_USAGE, EXIT_WRONG, main
from crosscheck.harness.records.record import UNREADABLE, RunRecord, append_record
from crosscheck.harness.reports.diff import diff
from crosscheck.harness.reports.diff_basis import basis
from crosscheck.models.answers import Optimum
from crosscheck.solvers.base import Status

#: The settings of a comparison run with --clock cpu, 20 s and 8192 MB.
CPU = {"clock": "cpu", "time_limit": 20.0, "memory_limit_mb": 8192}


def run(instance: str, solver: str, seconds: float, cpu: float | None = None, repeat: int = 0,
        status: Status = Status.OPTIMAL, shares: tuple[str, ...] = (), workers: int = 1,
        settings: dict[str, object] | None = None) -> RunRecord:
    """A run of `solver` on `instance` (optimum 8 when `status` is optimal): wall `seconds`, CPU `cpu`,
    under `CPU` updated with `settings`."""
    exact = status is Status.OPTIMAL
    return RunRecord(instance=instance, puzzle="keys", solver=solver, status=status, cost=8 if exact else None,
                     bound=8 if exact else None, plan_valid=True if exact else None,
                     checked_cost=8 if exact else None, seconds=seconds, cpu_seconds=cpu, repeat=repeat,
                     expected=Optimum(8), plan=[] if exact else None, shares=list(shares), cpsat_workers=workers,
                     environment={**CPU, **(settings or {})})


def repeated(instance: str, solver: str, walls: list[float], cpus: list[float], **fields: object) -> list[RunRecord]:
    return [run(instance, solver, wall, cpu, repeat, **fields)  # type: ignore[arg-type]
            for repeat, (wall, cpu) in enumerate(zip(walls, cpus, strict=True))]


def written(tmp_path: Path, name: str, records: list[RunRecord]) -> Path:
    path = tmp_path / f"{name}.jsonl"
    path.touch()
    for record in records:
        append_record(path, record)
    return path


def against(tmp_path: Path, old: list[RunRecord], new: list[RunRecord], *options: str) -> Result:
    paths = written(tmp_path, "old", old), written(tmp_path, "new", new)
    return CliRunner().invoke(main, ["report", str(paths[0]), "--against", str(paths[1]), *options])


def row(output: str, instance: str, solver: str) -> list[str]:
    """The words of the table row of `instance` and `solver` ([] when it is not listed)."""
    return next((line.split() for line in output.splitlines() if line.split()[:2] == [instance, solver]), [])


#: The same code rerun on a loaded machine: the wall seconds triple, the CPU seconds do not move.
OLD_CPU = repeated("keys/a.txt", "x", [1.0, 1.1, 0.9], [1.0, 1.05, 0.95])
LOADED = repeated("keys/a.txt", "x", [3.0, 3.3, 2.7], [1.0, 1.02, 0.98])


def test_runs_limited_by_cpu_time_are_compared_on_cpu_seconds(tmp_path: Path) -> None:
    [change] = diff(OLD_CPU, LOADED, basis(OLD_CPU, LOADED))
    assert change.timing == "within noise" and not change.listed
    result = against(tmp_path, OLD_CPU, LOADED)
    assert result.exit_code == EXIT_OK and "no changes" in result.output, result.output
    assert ("timing: cpu seconds (both sides ran with --clock cpu); runs per pair: OLD 3, NEW 3; slower (faster): "
            "every NEW run above (below) every OLD run and the medians more than 10% apart") in result.output


def test_wall_limited_runs_are_compared_on_wall_seconds(tmp_path: Path) -> None:
    old, new = ([r.model_copy(update={"environment": {**CPU, "clock": "wall"}}) for r in side]
                for side in (OLD_CPU, LOADED))
    assert row(against(tmp_path, old, new).output, "keys/a.txt", "x")[-1] == "slower"


def test_sides_on_different_clocks_are_compared_on_wall_time_and_said_so(tmp_path: Path) -> None:
    new = [r.model_copy(update={"environment": {**CPU, "clock": "wall"}}) for r in LOADED]
    output = against(tmp_path, OLD_CPU, new).output
    assert "timing: wall seconds (the sides ran with different clocks: OLD cpu, NEW wall)" in output
    assert "warning: the sides ran under different settings: clock cpu (OLD) vs wall (NEW)" in output
    assert row(output, "keys/a.txt", "x")[-1] == "slower"


def test_one_run_per_side_judges_no_time_change(tmp_path: Path) -> None:
    """A threefold time change of a single run is no finding: there is no noise estimate."""
    old, new = [run("keys/a.txt", "x", 1.0, 1.0)], [run("keys/a.txt", "x", 3.0, 3.0)]
    result = against(tmp_path, old, new)
    assert result.exit_code == EXIT_OK and "no changes" in result.output, result.output
    assert "runs per pair: OLD 1, NEW 1; no noise estimate with one run on a side" in result.output
    assert "1 one run, 0 not compared; geometric mean new/old 3.00 over 1 compared" in result.output


def test_pure_slowdown_exits_0_unless_asked(tmp_path: Path) -> None:
    slow = repeated("keys/a.txt", "x", [2.0, 2.1, 1.9], [2.0, 2.1, 1.9])
    assert against(tmp_path, OLD_CPU, slow).exit_code == EXIT_OK
    asked = against(tmp_path, OLD_CPU, slow, "--fail-on-slower")
    assert asked.exit_code == EXIT_WRONG and "slower: keys/a.txt x: new/old 2.00" in asked.output, asked.output


def test_a_new_file_without_the_runs_exits_1_naming_each_lost_answer(tmp_path: Path) -> None:
    old = [run("keys/a.txt", "x", 1.0, 1.0), run("keys/a.txt", "y", 5.0, 5.0, status=Status.TIMEOUT)]
    result = against(tmp_path, old, [run("keys/b.txt", "x", 1.0, 1.0)])
    assert result.exit_code == EXIT_WRONG, result.output
    lines = result.output.splitlines()
    assert "lost: keys/a.txt x: exact optimal -> absent (only in OLD)" in lines
    assert "missing: keys/a.txt y: timeout in OLD, not run in NEW" in lines
    (tmp_path / "empty").mkdir()
    empty = against(tmp_path / "empty", old, [])  # a NEW file without a record is unusable input
    assert empty.exit_code == EXIT_USAGE and "no records in" in empty.output, empty.output


def test_a_file_unreadable_in_old_and_read_in_new_is_no_regression(tmp_path: Path) -> None:
    unreadable = RunRecord(instance="keys/a.txt", puzzle=None, solver=UNREADABLE, status=Status.ERROR,
                           message="keys/a.txt:1:1: no robot '@'")
    result = against(tmp_path, [unreadable], [run("keys/a.txt", "x", 1.0, 1.0)])
    assert result.exit_code == EXIT_OK and "1 better" in result.output, result.output


def test_losing_one_of_two_independent_provers_exits_1_and_shows_the_provers(tmp_path: Path) -> None:
    old = [run("keys/a.txt", "grid", 1.0, 1.0, shares=("grid",)), run("keys/a.txt", "fd", 1.0, 1.0, shares=("fd",))]
    new = [run("keys/a.txt", "grid", 0.0, 0.0, status=Status.ERROR, shares=("grid",)), old[1]]
    result = against(tmp_path, old, new)
    assert result.exit_code == EXIT_WRONG, result.output
    assert row(result.output, "keys/a.txt", "grid")[2:7] == ["optimal", "error", "agree", "agree", "2->1"]
    lines = result.output.splitlines()
    assert "fewer provers: keys/a.txt: 2 -> 1 independent (grid, fd -> fd)" in lines
    assert "lost: keys/a.txt grid: exact optimal -> error" in lines


def test_other_limits_are_named_and_a_failed_run_gets_no_time_ratio(tmp_path: Path) -> None:
    old = [run("keys/a.txt", "x", 2.0, 2.0), run("keys/a.txt", "y", 3.0, 3.0, workers=8)]
    small: dict[str, object] = {"time_limit": 1.0, "memory_limit_mb": 150}
    new = [run("keys/a.txt", "x", 0.0, None, status=Status.MEMOUT, settings=small),
           run("keys/a.txt", "y", 1.0, 1.0, status=Status.TIMEOUT, workers=8, settings=small)]
    result = against(tmp_path, old, new)
    assert result.exit_code == EXIT_WRONG  # answers were lost, whatever the cause; the warning names it
    assert result.output.splitlines()[0] == (
        "warning: the sides ran under different settings: time limit 20.0 s (OLD) vs 1.0 s (NEW), memory limit "
        "8192 MB (OLD) vs 150 MB (NEW); status and time changes may come from these, not from the code")
    assert row(result.output, "keys/a.txt", "x")[-4:] == ["2.00", "-", "-", "optimal->memout"]
    assert row(result.output, "keys/a.txt", "y")[-4:] == ["3.00", "1.00", "-", "optimal->timeout"]


def test_other_cpsat_workers_are_named_where_cpsat_runs(tmp_path: Path) -> None:
    """Every record carries CP-SAT's workers; they are a setting of CP-SAT's runs only."""
    old = [r.model_copy(update={"solver": "keys-cpsat", "formulation": "keys-cpsat"}) for r in OLD_CPU]
    new = [r.model_copy(update={"cpsat_workers": 8}) for r in old]
    assert ("warning: the sides ran under different settings: CP-SAT workers 1 (OLD) vs 8 (NEW);"
            in against(tmp_path, old, new).output)
    others = [r.model_copy(update={"cpsat_workers": 8}) for r in OLD_CPU]
    (tmp_path / "others").mkdir()
    assert "warning" not in against(tmp_path / "others", OLD_CPU, others).output


def test_by_with_against_is_refused(tmp_path: Path) -> None:
    result = against(tmp_path, OLD_CPU, LOADED, "--by", "solver")
    assert result.exit_code == EXIT_USAGE and "--by summarises one comparison" in result.output, result.output
    alone = CliRunner().invoke(main, ["report", str(written(tmp_path, "x", OLD_CPU)), "--fail-on-slower"])
    assert alone.exit_code == EXIT_USAGE and "--fail-on-slower goes with --against" in alone.output


def test_a_run_without_cpu_time_shows_no_time_on_the_cpu_clock(tmp_path: Path) -> None:
    new = [run("keys/a.txt", "x", 20.0, None, status=Status.TIMEOUT)]
    output = against(tmp_path, [run("keys/a.txt", "x", 1.0, 1.0)], new).output
    assert "timing: cpu seconds" in output
    assert row(output, "keys/a.txt", "x")[-4:] == ["1.00", "-", "-", "optimal->timeout"]
