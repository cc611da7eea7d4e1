"""Shared set-up of OR-Tools CP-SAT runs, so every CP-SAT formulation is reproducible alike.

Each run uses a fixed random seed and a fixed number of workers (results then depend on
the model and the machine only), and takes the time left on the run's `Deadline` as its
own time limit. The stats of a run name the seed and workers so that records carry them.
"""

from __future__ import annotations

import math

from ortools.sat.python import cp_model

from solvers.base import Deadline, Stats

#: Workers per CP-SAT run: the harness's default is one run per core, so two keep a
#: run's portfolio small without leaving a two-core machine idle when running alone.
WORKERS = 2
#: The fixed random seed of every CP-SAT run unless a formulation asks for another.
SEED = 20240601
#: CP-SAT treats a zero time limit as "stop at once before loading"; give it a moment.
MINIMUM_SECONDS = 0.01


def configured_solver(deadline: Deadline, seed: int = SEED, workers: int = WORKERS) -> cp_model.CpSolver:
    """A CP-SAT solver with the seed, the workers and the time left on `deadline` set."""
    solver = cp_model.CpSolver()
    solver.parameters.random_seed = seed
    solver.parameters.num_workers = workers
    remaining = deadline.remaining()
    if remaining is not None:
        solver.parameters.max_time_in_seconds = max(remaining, MINIMUM_SECONDS)
    return solver


def run_stats(solver: cp_model.CpSolver) -> Stats:
    """Effort and set-up of the solver's last run: conflicts, branches, wall time, seed, workers."""
    return {
        "conflicts": solver.num_conflicts,
        "branches": solver.num_branches,
        "wall_time": solver.wall_time,
        "num_workers": solver.parameters.num_workers,
        "random_seed": solver.parameters.random_seed,
    }


def integer_bound(value: float) -> int | None:
    """CP-SAT's objective bound as an integer lower bound on a non-negative integer objective.

    `None` when CP-SAT has no finite bound yet.  The tolerance keeps floating-point noise
    (42.0000001 for an optimum of 42) from rounding up past the optimum.
    """
    if not math.isfinite(value):
        return None
    return max(0, math.ceil(value - 1e-6))
