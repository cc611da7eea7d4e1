"""``crosscheck solve``."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click
from crosscheck.models.base import InvalidInstance
from crosscheck.models.registry import load_instance, refuse_special_file

if TYPE_CHECKING:  # what each command needs is imported when it runs, so that --help starts fast
    from crosscheck.harness.records.record import RunRecord
    from crosscheck.solvers.base import Clock
from crosscheck.harness.cli.common import (
    EXIT_USAGE,
    BadInput,
    _check_solver_names,
    _exit_status,
    _parse_externals,
    _print,
    _refuse_runs_on_none,
    _warn_changed,
    _warn_oversubscribed,
)
from crosscheck.harness.cli.options import (
    clock_option,
    cpsat_workers_option,
    external_option,
    external_source_option,
    format_option,
    memory_limit_option,
    progress_option,
    solver_option,
    time_limit_option,
)


def _saver(out: Path | None) -> Callable[[RunRecord], None]:
    """What saves each finished record: appended to `out` (made ready first), or nothing."""
    from crosscheck.harness.records.record import append_record, repair_tail

    if out is None:
        return lambda record: None
    out.parent.mkdir(parents=True, exist_ok=True)
    repair_tail(out)
    return lambda record: append_record(out, record)


def _regular_file(context: click.Context, param: click.Parameter, path: Path) -> Path:
    """An instance path given alone: a directory, FIFO or device is `BadInput`, found
    without opening it (opening a FIFO would wait for a writer forever)."""
    try:
        refuse_special_file(str(path))
    except InvalidInstance as error:
        raise BadInput(str(error)) from None
    return path


@click.command("solve")
@click.argument("path", type=click.Path(exists=True, path_type=Path), callback=_regular_file)
@solver_option
@click.option("--variant", "--four-robots", "--deep", "--extended", "variant", is_flag=True,
              help="Solve the puzzle's variant (crosscheck list names each puzzle's).")
@time_limit_option
@clock_option
@memory_limit_option
@cpsat_workers_option
@external_option
@external_source_option
@format_option
@click.option("--json", "as_json", is_flag=True, hidden=True, help="Same as --format json (kept for old scripts).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Also append one JSON Lines record per run to this file (as compare --out does).")
@progress_option
def solve(path: Path, solver_names: tuple[str, ...], variant: bool, time_limit: float, clock: Clock,
          memory_limit: int, cpsat_workers: int | None, external_specs: tuple[str, ...],
          external_sources: tuple[str, ...], fmt: str, as_json: bool, out: Path | None, progress_mode: str) -> None:
    """Solve one instance file with the named solvers (all applicable ones by default).

    PATH must be a regular file: a directory, FIFO or device is refused at once (exit 2).
    """
    from crosscheck.harness.inputs.index import discover
    from crosscheck.harness.judging.verdicts import judged
    from crosscheck.harness.reports.progress import Progress
    from crosscheck.harness.runs.runner import run_tasks
    from crosscheck.harness.runs.schedule import Choice, formulations_chosen, task

    _check_solver_names(solver_names)
    externals = _parse_externals(external_specs, external_sources)
    try:
        puzzle, _ = load_instance(str(path))
    except InvalidInstance as error:
        click.echo(f"Error: {error}", err=True)
        sys.exit(EXIT_USAGE)  # the one input it was given is unusable: nothing ran (see the README)
    _refuse_runs_on_none(solver_names, externals, {puzzle.name}, f"{path} is {{}} instance", article=True)
    instance_file = discover(path)[0]
    choice = Choice(solver_names, tuple(externals), time_limit=time_limit, memory_limit=memory_limit,
                    cpsat_workers=cpsat_workers, clock=clock)
    names = formulations_chosen(puzzle.name, choice)  # each once, as compare runs them
    tasks = [task(instance_file, puzzle.name, name, variant, choice) for name in names]
    tasks += [task(instance_file, puzzle.name, e.name, variant, choice, e) for e in externals]
    _warn_oversubscribed([run for run, _ in tasks], jobs=1)
    # One run at a time, as compare shows them; no ticking thread, so the runs may still fork.
    progress = Progress(len(tasks), 1, limit=time_limit, mode=progress_mode, ticking=False)
    save = _saver(out)

    def finished(record: RunRecord) -> None:
        save(record)
        progress(record)

    try:  # fork: no forkserver to fill
        records = run_tasks(tasks, jobs=1, on_record=finished, on_start=progress.started, on_end=progress.ended,
                            start_method="fork")
    finally:
        progress.close()
    runs = judged(records)
    _print(runs, "json" if as_json else fmt)
    _warn_changed(choice.versions)
    sys.exit(_exit_status(runs))
