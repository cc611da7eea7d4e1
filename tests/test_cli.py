"""The command line end to end, with misbehaving solvers from tests/plugin_solvers.py.

Runs go through the real isolation (a child process per run), so these tests also
prove that limits are enforced from outside the solver.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli import main
from harness.records import read_records
from tests.plugin_solvers import grandchild_pidfile

VAULT = "#########\n#b.A.@.a#\n#########\n"


@pytest.fixture(autouse=True)
def plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the test solvers (the harness passes them on to every run)."""
    monkeypatch.setenv("CROSSCHECK_SOLVERS", "tests.plugin_solvers")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "instances"
    (root / "keys").mkdir(parents=True)
    (root / "keys" / "small.txt").write_text(VAULT)
    (root / "keys" / "broken.txt").write_text("#####\n#@.?#\n#####\n")
    (root / "index.toml").write_text('["keys/small.txt"]\noptimum = 8\n')
    return root


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_list_shows_puzzles_and_solvers() -> None:
    result = invoke("list")
    assert result.exit_code == 0
    assert "keys: key vault" in result.output and "test-liar" in result.output


def test_unknown_solver_lists_the_valid_names(folder: Path) -> None:
    result = invoke("solve", str(folder / "keys" / "small.txt"), "--solver", "keys-gird")
    assert result.exit_code == 2
    assert "unknown solver 'keys-gird'" in result.output and "test-liar" in result.output


def test_solve_rejects_a_bad_file_naming_line_and_column(folder: Path) -> None:
    result = invoke("solve", str(folder / "keys" / "broken.txt"))
    assert result.exit_code == 1
    assert "broken.txt:2:4: unknown character '?'" in result.output


def test_liar_plan_is_invalid_and_exit_status_says_so(folder: Path) -> None:
    result = invoke("solve", str(folder / "keys" / "small.txt"), "--solver", "test-liar", "--json")
    assert result.exit_code == 1
    [record] = json.loads(result.output)
    assert record["status"] == "optimal" and record["plan_valid"] is False
    assert {"solver", "status", "cost", "bound", "plan_valid", "seconds", "stats"} <= set(record)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


def test_a_sleeper_is_stopped_with_its_children(tmp_path: Path) -> None:
    path = tmp_path / f"sleepy-{tmp_path.name}.txt"
    path.write_text(VAULT)
    start = time.monotonic()
    result = invoke("solve", str(path), "--solver", "test-sleeper", "--time-limit", "0.5", "--json")
    elapsed = time.monotonic() - start
    [record] = json.loads(result.output)
    assert record["status"] == "timeout"
    assert elapsed < 30  # the limit plus the grace period, not the solver's 600 s sleep
    grandchild = int(Path(grandchild_pidfile(path.stem)).read_text())
    deadline = time.monotonic() + 5
    while _alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(grandchild)


def test_crash_and_memory_hog_become_rows_and_the_run_goes_on(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    result = invoke("compare", str(folder), "--solver", "test-crasher", "--solver", "test-hog",
                    "--solver", "test-liar", "--memory-limit", "512", "--time-limit", "20", "--out", str(out))
    statuses = {r.solver: r.status.value for r in read_records(out)}
    assert statuses == {"-": "error", "test-crasher": "error", "test-hog": "memout", "test-liar": "optimal"}
    assert "broken.txt" in result.output and "2:4" in result.output
    assert result.exit_code == 1  # the liar's invalid plan


def test_resume_after_a_cut_line_loses_nothing_and_duplicates_nothing(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    invoke("compare", str(folder), "--solver", "test-liar", "--solver", "test-crasher", "--out", str(out), "--jobs", "1")
    lines = out.read_text().splitlines(keepends=True)
    assert len(lines) == 3
    out.write_text(lines[0] + lines[1] + lines[2][: len(lines[2]) // 2])  # killed mid-write
    result = invoke("compare", str(folder), "--solver", "test-liar", "--solver", "test-crasher",
                    "--out", str(out), "--resume", "--jobs", "1")
    records = read_records(out)
    assert sorted(r.key for r in records) == sorted({r.key for r in records})
    assert len(records) == 3
    assert sum(" test-liar " in line and "optimal" in line for line in result.output.splitlines()) == 1


def test_out_refuses_to_mix_runs_without_resume(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    out.write_text('{"x": 1}\n')
    result = invoke("compare", str(folder), "--out", str(out))
    assert result.exit_code == 2 and "--resume" in result.output


def test_two_jobs_give_the_same_verdicts_as_one(folder: Path, tmp_path: Path) -> None:
    shutil.copy(folder / "keys" / "small.txt", folder / "keys" / "small-copy.txt")
    outputs = []
    for jobs in ("1", "2"):
        json_path = tmp_path / f"jobs{jobs}.json"
        invoke("compare", str(folder), "--solver", "test-liar", "--solver", "test-crasher",
               "--jobs", jobs, "--json", str(json_path))
        records = json.loads(json_path.read_text())
        outputs.append([(r["instance"], r["solver"], r["status"], r["cost"], r["plan_valid"]) for r in records])
    assert outputs[0] == outputs[1]


def test_report_rebuilds_the_table(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    invoke("compare", str(folder), "--solver", "test-liar", "--out", str(out))
    for fmt, marker in (("table", "invalid-plan"), ("markdown", "| instance |"), ("csv", "instance,solver")):
        result = invoke("report", str(out), "--format", fmt)
        assert result.exit_code == 0 and marker in result.output
    assert os.path.getsize(out) > 0
