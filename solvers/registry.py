"""Every solver by name, and where each comes from.

A puzzle names the packages of its built-in formulations (`Puzzle.formulations`), each
naming them in a ``FORMULATIONS`` table (name: module, class), so that one is imported
alone when a command names it.  Researchers add
formulations of their own without touching this package, as modules with a ``SOLVERS``
list of `Solver` classes, named in either of two ways:

- an entry point of the group ``crosscheck.solvers`` in an installed distribution
  (``[project.entry-points."crosscheck.solvers"]`` ``mine = "my_formulations"``): it
  appears once the distribution is installed, and its records carry the distribution's
  name and version;
- the environment variable ``CROSSCHECK_SOLVERS`` (comma-separated module names), passed
  on to every process the harness starts.

A run's process imports plugins from the files the command's own process would: a process
started afresh for runs (the forkserver, a launched run) takes the command's module search
path (`pass_import_path`, `take_import_path`) instead of its own, which would look in the
current folder first (``python -c`` and ``python -m`` put it there) and could find another
module of the same name.

A plugin that cannot be loaded (import error, no ``SOLVERS``, a name already taken) is
left out and its error kept in `PLUGIN_ERRORS`, so one broken plugin never stops the
tool; the command line prints them.

Nothing is imported before it is asked for, so that a command pays only for the solvers it
uses: importing this module imports no formulation; a puzzle's built-in formulations are
imported when a solver of that puzzle is first asked for (every built-in name starts with its
puzzle's name and a hyphen, which `get_solver` uses to find them; a built-in breaking that
rule is refused when it registers), and the entry points are read when every solver of a
puzzle is asked for (`solvers_for`), or a name no built-in has.  `load_all` imports everything.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from crosscheck.solvers.base import Solver

PLUGIN_VARIABLE = "CROSSCHECK_SOLVERS"
#: The formulations a forkserver warms up (`name_warm_ups`).
WARM_UP_VARIABLE = "CROSSCHECK_WARM_UP"
ENTRY_POINT_GROUP = "crosscheck.solvers"
#: The module search path (a JSON list) of the process that starts runs (`pass_import_path`).
IMPORT_PATH_VARIABLE = "CROSSCHECK_IMPORT_PATH"


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
#: The modules of ``CROSSCHECK_SOLVERS`` tried so far, and whether each loaded.
MODULES_LOADED: dict[str, bool] = {}


def plugin_modules() -> tuple[str, ...]:
    """The module names listed in ``CROSSCHECK_SOLVERS`` right now."""
    return tuple(name.strip() for name in os.environ.get(PLUGIN_VARIABLE, "").split(",") if name.strip())


def _register(classes: list[type[Solver]], origin: Origin) -> None:
    """Register `classes` (again is harmless); a `ValueError` when a name is taken by another class.

    A plugin's classes come after the built-ins of their puzzles and of the puzzles their names
    start with (loaded first), so that they can neither take a built-in's name nor go first."""
    if origin == BUILT_IN:
        _check_built_in_names(classes)
    else:
        for puzzle in {c.puzzle for c in classes} | {c.name.partition("-")[0] for c in classes}:
            _load_built_ins(puzzle)
    taken = [c.name for c in classes if c.name in SOLVERS and type(SOLVERS[c.name]) is not c]
    if taken:
        raise ValueError(f"solver names already taken: {', '.join(taken)}")
    for solver_class in classes:
        if solver_class.name not in SOLVERS:
            SOLVERS[solver_class.name] = solver_class()
            ORIGINS[solver_class.name] = origin


def _check_built_in_names(classes: list[type[Solver]]) -> None:
    """A `ValueError` unless each built-in's name starts with its puzzle's name and a hyphen."""
    wrong = [c.name for c in classes if not c.name.startswith(f"{c.puzzle}-")]
    if wrong:
        raise ValueError(f"built-in solver names must start with their puzzle's name and '-': {', '.join(wrong)}")


def _formulation_modules(puzzle: str) -> tuple[str, ...]:
    """The modules of `puzzle`'s built-in formulations (`Puzzle.formulations`); none for a
    name that is no built-in puzzle (a plugin puzzle's formulations are plugins too)."""
    from crosscheck.models.registry import built_in_puzzles

    known = built_in_puzzles().get(puzzle)
    return tuple(known.formulations) if known is not None else ()


