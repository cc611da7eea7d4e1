"""`compare --scheduler` on a real local Dask cluster: a `dask scheduler` process and two
`dask worker` processes on 127.0.0.1, started for this module and always torn down.

One worker is daemonic (Dask's default: runs go through the launcher of
harness/runs/isolated.py), the other is not (runs go through the forkserver of harness/runs/runner.py),
so both ways of isolating a run on a worker are exercised.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from crosscheck.harness.judging.verdicts import judge_all
from crosscheck.harness.records.record import Expected, Task, environment, read_records

from planted.cluster import local_cluster
from tests.fixtures import INSTANCES, ROOT
from tests.fixtures.cli import VAULT
from tests.fixtures.plugin_solvers import grandchild_pidfile
from tests.fixtures.processes import alive, parent, wait_for

pytest.importorskip("distributed")  # the optional cluster extra, not one of the project's modules

ENVIRONMENT = {**os.environ, "PYTHONPATH": str(ROOT), "CROSSCHECK_SOLVERS": "tests.fixtures.plugin_solvers"}
FAST = ("keys-graph", "amphipods-search", "elevator-quotient", "test-plain")  # one run takes milliseconds


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a running local cluster with two one-thread workers, one daemonic."""
    with local_cluster((True, False), ENVIRONMENT) as address:
        yield address


def _compare(*args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "crosscheck.harness.cli", "compare", *args], env=ENVIRONMENT, text=True,
                          capture_output=True, timeout=timeout, check=False)


def _essence(path: Path) -> list[tuple[object, ...]]:
    """What a comparison found, without where and how fast."""
    return sorted((r.instance, r.variant, r.solver, r.status, r.cost, r.bound, r.plan_valid, r.checked_cost,
                   r.message.split(":")[0]) for r in read_records(path))


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    """A small folder of all three puzzles, with an index and an unreadable file."""
    folder = tmp_path / "mixed"
    for name in ("keys/one-robot-1.txt", "keys/one-robot-2.txt", "amphipods/depth2-example.txt",
                 "elevator/two-pairs-example.txt"):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text((INSTANCES / name).read_text())
    (folder / "keys" / "broken.txt").write_text("#####\n#@.?#\n#####\n")
    (folder / "index.toml").write_text('["keys/one-robot-1.txt"]\noptimum = 8\n["keys/one-robot-2.txt"]\noptimum = 86\n')
    return folder


def test_the_cluster_gives_the_records_and_verdicts_of_a_local_run(scheduler: str, mixed: Path, tmp_path: Path) -> None:
    solvers = [arg for name in FAST for arg in ("--solver", name)]
    local = _compare(str(mixed), *solvers, "--jobs", "2", "--out", str(tmp_path / "local.jsonl"))
    remote = _compare(str(mixed), *solvers, "--scheduler", scheduler, "--out", str(tmp_path / "cluster.jsonl"))
    assert remote.returncode == local.returncode == 3  # the unreadable file
    assert _essence(tmp_path / "cluster.jsonl") == _essence(tmp_path / "local.jsonl")
    verdicts = [sorted((v.instance, v.variant, v.verdict, v.answer) for v in judge_all(read_records(tmp_path / name)))
                for name in ("cluster.jsonl", "local.jsonl")]
    assert verdicts[0] == verdicts[1] and len(verdicts[0]) == 5
    workers = {r.environment.get("worker") for r in read_records(tmp_path / "cluster.jsonl") if r.solver != "-"}
    assert len(workers) == 2 and None not in workers  # records say where they ran, and both workers ran
    commands = {r.environment["argv"] for r in read_records(tmp_path / "cluster.jsonl")}
    assert commands == {f"crosscheck compare {mixed} {' '.join(solvers)} --scheduler {scheduler} --out {tmp_path}/cluster.jsonl"}


def _sleepers(folder: Path, count: int) -> list[Path]:
    """`count` vaults whose test-sleeper runs leave a pid file each (removed beforehand)."""
    folder.mkdir(parents=True, exist_ok=True)
    pidfiles = []
    for number in range(count):
        name = f"sleepy-{os.getpid()}-{folder.parent.name}-{number}"
        (folder / f"{name}.txt").write_text(VAULT)
        pidfiles.append(Path(grandchild_pidfile(name)))
        pidfiles[-1].unlink(missing_ok=True)
    return pidfiles


def _started(pidfile: Path) -> bool:
    return pidfile.exists() and pidfile.read_text().strip() != ""


def _worker_of(run: int) -> int:
    """The Dask worker process above the run process `run` (directly, or above its forkserver)."""
    process = parent(run)
    with open(f"/proc/{parent(process)}/cmdline", "rb") as handle:
        above = handle.read()
    return process if b"dask" in above and b"worker" in above else parent(process)


