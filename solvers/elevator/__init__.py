"""Elevator formulations: labelled breadth-first search, quotient A*, CP-SAT, the planner, SAT with proofs."""

from crosscheck.solvers.base import Solver
from crosscheck.solvers.elevator.bfs import ElevatorBfs
from crosscheck.solvers.elevator.cpsat import ElevatorCpsat
from crosscheck.solvers.elevator.fd import ElevatorFd
from crosscheck.solvers.elevator.quotient import ElevatorQuotient
from crosscheck.solvers.elevator.sat import ElevatorSat

SOLVERS: list[type[Solver]] = [ElevatorBfs, ElevatorQuotient, ElevatorCpsat, ElevatorFd, ElevatorSat]
