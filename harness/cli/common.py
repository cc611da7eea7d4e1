"""What several commands share: exit statuses, the input error, reading and printing records."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import click
from crosscheck.harness.reports.formats import (
    HUMAN_FORMATS,
)
from crosscheck.harness.reports.wording import counted, some_named, with_article
from crosscheck.models.registry import get_puzzle, puzzles

if TYPE_CHECKING:  # what each command needs is imported when it runs, so that --help starts fast
    from crosscheck.harness.inputs.index import InstanceFile
    from crosscheck.harness.judging.verdicts import JudgedRuns
    from crosscheck.harness.records.record import ResultsFile, RunRecord, Task
    from crosscheck.harness.records.versions import Pinned
    from crosscheck.harness.runs.external import External


EXIT_OK, EXIT_WRONG, EXIT_USAGE, EXIT_FAILED_RUNS = 0, 1, 2, 3


EXIT_INTERRUPTED = 130  # the shell's code for a process ended by SIGINT (Ctrl-C)


class BadInput(click.ClickException):
    """Input the command cannot use: ``Error: MESSAGE`` on stderr, exit `EXIT_USAGE`, no traceback."""

    exit_code = EXIT_USAGE


def _check_solver_names(names: tuple[str, ...]) -> None:
    from crosscheck.solvers.registry import get_solver

    for name in names:
        try:
            get_solver(name)
        except KeyError as error:
            raise click.BadParameter(error.args[0], param_hint="--solver") from None


def _print(runs: JudgedRuns, fmt: str, environment: bool = False) -> None:
    """The judged records in `fmt` on stdout (a table for people with the environment of the
    runs after it when `environment`, as ``report`` shows it); for the data formats, the
    verdict notes on stderr."""
    from crosscheck.harness.reports.tables import notes, render

    click.echo(render(runs, fmt, environment=environment), nl=False)
    if fmt not in HUMAN_FORMATS:
        click.echo(notes(runs), err=True, nl=False)


def _warn_oversubscribed(tasks: list[Task], jobs: int) -> None:
    """Warn on stderr when runs would wait for a core (`oversubscription`)."""
    from crosscheck.harness.runs.measure import oversubscription
    from crosscheck.harness.runs.runner import threads

    warning = oversubscription(min(jobs, len(tasks)), max((threads(task) for task in tasks), default=1))
    if warning:
        click.echo(warning, err=True)


def _discovered(paths: tuple[Path, ...]) -> list[InstanceFile]:
    """The instance files of `paths` (`crosscheck.harness.runs.schedule.discover_all`), with a
    warning on stderr for each index entry that names no instance file, and the notes of
    `_note_clashes`, and one for the files below a folder that are in a puzzle's format but
    not named ``*.txt`` (`crosscheck.harness.inputs.lookalikes`).  A path holding no instance to run (`crosscheck.harness.runs.schedule.holds_nothing`)
    is `BadInput`: a run of nothing must not look like a success."""
    from crosscheck.harness.inputs.index import Indexes, discover
    from crosscheck.harness.inputs.lookalikes import lookalikes, lookalikes_note
    from crosscheck.harness.runs.schedule import discover_all, holds_nothing

    indexes = Indexes()
    for path in paths:
        unread = lookalikes(path) if path.is_dir() else []
        note = lookalikes_note(path, unread) if unread else ""
        why = holds_nothing(path, discover(path, indexes))
        if why is not None:
            raise BadInput(f"{why}; {note}" if note else why)
        if note:
            click.echo(f"note: {note}", err=True)
    files = discover_all(paths, indexes)
    for warning in indexes.unmatched():
        click.echo(f"warning: {warning}", err=True)
    _note_clashes(files)
    return files


def _note_left_unrun(files: list[InstanceFile], solver_names: tuple[str, ...], externals: Iterable[External]) -> None:
    """A note on stderr per puzzle whose files nothing chosen runs on (`crosscheck.harness.runs.schedule.left_unrun`),
    naming up to three: they have no run, no record and no verdict."""
    from crosscheck.harness.runs.schedule import left_unrun

    for puzzle, left in left_unrun(files, solver_names, externals).items():
        named = some_named([str(instance_file.path) for instance_file in left])
        click.echo(f"note: {counted(len(left), puzzle + ' file')} not run (no chosen solver or program runs on "
                   f"{puzzle}): {named}", err=True)


def _note_clashes(files: list[InstanceFile]) -> None:
    """A note on stderr for each name two files would have shared, with the names (their
    paths as given) that keep their runs apart instead (`crosscheck.harness.runs.schedule.unique_names`)."""
    clashes: dict[str, list[str]] = {}
    for instance_file in files:
        if instance_file.clashed_name is not None:
            clashes.setdefault(instance_file.clashed_name, []).append(instance_file.name)
    for shared, names in clashes.items():
        click.echo(f"note: {counted(len(names), 'file')} would share the name {shared}; named by their paths "
                   f"instead: {', '.join(names)}", err=True)


def _read(path: Path, refusal: str = "") -> ResultsFile:
    """A results file's records and what reading it skipped; a line that is not a record,
    or one from a newer crosscheck, is `BadInput` naming file and line (with `refusal`
    after it, when given)."""
    from crosscheck.harness.records.record import read_results
    from crosscheck.harness.records.schema import UnreadableRecord

    try:
        return read_results(path)
    except UnreadableRecord as error:
        raise BadInput(f"{error} ({refusal})" if refusal else str(error)) from None


def _read_all(paths: tuple[Path, ...]) -> list[RunRecord]:
    """The records of several results files (the parts of a sharded comparison, say),
    one per run: a run recorded twice keeps its later record, with a warning on stderr
    (`_read_files` says what else)."""
    return _merged(_read_files(paths)[0])[0]


def _read_files(paths: tuple[Path, ...]) -> tuple[list[tuple[str, list[RunRecord]]], list[str]]:
    """Each results file's name and records, and the notes on reading them (a last line
    cut short, records of an older schema: `ResultsFile.notes`; a file without records
    among others), each also on stderr.  `BadInput` when no file holds a record (nothing
    to report), or when a line is not a record (naming it as `_read` does)."""
    named, notes = [], []
    for path in paths:
        contents = _read(path)
        named.append((str(path), contents.records))
        notes += contents.notes(str(path))
    if any(records for _, records in named):
        notes += [f"{name}: no records" for name, records in named if not records]
    for note in notes:
        click.echo(f"note: {note}", err=True)
    if not any(records for _, records in named):
        raise BadInput(f"no records in {', '.join(map(str, paths))}")
    return named, notes


def _merged(files: list[tuple[str, list[RunRecord]]]) -> tuple[list[RunRecord], list[str]]:
    """The records of `files` (name, records) merged as `_read_all` says, and the warnings
    (also on stderr)."""
    from crosscheck.harness.runs.shard import merge

    records, warnings = merge(files)
    for warning in warnings:
        click.echo(f"warning: {warning}", err=True)
    return records, warnings


def _parse_externals(specs: tuple[str, ...], source_specs: tuple[str, ...] = ()) -> list[External]:
    """The ``--external`` programs, each with the files ``--external-source`` names for it.

    A name stands for one program in the records (their runs, and its version, are found by
    it), so a name given twice, even for two puzzles, and a solver's name are usage errors."""
    from crosscheck.harness.runs.external import External
    from crosscheck.solvers.registry import get_solver, origin

    externals: list[External] = []
    for spec in specs:
        try:
            external = External.parse(spec)
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="--external") from None
        try:
            get_solver(external.name)
        except KeyError:
            pass
        else:
            raise click.BadParameter(f"{external.name!r} is already a solver's name ({origin(external.name)}): "
                                     "give the program another name", param_hint="--external")
        if external.puzzle is not None and external.puzzle not in puzzles():
            raise click.BadParameter(f"unknown puzzle {external.puzzle!r} (valid: {', '.join(puzzles())})",
                                     param_hint="--external")
        for given in externals:
            if given.name == external.name:
                raise click.BadParameter(
                    f"the name {external.name!r} is given twice ({given.spec!r} and {external.spec!r}): its runs and "
                    "its version are recorded by name, so each program needs a name of its own, even on different "
                    "puzzles", param_hint="--external")
        externals.append(external)
    return _with_sources(externals, source_specs)


