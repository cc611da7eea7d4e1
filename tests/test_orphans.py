"""Killing `compare` with SIGKILL leaves no run behind: not the solver's process, not what
it started, not the forkserver (see harness/runs/lifeline.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tests.plugin_solvers import grandchild_pidfile

ROOT = Path(__file__).resolve().parent.parent
VAULT = "#########\n#b.A.@.a#\n#########\n"


def alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie waiting for its parent counts as dead)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def parent(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as handle:
        return int(handle.read().rsplit(")", 1)[1].split()[1])


def wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    """Poll `condition` until it holds or `seconds` pass."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def sleeper_compare(folder: Path, out: Path, *extra: str) -> subprocess.Popen[bytes]:
    """`crosscheck compare` of `folder` with the test-sleeper solver, started in the background."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "CROSSCHECK_SOLVERS": "tests.plugin_solvers"}
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