def _load_built_ins(puzzle: str) -> None:
    """Register the built-in formulations of `puzzle` (nothing for a name that is no built-in
    puzzle), in their modules' order even when one was registered alone first (`_load_built_in`)."""
    classes = [c for module in _formulation_modules(puzzle) for c in _solver_classes(module)]
    missing = [c for c in classes if c.name not in SOLVERS]
    if not missing:
        return
    _register(classes, BUILT_IN)
    if len(missing) < len(classes):  # no plugin of the puzzle came yet: they all load these first
        for solver_class in classes:
            SOLVERS[solver_class.name] = SOLVERS.pop(solver_class.name)


def _built_in_table(puzzle: str) -> dict[str, tuple[str, str]] | None:
    """The built-in formulations of `puzzle` by name: (module, class) from each formulation
    package's ``FORMULATIONS``; None when one of its packages has none (import them all then)."""
    table: dict[str, tuple[str, str]] = {}
    for package in _formulation_modules(puzzle):
        named = getattr(importlib.import_module(package), "FORMULATIONS", None)
        if not isinstance(named, dict):
            return None
        table.update({name: (f"{package}.{module}", attribute) for name, (module, attribute) in named.items()})
    return table


def built_in_names(puzzle: str) -> list[str] | None:
    """The names of `puzzle`'s built-in formulations, none imported (`_built_in_table`); None
    when its packages do not name them."""
    table = _built_in_table(puzzle)
    return None if table is None else list(table)


def _load_built_in(name: str) -> None:
    """Register the built-in formulation `name`, importing its module alone where its package
    names it (`_built_in_table`), else every built-in of its puzzle (its name's first word)."""
    puzzle = name.partition("-")[0]
    table = _built_in_table(puzzle)
    if table is None or name not in table:
        _load_built_ins(puzzle)
        return
    module, attribute = table[name]
    _register([getattr(importlib.import_module(module), attribute)], BUILT_IN)


def pass_import_path() -> None:
    """Have the processes started from now on (which inherit this environment) import from
    where this one does (`take_import_path`): its ``sys.path``, with ``""`` (the current
    folder, for ``python -c``) spelled out as the folder it is now."""
    folder = os.getcwd()
    os.environ[IMPORT_PATH_VARIABLE] = json.dumps([entry or folder for entry in sys.path])


def take_import_path() -> None:
    """Make this process's ``sys.path`` the one `pass_import_path` passed (unchanged when none
    was): called before any plugin is imported, so that a module of the current folder cannot
    take the place of the plugin the starting process imported under the same name."""
    passed = os.environ.get(IMPORT_PATH_VARIABLE)
    if passed is not None:
        sys.path[:] = json.loads(passed)


def name_warm_ups(names: Iterable[str] | None) -> None:
    """Tell a forkserver started from now on which formulations to `warm_up` (all it has
    imported for `None`), through ``CROSSCHECK_WARM_UP``, which the server inherits."""
    if names is None:
        os.environ.pop(WARM_UP_VARIABLE, None)
    else:  # a configuration warms up as its formulation (and a label's commas would split it)
        os.environ[WARM_UP_VARIABLE] = ",".join(dict.fromkeys(formulation_of(name) for name in names))


def warm_up_named(lone: bool = False) -> None:
    """`Solver.warm_up` the formulations ``CROSSCHECK_WARM_UP`` names (`name_warm_ups`); when it
    is not set, every registered formulation and every built-in one of a puzzle package already
    imported (registered or not).  With `lone` (before the few runs of ``solve``), only those
    whose warm-up pays for a run alone (`Solver.warm_up_pays_alone`).

    A warm-up that fails, or a name no solver has, is skipped: each run then does that work
    itself, and any error shows in its record."""
    for solver in sorted(_to_warm_up(os.environ.get(WARM_UP_VARIABLE)), key=lambda c: c.name):
        if lone and not solver.warm_up_pays_alone:
            continue
        try:
            solver.warm_up()
        except Exception:  # noqa: BLE001 (see the docstring)
            continue


