"""Which runs a comparison makes: the instance files found, the solvers chosen, the tasks.

The command line parses options and prints; deciding *what runs* happens here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path

from crosscheck.harness.inputs.index import INSTANCE_SUFFIX, Indexes, InstanceFile, discover
from crosscheck.harness.records.record import UNREADABLE, Expected, RunKey, RunRecord, Task, run_environment
from crosscheck.harness.reports.wording import counted, some_named
from crosscheck.harness.runs.external import External
from crosscheck.harness.runs.settings import RunSettings
from crosscheck.models.base import Instance, InvalidInstance
from crosscheck.models.puzzle import Puzzle
from crosscheck.models.registry import (
    detect_puzzle,
    known_formats,
    load_instance,
    read_instance_text,
    refuse_special_file,
)
from crosscheck.solvers.base import Status
from crosscheck.solvers.registry import (
    default_solvers_for,
    formulation_of,
    get_solver,
    loaded_plugin_modules,
    solvers_named,
)


def discover_all(paths: Iterable[Path], indexes: Indexes | None = None) -> list[InstanceFile]:
    """The instance files of every path, each file once (by its resolved path), in the
    order first found, each index loaded once (into `indexes`, when given, for the caller
    to ask `Indexes.unmatched`), and named uniquely (`unique_names`)."""
    indexes = indexes or Indexes()
    found: dict[Path, InstanceFile] = {}
    for path in paths:
        for instance_file in discover(path, indexes):
            found.setdefault(instance_file.path.resolve(), instance_file)
    return unique_names(list(found.values()))


def unique_names(files: list[InstanceFile]) -> list[InstanceFile]:
    """`files` (distinct files) with no name shared: files that would share one (two
    folders named with the same layout below them) are named by their paths as given
    instead, keeping the name they shared as `InstanceFile.clashed_name`.

    Paths as given differ between distinct files, so every round names one more file by
    its path until the names are unique; a round that changes nothing ends it (only files
    that are not distinct can then still share a name).
    """
    while True:
        clashing = {name for name, count in Counter(f.name for f in files).items() if count > 1}
        renamed = [replace(f, name=f.path.as_posix(), clashed_name=f.clashed_name or f.name) if f.name in clashing
                   else f for f in files]
        if renamed == files:
            return files
        files = renamed


def task(instance_file: InstanceFile, puzzle: str, solver: str, variant: bool, settings: RunSettings,
         external: External | None = None, repeat: int = 0) -> tuple[Task, Expected]:
    """The run of `solver` (the program `external`, when it is one) on one instance (or its
    variant), with what the index expects of it, and its solver's version pinned (`RunSettings.versions`)."""
    run = Task(path=str(instance_file.path), instance=instance_file.name, puzzle=puzzle, solver=solver,
               variant=variant, time_limit=settings.time_limit, memory_limit_mb=settings.memory_limit_mb,
               plugins=loaded_plugin_modules(), external=None if external is None else external.command,
               external_sources=() if external is None else external.sources, repeat=repeat,
               cpsat_workers=settings.cpsat_workers, clock=settings.clock,
               identity=settings.versions(solver, external),
               certificates=settings.certificates)
    return run, instance_file.variant_expected if variant else instance_file.expected


def _unreadable(instance_file: InstanceFile, message: str, settings: RunSettings) -> RunRecord:
    """The `error` record of a file no puzzle reads, with the provenance every run of the
    invocation carries (command, commit, versions, when, the limits asked for)."""
    limits = Task(path=str(instance_file.path), instance=instance_file.name, solver=UNREADABLE,
                  time_limit=settings.time_limit, memory_limit_mb=settings.memory_limit_mb, clock=settings.clock)
    return RunRecord(instance=instance_file.name, puzzle=None, solver=UNREADABLE, status=Status.ERROR,
                     message=message, expected=instance_file.expected, environment=run_environment(limits))