def _with_sources(externals: list[External], specs: tuple[str, ...]) -> list[External]:
    """`externals`, each with the paths of the ``--external-source NAME=PATH`` naming it; a
    spec naming no ``--external``, or a path that does not exist, is a usage error."""
    by_name = {external.name: external for external in externals}
    for spec in specs:
        name, separator, path = spec.partition("=")
        if not separator or not path:
            raise click.BadParameter(f"expected NAME=PATH, got {spec!r}", param_hint="--external-source")
        if name not in by_name:
            raise click.BadParameter(f"{name!r} is no --external program (given: {', '.join(by_name) or 'none'})",
                                     param_hint="--external-source")
        if not Path(path).exists():
            raise click.BadParameter(f"{path}: no such file or folder", param_hint="--external-source")
        by_name[name] = by_name[name].with_source(path)
    return [by_name[external.name] for external in externals]


def _warn_changed(versions: Pinned) -> None:
    """Warn on stderr of each solver whose code changed while the command ran (`Pinned.changed`)."""
    for warning in versions.changed():
        click.echo(f"warning: {warning}", err=True)


def _refuse_runs_on_none(solver_names: tuple[str, ...], externals: Iterable[External], puzzles: set[str], held: str,
                         article: bool = False) -> None:
    """Stop with exit 2 when a named formulation or external program applies to none of
    `puzzles`, the puzzles at hand (`crosscheck.harness.runs.schedule.runs_on_none`): nothing would
    run it, and a run in which nothing runs must not look like a success.  `held` says
    where the puzzles come from, ``{}`` standing for them (with their article when
    `article`).  No puzzle at hand (no readable instance) refuses nothing."""
    from crosscheck.harness.runs.schedule import runs_on_none

    refused = runs_on_none(solver_names, externals, puzzles) if puzzles else None
    if refused is not None:
        option, why = refused
        names = sorted(puzzles)
        listed = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        raise click.BadParameter(f"{why}, and {held.format(with_article(listed) if article else listed)}",
                                 param_hint=option)


def _exit_status(runs: JudgedRuns) -> int:
    from crosscheck.harness.judging.verdicts import FAILURES
    from crosscheck.solvers.base import FAILED_STATUSES

    if any(v.verdict in FAILURES for v in runs.verdicts):
        return EXIT_WRONG
    if any(r.status in FAILED_STATUSES for r in runs.records):
        return EXIT_FAILED_RUNS
    return EXIT_OK


def _puzzle_name(context: click.Context, param: click.Parameter, name: str) -> str:
    """`name` when it names a puzzle (built in or a plugin's), else a usage error listing them."""
    try:
        return get_puzzle(name).name
    except KeyError as error:
        raise click.BadParameter(str(error.args[0]), param_hint="PUZZLE") from None


def _relation_names(text: str | None) -> tuple[str, ...]:
    """The names of ``--relations``; each must be a relation of some puzzle."""
    names = tuple(name.strip() for name in (text or "").split(",") if name.strip())
    known = sorted({relation.name for puzzle in puzzles().values() for relation in puzzle.relations})
    for name in names:
        if name not in known:
            raise click.BadParameter(f"unknown relation {name!r}; valid: {', '.join(known)}", param_hint="--relations")
    return names
