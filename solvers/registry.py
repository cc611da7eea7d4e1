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

from solvers import keys
from solvers.base import Solver

PLUGIN_VARIABLE = "CROSSCHECK_SOLVERS"


def _packages() -> list[ModuleType]:
    extra = [name.strip() for name in os.environ.get(PLUGIN_VARIABLE, "").split(",") if name.strip()]
    return [keys, *(importlib.import_module(name) for name in extra)]


def _register(packages: list[ModuleType]) -> dict[str, Solver]:
    solvers: dict[str, Solver] = {}
    for package in packages:
        for solver_class in package.SOLVERS:
            if solver_class.name in solvers:
                raise ValueError(f"two solvers are called {solver_class.name!r}")
            solvers[solver_class.name] = solver_class()
    return solvers


SOLVERS: dict[str, Solver] = _register(_packages())


def get_solver(name: str) -> Solver:
    """The solver called `name`; a `KeyError` lists the valid names on a typo."""
    try:
        return SOLVERS[name]
    except KeyError:
        raise KeyError(f"unknown solver {name!r}; valid solvers: {', '.join(sorted(SOLVERS))}") from None


def solvers_for(puzzle: str) -> list[Solver]:
    """The solvers of `puzzle`, in registration order."""
    return [solver for solver in SOLVERS.values() if solver.puzzle == puzzle]
