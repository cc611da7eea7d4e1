"""What the workflows check before anything runs, and the errors that stop them.

Every workflow (``compare``, ``morph``, ``hunt``, ``solve``) first makes sure that what it
was asked to run makes sense: the formulations named exist, each external program has a
name of its own, some chosen runner applies to the puzzles at hand, the paths hold
instances.  A choice that cannot make sense is `SettingsError` (naming the command-line
option it comes from), unusable input is `UnusableInput`; both are raised before any run
starts, so a run in which nothing runs never looks like a success.  What is worth saying
but stops nothing (files no chosen runner applies to, names two files would share) is a
note: a line ``note: ...`` or ``warning: ...`` handed to the workflow's `Tell` callback
as it is found, and kept in its outcome.

Nothing here prints.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from crosscheck.harness.reports.wording import counted, some_named, with_article
from crosscheck.models.registry import get_puzzle, puzzles

if TYPE_CHECKING:
    from crosscheck.harness.inputs.index import InstanceFile
    from crosscheck.harness.records.record import Task
    from crosscheck.harness.runs.external import External
    from crosscheck.harness.runs.settings import RunSettings

#: Where a workflow sends each note as it is found (the command line writes it on stderr).
Tell = Callable[[str], None]


def silent(line: str) -> None:
    """A `Tell` that drops the note (the outcome keeps it)."""


class Notes:
    """The notes a workflow tells as it goes (each handed on to `tell` at once), kept for its outcome."""

    def __init__(self, tell: Tell = silent) -> None:
        self.lines: list[str] = []
        self.tell = tell

    def __call__(self, line: str) -> None:
        self.lines.append(line)
        self.tell(line)


class SettingsError(ValueError):
    """Settings a workflow cannot run with (an unknown solver, a program named twice, a
    results file that already holds records); `option` names the command-line option the
    setting comes from (``--solver``), or is None for a setting no one option holds."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


class UnusableInput(ValueError):
    """Input a workflow cannot use, in one line naming it: a path holding no instance, a
    results file with a line that is not a run record."""


def check_solver_names(names: Iterable[str]) -> None:
    """`SettingsError` (``--solver``) for the first name no formulation has, listing the valid ones."""
    from crosscheck.solvers.registry import get_solver

    for name in names:
        try:
            get_solver(name)
        except KeyError as error:
            raise SettingsError(error.args[0], "--solver") from None


def configurations(specs: Iterable[str]) -> tuple[str, ...]:
    """The labels of the configurations ``--solver`` specs stand for (``keys-graph[bound=none|default]``
    is two: `crosscheck.solvers.configuration.parse_specs`); `SettingsError` (``--solver``)
    naming the valid formulations, options or values when a spec names none."""
    from crosscheck.solvers.configuration import ConfigurationError, parse_specs

    try:
        return parse_specs(tuple(specs))
    except ConfigurationError as error:
        raise SettingsError(str(error), "--solver") from None


def parse_externals(specs: Iterable[str], source_specs: Iterable[str] = ()) -> tuple[External, ...]:
    """The ``--external`` programs, each with the files ``--external-source`` names for it.

    A name stands for one program in the records (their runs, and its version, are found by
    it), so a name given twice, even for two puzzles, and a solver's name are `SettingsError`."""
    from crosscheck.harness.runs.external import External
    from crosscheck.solvers.registry import get_solver, origin

    externals: list[External] = []
    for spec in specs:
        try:
            external = External.parse(spec)
        except ValueError as error:
            raise SettingsError(str(error), "--external") from None
        try:
            get_solver(external.name)
        except KeyError:
            pass
        else:
            raise SettingsError(f"{external.name!r} is already a solver's name ({origin(external.name)}): "
                                "give the program another name", "--external")
        if external.puzzle is not None and external.puzzle not in puzzles():
            raise SettingsError(f"unknown puzzle {external.puzzle!r} (valid: {', '.join(puzzles())})", "--external")
        for given in externals:
            if given.name == external.name:
                raise SettingsError(
                    f"the name {external.name!r} is given twice ({given.spec!r} and {external.spec!r}): its runs and "
                    "its version are recorded by name, so each program needs a name of its own, even on different "
                    "puzzles", "--external")
        externals.append(external)
    return _with_sources(externals, source_specs)


def _with_sources(externals: list[External], specs: Iterable[str]) -> tuple[External, ...]:
    """`externals`, each with the paths of the ``--external-source NAME=PATH`` naming it; a
    spec naming no ``--external``, or a path that does not exist, is `SettingsError`."""
    by_name = {external.name: external for external in externals}
    for spec in specs:
        name, separator, path = spec.partition("=")
        if not separator or not path:
            raise SettingsError(f"expected NAME=PATH, got {spec!r}", "--external-source")
        if name not in by_name:
            raise SettingsError(f"{name!r} is no --external program (given: {', '.join(by_name) or 'none'})",
                                "--external-source")
        if not Path(path).exists():
            raise SettingsError(f"{path}: no such file or folder", "--external-source")
        by_name[name] = by_name[name].with_source(path)
    return tuple(by_name[external.name] for external in externals)


def relation_names(text: str | Sequence[str] | None) -> tuple[str, ...]:
    """The relations named (comma-separated text, or a sequence of names); each must be a
    relation of some puzzle (`SettingsError`, ``--relations``, listing them)."""
    parts = (text or "").split(",") if isinstance(text, str) or text is None else list(text)
    names = tuple(name.strip() for name in parts if name.strip())
    known = sorted({relation.name for puzzle in puzzles().values() for relation in puzzle.relations})
    for name in names:
        if name not in known:
            raise SettingsError(f"unknown relation {name!r}; valid: {', '.join(known)}", "--relations")
    return names


