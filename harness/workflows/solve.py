"""Solving one instance file with every chosen formulation (``crosscheck solve``, ``crosscheck.solve``).

`solve` detects the file's puzzle, runs each chosen formulation and external program on
it once, one at a time, each in a process of its own forked from this one (no
forkserver: a few runs cost less than filling one), and judges the runs as ``compare``
does.  It returns a `SolveOutcome` and never prints.  With external programs alone, the
puzzle's reference formulation runs beside them (`SolveSettings.reference`,
`crosscheck.harness.workflows.choosing.with_reference`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from crosscheck.harness.runs.settings import RunSettings
from crosscheck.harness.workflows.choosing import (
    Notes,
    Tell,
    check_solver_names,
    refuse_runs_on_none,
    silent,
    with_reference,
)
from crosscheck.harness.workflows.exits import runs_status

if TYPE_CHECKING:
    from crosscheck.harness.judging.verdicts import JudgedRuns
    from crosscheck.harness.records.record import RunRecord


@dataclass(frozen=True)
class SolveSettings:
    """What `solve` runs on the file at `path`: its `variant` (four robots, deep burrow,
    extended elevator) instead of it when asked; each record is also appended to `out`
    when given; `reference` runs the puzzle's reference formulation beside external
    programs given alone."""

    path: Path
    runs: RunSettings = field(default_factory=lambda: RunSettings(jobs=1))
    variant: bool = False
    out: Path | None = None
    reference: bool = True


@dataclass(frozen=True)
class SolveOutcome:
    """The judged runs of one file, the notes told, and a warning per solver whose code
    changed while they ran."""

    runs: JudgedRuns
    notes: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()

    @property
    def exit_status(self) -> int:
        """1 on a wrong verdict, 3 when a run crashed, else 0 (`crosscheck.harness.workflows.exits`)."""
        return runs_status(self.runs)


def solve(settings: SolveSettings, tell: Tell = silent) -> SolveOutcome:
    """Run and judge every chosen runner on one file (module docstring).

    `crosscheck.models.base.InvalidInstance` (naming file, line and column) when the file
    cannot be read or parsed; `SettingsError` when what is chosen cannot run on it."""
    from crosscheck.harness.inputs.index import discover
    from crosscheck.harness.judging.verdicts import judged
    from crosscheck.harness.reports.progress import Progress
    from crosscheck.harness.runs.batch import run_tasks
    from crosscheck.harness.runs.schedule import formulations_chosen, task
    from crosscheck.harness.workflows.choosing import oversubscribed
    from crosscheck.models.registry import load_instance

    told = Notes(tell)
    check_solver_names(settings.runs.solvers)
    puzzle, _ = load_instance(str(settings.path))
    refuse_runs_on_none(settings.runs, {puzzle.name}, f"{settings.path} is {{}} instance", article=True)
    runs = with_reference(puzzle.name, settings.runs, settings.reference, told)
    instance_file = discover(settings.path)[0]
    names = formulations_chosen(puzzle.name, runs)  # each once, as compare runs them
    tasks = [task(instance_file, puzzle.name, name, settings.variant, runs) for name in names]
    tasks += [task(instance_file, puzzle.name, e.name, settings.variant, runs, e) for e in runs.externals]
    warning = oversubscribed([run for run, _ in tasks], jobs=1)
    if warning:
        told(warning)
    # One run at a time, as compare shows them; no ticking thread, so the runs may still fork.
    progress = Progress(len(tasks), 1, limit=runs.time_limit, mode=runs.progress, ticking=False)
    save = _saver(settings.out)

    def finished(record: RunRecord) -> None:
        save(record)
        progress(record)

    try:  # fork: no forkserver to fill
        records = run_tasks(tasks, jobs=1, on_record=finished, on_start=progress.started, on_end=progress.ended,
                            start_method="fork")
    finally:
        progress.close()
    return SolveOutcome(judged(records), tuple(told.lines), tuple(f"warning: {line}" for line in runs.versions.changed()))


def _saver(out: Path | None) -> Callable[[RunRecord], None]:
    """What saves each finished record: appended to `out` (made ready first), or nothing."""
    from crosscheck.harness.records.record import append_record, repair_tail

    if out is None:
        return lambda record: None
    out.parent.mkdir(parents=True, exist_ok=True)
    repair_tail(out)
    return lambda record: append_record(out, record)
