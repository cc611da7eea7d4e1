"""A solver registered through CROSSCHECK_SOLVERS that tells where its warm-up ran (tests/test_startup.py)."""

from __future__ import annotations

import os

from crosscheck.models.keys import Vault
from crosscheck.solvers.base import Answer, Deadline, Solver, Status


class WarmedUp(Solver):
    """Answers `unsupported` with a message saying in which process its warm-up ran."""

    name, puzzle, summary = "test-warmed", "keys", "reports where it was warmed up"
    #: The process that ran `warm_up` (None: none did).
    warmed_in: int | None = None

    @classmethod
    def warm_up(cls) -> None:
        cls.warmed_in = os.getpid()

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        where = {None: "nowhere", os.getpid(): "in the run"}.get(self.warmed_in, "before the run")
        return Answer(Status.UNSUPPORTED, message=f"warmed up {where}")


SOLVERS: list[type[Solver]] = [WarmedUp]
