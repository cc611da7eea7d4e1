"""Elevator formulations: labelled breadth-first search, quotient A*, CP-SAT."""

from solvers.base import Solver
from solvers.elevator.cpsat import TimeIndexed
from solvers.elevator.quotient import QuotientSearch
from solvers.elevator.search import BreadthFirst

SOLVERS: list[type[Solver]] = [BreadthFirst, QuotientSearch, TimeIndexed]
