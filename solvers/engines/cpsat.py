"""Shared set-up of OR-Tools CP-SAT runs, so every CP-SAT formulation is reproducible alike.

Each run uses a fixed random seed and a fixed number of workers (results then depend on
the model and the machine only), and takes the time left on the run's `Deadline` as its
own time limit and the work left as a deterministic-time limit (which CP-SAT honours alike
on any machine). The stats of a run name the seed and workers so that records carry them.
`run_answer` turns a finished run into the solver's `Answer` the same way for every model.

OR-Tools' ``cp_model`` is slow to import (it imports pandas), so this module
offers it as `cp_model`, imported on first use: the CP-SAT formulations import it from here,
and commands that build no CP-SAT model (``--help``, ``list``, a search's ``solve``) do not
pay for it; a formulation that runs CP-SAT imports it in its warm-up (`import_now`).
"""

from __future__ import annotations

import importlib
import math
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from crosscheck.solvers.base import Answer, Deadline, Stats, Status
from crosscheck.solvers.configuration import Options
from pydantic import Field, field_validator


class _ImportedOnUse:
    """Stands for the module `name`, imported at the first attribute looked up; each
    attribute is then kept here, so later look-ups cost what a module's do."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attribute: str) -> Any:
        module: ModuleType = importlib.import_module(self._name)
        value = getattr(module, attribute)
        setattr(self, attribute, value)
        return value


if TYPE_CHECKING:
    from ortools.sat.python import cp_model
    from ortools.sat.python.cp_model_helper import CpSolverStatus
else:
    cp_model = _ImportedOnUse("ortools.sat.python.cp_model")

def import_now() -> None:
    """Import ``cp_model`` now instead of at its first use: `crosscheck.solvers.base.Solver.warm_up`
    of a CP-SAT formulation calls it, so the runs forked after the warm-up start with it
    imported and their clocks count the model and the search, not the import."""
    cp_model.CpModel  # noqa: B018 (the first look-up imports the module)


#: Workers per CP-SAT run (fewer on a machine with fewer cores): a small portfolio.  The
#: harness gives a run as many cores as it has workers, and by default shares the cores out
#: among the runs it makes at a time (`crosscheck.harness.runs.batch.core_share`).
WORKERS = 2
#: The environment variable that overrides `WORKERS` for every CP-SAT run of a process
#: (the harness sets it in each run's process from ``--cpsat-workers``).
WORKERS_VARIABLE = "CROSSCHECK_CPSAT_WORKERS"
#: The fixed random seed of every CP-SAT run unless a formulation asks for another.
SEED = 20240601
#: CP-SAT treats a zero time limit as "stop at once before loading"; give it a moment.
MINIMUM_SECONDS = 0.01
#: How often `solve` looks at the CPU seconds spent against a CPU-clock deadline.
CPU_WATCH_SECONDS = 0.05
#: Seconds before its deadline at which CP-SAT is stopped: it still builds its response, and the
#: formulation its plan, after its own limit, and an answer past the run's limit is a timeout
#: (`crosscheck.harness.runs.limits`).
STOP_MARGIN_SECONDS = 0.1
#: `Deadline` work units per second of CP-SAT's deterministic time (`max_deterministic_time`,
#: meant to be close to a second of a typical machine): about the states a search here
#: expands in a second, so one work limit bounds a search and a CP-SAT run alike.
WORK_PER_DETERMINISTIC_SECOND = 100_000


def default_workers() -> int:
    """The workers of a CP-SAT run: `WORKERS_VARIABLE` when set (a positive integer), else
    `WORKERS` or the machine's cores when fewer (all of them, not those of a pinned run: the
    count must not change with pinning)."""
    text = os.environ.get(WORKERS_VARIABLE, "")
    if not text:
        return min(WORKERS, os.cpu_count() or 1)
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"{WORKERS_VARIABLE} must be a positive integer, got {text!r}")
    return int(text)


def configured_solver(deadline: Deadline, seed: int = SEED, workers: int | None = None) -> cp_model.CpSolver:
    """A CP-SAT solver with the seed, the workers (default: `default_workers()`), on a
    wall clock the time left on `deadline` less `STOP_MARGIN_SECONDS` (CP-SAT limits only wall
    time; on a CPU clock `solve` stops it), and the work left on `deadline` as deterministic time."""
    solver = cp_model.CpSolver()
    solver.parameters.random_seed = seed
    solver.parameters.num_workers = default_workers() if workers is None else workers
    remaining = deadline.remaining() if deadline.clock == "wall" else None
    if remaining is not None:
        solver.parameters.max_time_in_seconds = max(remaining - STOP_MARGIN_SECONDS, MINIMUM_SECONDS)
    work_left = deadline.work_left()
    if work_left is not None:
        # a zero limit would make CP-SAT stop before loading, like a zero time limit
        solver.parameters.max_deterministic_time = max(work_left, 1) / WORK_PER_DETERMINISTIC_SECOND
    return solver


def solve(solver: cp_model.CpSolver, model: cp_model.CpModel, deadline: Deadline,
          parameters: Mapping[str, Any] | None = None) -> CpSolverStatus:
    """``solver.solve(model)`` within `deadline`, with `parameters` (a configuration's
    `CpsatOptions.cpsat`, already checked) set last; CP-SAT's status.  The run's deterministic
    time is counted as work on `deadline` (see `WORK_PER_DETERMINISTIC_SECOND`).

    On a CPU clock a watcher thread stops the search (`CpSolver.stop_search`, as a
    time limit would) once this process has spent the CPU seconds of `deadline` but
    `STOP_MARGIN_SECONDS`, all CP-SAT's workers together; it looks every `CPU_WATCH_SECONDS`.
    """
    if parameters:
        solver.parameters.merge_text_format(parameter_text(parameters))
    status = _solve_watched(solver, model, deadline)
    deadline.expired(math.ceil(solver.deterministic_time * WORK_PER_DETERMINISTIC_SECOND))
    return status


def _solve_watched(solver: cp_model.CpSolver, model: cp_model.CpModel, deadline: Deadline) -> CpSolverStatus:
    """``solver.solve(model)``, stopped by a watcher thread on a CPU clock (see `solve`)."""
    if deadline.clock == "wall" or deadline.seconds is None:
        return solver.solve(model)
    finished = threading.Event()

    def watch() -> None:
        while not finished.wait(CPU_WATCH_SECONDS):
            remaining = deadline.remaining()
            if deadline.expired() or (remaining is not None and remaining <= STOP_MARGIN_SECONDS):
                solver.stop_search()
                return

    watcher = threading.Thread(target=watch, name="cpsat-cpu-deadline", daemon=True)
    watcher.start()
    try:
        return solver.solve(model)
    finally:
        finished.set()
        watcher.join()


def run_stats(solver: cp_model.CpSolver) -> Stats:
    """Effort and set-up of the solver's last run: conflicts, branches, wall and deterministic
    time, seed, workers."""
    return {
        "conflicts": solver.num_conflicts,
        "branches": solver.num_branches,
        "wall_time": solver.wall_time,
        "deterministic_time": solver.deterministic_time,
        "num_workers": solver.parameters.num_workers,
        "random_seed": solver.parameters.random_seed,
    }


def integer_bound(value: float) -> int:
    """CP-SAT's objective bound as an integer lower bound on a non-negative integer objective.

    0 while CP-SAT has no finite bound yet (every objective here is a sum of non-negative
    lengths or energies).  The tolerance keeps floating-point noise (42.0000001 for an
    optimum of 42) from rounding up past the optimum.
    """
    if not math.isfinite(value):
        return 0
    return max(0, math.ceil(value - 1e-6))


def has_solution(status: CpSolverStatus, model: cp_model.CpModel) -> bool | None:
    """True when CP-SAT found a solution, False when it proved there is none, None when
    a limit (time or work) ended the run first.

    MODEL_INVALID is a bug of the formulation, not an answer: it raises `RuntimeError`
    naming CP-SAT's complaint (the run becomes an ``error``).
    """
    if status == cp_model.MODEL_INVALID:
        raise RuntimeError(f"CP-SAT rejected the model: {model.validate()}")
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return True
    if status == cp_model.INFEASIBLE:
        return False
    return None


def run_answer(solver: cp_model.CpSolver, status: CpSolverStatus, model: cp_model.CpModel, plan: Callable[[], Sequence[Any]],
           stats: Stats, *, offset: int = 0, infeasible: str = "") -> Answer:
    """The answer of a finished optimisation run whose objective plus `offset` is the plan's cost.

    OPTIMAL -> ``optimal``; FEASIBLE -> ``feasible``; INFEASIBLE -> ``infeasible`` with
    the message `infeasible` (why the model's infeasibility proves the instance's); no
    decision -> ``timeout``.  Every answer carries CP-SAT's best bound plus `offset` as
    its proven lower bound, also recorded as ``best_bound`` in the stats.  `plan()`
    reads the witness from `solver`.
    """
    stats = {**stats, "cp_status": solver.status_name(status)}
    found = has_solution(status, model)
    if found is False:
        return Answer(Status.INFEASIBLE, stats=stats, message=infeasible)
    bound = offset + integer_bound(solver.best_objective_bound)
    stats["best_bound"] = bound
    if found is None:
        return Answer(Status.TIMEOUT, bound=bound, stats=stats, message="no solution within the time or work limit")
    cost = offset + round(solver.objective_value)
    if status == cp_model.OPTIMAL:
        return Answer(Status.OPTIMAL, cost=cost, bound=cost, plan=list(plan()), stats=stats)
    return Answer(Status.FEASIBLE, cost=cost, bound=min(bound, cost), plan=list(plan()), stats=stats)


#: CP-SAT parameters the harness sets and a configuration may not: the workers (the harness
#: gives a run a core per worker, ``--cpsat-workers``), the seed (runs are reproducible), the
#: limits (the run's deadline), and logging (a run's output is its record).
HARNESS_PARAMETERS = frozenset({"num_workers", "num_search_workers", "random_seed", "max_time_in_seconds",
                                "max_deterministic_time", "log_search_progress", "log_to_stdout"})


class CpsatOptions(Options):
    """The options of a CP-SAT formulation: its own (a subclass's fields) and CP-SAT's search
    parameters passed through (``cpsat.linearization_level=2``), each checked against CP-SAT's
    ``SatParameters`` (name, type, an enum's value names) as the configuration is made."""

    cpsat: dict[str, Any] = Field(default_factory=dict, description=(
        "CP-SAT parameters passed through as cpsat.NAME=VALUE (sat_parameters.proto; not the workers, "
        "seed, limits or logging, which are the harness's)"))

    @field_validator("cpsat")
    @classmethod
    def _known(cls, given: dict[str, Any]) -> dict[str, Any]:
        return {name: sat_parameter(name, value) for name, value in given.items()}


def sat_parameter(name: str, value: Any) -> Any:
    """`value` (a word of a spec, or a value read back from a record) as CP-SAT's parameter
    `name` takes it: a bool, an int, a float, an enum's value number's name, a string; a
    `ValueError` naming what is wrong (an unknown or harness-owned name, a repeated field, a
    value of another type, an enum value that does not exist)."""
    from google.protobuf.descriptor import FieldDescriptor
    from ortools.sat.sat_parameters_pb2 import SatParameters

    field = SatParameters.DESCRIPTOR.fields_by_name.get(name)
    if field is None:
        raise ValueError(f"CP-SAT has no parameter {name!r} (see ortools/sat/sat_parameters.proto)")
    if name in HARNESS_PARAMETERS:
        raise ValueError(f"CP-SAT's {name} is set by the harness, not a configuration "
                         f"(its own: {', '.join(sorted(HARNESS_PARAMETERS))})")
    if field.is_repeated:
        raise ValueError(f"CP-SAT's {name} is a list; only single values pass through")
    text = str(value).strip()
    try:
        if field.type == FieldDescriptor.TYPE_BOOL:
            return _boolean(value, text)
        if field.type == FieldDescriptor.TYPE_ENUM:
            names = field.enum_type.values_by_name
            if text not in names:
                raise ValueError(f"one of {', '.join(names)}")
            return text
        if field.cpp_type in (FieldDescriptor.CPPTYPE_INT32, FieldDescriptor.CPPTYPE_INT64):
            return int(text)
        if field.cpp_type in (FieldDescriptor.CPPTYPE_DOUBLE, FieldDescriptor.CPPTYPE_FLOAT):
            return float(text)
    except ValueError as error:
        raise ValueError(f"CP-SAT's {name}: {text!r} is not {_wanted(field, error)}") from None
    return text


def parameter_text(parameters: Mapping[str, Any]) -> str:
    """`parameters` (checked by `sat_parameter`) in the protocol buffer text format CP-SAT's
    parameters merge (``linearization_level: 2``)."""
    from google.protobuf import text_format
    from ortools.sat.sat_parameters_pb2 import SatParameters

    message = SatParameters()
    for name, value in parameters.items():
        setattr(message, name, value)
    return text_format.MessageToString(message)


def _boolean(value: Any, text: str) -> bool:
    if isinstance(value, bool):
        return value
    if text.lower() in ("true", "1", "on"):
        return True
    if text.lower() in ("false", "0", "off"):
        return False
    raise ValueError("true or false")


def _wanted(field: Any, error: ValueError) -> str:
    """What the parameter `field` takes, in words (a bool's or an enum's from `error`)."""
    from google.protobuf.descriptor import FieldDescriptor

    if field.type in (FieldDescriptor.TYPE_BOOL, FieldDescriptor.TYPE_ENUM):
        return str(error)
    return "an integer" if field.cpp_type in (FieldDescriptor.CPPTYPE_INT32, FieldDescriptor.CPPTYPE_INT64) \
        else "a number"
