"""A record names the command the researcher ran, wherever the run was made: the command
line travels in the task (`Task.argv`), so a Dask worker or a launched interpreter that runs
it does not record its own command line (``dask worker ...``) instead."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from crosscheck.harness.records.record import Task, run_environment
from crosscheck.harness.runs.isolated import run_launched
from crosscheck.solvers.base import Status

from tests.fixtures.cli import VAULT

CLIENT = ["crosscheck", "compare", "instances/keys", "--solver", "keys-graph"]


def _client_task(path: Path, monkeypatch: pytest.MonkeyPatch) -> Task:
    """A task made under the researcher's command line, then handed to a process started otherwise."""
    monkeypatch.setattr(sys, "argv", CLIENT)
    task = Task(path=str(path), instance="vault.txt", solver="keys-graph")
    monkeypatch.setattr(sys, "argv", ["dask", "worker", "tcp://127.0.0.1:8799"])
    return task


def test_a_record_names_the_command_that_made_its_task_not_the_running_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    task = _client_task(tmp_path / "vault.txt", monkeypatch)
    assert run_environment(task)["argv"] == "crosscheck compare instances/keys --solver keys-graph"
    assert run_environment(task.model_copy(update={"start": {"jobs": 2}}))["argv"] == task.argv  # as a worker stamps it


def test_a_launched_run_records_the_command_that_made_its_task(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The launcher of harness/runs/isolated.py (a daemonic Dask worker's runs) starts ``python -m ...``."""
    (tmp_path / "vault.txt").write_text(VAULT)
    record = run_launched(_client_task(tmp_path / "vault.txt", monkeypatch))
    assert record.status is Status.OPTIMAL, record.message
    assert record.environment["argv"] == "crosscheck compare instances/keys --solver keys-graph"


def test_a_task_without_a_command_line_takes_the_running_process_one() -> None:
    task = Task.model_validate({"path": "vault.txt", "instance": "vault.txt", "solver": "keys-graph"})
    assert task.argv and run_environment(task)["argv"] == task.argv
