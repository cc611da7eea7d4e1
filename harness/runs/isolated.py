"""``python -m crosscheck.harness.runs.isolated``: one run in an interpreter of its own, for daemonic processes.

Dask starts its workers as daemonic processes by default, and multiprocessing refuses to
start children from a daemonic process, so `crosscheck.harness.runs.runner.run_isolated` (a forkserver child)
is out of reach there.  `run_launched` starts this module instead as a plain subprocess in
a session of its own (its own process group, killed as a whole), writes
``{"task": ..., "expected": ...}`` as JSON to its standard input and reads the record as
JSON from its standard output.  It imports plugins from where the launching process does
(`crosscheck.solvers.registry.take_import_path`), not from the current folder, and its
record names the plugin version it ran (`crosscheck.harness.records.versions.as_run_here`).  Inside,
the run has the same memory cap, the same crash handling and the same lifeline
(harness/runs/lifeline.py) as a forkserver child; whatever the solver prints goes to standard
error.

The price is a fresh interpreter per run (starting Python and importing the solvers takes
one to three seconds); workers started with ``DASK_DISTRIBUTED__WORKER__DAEMON=False``
avoid it, since there `run_isolated` works (see harness/runs/cluster.py).
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Callable

from crosscheck.harness.records.record import Expected, RunRecord, Task
from crosscheck.harness.records.versions import as_run_here
from crosscheck.harness.runs.lifeline import die_with_reader
from crosscheck.harness.runs.measure import killed_usage, own_usage, resident_mb
from crosscheck.harness.runs.runner import hard_limit, kill_group, measured_record, settled, waited, watching
from crosscheck.harness.runs.tree_memory import TreeWatch, anonymous_resident_mb, become_subreaper
from crosscheck.models.answers import from_json, to_json
from crosscheck.solvers.registry import pass_import_path, take_import_path
from pydantic import ValidationError

#: Seconds a launched interpreter may take to start and import the solvers; the run's
#: own clock starts only then, so a loaded machine's slow start never eats its time limit.
STARTUP_SECONDS = 120.0

#: What ends the line a launched run writes first, once it is about to run the task: the MB
#: of anonymous memory its interpreter has resident then
#: (`crosscheck.harness.runs.tree_memory.anonymous_resident_mb`), which the run's memory limit does not count.
STARTED = b"\n"


def main() -> None:
    """Read one task from standard input, run it, write its record to standard output."""
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # what the solver prints cannot corrupt the record
    die_with_reader(out.fileno())
    become_subreaper()  # its orphans stay in its tree, where the memory watch finds them
    take_import_path()  # before any plugin is imported
    request = json.load(sys.stdin)
    task = Task.model_validate(request["task"])
    out.write(f"{anonymous_resident_mb(os.getpid())}".encode() + STARTED)
    out.flush()
    startup = own_usage().cpu_seconds  # starting the interpreter is not part of the run
    start_memory = resident_mb()  # nor are its imports: the run's own memory is its peak beyond this
    record = as_run_here(measured_record(task, from_json(request["expected"]), start_memory), task)
    if record.cpu_seconds is not None:
        record = record.model_copy(update={"cpu_seconds": round(record.cpu_seconds - startup, 6)})
    out.write(record.model_dump_json().encode())
    out.close()


def run_launched(task: Task, expected: Expected = None, should_stop: Callable[[], bool] | None = None) -> RunRecord:
    """Run `task` in a launched interpreter under its limits; always returns a record.

    Like `run_isolated`: killed at its hard limit (counted from the run's start, after
    the interpreter's), or as soon as `should_stop` says so (asked every half second), or
    over its memory limit with every process it started (`crosscheck.harness.runs.tree_memory`;
    what the interpreter held before the run began not counted).
    """
    request = json.dumps({"task": task.model_dump(mode="json"), "expected": to_json(expected)}).encode()
    usage, ended, watch = None, False, TreeWatch(None, task.memory_limit_mb)
    start = time.perf_counter()
    pass_import_path()  # -P: not the current folder first; the run takes this process's path instead
    with subprocess.Popen([sys.executable, "-P", "-m", "crosscheck.harness.runs.isolated"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, start_new_session=True) as process:
        assert process.stdin is not None and process.stdout is not None
        output = _Output(process.stdout.fileno())
        try:
            with contextlib.suppress(BrokenPipeError):  # it died first: judged by its exit status
                process.stdin.write(request)
                process.stdin.close()
            if waited(output.started, STARTUP_SECONDS, should_stop):
                start = time.perf_counter()
                watch = TreeWatch(process.pid, task.memory_limit_mb, start_mb=output.start_mb())
                watch.over()  # sampled as it starts too, as a forked run is
                ended = waited(output.ended, hard_limit(task), *watching(watch, should_stop))
        finally:
            if not ended:
                usage = killed_usage(process.pid)  # what it used, read before the kill
            kill_group(process.pid)  # what the run left behind, or the run itself when it is cut short
    return settled(output.record() if ended else None, task, expected, process.returncode,
                   time.perf_counter() - start, usage, watch)


class _Output:
    """A launched run's standard output, read as it comes."""

    def __init__(self, fd: int) -> None:
        self.fd, self.data, self.closed = fd, b"", False

    def started(self, seconds: float | None) -> bool:
        """Whether the run started (or ended) within `seconds`."""
        return self._until(lambda: self.closed or STARTED in self.data, seconds)

    def start_mb(self) -> float | None:
        """The MB of anonymous memory the run's interpreter had resident before the run
        began, as it said when it started; None when it died before saying."""
        try:
            return float(self.data.partition(STARTED)[0])
        except ValueError:
            return None

    def ended(self, seconds: float | None) -> bool:
        """Whether the run closed its output (it wrote its record, or died) within `seconds`."""
        return self._until(lambda: self.closed, seconds)

    def record(self) -> RunRecord | None:
        try:
            return RunRecord.model_validate_json(self.data.partition(STARTED)[2])
        except ValidationError:
            return None  # it died before writing all of it: judged by its exit status

    def _until(self, done: Callable[[], bool], seconds: float | None) -> bool:
        deadline = None if seconds is None else time.monotonic() + seconds
        while not done():
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return False
            if select.select([self.fd], [], [], left)[0]:
                chunk = os.read(self.fd, 1 << 16)
                self.data += chunk
                self.closed = not chunk
        return True


if __name__ == "__main__":
    main()