def test_a_worker_lost_mid_run_gives_an_error_record_and_the_rest_goes_on(scheduler: str, tmp_path: Path) -> None:
    pidfiles = _sleepers(tmp_path / "vaults", 2)
    out = tmp_path / "runs.jsonl"
    compare = subprocess.Popen([sys.executable, "-m", "crosscheck.harness.cli", "compare", str(tmp_path / "vaults"),
                                "--solver", "test-sleeper", "--solver", "test-plain", "--time-limit", "1",
                                "--out", str(out)],  # the scheduler named by the environment, as in a batch script
                               env={**ENVIRONMENT, "CROSSCHECK_SCHEDULER": scheduler},
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert wait_for(lambda: any(_started(p) for p in pidfiles), 60)
        victim = next(p for p in pidfiles if _started(p))
        grandchild = int(victim.read_text())
        run = parent(grandchild)
        os.kill(_worker_of(run), signal.SIGKILL)
        output, errors = compare.communicate(timeout=90)
    finally:
        compare.kill()
    records = {(r.instance, r.solver): r for r in read_records(out)}
    lost = records[(victim.name.split(".grandchild")[0].removeprefix("crosscheck-") + ".txt", "test-sleeper")]
    assert lost.status.value == "error" and "was lost during this run" in lost.message, errors
    assert sorted(r.status.value for r in records.values()) == ["error", "optimal", "optimal", "timeout"]
    assert wait_for(lambda: not alive(grandchild) and not alive(run), 10)


@pytest.mark.slow  # about 40 s on a loaded machine
def test_a_killed_client_leaves_nothing_running_and_resume_completes(scheduler: str, tmp_path: Path) -> None:
    pidfiles = _sleepers(tmp_path / "vaults", 2)
    out = tmp_path / "runs.jsonl"
    args = [str(tmp_path / "vaults"), "--solver", "test-plain", "--solver", "test-sleeper", "--time-limit", "60",
            "--scheduler", scheduler, "--out", str(out)]
    compare = subprocess.Popen([sys.executable, "-m", "crosscheck.harness.cli", "compare", *args], env=ENVIRONMENT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert wait_for(lambda: all(_started(p) for p in pidfiles), 60)
        runs = [int(p.read_text()) for p in pidfiles]
        runs += [parent(pid) for pid in runs]
        compare.send_signal(signal.SIGKILL)
        compare.wait(10)
    finally:
        compare.kill()
    assert wait_for(lambda: not any(alive(pid) for pid in runs), 20)  # the workers killed the cancelled runs
    finished = {r.key for r in read_records(out)}
    resumed = _compare(*args[:-2], "--time-limit", "0.5", "--out", str(out), "--resume")
    records = read_records(out)
    assert len(records) == len({r.key for r in records}) == 4, resumed.stderr
    assert finished <= {r.key for r in records}


@pytest.mark.parametrize("differs", ["commit", "source"])
def test_workers_with_another_crosscheck_are_reported_and_not_used(scheduler: str, monkeypatch: pytest.MonkeyPatch,
                                                                    tmp_path: Path, differs: str) -> None:
    import crosscheck.harness.runs.cluster

    ours = {**environment(), differs: "elsewhere"}  # another commit, or the same one with other edits
    monkeypatch.setattr(crosscheck.harness.runs.cluster, "environment", lambda: ours)
    (tmp_path / "small.txt").write_text(VAULT)
    task = Task(path=str(tmp_path / "small.txt"), instance="small", solver="keys-graph", puzzle="keys")
    reports: list[str] = []
    with pytest.raises(crosscheck.harness.runs.cluster.ClusterError, match="no worker"):
        crosscheck.harness.runs.cluster.run_on_cluster([(task, None)], scheduler, lambda record: None, lambda task: None,
                                       lambda task: None, reports.append)
    assert len(reports) == 2 and all("not used" in line and "elsewhere" in line for line in reports)


def test_runs_are_in_flight_only_while_a_worker_runs_them_and_record_the_clusters_jobs(scheduler: str,
                                                                                        tmp_path: Path) -> None:
    """Two one-thread workers run two runs at a time: the client submits up to four, but
    only those a worker began count as in flight, and each record's jobs is 2."""
    import threading

    from crosscheck.harness.runs.cluster import run_on_cluster

    (tmp_path / "small.txt").write_text(VAULT)
    tasks: list[tuple[Task, Expected]] = [(Task(path=str(tmp_path / "small.txt"), instance="small", solver=solver, puzzle="keys", repeat=repeat,
                   time_limit=30.0), None) for solver in ("keys-graph", "test-plain") for repeat in range(3)]
    flying: set[tuple[object, ...]] = set()
    most = [0]
    lock = threading.Lock()

    def started(task: Task) -> None:
        with lock:
            flying.add(task.key)
            most[0] = max(most[0], len(flying))

    def ended(task: Task) -> None:
        with lock:
            flying.discard(task.key)

    records = run_on_cluster(tasks, scheduler, lambda record: None, started, ended, lambda message: None)
    assert [record.status.value for record in records] == ["optimal"] * 6
    assert 1 <= most[0] <= 2 and not flying
    assert {record.environment.get("jobs") for record in records} == {2}
