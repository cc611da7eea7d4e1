"""Amphipod burrow formulations."""

from solvers.amphipods.cpsat import ScheduleModel
from solvers.amphipods.search import MacroSearch
from solvers.amphipods.steps import StepSearch
from solvers.amphipods.stops import StopSearch
from solvers.base import Solver

SOLVERS: list[type[Solver]] = [MacroSearch, StepSearch, StopSearch, ScheduleModel]
