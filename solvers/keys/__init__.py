"""Key vault formulations."""

from solvers.base import Solver
from solvers.keys.cpsat import KeysCpSat

SOLVERS: list[type[Solver]] = [KeysCpSat]
