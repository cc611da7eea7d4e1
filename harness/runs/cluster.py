"""Runs on a Dask distributed cluster: ``compare --scheduler tcp://HOST:PORT``.

Imported only when a scheduler is named (Dask is the optional ``cluster`` extra), so a
local comparison never loads it.  The client keeps everything that makes a comparison
trustworthy: it plans the runs, receives each record as its run finishes (the caller
appends it to ``--out`` at once, so ``--resume``, reports and verdicts work unchanged)
and judges the verdicts.  Workers only run: each run is isolated exactly as locally
(its own process group, time and memory limits, harness/runs/lifeline.py), by
`run_isolated` where the worker process may have children, else by the launcher of
harness/runs/isolated.py.

- The instance text travels with the task, so workers need no shared file system, but
  they do need the same crosscheck: a worker whose crosscheck version, commit or source
  digest (uncommitted edits too, `crosscheck.harness.records.record.source_digest`) differs from the
  client's is reported and not used; each run checks it again on the worker that takes it.
- Longest-expected runs are submitted first (largest instance text, variants first among
  equals), and at most two per worker thread are in flight, so a long run starts early and
  an interrupted comparison has little to cancel.
- A worker lost during a run (killed, out of memory, its machine gone) makes that run an
  ``error`` record naming the worker; the run is never started again, whatever the
  scheduler's retry setting.  The other runs go on.
- Ctrl-C, or the client dying, cancels the runs in flight: the workers notice the
  cancellation within half a second and kill the runs' process groups.
- A run is in flight (the caller's ``on_start`` to ``on_end``) from when a worker begins it
  until it ends there, as the worker tells the client (events on `FLIGHT_TOPIC`), not
  from its submission: so never more runs are in flight than the workers have threads.
  Each record's ``jobs`` is that number of threads (of the workers this client uses, when
  the run was submitted): the runs the cluster ran at a time, at most.
"""

from __future__ import annotations

import multiprocessing
import tempfile
import threading
import uuid
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from crosscheck.harness.records.record import Expected, RunRecord, Task, environment, start_facts
from crosscheck.harness.runs.batch import expected_effort
from crosscheck.harness.runs.isolated import run_launched
from crosscheck.harness.runs.runner import failure, run_isolated
from crosscheck.solvers.base import Status
from distributed import Client, Future, Variable, as_completed, get_worker
from distributed.worker import Worker

#: Runs in flight per worker thread: one running, one waiting to start when it ends.
IN_FLIGHT_PER_THREAD = 2
#: The Dask event topic on which workers say a run began (``[key, "start"]``) and ended (``[key, "end"]``).
FLIGHT_TOPIC = "crosscheck-flight"


class ClusterError(Exception):
    """The cluster cannot run this comparison (no scheduler there, no worker with this crosscheck)."""


def identity() -> dict[str, Any]:
    """What must be equal on the client and a worker for the worker's runs to count."""
    facts = environment()
    return {"crosscheck": facts["crosscheck"], "commit": facts["commit"], "source": facts["source"]}


def run_on_cluster(tasks: list[tuple[Task, Expected]], address: str, on_record: Callable[[RunRecord], None],
                   on_start: Callable[[Task], None], on_end: Callable[[Task], None],
                   report: Callable[[str], None]) -> list[RunRecord]:
    """Run every task on the Dask cluster at `address`, calling `on_start` as a worker begins
    one and `on_end` as it ends there (at the latest before its `on_record`, for a run whose
    worker was lost), and `on_record` as each one finishes.

    Records come back in task order; `report` receives what the user should know about
    the cluster (refused workers).  Raises `ClusterError` when the cluster cannot be used.
    """
    try:
        client = Client(address, timeout="20s")
    except OSError as error:
        raise ClusterError(f"cannot reach a Dask scheduler at {address}: {error}") from None
    try:
        return _Comparison(client, tasks, on_record, (on_start, on_end), report).run()
    finally:
        client.close()


