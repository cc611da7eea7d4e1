"""crosscheck: cross-validate independent formulations of combinatorial search puzzles.

Everything installs under this one name, mapped from the repository's top-level folders:

- `crosscheck.models`: what each puzzle is (parsers, rules, generators, plan checkers);
- `crosscheck.solvers`: its formulations, every one answering with the same `Result`;
- `crosscheck.harness`: runs, cross-checks, records, reports and the command line.

The names a puzzle or a formulation of your own needs are here, so that a plugin imports
``crosscheck`` only::

    from crosscheck import Answer, Deadline, Puzzle, Solver, Status

And so are the commands, as functions that return what they found (`crosscheck.api`)::

    outcome = crosscheck.compare("instances/elevator", time_limit=10)
    frame = crosscheck.runs_frame(outcome.out)  # pandas, one row per run

They are imported when first used: ``import crosscheck`` itself loads nothing else.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

#: Public name -> the module that defines it.
_PUBLIC = {
    # a puzzle: the interface, its errors and relations
    "Puzzle": "crosscheck.models.puzzle",
    "SizeParameter": "crosscheck.models.puzzle",
    "Shape": "crosscheck.models.puzzle",
    "Sample": "crosscheck.models.puzzle",
    "InvalidInstance": "crosscheck.models.base",
    "InvalidPlan": "crosscheck.models.base",
    "plan_moves": "crosscheck.models.base",
    "check_range": "crosscheck.models.base",
    "instance_name": "crosscheck.models.base",
    # a parser refuses blank lines before an instance as the built-in ones do
    "refuse_leading_blank_lines": "crosscheck.models.base",
    "Relation": "crosscheck.models.relations",
    "Related": "crosscheck.models.relations",
    "Same": "crosscheck.models.relations",
    "NotLarger": "crosscheck.models.relations",
    "Offset": "crosscheck.models.relations",
    "NotApplicable": "crosscheck.models.relations",
    "related_name": "crosscheck.models.relations",
    "reparsed": "crosscheck.models.relations",
    # a formulation: the contract and the trusted engines
    "Solver": "crosscheck.solvers.base",
    "Answer": "crosscheck.solvers.base",
    "Status": "crosscheck.solvers.base",
    "Deadline": "crosscheck.solvers.base",
    # what `Solver.solve` returns, for a formulation's own tests
    "Result": "crosscheck.solvers.base",
    # the type of `Answer.stats`, for a formulation that adds up effort over several runs
    "Stats": "crosscheck.solvers.base",
    "SearchProblem": "crosscheck.solvers.engines.search",
    "Strategy": "crosscheck.solvers.engines.search",
    "best_first_search": "crosscheck.solvers.engines.search",
    # an exact answer: the optimum, or no solution
    "ExactAnswer": "crosscheck.models.answers",
    "Optimum": "crosscheck.models.answers",
    "NoSolution": "crosscheck.models.answers",
    "NO_SOLUTION": "crosscheck.models.answers",
    # the commands as functions, and the records they write read back
    "compare": "crosscheck.api",
    "solve": "crosscheck.api",
    "morph": "crosscheck.api",
    "hunt": "crosscheck.api",
    "read_runs": "crosscheck.api",
    "runs_frame": "crosscheck.api",
    "run_settings": "crosscheck.api",
    "RunSettings": "crosscheck.harness.runs.settings",
    "SettingsError": "crosscheck.harness.workflows.choosing",
    "UnusableInput": "crosscheck.harness.workflows.choosing",
}
#: Public module name -> the module: an engine whose functions a formulation calls as a set
#: (``cpsat.configured_solver``, ``cpsat.solve``, ``cpsat.has_solution``, ``cpsat.run_stats``,
#: ``cpsat.cp_model``), kept under its module's name so that its ``solve`` is not taken for
#: crosscheck's own.
_PUBLIC_MODULES = {
    # the one CP-SAT set-up (seed, workers, deadline on either clock, work counted, stats)
    "cpsat": "crosscheck.solvers.engines.cpsat",
}

__all__ = sorted([*_PUBLIC, *_PUBLIC_MODULES])


def __getattr__(name: str) -> Any:
    """A public name (`_PUBLIC`) or module (`_PUBLIC_MODULES`), imported on first use;
    ``crosscheck.__version__`` read from the installed distribution only when asked (importing
    the package stays free of look-ups)."""
    if name in _PUBLIC_MODULES:
        globals()[name] = import_module(_PUBLIC_MODULES[name])
        return globals()[name]
    if name in _PUBLIC:
        globals()[name] = getattr(import_module(_PUBLIC[name]), name)
        return globals()[name]
    if name != "__version__":
        raise AttributeError(f"module 'crosscheck' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("crosscheck")
    except PackageNotFoundError:  # a source tree that was never installed
        return "0+unknown"
