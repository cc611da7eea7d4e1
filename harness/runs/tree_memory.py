"""The memory a run's processes hold together, watched from outside (Linux ``/proc``).

A run's memory limit is first an address-space limit on each of its processes (RLIMIT_AS,
`crosscheck.solvers.base.cap_address_space`), and each program or child it starts gets a
limit of its own: a formulation that starts several processes (a planner's driver and its
search, a program's own children) could hold many times the limit in all.  So the harness
also samples the whole run (`TreeWatch`) and counts:

- for the run's first process (the root), the growth of its anonymous resident memory
  (``RssAnon`` of ``/proc/PID/status`` now, less what it was when the run began): what it
  allocated and touched.  A run starts as a copy of the process it was forked from (the
  command, or a forkserver holding every solver's imports), and writing to a page it shares
  with that process (Python's reference counts and garbage collector do, all over the
  imported modules) copies the page; the copy replaces a page already counted as resident,
  so it adds nothing, and the same run counts the same whatever the forkserver imported.
  Library code and other file pages it reads in are not counted (they are the page cache's),
  nor is shared memory (``RssShmem``);
- for every process descended from the root (children, grandchildren, daemons that left
  their parent: the root is a child subreaper, `become_subreaper`, so an orphan is
  reparented to it and stays in the run), the memory it holds privately (``Private_Clean``
  plus ``Private_Dirty`` of ``/proc/PID/smaps_rollup``): the pages it shares with the root
  are the root's, counted there; a page it copied by writing to it is its own.

Over the limit, the run is killed and recorded as a ``memout``.  The descendants are found
by walking ``/proc/PID/task/TID/children`` down from the root, never by reading all of
``/proc``.

Sampling sees a run every `SAMPLE_SECONDS` (and once right as it starts, for the root's
starting size): a tree that grows faster than that may pass the limit by what it allocates
in that time before it is killed, and one that holds the memory for less time than that may
pass unseen.  Where ``/proc`` (or a kernel's ``children`` files) is missing, a process
counts as holding nothing and has no descendants (the per-process limit still holds).
"""

from __future__ import annotations

import ctypes
import os
import sys
from pathlib import Path

from crosscheck.harness.runs.measure import resident_mb

#: Seconds between two samples of a run's processes.
SAMPLE_SECONDS = 0.2
#: What share of the limit a run's processes held, at their peak as sampled, for a plain
#: non-zero exit without a record to count as a memout (`crosscheck.harness.runs.runner`).
NEAR_LIMIT = 0.9
#: What share of the limit they held at their peak for such an exit's error message to
#: say that the limit may be the cause.
HALF_LIMIT = 0.5
#: ``prctl``'s option that makes a process the reaper of its orphaned descendants.
PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> None:
    """Make this process (a run's first) the parent its orphaned descendants are given to,
    so that they stay in its tree (`descendants`).  Linux only; elsewhere, or where the
    call fails, nothing."""
    if sys.platform != "linux":
        return
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def children(pid: int) -> list[int]:
    """The children of process `pid`, started by any of its threads (none when it has ended)."""
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    found = []
    for thread in threads:
        try:
            found += [int(child) for child in Path(f"/proc/{pid}/task/{thread}/children").read_text().split()]
        except OSError:
            continue  # ended meanwhile
    return found


def descendants(root: int) -> list[int]:
    """Process ids of every process descended from `root`, `root` left out."""
    found, waiting = [], children(root)
    while waiting:
        pid = waiting.pop()
        found.append(pid)
        waiting += children(pid)
    return found


def anonymous_resident_mb(pid: int) -> float:
    """MB of anonymous memory process `pid` has resident (``RssAnon``); 0 when it cannot be read."""
    return resident_mb(Path(f"/proc/{pid}/status"), "RssAnon") or 0.0


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
    """Samples the memory the processes of the run led by `root` hold together (module doc)
    against a limit of `limit_mb` (None: no limit, nothing sampled).  `start_mb` is the
    root's anonymous resident memory as the run began (`anonymous_resident_mb`); None: as
    the first sample finds it, so take one right after the root starts."""

    def __init__(self, root: int | None, limit_mb: int | None, start_mb: float | None = None) -> None:
        self.root, self.limit_mb, self.start_mb = root, limit_mb, start_mb
        self.peak_mb = 0.0  # the most they held at once, as sampled
        self.exceeded = False  # whether a sample found them over the limit

    def over(self) -> bool:
        """Sample now: whether the run's processes hold more than the limit together."""
        if self.root is None or self.limit_mb is None:
            return False
        resident = anonymous_resident_mb(self.root)
        if self.start_mb is None:
            self.start_mb = resident
        held = max(0.0, resident - self.start_mb) + sum(private_mb(pid) for pid in descendants(self.root))
        self.peak_mb = max(self.peak_mb, held)
        self.exceeded = self.exceeded or held > self.limit_mb
        return self.exceeded

    def seen_holding(self, share: float) -> bool:
        """Whether, at their peak as sampled, the run's processes held at least `share` of the limit."""
        return self.limit_mb is not None and self.peak_mb >= share * self.limit_mb

    def message(self) -> str:
        """Why a run over the limit was killed."""
        return (f"killed: its processes held {self.peak_mb:.0f} MB together, over the memory limit of "
                f"{self.limit_mb} MB (counted over all the run's processes)")
