"""Fast Downward formulations of every puzzle (PDDL encodings; optional extra ``planners``)."""

from crosscheck.solvers.base import Solver
from crosscheck.solvers.planner.fd import AmphipodsFastDownward, ElevatorFastDownward, KeysFastDownward

SOLVERS: list[type[Solver]] = [KeysFastDownward, AmphipodsFastDownward, ElevatorFastDownward]
