"""Elevator formulations: labelled breadth-first search, quotient A*, CP-SAT."""

from crosscheck.solvers.base import Solver
from crosscheck.solvers.elevator.cpsat import TimeIndexed
from crosscheck.solvers.elevator.quotient import QuotientSearch
from crosscheck.solvers.elevator.search import BreadthFirst

SOLVERS: list[type[Solver]] = [BreadthFirst, QuotientSearch, TimeIndexed]
