"""Misbehaving key-vault solvers, registered through CROSSCHECK_SOLVERS in harness tests.

They exercise the harness's isolation and verdicts; none of them is a formulation.
"""

from __future__ import annotations

import os
import tempfile
import time

from models.keys import DIRECTIONS, Vault
from solvers.base import Answer, Deadline, Solver, Status


def grandchild_pidfile(instance: str) -> str:
    """Where `Sleeper` leaves the pid of the process it forked."""
    return os.path.join(tempfile.gettempdir(), f"crosscheck-{instance}.grandchild.pid")


class Sleeper(Solver):
    """Ignores its deadline and sleeps, with a grandchild process sleeping too."""

    name, puzzle, summary = "test-sleeper", "keys", "sleeps past any limit"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        pid = os.fork()
        if pid == 0:
            time.sleep(600)
            os._exit(0)
        with open(grandchild_pidfile(instance.name), "w") as handle:
            handle.write(str(pid))
        time.sleep(600)
        return Answer(Status.TIMEOUT)


class Crasher(Solver):
    """Exits the process abruptly, as a segfaulting extension would."""

    name, puzzle, summary = "test-crasher", "keys", "dies without a word"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        os._exit(7)


class Hog(Solver):
    """Allocates memory until stopped."""

    name, puzzle, summary = "test-hog", "keys", "allocates without bound"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        blocks = []
        while True:
            blocks.append(bytearray(64 * 1024 * 1024))


class Liar(Solver):
    """Claims an optimum of 1 with a one-step plan (wrong on any vault needing more)."""

    name, puzzle, summary = "test-liar", "keys", "claims optimum 1"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        return Answer(Status.OPTIMAL, cost=1, bound=1, plan=[(0, next(iter(DIRECTIONS)))])


SOLVERS: list[type[Solver]] = [Sleeper, Crasher, Hog, Liar]
