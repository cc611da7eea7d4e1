"""What several commands share: exit statuses, the input error, reading and printing records,
and how a workflow's errors and notes reach the terminal."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click
from crosscheck.harness.reports.formats import (
    HUMAN_FORMATS,
)
from crosscheck.harness.workflows.choosing import SettingsError, UnusableInput, puzzle_named
from crosscheck.harness.workflows.exits import EXIT_FAILED_RUNS, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, EXIT_WRONG

if TYPE_CHECKING:  # what each command needs is imported when it runs, so that --help starts fast
    from crosscheck.harness.judging.verdicts import JudgedRuns
    from crosscheck.harness.records.record import ResultsFile, RunRecord

__all__ = ["EXIT_FAILED_RUNS", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_USAGE", "EXIT_WRONG"]


class BadInput(click.ClickException):
    """Input the command cannot use: ``Error: MESSAGE`` on stderr, exit `EXIT_USAGE`, no traceback."""

    exit_code = EXIT_USAGE


def _print(runs: JudgedRuns, fmt: str, environment: bool = False) -> None:
    """The judged records in `fmt` on stdout (a table for people with the environment of the
    runs after it when `environment`, as ``report`` shows it); for the data formats, the
    verdict notes on stderr."""
    from crosscheck.harness.reports.tables import notes, render

    click.echo(render(runs, fmt, environment=environment), nl=False)
    if fmt not in HUMAN_FORMATS:
        click.echo(notes(runs), err=True, nl=False)


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


def _puzzle_name(context: click.Context, param: click.Parameter, name: str) -> str:
    """`name` when it names a puzzle (built in or a plugin's), else a usage error listing them."""
    with workflow_errors():
        return puzzle_named(name)


def _tell(line: str) -> None:
    """A workflow's note, on stderr as it comes."""
    click.echo(line, err=True)


@contextmanager
def workflow_errors() -> Iterator[None]:
    """A workflow's refusals as the command line reports them (exit 2): a `SettingsError`
    naming its option as click names a bad option's value (a usage error when it names
    none), an `UnusableInput` as `BadInput`."""
    try:
        yield
    except SettingsError as error:
        if error.option is None:
            raise click.UsageError(str(error)) from None
        raise click.BadParameter(str(error), param_hint=error.option) from None
    except UnusableInput as error:
        raise BadInput(str(error)) from None
