"""Amphipod burrow formulations: macro-move A*, one-step and one-stop searches, CP-SAT, the planner, SAT
with proofs."""

from crosscheck.solvers.amphipods.cpsat import AmphipodsCpsat
from crosscheck.solvers.amphipods.fd import AmphipodsFd
from crosscheck.solvers.amphipods.sat import AmphipodsSat
from crosscheck.solvers.amphipods.search import AmphipodsSearch
from crosscheck.solvers.amphipods.steps import AmphipodsSteps
from crosscheck.solvers.amphipods.stops import AmphipodsStops
from crosscheck.solvers.base import Solver

SOLVERS: list[type[Solver]] = [AmphipodsSearch, AmphipodsSteps, AmphipodsStops, AmphipodsCpsat, AmphipodsFd,
                               AmphipodsSat]
