"""The commands as Python functions: each runs its workflow and returns what it found.

Every function takes the command's options as keyword arguments, under the same names
and with the same defaults (``memory_limit_mb`` for ``--memory-limit``), and returns the
workflow's outcome: the judged runs, the notes, the exit status the command would end
with.  Nothing is printed: the notes a command writes on stderr as it goes are in the
outcome's ``notes`` (pass ``tell=print`` to see them as they come), and progress is shown
only when ``progress="lines"`` or ``"auto"`` asks for it.  Settings that cannot make sense
raise `crosscheck.harness.workflows.choosing.SettingsError` (a ``ValueError`` whose
``option`` names the command-line option), unusable input `UnusableInput`, before any run::

    import crosscheck

    outcome = crosscheck.compare("instances/elevator", time_limit=10, out="runs.jsonl")
    print(outcome.exit_status, [(v.instance, v.verdict.value) for v in outcome.runs.verdicts])
    frame = crosscheck.runs_frame("runs.jsonl")  # pandas, one row per run (the analysis extra)

External programs are given as the command line gives them (``"mine=python my.py {path}"``,
``"elevator:mine=..."``), with ``external_sources`` as ``"NAME=PATH"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from crosscheck.harness.runs.settings import HUNT_TIME_LIMIT, MEMORY_LIMIT_MB, MORPH_COUNT, TIME_LIMIT, RunSettings
from crosscheck.harness.workflows.choosing import (
    Tell,
    configurations,
    parse_externals,
    puzzle_named,
    relation_names,
    silent,
)

if TYPE_CHECKING:
    import pandas

    from crosscheck.harness.judging.verdicts import JudgedRuns
    from crosscheck.harness.workflows.compare import CompareOutcome
    from crosscheck.harness.workflows.hunt import HuntOutcome
    from crosscheck.harness.workflows.morph import MorphOutcome
    from crosscheck.harness.workflows.solve import SolveOutcome
    from crosscheck.models.puzzle import Range
    from crosscheck.solvers.base import Clock

#: A path, as a string or a `Path`.
PathLike = str | Path


def _paths(paths: PathLike | Iterable[PathLike]) -> tuple[Path, ...]:
    return (Path(paths),) if isinstance(paths, str | Path) else tuple(Path(path) for path in paths)


def run_settings(*, solvers: Iterable[str] = (), externals: Iterable[str] = (), external_sources: Iterable[str] = (),
                 time_limit: float | None = TIME_LIMIT, clock: Clock = "wall",
                 memory_limit_mb: int | None = MEMORY_LIMIT_MB, jobs: int | None = None,
                 cpsat_workers: int | None = None, progress: str = "none") -> RunSettings:
    """The `RunSettings` every function here builds from its keyword arguments: the
    formulations named (none: the puzzle's defaults), the external programs, the limits
    of each run, ``jobs`` runs at a time (None: the cores this process may use), CP-SAT's
    workers (None: its default) and how progress is shown."""
    chosen = RunSettings(solvers=configurations(solvers), externals=parse_externals(externals, external_sources),
                         time_limit=time_limit, clock=clock, memory_limit_mb=memory_limit_mb,
                         cpsat_workers=cpsat_workers, progress=progress)
    return chosen if jobs is None else replace(chosen, jobs=jobs)


def compare(paths: PathLike | Iterable[PathLike], *, solvers: Iterable[str] = (), externals: Iterable[str] = (),
            external_sources: Iterable[str] = (), time_limit: float | None = TIME_LIMIT, clock: Clock = "wall",
            memory_limit_mb: int | None = MEMORY_LIMIT_MB, jobs: int | None = None, cpsat_workers: int | None = None,
            out: PathLike | None = None, resume: bool = False, variants: bool = False, repeat: int = 1,
            morph: int | None = None, all_sizes: bool = False, progress: str = "none",
            tell: Tell = silent) -> CompareOutcome:
    """``crosscheck compare``: every chosen formulation and program on every instance file
    below `paths`, one JSON Lines record per run appended to `out` (None: a new
    ``results/compare-DATE-TIME.jsonl``), the runs judged
    (`crosscheck.harness.workflows.compare.compare`).  The puzzles' default formulations
    skip the instances beyond the sizes each is known to solve unless `all_sizes`."""
    from crosscheck.harness.workflows.compare import CompareSettings
    from crosscheck.harness.workflows.compare import compare as run

    runs = run_settings(solvers=solvers, externals=externals, external_sources=external_sources,
                        time_limit=time_limit, clock=clock, memory_limit_mb=memory_limit_mb, jobs=jobs,
                        cpsat_workers=cpsat_workers, progress=progress)
    runs = replace(runs, within_reach=not all_sizes)
    return run(CompareSettings(_paths(paths), runs, out=None if out is None else Path(out), resume=resume,
                               variants=variants, repeat=repeat, morph=morph), tell)


def solve(path: PathLike, *, solvers: Iterable[str] = (), externals: Iterable[str] = (),
          external_sources: Iterable[str] = (), variant: bool = False, time_limit: float | None = TIME_LIMIT,
          clock: Clock = "wall", memory_limit_mb: int | None = MEMORY_LIMIT_MB, cpsat_workers: int | None = None,
          out: PathLike | None = None, reference: bool = True, progress: str = "none",
          tell: Tell = silent) -> SolveOutcome:
    """``crosscheck solve``: every chosen formulation and program on the one file at `path`,
    one at a time, judged; with programs alone, the puzzle's reference formulation beside
    them unless `reference` is False (`crosscheck.harness.workflows.solve.solve`).
    `crosscheck.models.base.InvalidInstance` when the file cannot be read or parsed."""
    from crosscheck.harness.workflows.solve import SolveSettings
    from crosscheck.harness.workflows.solve import solve as run

    runs = run_settings(solvers=solvers, externals=externals, external_sources=external_sources,
                        time_limit=time_limit, clock=clock, memory_limit_mb=memory_limit_mb, jobs=1,
                        cpsat_workers=cpsat_workers, progress=progress)
    return run(SolveSettings(Path(path), runs, variant=variant, out=None if out is None else Path(out),
                             reference=reference), tell)


def morph(paths: PathLike | Iterable[PathLike], out: PathLike, *, solvers: Iterable[str] = (),
          externals: Iterable[str] = (), external_sources: Iterable[str] = (), relations: Iterable[str] = (),
          count: int = MORPH_COUNT, seed: int = 0, time_limit: float | None = TIME_LIMIT, clock: Clock = "wall",
          memory_limit_mb: int | None = MEMORY_LIMIT_MB, jobs: int | None = None, progress: str = "none",
          tell: Tell = silent) -> MorphOutcome:
    """``crosscheck morph``: each chosen runner on every instance below `paths` and on
    instances related to it, each pair of its answers judged by the relation's law; the
    related instances, the runs and the pairs' verdicts are written below the folder
    `out` (`crosscheck.harness.workflows.morph.morph`)."""
    from crosscheck.harness.workflows.morph import MorphSettings
    from crosscheck.harness.workflows.morph import morph as run

    runs = run_settings(solvers=solvers, externals=externals, external_sources=external_sources,
                        time_limit=time_limit, clock=clock, memory_limit_mb=memory_limit_mb, jobs=jobs,
                        progress=progress)
    return run(MorphSettings(_paths(paths), Path(out), runs, relation_names(list(relations)), count, seed), tell)


def hunt(puzzle: str, out: PathLike, *, solvers: Iterable[str] = (), externals: Iterable[str] = (),
         external_sources: Iterable[str] = (), params: Mapping[str, Range] | Iterable[str] = (),
         budget: float | None = None, examples: int | None = None, shrink_budget: float | None = None,
         shrink_examples: int | None = None, seed: int | None = None, time_limit: float | None = HUNT_TIME_LIMIT,
         clock: Clock = "wall", memory_limit_mb: int | None = MEMORY_LIMIT_MB, jobs: int | None = None,
         morph: bool | Iterable[str] = False, published_shape: bool = False, database: PathLike | None = None,
         reference: bool = True, progress: str = "none", tell: Tell = silent) -> HuntOutcome:
    """``crosscheck hunt``: instances of `puzzle` drawn within the size ranges `params`
    (``{"floors": (2, 4)}``, or ``["floors=2-4"]`` as ``-p`` takes them) until the chosen
    runners' verdict is wrong, then shrunk; files are written below the folder `out`
    (`crosscheck.harness.workflows.hunt.hunt`).  `morph` draws a relation with each instance
    too (True: among all of the puzzle's; or among the names given).  The budget is
    `budget` seconds, `examples` instances, or both; neither given, 60 s (so for shrinking)."""
    from crosscheck.harness.reports.hunt_progress import HuntProgress
    from crosscheck.harness.workflows.choosing import SettingsError
    from crosscheck.harness.workflows.hunt import HuntSettings, search_seconds
    from crosscheck.harness.workflows.hunt import hunt as run
    from crosscheck.models.puzzle import parse_ranges
    from crosscheck.models.registry import get_puzzle
    from crosscheck.solvers.registry import loaded_plugin_modules

    runs = run_settings(solvers=solvers, externals=externals, external_sources=external_sources,
                        time_limit=time_limit, clock=clock, memory_limit_mb=memory_limit_mb, jobs=jobs,
                        progress=progress)
    try:
        ranges = dict(params) if isinstance(params, Mapping) else parse_ranges(tuple(params))
    except ValueError as error:
        raise SettingsError(str(error), "--param") from None
    relations = None if morph is False else () if morph is True else relation_names(list(morph))
    settings = HuntSettings(get_puzzle(puzzle_named(puzzle)), Path(out), runs, ranges,
                            budget=search_seconds(budget, examples),
                            shrink_budget=search_seconds(shrink_budget, shrink_examples), examples=examples,
                            shrink_examples=shrink_examples, seed=seed, plugins=loaded_plugin_modules(),
                            database=None if database is None else Path(database), published_shape=published_shape,
                            morph=relations, reference=reference)
    return run(settings, HuntProgress(progress), tell)


def read_runs(files: PathLike | Iterable[PathLike]) -> JudgedRuns:
    """The run records of results files (``compare --out``, ``morph``'s ``morph.jsonl``, a
    hunt's ``judged.jsonl``), merged as ``report`` merges them (a run recorded twice keeps
    its later record) and judged as ``report`` judges them: ``.records`` (typed
    `crosscheck.harness.records.record.RunRecord`), ``.verdicts`` (one per instance), and
    ``.frame()`` (pandas, one row per run).  A line that is not a run record raises
    `crosscheck.harness.records.schema.MalformedRecord` naming file and line."""
    from crosscheck.harness.judging.verdicts import judged
    from crosscheck.harness.records.record import read_records
    from crosscheck.harness.runs.shard import merge

    records, _ = merge([(str(path), read_records(path)) for path in _paths(files)])
    return judged(records)


def runs_frame(files: PathLike | Iterable[PathLike]) -> pandas.DataFrame:
    """`read_runs` as a pandas DataFrame, one tidy row per run (the columns of
    `crosscheck.harness.records.tidy`; needs the analysis extra)."""
    return read_runs(files).frame()
