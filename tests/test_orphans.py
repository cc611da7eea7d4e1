"""Killing `compare` with SIGKILL leaves no run behind: not the solver's process, not what
it started, not the forkserver (see harness/runs/lifeline.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.fixtures import ROOT
from tests.fixtures.cli import VAULT
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