def instance_tasks(instance_file: InstanceFile, settings: RunSettings, variants: bool = False, repeat: int = 1
                   ) -> tuple[list[RunRecord], list[tuple[Task, Expected]]]:
    """The runs one instance file needs, each made `repeat` times (repetitions of a run next
    to each other), its variant's too with `variants` where the transform applies; or an
    error record when it cannot be read."""
    try:
        puzzle, instance = load_instance(str(instance_file.path))
    except InvalidInstance as error:
        return [_unreadable(instance_file, str(error), settings)], []
    names = formulations_chosen(puzzle.name, settings)
    mine = [e for e in settings.externals if e.applies_to(puzzle.name)]
    which = [False]
    if variants and variant_applies(puzzle, instance):
        which.append(True)
    beyond = {(name, variant) for name, variant, _ in beyond_reach(puzzle, instance, names, which, settings)}
    runs: list[tuple[str, bool, External | None]] = [(name, variant, None) for variant in which for name in names
                                                     if (name, variant) not in beyond]
    runs += [(e.name, variant, e) for variant in which for e in mine]
    return [], [task(instance_file, puzzle.name, name, variant, settings, external, number)
                for name, variant, external in runs for number in range(repeat)]


def beyond_reach(puzzle: Puzzle, instance: Instance, names: list[str], variants: list[bool],
                 settings: RunSettings) -> list[tuple[str, bool, str]]:
    """The runs of the formulations `names` on `instance` (and its variant, where `variants`
    holds True) that `settings` leave out as beyond the sizes each is known to solve, as
    (formulation, variant, why: `Solver.reaches`); none unless `settings.within_reach` and no
    formulation is named (a named one runs on every size)."""
    if not settings.within_reach or settings.solvers:
        return []
    beyond = []
    for variant in variants:
        features = puzzle.features(puzzle.variant(instance) if variant else instance)
        for name in names:
            why = get_solver(name).reaches(features)
            if why is not None:
                beyond.append((name, variant, why))
    return beyond


def left_beyond_reach(files: Iterable[InstanceFile], settings: RunSettings, variants: bool = False
                      ) -> dict[str, list[tuple[str, str]]]:
    """Per formulation, the (instance, why) of each run `instance_tasks` leaves out as beyond its
    known reach (`beyond_reach`), in the order of `files`; unreadable files hold none."""
    left: dict[str, list[tuple[str, str]]] = {}
    if not settings.within_reach or settings.solvers:
        return left
    for instance_file in files:
        try:
            puzzle, instance = load_instance(str(instance_file.path))
        except InvalidInstance:
            continue
        which = [False, True] if variants and variant_applies(puzzle, instance) else [False]
        for name, variant, why in beyond_reach(puzzle, instance, formulations_chosen(puzzle.name, settings), which,
                                               settings):
            left.setdefault(name, []).append((instance_file.name + (" [variant]" if variant else ""), why))
    return left


def formulations_chosen(puzzle: str, settings: RunSettings) -> list[str]:
    """The formulations (or their configurations, by label) `settings` runs on instances of
    `puzzle`, each once (a name given twice runs once) and in the registry's order, the
    configurations of one formulation in the order named: the named ones of that puzzle; none
    named, the puzzle's defaults, or none when `settings` has external programs."""
    if not settings.solvers:
        # external programs alone: a lone program is tested, not compared with the built-ins
        return [] if settings.externals else [s.name for s in default_solvers_for(puzzle)]
    named = dict.fromkeys(settings.solvers)
    return [name for s in solvers_named(puzzle, {formulation_of(name) for name in named}) for name in named
            if formulation_of(name) == s.name]


def comparison_tasks(files: Iterable[InstanceFile], settings: RunSettings, done: Mapping[RunKey, RunRecord],
                     variants: bool = False, repeat: int = 1) -> tuple[list[RunRecord], list[tuple[Task, Expected]]]:
    """The records a comparison of `files` (`discover_all`) already has (unreadable files,
    runs in `done` by their `Task.key`) and the tasks still to run, in the order of `files`
    (`instance_tasks` says what `variants` and `repeat` add)."""
    records: list[RunRecord] = []
    tasks: list[tuple[Task, Expected]] = []
    for instance_file in files:
        unreadable, scheduled = instance_tasks(instance_file, settings, variants, repeat)
        records += unreadable
        for run, expected in scheduled:
            if run.key in done:
                records.append(done[run.key])
            else:
                tasks.append((run, expected))
    return records, tasks