def share_named() -> None:
    """Compute now what each registered formulation ``CROSSCHECK_WARM_UP`` names shares
    (every registered one when it is not set; `Solver.shares`), so that the runs forked from
    this process inherit it instead of each redoing it: a plugin's footprint is a static walk
    of its code, worth doing once rather than per run.  One that fails is
    skipped (each run then meets the error itself)."""
    named = os.environ.get(WARM_UP_VARIABLE)
    names = list(SOLVERS) if named is None else [name for name in named.split(",") if name in SOLVERS]
    for name in names:
        try:
            SOLVERS[name].shares  # noqa: B018 (computed for its cache)
        except Exception:  # noqa: BLE001 (see the docstring)
            continue


def _to_warm_up(named: str | None) -> set[type[Solver]]:
    """The classes of the solvers `named` (comma-separated), or see `warm_up_named` for `None`."""
    if named is None:
        classes = {type(solver) for solver in SOLVERS.values()}
        for package in built_in_packages():
            if package in sys.modules:
                classes.update(_solver_classes(package))
        return classes
    classes = set()
    for name in filter(None, named.split(",")):
        if name not in SOLVERS:
            _load_built_in(name)  # plugins are loaded already (`load_plugins`)
        if name in SOLVERS:
            classes.add(type(SOLVERS[name]))
    return classes


def built_in_packages(names: Iterable[str] | None = None) -> tuple[str, ...]:
    """The modules whose import makes the built-ins among solver `names` ready (every built-in
    one without `names`): their puzzles' formulation modules (by the names' first word)."""
    from crosscheck.models.registry import built_in_puzzles

    puzzles = built_in_puzzles() if names is None else {name.partition("-")[0] for name in names}
    return tuple(module for puzzle in puzzles for module in _formulation_modules(puzzle))


def load_plugins() -> None:
    """Register the entry points and the modules of ``CROSSCHECK_SOLVERS`` (with the built-ins of
    their puzzles); keep the errors."""
    _add_entry_points()
    add_variable_plugins()


def load_all() -> None:
    """Register every solver: the built-ins of every puzzle, the entry points and the modules
    of ``CROSSCHECK_SOLVERS``."""
    from crosscheck.models.registry import built_in_puzzles

    for puzzle in built_in_puzzles():
        _load_built_ins(puzzle)
    load_plugins()


def loaded_plugin_modules() -> tuple[str, ...]:
    """The modules of ``CROSSCHECK_SOLVERS`` that load in this process (those not tried yet are
    tried now): the plugins a command's runs register.  One that failed is left out, its error in
    `PLUGIN_ERRORS`, so that the other runs still run."""
    if any(name not in MODULES_LOADED for name in plugin_modules()):
        add_variable_plugins()
    return tuple(name for name in plugin_modules() if MODULES_LOADED.get(name))


def _solver_classes(module_name: str) -> list[type[Solver]]:
    """The ``SOLVERS`` list of the module `module_name` (imported), or the classes its
    ``FORMULATIONS`` table names (each module of that package imported); `ValueError` if it
    has neither."""
    from crosscheck.solvers.base import Solver

    module = importlib.import_module(module_name)
    named = getattr(module, "FORMULATIONS", None)
    classes = ([getattr(importlib.import_module(f"{module_name}.{part}"), attribute)
                for part, attribute in named.values()] if isinstance(named, dict)
               else getattr(module, "SOLVERS", None))
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
    for origin, value, classes in _entry_point_classes():
        try:
            if isinstance(classes, Exception):
                raise classes
            _register(classes, origin)
        except Exception as error:  # a broken plugin must not stop the tool: reported instead
            _keep_error(f"{origin} = {value}: {type(error).__name__}: {error}")


@cache
def _entry_point_classes() -> list[tuple[Origin, str, list[type[Solver]] | Exception]]:
    """Per entry point of `ENTRY_POINT_GROUP`: its origin, its value, and its ``SOLVERS`` or why
    it has none (read once: looking the entry points up scans every installed distribution)."""
    from importlib.metadata import entry_points

    found: list[tuple[Origin, str, list[type[Solver]] | Exception]] = []
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        dist = entry.dist
        origin = Origin("entry point", entry.name, dist.name if dist else None, dist.version if dist else None)
        try:
            if entry.attr:
                raise ValueError(f"the entry point must name a module, not {entry.value!r}")
            found.append((origin, entry.value, _solver_classes(entry.module)))
        except Exception as error:  # kept, reported by `_add_entry_points`
            found.append((origin, entry.value, error))
    return found


