"""``python tests/memory_parent.py START VAULT``: a parent that has mapped 1 GB (never touched)
runs the grabbers of tests/memory_solvers.py on the vault at path VAULT under their limit,
its runs started as START says (``fork``: from this process; ``forkserver``: from a server that
imports this script as its ``__main__`` first, so it has mapped the gigabyte too), and prints
one JSON line per run: solver, status, message."""

from __future__ import annotations

import json
import mmap
import sys

REGION = mmap.mmap(-1, 1 << 30)  # address space only: what a parent that loaded numba's LLVM has and more

if __name__ == "__main__":
    from crosscheck.harness.records.record import Task
    from crosscheck.harness.runs.runner import Start, run_isolated

    from tests.memory_solvers import GRABBERS, LIMIT_MB

    start: Start = "fork" if sys.argv[1] == "fork" else "forkserver"
    for solver in GRABBERS:
        task = Task(path=sys.argv[2], instance="vault.txt", solver=solver.name, memory_limit_mb=LIMIT_MB,
                    plugins=("tests.memory_solvers",))
        record = run_isolated(task, start_method=start, solvers=())
        print(json.dumps({"solver": record.solver, "status": record.status.value, "message": record.message}))