def variant_applies(puzzle: Puzzle, instance: Instance) -> bool:
    """True when the puzzle's variant transform accepts `instance`."""
    try:
        puzzle.variant(instance)
    except InvalidInstance:
        return False
    return True


def puzzles_held(files: Iterable[InstanceFile]) -> set[str]:
    """The puzzles whose instances `files` hold, each file's by its format (`format_of`);
    a file that cannot be read or that no puzzle claims holds none."""
    return {puzzle for puzzle in map(format_of, files) if puzzle}


def format_of(instance_file: InstanceFile) -> str | None:
    """The name of the puzzle whose format the file is in (`detect_puzzle`, without parsing
    the rest), ``""`` when no puzzle claims it, None when it cannot be read (a FIFO is never
    opened to sniff it)."""
    try:
        refuse_special_file(str(instance_file.path))
        text = read_instance_text(str(instance_file.path))
    except InvalidInstance:
        return None
    try:
        return detect_puzzle(text, str(instance_file.path)).name
    except InvalidInstance:
        return ""


def holds_nothing(path: Path, files: list[InstanceFile]) -> str | None:
    """Why `path`, as given, holds nothing to run, in one line naming it (and up to three
    files in no format, so the researcher sees which) and the files
    expected: no instance file below a folder, or only files that every puzzle's format
    refuses (`format_of`); None when it holds an instance, or a file that cannot be read
    (its run reports that: one bad file is an error record, not a usage error)."""
    if any(format_of(instance_file) != "" for instance_file in files):  # stops at the first: one file read
        return None
    expected = f"*{INSTANCE_SUFFIX} files below it, searched recursively, each in a puzzle's format"
    if not path.is_dir():
        found, expected = "it is in no puzzle's format", "an instance file"
    elif files:
        named = some_named([str(instance_file.path) for instance_file in files])
        found = f"{counted(len(files), '*' + INSTANCE_SUFFIX + ' file')} below it ({named}), in no puzzle's format"
    else:
        found = f"no *{INSTANCE_SUFFIX} file below it"
    return f"{path}: no instance to run: {found} (expected {expected}, {known_formats()})"


def left_unrun(files: Iterable[InstanceFile], solver_names: Iterable[str], externals: Iterable[External]
               ) -> dict[str, list[InstanceFile]]:
    """Per puzzle, the `files` in its format that nothing chosen runs on: no named formulation
    is of that puzzle and no external program applies to it (`instance_tasks` schedules no
    run for them).  A file in the format that does not parse is left out: it is an `error` record.  Empty
    when neither formulations nor programs are named (every puzzle's defaults run)."""
    names, programs = tuple(solver_names), tuple(externals)
    if not names and not programs:
        return {}
    covered = {get_solver(name).puzzle for name in names}
    left: dict[str, list[InstanceFile]] = {}
    for instance_file in files:
        puzzle = format_of(instance_file)
        if puzzle and puzzle not in covered and not any(e.applies_to(puzzle) for e in programs) and _parses(
                instance_file):
            left.setdefault(puzzle, []).append(instance_file)
    return left


def _parses(instance_file: InstanceFile) -> bool:
    try:
        load_instance(str(instance_file.path))
    except InvalidInstance:
        return False
    return True


def runs_on_none(solver_names: Iterable[str], externals: Iterable[External], puzzles: set[str]
                 ) -> tuple[str, str] | None:
    """The first named formulation or external program that applies to none of `puzzles`,
    as (its option, why: ``keys-graph is a formulation of keys``), or None when each
    applies to one of them.  Such a choice would make nothing run, or runs that can only
    answer ``unsupported``: the command line refuses it before anything runs."""
    for name in solver_names:
        puzzle = get_solver(name).puzzle
        if puzzle not in puzzles:
            return "--solver", f"{name} is a formulation of {puzzle}"
    for external in externals:
        if external.puzzle is not None and external.puzzle not in puzzles:
            return "--external", f"{external.puzzle}:{external.name} runs on {external.puzzle} instances only"
    return None