def add_variable_plugins() -> None:
    """Register the modules of ``CROSSCHECK_SOLVERS`` as it is now; keep the errors."""
    for name in plugin_modules():
        try:
            add_plugins((name,))
        except Exception as error:  # reported like a broken entry point
            MODULES_LOADED[name] = False
            _keep_error(f"{PLUGIN_VARIABLE} module {name}: {type(error).__name__}: {error}")
        else:
            MODULES_LOADED[name] = True


def plugin_errors() -> list[str]:
    """What went wrong loading plugins so far, one line each."""
    return list(PLUGIN_ERRORS)


def _keep_error(line: str) -> None:
    if line not in PLUGIN_ERRORS:
        PLUGIN_ERRORS.append(line)


def formulation_of(name: str) -> str:
    """The formulation a solver name names: a configuration's label (``keys-graph[bound=none]``,
    `crosscheck.solvers.configuration`) names what comes before its ``[``; any other name itself."""
    return name.partition("[")[0].strip()


def origin(name: str) -> Origin:
    """Where the registered solver `name` (a formulation, or a configuration's label) comes from
    (one put in `SOLVERS` by hand: its module)."""
    name = formulation_of(name)
    return ORIGINS.get(name) or Origin("module", type(get_solver(name)).__module__)


def registered(name: str) -> Solver | None:
    """The solver called `name` (a configuration's label too) if its formulation is registered
    in this process; nothing is imported.  A label naming no configuration gives None."""
    if "[" not in name:
        return SOLVERS.get(name)
    if formulation_of(name) not in SOLVERS:
        return None
    try:
        return get_solver(name)
    except KeyError:
        return None


def get_solver(name: str) -> Solver:
    """The solver called `name`: a formulation, or a configuration of one by its label
    (``keys-graph[bound=none]``, `crosscheck.solvers.configuration`); a `KeyError` lists the
    valid names on a typo, or says what the label gets wrong.

    Only the built-ins of the puzzle `name` starts with are imported for a built-in's name;
    every solver is, for a name not registered yet that no built-in has."""
    if "[" in name:
        return _configured(name)
    if name not in SOLVERS:
        _load_built_in(name)
    if name not in SOLVERS:
        load_all()
    try:
        return SOLVERS[name]
    except KeyError:
        raise KeyError(f"unknown solver {name!r}; valid solvers: {', '.join(sorted(SOLVERS))}") from None


#: Configured solvers made so far, by the label they were asked for by.
CONFIGURED: dict[str, Solver] = {}


def _configured(name: str) -> Solver:
    """The configuration the label `name` names (`crosscheck.solvers.configuration.canonical`);
    a `KeyError` saying what is wrong with it."""
    from crosscheck.solvers.configuration import ConfigurationError, canonical

    if name not in CONFIGURED:
        try:
            found = canonical(name)
        except ConfigurationError as error:
            raise KeyError(str(error)) from None
        CONFIGURED[name] = found.solver.configured(found.options)
    return CONFIGURED[name]


def solvers_for(puzzle: str) -> list[Solver]:
    """The solvers of `puzzle`, its built-ins first, then the plugins', in registration order
    (the entry points and ``CROSSCHECK_SOLVERS`` are read first)."""
    _load_built_ins(puzzle)
    load_plugins()
    return [solver for solver in SOLVERS.values() if solver.puzzle == puzzle]


def solvers_named(puzzle: str, names: Iterable[str]) -> list[Solver]:
    """The solvers of `puzzle` among the formulations `names`, in the order `solvers_for` gives
    them, importing only what finding each name takes (`get_solver`: a built-in's name reads no
    entry point); a name no solver has is left out."""
    wanted = set()
    for name in names:
        try:
            wanted.add(get_solver(name).name)
        except KeyError:
            continue
    return [solver for solver in SOLVERS.values() if solver.puzzle == puzzle and solver.name in wanted]


def registered_for(puzzle: str) -> list[Solver]:
    """The solvers of `puzzle` registered so far, the plugins' read first (`load_plugins`); its
    built-ins not asked for yet are left out (`built_in_names` names them)."""
    load_plugins()
    return [solver for solver in SOLVERS.values() if solver.puzzle == puzzle]


def default_solvers_for(puzzle: str) -> list[Solver]:
    """The solvers of `puzzle` that can run on this machine: those run when none is named."""
    return [solver for solver in solvers_for(puzzle) if solver.unavailable() is None]
