"""`RuledLift`, an elevator formulation whose safety rule is `rules.start_is_safe`."""

from __future__ import annotations

from crosscheck.models.elevator.model import Facility
from crosscheck.solvers.base import Answer, Deadline, Solver, Status

from .rules import start_is_safe


class RuledLift(Solver):
    """Proves an unsafe start infeasible and declines every other instance."""

    name, puzzle, summary = "test-ruled-lift", "elevator", "an unsafe start is infeasible (rule in a helper module)"

    def _solve(self, instance: Facility, deadline: Deadline) -> Answer:
        return Answer(Status.UNSUPPORTED if start_is_safe(instance) else Status.INFEASIBLE)


SOLVERS = [RuledLift]
