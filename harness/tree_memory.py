"""The memory a run's processes hold together, watched from outside (Linux ``/proc``).

A run's memory limit is first an address-space limit on each of its processes (RLIMIT_AS,
`crosscheck.solvers.base.cap_address_space`), and each program or child it starts gets a
limit of its own: a formulation that starts several processes (a planner's driver and its
search, a program's own children) could hold many times the limit in all.  So the harness
also samples the whole run (`TreeWatch`): every process in the run's process group or
descended from its first process, and the memory each holds privately (``Private_Clean``
plus ``Private_Dirty`` of ``/proc/PID/smaps_rollup``: pages no other process shares, so
the libraries and heap the run inherited from the process it was forked from never count,
and a page shared by the run's own processes after a fork counts in none of them until one
writes to it).  Over the limit, the run is killed and recorded as a ``memout``.

Sampling sees a run every `SAMPLE_SECONDS`: a tree that grows faster than that may pass the
limit by what it allocates in that time before it is killed, and one that holds the memory
for less time than that may pass unseen.  Where ``/proc`` or ``smaps_rollup`` is missing,
a process counts as holding nothing (the per-process limit still holds).
"""

from __future__ import annotations

import os
from pathlib import Path

#: Seconds between two samples of a run's processes.
SAMPLE_SECONDS = 0.2
#: What share of the limit a run's processes held, when last seen, for a death without a
#: word to count as a memout (`crosscheck.harness.run`).
NEAR_LIMIT = 0.9


def run_processes(root: int) -> set[int]:
    """Process ids of `root`, the processes of its process group (its session's, as the run
    leads both) and every descendant of any of them (one that started a session of its own
    included)."""
    parents: dict[int, int] = {}
    found = {root}
    for entry in os.scandir("/proc") if os.path.isdir("/proc") else ():
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue  # ended meanwhile
        fields = stat[stat.rindex(")") + 2:].split()  # state, ppid, pgrp, session, ...
        pid = int(entry.name)
        parents[pid] = int(fields[1])
        if int(fields[2]) == root:
            found.add(pid)
    grew = True
    while grew:
        descendants = {pid for pid, parent in parents.items() if parent in found} - found
        found |= descendants
        grew = bool(descendants)
    return found


def private_mb(pid: int) -> float:
    """MB process `pid` holds privately (module doc); 0 when it cannot be read (ended, or no ``/proc``)."""
    try:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0.0
    kilobytes = sum(int(line.split()[1]) for line in rollup.splitlines()
                    if line.startswith(("Private_Clean:", "Private_Dirty:")))
    return kilobytes / 1024


class TreeWatch:
    """Samples the memory the processes of the run led by `root` hold together beyond
    `baseline_mb` (what a run's process held before the run began: nothing much for one
    forked, an interpreter's imports for one launched), against a limit of `limit_mb`
    (None: no limit, nothing sampled)."""

    def __init__(self, root: int | None, limit_mb: int | None, baseline_mb: float = 0.0) -> None:
        self.root, self.limit_mb, self.baseline_mb = root, limit_mb, baseline_mb
        self.peak_mb = 0.0  # the most they held at once, as sampled
        self.exceeded = False  # whether a sample found them over the limit

    def over(self) -> bool:
        """Sample now: whether the run's processes hold more than the limit together."""
        if self.root is None or self.limit_mb is None:
            return False
        held = sum(private_mb(pid) for pid in run_processes(self.root)) - self.baseline_mb
        self.peak_mb = max(self.peak_mb, held)
        self.exceeded = self.exceeded or held > self.limit_mb
        return self.exceeded

    def near_limit(self) -> bool:
        """Whether, at their most, the run's processes were seen holding most of the limit (`NEAR_LIMIT`)."""
        return self.limit_mb is not None and self.peak_mb >= NEAR_LIMIT * self.limit_mb

    def message(self) -> str:
        """Why a run over the limit was killed."""
        return (f"killed: its processes held {self.peak_mb:.0f} MB together, over the memory limit of "
                f"{self.limit_mb} MB (counted over all the run's processes)")
