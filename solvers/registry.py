"""Every solver by name.  Each puzzle's solver package lists its formulations in
``SOLVERS``; adding a formulation means adding it there."""

from __future__ import annotations

from solvers import keys
from solvers.base import Solver

SOLVERS: dict[str, Solver] = {
    solver_class.name: solver_class()
    for package in (keys,)
    for solver_class in package.SOLVERS
}


def get_solver(name: str) -> Solver:
    """The solver called `name`; a `KeyError` lists the valid names on a typo."""
    try:
        return SOLVERS[name]
    except KeyError:
        raise KeyError(f"unknown solver {name!r}; valid solvers: {', '.join(sorted(SOLVERS))}") from None


def solvers_for(puzzle: str) -> list[Solver]:
    """The solvers of `puzzle`, in registration order."""
    return [solver for solver in SOLVERS.values() if solver.puzzle == puzzle]
