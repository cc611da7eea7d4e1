"""Solvers of the key vault that allocate a fixed amount, for the memory-limit tests
(tests/test_measure.py; registered through a task's plugins).  None of them is a formulation."""

from __future__ import annotations

import faulthandler
import mmap
import os
import signal
from typing import ClassVar

from crosscheck.models.keys.model import Vault
from crosscheck.solvers.base import Answer, Deadline, Solver, Status, mapped_bytes

#: The memory limit the tests run these under, in MB.
LIMIT_MB = 256


class Grabber(Solver):
    """Allocates `megabytes` at once (address space, left untouched) and says how much its
    process had mapped before: an answer means the allocation was granted."""

    name, puzzle, summary = "test-grabber", "keys", "allocates a fixed amount"
    megabytes: ClassVar[int] = 0

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        before = mapped_bytes() >> 20
        block = bytearray(self.megabytes << 20)
        return Answer(Status.TIMEOUT, message=f"allocated {len(block) >> 20} MB with {before} MB mapped before")


class HalfGrabber(Grabber):
    """Allocates half the tests' limit."""

    name, summary = "test-grab-half", "allocates half the limit"
    megabytes = LIMIT_MB // 2


class DoubleGrabber(Grabber):
    """Allocates twice the tests' limit."""

    name, summary = "test-grab-double", "allocates twice the limit"
    megabytes = 2 * LIMIT_MB


def _hold_touched(megabytes: int) -> None:
    """Allocate `megabytes`, write to every page (resident, private to this process) and hold it until killed."""
    block = bytearray(megabytes << 20)
    block[::4096] = b"x" * len(range(0, len(block), 4096))
    signal.pause()  # only a signal ends it: nothing but a kill of the run stops the tree


class Brood(Solver):
    """Forks four children that each hold 30% of the tests' limit (each process far under
    its own address-space limit, the tree over it) and waits for them: only a kill ends the
    run, and a child that could not have its share ends it with a message saying so."""

    name, puzzle, summary = "test-brood", "keys", "forks children that together exceed the limit"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        children = []
        for _ in range(4):
            pid = os.fork()
            if pid == 0:
                try:
                    _hold_touched(LIMIT_MB * 3 // 10)
                finally:
                    os._exit(1)  # never back into the harness's code: this is not the run's process
            children.append(pid)
        ended = [os.waitpid(pid, 0)[1] for pid in children]
        return Answer(Status.TIMEOUT, message=f"the children ended on their own: {ended}")


class Aborter(Solver):
    """Reserves address space (never touched) until the limit refuses it, then aborts, as
    C++'s ``new`` under RLIMIT_AS does (an uncaught std::bad_alloc): a death that holds next
    to nothing resident when it comes."""

    name, puzzle, summary = "test-aborter", "keys", "aborts at the address-space limit"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        reserved = []
        try:
            while True:
                reserved.append(mmap.mmap(-1, 16 << 20))
        except (OSError, MemoryError):
            faulthandler.disable()  # pytest's, inherited: a forked run would print pytest's stack
            os.abort()


#: What tests/memory_parent.py runs (not the brood: it holds its memory until the run is killed).
GRABBERS: list[type[Solver]] = [HalfGrabber, DoubleGrabber]
SOLVERS: list[type[Solver]] = [*GRABBERS, Brood, Aborter]
