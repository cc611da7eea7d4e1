"""Key vault formulations."""

from crosscheck.solvers.base import Solver
from crosscheck.solvers.keys.cpsat import KeysCpSat
from crosscheck.solvers.keys.graph_search import GraphSearch
from crosscheck.solvers.keys.grid_search import GridSearch

SOLVERS: list[type[Solver]] = [GridSearch, GraphSearch, KeysCpSat]
