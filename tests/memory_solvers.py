"""Solvers of the key vault that allocate a fixed amount, for the memory-limit tests
(tests/test_measure.py; registered through a task's plugins).  None of them is a formulation."""

from __future__ import annotations

from typing import ClassVar

from crosscheck.models.keys import Vault
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


SOLVERS: list[type[Solver]] = [HalfGrabber, DoubleGrabber]
