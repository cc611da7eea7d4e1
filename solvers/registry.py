"""Every solver by name, and where each comes from.

Each puzzle's solver package lists its formulations in ``SOLVERS``. Researchers add
formulations of their own without touching this package, as modules with a ``SOLVERS``
list of `Solver` classes, named in either of two ways:

- an entry point of the group ``crosscheck.solvers`` in an installed distribution
  (``[project.entry-points."crosscheck.solvers"]`` ``mine = "my_formulations"``): it
  appears once the distribution is installed, and its records carry the distribution's
  name and version;
- the environment variable ``CROSSCHECK_SOLVERS`` (comma-separated module names), passed
  on to every process the harness starts.

A plugin that cannot be loaded (import error, no ``SOLVERS``, a name already taken) is
left out and its error kept in `PLUGIN_ERRORS`, so one broken plugin never stops the
tool; the command line prints them.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from importlib.metadata import entry_points

from crosscheck.solvers import amphipods, elevator, keys, planner
from crosscheck.solvers.base import Solver

PLUGIN_VARIABLE = "CROSSCHECK_SOLVERS"
ENTRY_POINT_GROUP = "crosscheck.solvers"


@dataclass(frozen=True)
class Origin:
    """Where a solver comes from: built in, an entry point (with its distribution), or a
    module named in ``CROSSCHECK_SOLVERS`` (or registered by a program with `add_plugins`)."""

    kind: str  # "built-in", "entry point" or "module"
    name: str = ""  # the entry point's name, or the module's
    distribution: str | None = None
    version: str | None = None

    def __str__(self) -> str:
        if self.kind == "entry point":
            return f"entry point {self.name} ({self.distribution} {self.version})"
        return self.kind if self.kind == "built-in" else f"{PLUGIN_VARIABLE} module {self.name}"


BUILT_IN = Origin("built-in")
SOLVERS: dict[str, Solver] = {}
#: Where each registered solver came from, by name.
ORIGINS: dict[str, Origin] = {}
#: What went wrong loading plugins, one line each.
PLUGIN_ERRORS: list[str] = []


def plugin_modules() -> tuple[str, ...]:
    """The module names listed in ``CROSSCHECK_SOLVERS`` right now."""
    return tuple(name.strip() for name in os.environ.get(PLUGIN_VARIABLE, "").split(",") if name.strip())


def _register(classes: list[type[Solver]], origin: Origin) -> None:
    """Register `classes` (again is harmless); a `ValueError` when a name is taken by another class."""
    taken = [c.name for c in classes if c.name in SOLVERS and type(SOLVERS[c.name]) is not c]
    if taken:
        raise ValueError(f"solver names already taken: {', '.join(taken)}")
    for solver_class in classes:
        if solver_class.name not in SOLVERS:
            SOLVERS[solver_class.name] = solver_class()
            ORIGINS[solver_class.name] = origin


def _solver_classes(module_name: str) -> list[type[Solver]]:
    """The ``SOLVERS`` list of the module `module_name` (imported); `ValueError` if it has none."""
    classes = getattr(importlib.import_module(module_name), "SOLVERS", None)
    if not isinstance(classes, list | tuple) or not all(isinstance(c, type) and issubclass(c, Solver) for c in classes):
        raise ValueError(f"module {module_name} has no SOLVERS list of Solver classes")
    return list(classes)


def add_plugins(modules: tuple[str, ...]) -> None:
    """Import `modules` and register their ``SOLVERS`` (again is harmless); raises on the
    first that cannot be loaded."""
    for name in modules:
        _register(_solver_classes(name), Origin("module", name))


def _add_entry_points() -> None:
    """Register the ``SOLVERS`` of every entry point of `ENTRY_POINT_GROUP`; keep the errors."""
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        dist = entry.dist
        origin = Origin("entry point", entry.name, dist.name if dist else None, dist.version if dist else None)
        try:
            if entry.attr:
                raise ValueError(f"the entry point must name a module, not {entry.value!r}")
            _register(_solver_classes(entry.module), origin)
        except Exception as error:  # a broken plugin must not stop the tool: reported instead
            _keep_error(f"{origin} = {entry.value}: {type(error).__name__}: {error}")


def add_variable_plugins() -> None:
    """Register the modules of ``CROSSCHECK_SOLVERS`` as it is now; keep the errors."""
    for name in plugin_modules():
        try:
            add_plugins((name,))
        except Exception as error:  # reported like a broken entry point
            _keep_error(f"{PLUGIN_VARIABLE} module {name}: {type(error).__name__}: {error}")


def plugin_errors() -> list[str]:
    """What went wrong loading plugins so far, one line each."""
    return list(PLUGIN_ERRORS)


def _keep_error(line: str) -> None:
    if line not in PLUGIN_ERRORS:
        PLUGIN_ERRORS.append(line)


for _package in (keys, amphipods, elevator, planner):
    _register(_package.SOLVERS, BUILT_IN)
_add_entry_points()
add_variable_plugins()


def origin(name: str) -> Origin:
    """Where the registered solver `name` comes from (one put in `SOLVERS` by hand: its module)."""
    return ORIGINS.get(name) or Origin("module", type(get_solver(name)).__module__)


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
