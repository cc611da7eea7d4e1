"""A limit is a limit: a run that answered after its time limit had passed counts as a timeout.

As BenchExec does, a run whose time on its clock passed its limit is a `timeout` in every
figure (solved counts, cactus plots, profiles, medians), whatever it answered: figures
compare formulations within the same limit, and an answer that came later is no answer
within it.  What it answered is kept (`RunRecord.late_status`, the cost, bound and plan): a
checked plan is a fact and a proof a proof whenever they came, so the verdicts still weigh
them (`RunRecord.answer_status`, `RunRecord.exact_answer`).
"""

from __future__ import annotations

import time

from crosscheck.harness.records.record import RunRecord
from crosscheck.solvers.base import Clock, Status, cpu_seconds

#: Under a CPU-time limit, a run (or a certificate's check) is also stopped after this many times
#: its limit in wall seconds: one blocked on a sleep or a stuck child spends no CPU time.
WALL_CAP_FACTOR = 10
#: The statuses of an answer that can come late (a timeout, a crash or an unsupported
#: instance is no answer).
ANSWERS = frozenset({Status.OPTIMAL, Status.FEASIBLE, Status.INFEASIBLE})


def within_limit(record: RunRecord, spent: float) -> RunRecord:
    """`record` unchanged when its run spent at most its time limit, `spent` seconds on its
    clock (both from the record's ``environment``: ``time_limit``, ``clock``), or gave no
    answer; else a `timeout` whose `late_status` is the status it answered with, its message
    saying when."""
    limit = record.environment.get("time_limit")
    if limit is None or spent <= float(limit) or record.status not in ANSWERS:
        return record
    clock = record.environment.get("clock") or "wall"
    message = f"answered {record.status.value} after {spent:.2f} s {clock}, past its time limit of {float(limit):g} s"
    return record.model_copy(update={"status": Status.TIMEOUT, "late_status": record.status,
                                     "message": message + (f"; {record.message}" if record.message else "")})


def clock_now(clock: Clock) -> float:
    """A reading of `clock` in seconds: elapsed real time, or this process's CPU time and
    that of the children it waited for (`cpu_seconds`), as a run's `Deadline` counts it."""
    return time.perf_counter() if clock == "wall" else cpu_seconds()