class _Comparison:
    """One comparison's runs on the cluster: submission in effort order, a bounded number in flight."""

    def __init__(self, client: Client, tasks: list[tuple[Task, Expected]], on_record: Callable[[RunRecord], None],
                 on_flight: tuple[Callable[[Task], None], Callable[[Task], None]], report: Callable[[str], None]) -> None:
        self.client, self.tasks, self.on_record, self.report = client, tasks, on_record, report
        self.on_start, self.on_end = on_flight
        self.texts = [Path(task.path).read_text(encoding="utf-8") for task, _ in tasks]
        self.identity = identity()
        self.refused: dict[str, Any] = {}  # worker address -> its identity
        self.accepted: list[str] = []
        self.token = uuid.uuid4().hex
        self.running: dict[Future[dict[str, Any]], int] = {}  # future -> task number
        self.completed = as_completed()
        self.threads = 0  # of the accepted workers: the runs the cluster runs at a time
        self.flight_lock = threading.Lock()  # worker events come in the client's event-loop thread
        self.keys: dict[str, int] = {}  # key of a run submitted and not recorded -> task number
        self.flying: set[int] = set()  # task numbers a worker began and did not end

    def run(self) -> list[RunRecord]:
        self.client.subscribe_topic(FLIGHT_TOPIC, self._flight)
        self._check_workers()
        threads = self.threads
        order = sorted(range(len(self.tasks)), key=lambda n: expected_effort(self.tasks[n][0], len(self.texts[n])),
                       reverse=True)
        waiting = deque(order)
        results: dict[int, RunRecord] = {}
        try:
            while waiting and len(self.running) < IN_FLIGHT_PER_THREAD * max(1, threads):
                self._submit(waiting.popleft())
            for future in self.completed:
                number = self.running.pop(future)
                record = self._record(future, number)
                if record is None:
                    continue  # refused by its worker: submitted again elsewhere
                results[number] = record
                self._landed(str(future.key), number)
                self.on_record(record)
                if waiting:
                    self._submit(waiting.popleft())
        except BaseException:
            self.client.cancel(list(self.running), force=True)
            for future in self.running:
                self._forget(future)
            raise
        finally:
            self.client.unsubscribe_topic(FLIGHT_TOPIC)
        return [results[number] for number in range(len(self.tasks))]

    def _flight(self, event: tuple[float, list[str]]) -> None:
        """A worker began or ended a run (``(time, [key, "start" or "end"])``); events of other
        comparisons, and of runs already recorded, are ignored."""
        key, what = event[1]
        with self.flight_lock:
            number = self.keys.get(key)
            if number is None:
                return
            if what == "start" and number not in self.flying:
                self.flying.add(number)
                self.on_start(self.tasks[number][0])
            elif what == "end" and number in self.flying:
                self.flying.discard(number)
                self.on_end(self.tasks[number][0])

    def _landed(self, key: str, number: int) -> None:
        """The run of `key` is recorded: no longer in flight, whatever its worker said."""
        with self.flight_lock:
            del self.keys[key]
            if number in self.flying:
                self.flying.discard(number)
                self.on_end(self.tasks[number][0])

    def _check_workers(self) -> None:
        """Report workers running another crosscheck; fail when none runs this one."""
        for address, theirs in self.client.run(identity).items():
            if theirs == self.identity:
                self.accepted.append(address)
            elif address not in self.refused:
                self.refused[address] = theirs
                self.report(f"worker {address} runs crosscheck {theirs}, this client {self.identity}: not used")
        if not self.accepted:
            raise ClusterError("no worker of the cluster runs this crosscheck version and commit")
        self.threads = sum(n for address, n in self.client.nthreads().items() if address in self.accepted)

    def _submit(self, number: int) -> None:
        task, expected = self.tasks[number]
        key = f"crosscheck-{self.token}-{number}-{uuid.uuid4().hex[:8]}"
        with self.flight_lock:  # before the worker can say it began
            self.keys[key] = number
        future = self.client.submit(run_on_worker, task, self.texts[number], expected, self.identity, key,
                                    max(1, self.threads), key=key, workers=self.accepted if self.refused else None,
                                    pure=False)
        self.running[future] = number
        self.completed.add(future)

    def _forget(self, future: Future[dict[str, Any]]) -> None:
        """Drop the scheduler's note that the run of `future` started (see `run_on_worker`)."""
        Variable(str(future.key), client=self.client).delete()

    def _record(self, future: Future[dict[str, Any]], number: int) -> RunRecord | None:
        """The record of a finished future; None when its worker refused it (then submitted again)."""
        task, expected = self.tasks[number]
        try:
            outcome = future.result()
        except Exception as error:  # the scheduler gave up on it (KilledWorker) or the worker function failed
            return failure(task, expected, Status.ERROR, f"not run on the cluster: {type(error).__name__}: {error}")
        finally:
            self._forget(future)
        if "refused" in outcome:
            self._landed(str(future.key), number)
            self.accepted.clear()
            self._check_workers()
            self._submit(number)
            return None
        if "lost" in outcome:
            return failure(task, expected, Status.ERROR,
                           f"worker {outcome['lost']} was lost during this run; it was not started again")
        return RunRecord.model_validate(outcome["record"])


def run_on_worker(task: Task, text: str, expected: Expected, client_identity: dict[str, Any], key: str,
                  jobs: int) -> dict[str, Any]:
    """The worker's side of one run: ``{"record": ...}``, or why there is none.  The run is
    stamped `start_facts(jobs)` as it begins, and the worker tells the client on
    `FLIGHT_TOPIC` when it begins and ends.

    ``{"refused": identity}``: this worker runs another crosscheck.  ``{"lost": worker}``:
    the run was started before on a worker that was lost (the scheduler retries such
    tasks; a run is never started twice).
    """
    if identity() != client_identity:
        return {"refused": identity()}
    worker = get_worker()
    started = Variable(key)
    try:
        return {"lost": started.get(timeout=0)}
    except TimeoutError:
        started.set(f"{worker.address} ({environment()['host']})")
    run = run_launched if multiprocessing.current_process().daemon else run_isolated
    worker.log_event(FLIGHT_TOPIC, [key, "start"])
    try:
        with tempfile.TemporaryDirectory(prefix="crosscheck-") as folder:
            path = Path(folder) / Path(task.path).name  # same file name: the instance keeps its name
            path.write_text(text, encoding="utf-8")
            record = run(task.model_copy(update={"path": str(path), "start": start_facts(jobs)}), expected,
                         should_stop=lambda: _cancelled(worker, key))
    finally:  # before this thread is free for another run, so the client never sees more than the threads
        worker.log_event(FLIGHT_TOPIC, [key, "end"])
    record.environment["worker"] = worker.address
    return {"record": record.model_dump(mode="json")}


def _cancelled(worker: Worker, key: str) -> bool:
    """Whether the client no longer wants this run (cancelled, or the client is gone)."""
    state = worker.state.tasks.get(key)
    return state is None or state.state in ("cancelled", "released")
