"""``python -m harness.isolated``: one run in an interpreter of its own, for daemonic processes.

Dask starts its workers as daemonic processes by default, and multiprocessing refuses to
start children from a daemonic process, so `harness.run.run_isolated` (a forkserver child)
is out of reach there.  `run_launched` starts this module instead as a plain subprocess in
a session of its own (its own process group, killed as a whole), writes
``{"task": ..., "expected": ...}`` as JSON to its standard input and reads the record as
JSON from its standard output.  Inside, the run has the same memory cap, the same crash
handling and the same lifeline (harness/lifeline.py) as a forkserver child; whatever the
solver prints goes to standard error.

The price is a fresh interpreter per run (starting Python and importing the solvers takes
one to three seconds); workers started with ``DASK_DISTRIBUTED__WORKER__DAEMON=False``
avoid it, since there `run_isolated` works (see harness/cluster.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from pydantic import ValidationError

from harness.index import Expected
from harness.lifeline import die_with_reader
from harness.measure import killed_usage
from harness.records import RunRecord, Task
from harness.run import hard_limit, kill_group, measured_record, settled, waited

#: The folder holding the `harness` package, put on the launched interpreter's path.
SOURCE = str(Path(__file__).resolve().parent.parent)


def main() -> None:
    """Read one task from standard input, run it, write its record to standard output."""
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # what the solver prints cannot corrupt the record
    die_with_reader(out.fileno())
    request = json.load(sys.stdin)
    record = measured_record(Task.model_validate(request["task"]), request["expected"])
    out.write(record.model_dump_json())
    out.close()


def run_launched(task: Task, expected: Expected = None, should_stop: Callable[[], bool] | None = None) -> RunRecord:
    """Run `task` in a launched interpreter under its limits; always returns a record.

    Like `run_isolated`: killed at its hard limit, or as soon as `should_stop` says so
    (asked every half second).
    """
    request = json.dumps({"task": task.model_dump(mode="json"), "expected": expected}).encode()
    path = os.pathsep.join(filter(None, [SOURCE, os.environ.get("PYTHONPATH")]))
    start = time.perf_counter()
    usage = None
    with subprocess.Popen([sys.executable, "-m", "harness.isolated"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          start_new_session=True, env={**os.environ, "PYTHONPATH": path}) as process:
        try:
            output = _output(process, request, hard_limit(task), should_stop)
        finally:
            if not output:
                usage = killed_usage(process.pid)  # what it used, read before the kill
            kill_group(process.pid)  # what the run left behind, or the run itself when it is cut short
    record = None
    if output:
        try:
            record = RunRecord.model_validate_json(output)
        except ValidationError:
            pass  # cut short mid-write: judged by its exit status
    return settled(record, task, expected, process.returncode, time.perf_counter() - start, usage)


def _output(process: subprocess.Popen[bytes], request: bytes, limit: float | None,
            should_stop: Callable[[], bool] | None) -> bytes | None:
    """What the run wrote, once it exits; None when it passes `limit` or `should_stop`."""
    sent: list[bytes] = []  # communicate() takes the input once, then goes on where it stopped
    output: list[bytes] = []

    def ended(seconds: float | None) -> bool:
        try:
            output.append(process.communicate(None if sent else request, timeout=seconds)[0])
        except subprocess.TimeoutExpired:
            return False
        finally:
            sent.append(request)
        return True

    return output[0] if waited(ended, limit, should_stop) else None


if __name__ == "__main__":
    main()
