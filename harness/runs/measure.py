"""What a run cost the machine: CPU seconds and peak memory, and how many cores it had.

A run's process is a child of the multiprocessing forkserver, not of the harness, so the
harness cannot wait for it and read its usage.  The run measures itself instead
(`own_usage`, called in the run's process just before it sends its record): its own
user and system time plus that of every child it waited for (Fast Downward's search is
one), and the largest resident set among them.  A run killed from outside never sends a
record; `killed_usage` then reads what Linux still shows of it in ``/proc`` just before the
kill (its own time and that of its waited-for children; children still running when the
group is killed are not counted).

The peak resident set starts at what the forkserver had when it forked the run: the
preloaded solvers and libraries, and OR-Tools' ``cp_model`` (with pandas and pyarrow) once
a CP-SAT formulation is named.  So every run reads `resident_mb` first thing and records
it as ``start_memory_mb``; its own memory use is its peak minus that (``max own MB`` in
``report --by solver``; what a run starts with is measured in docs/usage.md).  A launched
interpreter's run (`crosscheck.harness.runs.isolated`) starts after its imports.
"""

from __future__ import annotations

import os
import resource
import sys
from dataclasses import dataclass
from pathlib import Path

#: ``ru_maxrss`` is in kilobytes on Linux, in bytes on macOS.
_MAXRSS_PER_MB = 1024 * 1024 if sys.platform == "darwin" else 1024


@dataclass(frozen=True)
class Usage:
    """CPU seconds (user + system) and peak resident memory in MB of a run's processes."""

    cpu_seconds: float
    peak_memory_mb: float | None

    def fields(self) -> dict[str, float | None]:
        """As the `crosscheck.harness.records.record.RunRecord` fields of the same names."""
        return {"cpu_seconds": round(self.cpu_seconds, 6),
                "peak_memory_mb": None if self.peak_memory_mb is None else round(self.peak_memory_mb, 3)}


def own_usage() -> Usage:
    """This process's usage so far, its waited-for children included (see the module doc)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
    return Usage(cpu, max(own.ru_maxrss, children.ru_maxrss) / _MAXRSS_PER_MB)


def killed_usage(pid: int) -> Usage | None:
    """The usage of process `pid` (still alive) read from ``/proc``; None where unreadable."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    # Fields after the parenthesised command name: utime, stime, cutime, cstime are 14-17 (1-based).
    fields = stat[stat.rindex(")") + 2:].split()
    ticks = sum(int(value) for value in fields[11:15])
    return Usage(ticks / os.sysconf("SC_CLK_TCK"), _status_mb(status, "VmHWM"))


def resident_mb(status: Path = Path("/proc/self/status"), key: str = "VmRSS") -> float | None:
    """The resident figure `key` (the whole resident set, ``VmRSS``, by default) in MB of the
    process whose `status` file this is (this process by default) right now; None where it
    cannot be read (no ``/proc``, or the process has ended).  A run reads its ``VmRSS`` first
    thing (`crosscheck.harness.runs.runner.measured_record`'s caller): what it inherited."""
    try:
        return _status_mb(status.read_text(), key)
    except OSError:
        return None


def _status_mb(status: str, key: str) -> float | None:
    """The figure `key` (in kB) of a ``/proc/PID/status`` text in MB; None when absent."""
    return next((int(line.split()[1]) / 1024 for line in status.splitlines() if line.startswith(f"{key}:")), None)


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the system knows it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every system
        return os.cpu_count() or 1


def core_groups(jobs: int) -> list[tuple[int, ...]]:
    """The cores this process may use split into `jobs` disjoint groups, one per concurrent
    run (`compare --pin-cores`); with more jobs than cores, groups of one core are shared."""
    available = sorted(os.sched_getaffinity(0))
    if jobs >= len(available):
        return [(available[number % len(available)],) for number in range(jobs)]
    size = len(available) // jobs
    return [tuple(available[number * size:(number + 1) * size]) for number in range(jobs)]


def oversubscription(jobs: int, threads: int) -> str:
    """A warning when runs would wait for a core ('' if not): more `jobs` at a time than
    cores, or a run of more `threads` than cores (`crosscheck.harness.runs.batch.run_tasks` never
    starts runs whose threads together exceed the cores, unless `jobs` does)."""
    available = cores()
    if jobs <= available and threads <= available:
        return ""
    what = f"{jobs} jobs at a time exceed" if jobs > available else f"a run of {threads} solver threads exceeds"
    return (f"warning: {what} the {available} cores; "
            f"times will include waiting for a core (lower --jobs or --cpsat-workers)")
