"""Amphipod burrow formulations."""

from crosscheck.solvers.amphipods.cpsat import ScheduleModel
from crosscheck.solvers.amphipods.search import MacroSearch
from crosscheck.solvers.amphipods.steps import StepSearch
from crosscheck.solvers.amphipods.stops import StopSearch
from crosscheck.solvers.base import Solver

SOLVERS: list[type[Solver]] = [MacroSearch, StepSearch, StopSearch, ScheduleModel]
