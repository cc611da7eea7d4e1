"""An isolated run dies with the process waiting for its record, even when that one is killed by SIGKILL.

A run sends its record back through a pipe whose read end only the waiting process holds
(the harness, or the Dask worker that launched the run).  When that process dies, the
kernel closes the read end, and poll() on the write end reports an error.  A watcher
thread in the run then kills the run's whole process group: the solver and anything it
started (a planner binary, an external program), so nothing runs on to its own limit.

Why a pipe and not only PR_SET_PDEATHSIG: the parent of a local run is the forkserver,
not the harness (the forkserver itself exits when the harness dies, see
`multiprocessing.forkserver`), a parent-death signal reaches only the child and never its
own children, and it fires when the forking *thread* ends.  The watcher needs the
interpreter lock to act, which solvers release in C code (CP-SAT) and every few
milliseconds in Python code.
"""

from __future__ import annotations

import os
import select
import signal
import threading

_GONE = select.POLLERR | select.POLLHUP  # on a pipe's write end: no reader is left


def die_with_reader(fd: int) -> None:
    """Kill this process group as soon as nobody can read the pipe write end `fd` any more.

    Only for a process that leads its own group (its run's), never the harness's group.
    """
    if os.getpgrp() != os.getpid():
        raise RuntimeError("die_with_reader needs a process leading its own process group")
    threading.Thread(target=_watch, args=(fd,), name="crosscheck-lifeline", daemon=True).start()


def _watch(fd: int) -> None:
    poller = select.poll()
    poller.register(fd, _GONE)
    while True:
        for _, events in poller.poll():
            if events & select.POLLNVAL:
                return  # the run closed the pipe itself: its record is sent
            if events & _GONE:
                os.killpg(0, signal.SIGKILL)