def puzzle_named(name: str) -> str:
    """`name` when it names a puzzle (built in or a plugin's), else `SettingsError` listing them."""
    try:
        return get_puzzle(name).name
    except KeyError as error:
        raise SettingsError(str(error.args[0]), "PUZZLE") from None


def discovered(paths: Iterable[Path], tell: Tell) -> list[InstanceFile]:
    """The instance files of `paths` (`crosscheck.harness.runs.schedule.discover_all`), with a
    warning for each index entry that names no instance file, the notes of `_clashes`, and
    one for the files below a folder that are in a puzzle's format but not named ``*.txt``
    (`crosscheck.harness.inputs.lookalikes`), each told.  A path holding no instance to run
    (`crosscheck.harness.runs.schedule.holds_nothing`) is `UnusableInput`."""
    from crosscheck.harness.inputs.index import Indexes, discover
    from crosscheck.harness.inputs.lookalikes import lookalikes, lookalikes_note
    from crosscheck.harness.runs.schedule import discover_all, holds_nothing

    paths = list(paths)
    indexes = Indexes()
    for path in paths:
        unread = lookalikes(path) if path.is_dir() else []
        note = lookalikes_note(path, unread) if unread else ""
        why = holds_nothing(path, discover(path, indexes))
        if why is not None:
            raise UnusableInput(f"{why}; {note}" if note else why)
        if note:
            tell(f"note: {note}")
    files = discover_all(paths, indexes)
    for warning in indexes.unmatched():
        tell(f"warning: {warning}")
    for line in _clashes(files):
        tell(line)
    return files


def _clashes(files: list[InstanceFile]) -> list[str]:
    """A note for each name two files would have shared, with the names (their paths as
    given) that keep their runs apart instead (`crosscheck.harness.runs.schedule.unique_names`)."""
    clashes: dict[str, list[str]] = {}
    for instance_file in files:
        if instance_file.clashed_name is not None:
            clashes.setdefault(instance_file.clashed_name, []).append(instance_file.name)
    return [f"note: {counted(len(names), 'file')} would share the name {shared}; named by their paths instead: "
            f"{', '.join(names)}" for shared, names in clashes.items()]


def instance_files(paths: Iterable[Path], settings: RunSettings, tell: Tell) -> tuple[list[InstanceFile], list[Path]]:
    """What ``compare`` and ``morph`` check first: the formulations named exist, `paths` hold
    instances (`discovered`) and some chosen runner applies to their puzzles
    (`refuse_runs_on_none`); the instance files, and those no chosen runner applies to
    (`left_unrun`), with every note told."""
    from crosscheck.harness.runs.schedule import puzzles_held

    check_solver_names(settings.solvers)
    files = discovered(paths, tell)
    refuse_runs_on_none(settings, puzzles_held(files), "the paths given hold only {} instances")
    return files, left_unrun(files, settings, tell)


def left_unrun(files: list[InstanceFile], settings: RunSettings, tell: Tell) -> list[Path]:
    """The files in a puzzle's format that nothing chosen runs on
    (`crosscheck.harness.runs.schedule.left_unrun`): they get no run, no record and no
    verdict.  A note per puzzle, naming up to three, is told."""
    from crosscheck.harness.runs.schedule import left_unrun as unrun

    left: list[Path] = []
    for puzzle, files_left in unrun(files, settings.solvers, settings.externals).items():
        named = some_named([str(instance_file.path) for instance_file in files_left])
        tell(f"note: {counted(len(files_left), puzzle + ' file')} not run (no chosen solver or program runs on "
             f"{puzzle}): {named}")
        left += [instance_file.path for instance_file in files_left]
    return left


def refuse_runs_on_none(settings: RunSettings, puzzles_at_hand: set[str], held: str, article: bool = False) -> None:
    """`SettingsError` when a named formulation or external program applies to none of
    `puzzles_at_hand` (`crosscheck.harness.runs.schedule.runs_on_none`): nothing would run it.
    `held` says where the puzzles come from, ``{}`` standing for them (with their article
    when `article`).  No puzzle at hand (no readable instance) refuses nothing."""
    from crosscheck.harness.runs.schedule import runs_on_none

    refused = runs_on_none(settings.solvers, settings.externals, puzzles_at_hand) if puzzles_at_hand else None
    if refused is not None:
        option, why = refused
        names = sorted(puzzles_at_hand)
        listed = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        raise SettingsError(f"{why}, and {held.format(with_article(listed) if article else listed)}", option)


def with_reference(puzzle: str, settings: RunSettings, reference: bool, tell: Tell) -> RunSettings:
    """`settings` with the puzzle's reference formulation (`crosscheck.models.puzzle.Puzzle.reference`,
    its fastest exact one) chosen when only external programs are, so that a program's
    claims can be contradicted; told so.  Unchanged when formulations are named, when no
    program applies to `puzzle`, when `reference` is False, or when the puzzle names none."""
    from dataclasses import replace

    name = get_puzzle(puzzle).reference
    if settings.solvers or not reference or not name or not any(e.applies_to(puzzle) for e in settings.externals):
        return settings
    tell(f"note: also running {name}, the puzzle's reference, so that the program's claims can be contradicted; "
         "--no-reference to run the program alone")
    return replace(settings, solvers=(name,))


def oversubscribed(tasks: Sequence[Task], jobs: int) -> str:
    """A warning when runs would wait for a core (`crosscheck.harness.runs.measure.oversubscription`), else ''."""
    from crosscheck.harness.runs.batch import shared_out, threads
    from crosscheck.harness.runs.measure import oversubscription

    return oversubscription(min(jobs, len(tasks)), max((threads(shared_out(task, jobs)) for task in tasks), default=1))
