"""Killing `compare` with SIGKILL leaves no run behind: not the solver's process, not what
it started, not the forkserver (see harness/runs/lifeline.py); a run that dies leaves no
temporary file behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.fixtures import ROOT
from tests.fixtures.cli import VAULT, invoke
from tests.fixtures.plugin_solvers import grandchild_pidfile
from tests.fixtures.processes import alive, parent, wait_for


def sleeper_compare(folder: Path, out: Path, *extra: str) -> subprocess.Popen[bytes]:
    """`crosscheck compare` of `folder` with the test-sleeper solver, started in the background."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "CROSSCHECK_SOLVERS": "tests.fixtures.plugin_solvers"}
    return subprocess.Popen([sys.executable, "-m", "crosscheck.harness.cli", "compare", str(folder), "--solver", "test-sleeper",
                             "--time-limit", "120", "--out", str(out), *extra],
                            env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def test_sigkill_of_compare_kills_the_run_its_children_and_the_forkserver(tmp_path: Path) -> None:
    name = f"orphan-{os.getpid()}-{tmp_path.name}"
    (tmp_path / f"{name}.txt").write_text(VAULT)
    pidfile = Path(grandchild_pidfile(name))
    pidfile.unlink(missing_ok=True)
    compare = sleeper_compare(tmp_path, tmp_path / "runs.jsonl", "--jobs", "1")
    try:
        assert wait_for(lambda: pidfile.exists() and pidfile.read_text().strip() != "", 60)
        grandchild = int(pidfile.read_text())
        child = parent(grandchild)
        forkserver = parent(child)
        assert forkserver != compare.pid  # the run is the forkserver's child, not the harness's
        compare.send_signal(signal.SIGKILL)
        compare.wait(10)
        assert wait_for(lambda: not any(alive(pid) for pid in (grandchild, child, forkserver)), 10)
    finally:
        compare.kill()
        compare.wait()


@pytest.mark.usefixtures("misbehaving_solvers")
def test_a_run_that_dies_leaves_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """test-litterer writes a file in a temporary folder and dies without removing it: the run's
    own folder of temporary files goes when its record is made (a run forked from the command,
    so it inherits this temporary folder)."""
    (tmp_path / "vault.txt").write_text(VAULT)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    result = invoke("solve", str(tmp_path / "vault.txt"), "--solver", "test-litterer")
    assert "solver process exited with status 7 before reporting" in result.output
    assert list(temporary.iterdir()) == []
