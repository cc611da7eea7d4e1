"""Every solver by name.

Each puzzle's solver package lists its formulations in ``SOLVERS``.  Researchers can
add formulations of their own without touching this package: the environment
variable ``CROSSCHECK_SOLVERS`` names extra modules (comma-separated, importable)
whose ``SOLVERS`` lists are registered too, in every process the harness starts.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

from crosscheck.solvers import amphipods, elevator, keys, planner
from crosscheck.solvers.base import Solver

PLUGIN_VARIABLE = "CROSSCHECK_SOLVERS"


def plugin_modules() -> tuple[str, ...]:
    """The module names listed in ``CROSSCHECK_SOLVERS`` right now."""
    return tuple(name.strip() for name in os.environ.get(PLUGIN_VARIABLE, "").split(",") if name.strip())


def _register(packages: list[ModuleType]) -> None:
    for package in packages:
        for solver_class in package.SOLVERS:
            known = SOLVERS.get(solver_class.name)
            if known is not None and type(known) is not solver_class:
                raise ValueError(f"two solvers are called {solver_class.name!r}")
            SOLVERS[solver_class.name] = solver_class()


def add_plugins(modules: tuple[str, ...]) -> None:
    """Import `modules` and register their ``SOLVERS`` (again is harmless)."""
    _register([importlib.import_module(name) for name in modules])


SOLVERS: dict[str, Solver] = {}
_register([keys, amphipods, elevator, planner])
add_plugins(plugin_modules())


def get_solver(name: str) -> Solver:
    """The solver called `name`; a `KeyError` lists the valid names on a typo."""
    try:
        return SOLVERS[name]
    except KeyError:
        raise KeyError(f"unknown solver {name!r}; valid solvers: {', '.join(sorted(SOLVERS))}") from None


def solvers_for(puzzle: str) -> list[Solver]:
    """The solvers of `puzzle`, in registration order."""
    return [solver for solver in SOLVERS.values() if solver.puzzle == puzzle]


def default_solvers_for(puzzle: str) -> list[Solver]:
    """The solvers of `puzzle` that can run on this machine: those run when none is named."""
    return [solver for solver in solvers_for(puzzle) if solver.unavailable() is None]
