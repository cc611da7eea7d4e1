"""Amphipod burrow formulations."""

from solvers.amphipods.cpsat import ScheduleModel
from solvers.amphipods.search import MacroSearch
from solvers.amphipods.steps import StepSearch
from solvers.base import Solver

SOLVERS: list[type[Solver]] = [MacroSearch, StepSearch, ScheduleModel]
