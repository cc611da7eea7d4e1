"""Key vault formulations."""

from solvers.base import Solver

SOLVERS: list[type[Solver]] = []
