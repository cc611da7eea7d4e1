"""A local Dask cluster: a ``dask scheduler`` and ``dask worker`` processes on 127.0.0.1, for
the tests of ``compare --scheduler`` and the benchmark that times it (needs the ``cluster``
extra)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

#: The repository: put on the workers' path, so that they import what the caller imports.
ROOT = Path(__file__).resolve().parents[1]


def _dask(command: str, *args: str, environment: dict[str, str]) -> subprocess.Popen[bytes]:
    """`dask COMMAND ARGS` from this interpreter's environment, in a process group of its own."""
    return subprocess.Popen([sys.executable, "-m", "dask", command, *args], env=environment,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


@contextlib.contextmanager
def local_cluster(daemonic: tuple[bool, ...], environment: dict[str, str] | None = None,
                  timeout: float = 90) -> Iterator[str]:
    """A `dask scheduler` and one one-thread `dask worker` process per entry of `daemonic`
    (whether that worker is a daemonic process, Dask's default) on 127.0.0.1, torn down
    (their whole process groups killed) on exit; yields the scheduler's address."""
    from distributed import Client

    environment = {**os.environ, "PYTHONPATH": str(ROOT), **(environment or {})}
    with tempfile.TemporaryDirectory(prefix="crosscheck-cluster-") as folder:
        address_file = Path(folder) / "scheduler.json"
        processes = [_dask("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                           "--scheduler-file", str(address_file), environment=environment)]
        try:
            deadline = time.monotonic() + timeout
            while not (address_file.exists() and address_file.stat().st_size) and time.monotonic() < deadline:
                time.sleep(0.1)
            address = json.loads(address_file.read_text())["address"]
            for number, daemon in enumerate(daemonic):
                processes.append(_dask("worker", address, "--nthreads", "1", "--no-dashboard", "--host", "127.0.0.1",
                                       "--death-timeout", "60", "--name", f"worker-{number}",
                                       environment={**environment, "DASK_DISTRIBUTED__WORKER__DAEMON": str(daemon)}))
            with Client(address, timeout=f"{timeout}s") as client:
                client.wait_for_workers(len(daemonic), timeout=timeout)
            yield address
        finally:
            for process in processes:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(10)
