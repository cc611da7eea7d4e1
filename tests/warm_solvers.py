"""Solvers registered through CROSSCHECK_SOLVERS that tell where warm-ups ran (tests/test_startup.py)."""

from __future__ import annotations

import os

from crosscheck.models.keys.model import Vault
from crosscheck.solvers.base import Answer, Deadline, Solver, Status

#: Per solver name, the process that ran its `warm_up`.
WARMED_IN: dict[str, int] = {}


class WarmedUp(Solver):
    """Answers `unsupported` with a message saying in which process its warm-up ran, and
    which other solvers of this module were warmed up at all."""

    name, puzzle, summary = "test-warmed", "keys", "reports where it was warmed up"

    @classmethod
    def warm_up(cls) -> None:
        WARMED_IN[cls.name] = os.getpid()

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        where = {None: "nowhere", os.getpid(): "in the run"}.get(WARMED_IN.get(self.name), "before the run")
        others = sorted(set(WARMED_IN) - {self.name})
        return Answer(Status.UNSUPPORTED, message=f"warmed up {where}; others warmed: {others}")


class NeverNamed(WarmedUp):
    """A solver the test's runs do not name: its warm-up must not run for them."""

    name, summary = "test-unnamed", "is warmed up only when a run names it"


class WarmedUpBurrows(WarmedUp):
    """The same for burrows: a morph over vaults and burrows names both."""

    name, puzzle, summary = "test-warmed-burrows", "amphipods", "reports where it was warmed up"


SOLVERS: list[type[Solver]] = [WarmedUp, NeverNamed, WarmedUpBurrows]
