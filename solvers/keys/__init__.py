"""Key vault formulations."""

from crosscheck.solvers.base import Solver
from crosscheck.solvers.keys.cpsat import KeysCpsat
from crosscheck.solvers.keys.fd import KeysFd
from crosscheck.solvers.keys.graph import KeysGraph
from crosscheck.solvers.keys.grid import KeysGrid
from crosscheck.solvers.keys.sat import KeysSat

SOLVERS: list[type[Solver]] = [KeysGrid, KeysGraph, KeysCpsat, KeysFd, KeysSat]
