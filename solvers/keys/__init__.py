"""Key vault formulations."""

from solvers.base import Solver
from solvers.keys.cpsat import KeysCpSat
from solvers.keys.graph_search import GraphSearch
from solvers.keys.grid_search import GridSearch

SOLVERS: list[type[Solver]] = [GridSearch, GraphSearch, KeysCpSat]
