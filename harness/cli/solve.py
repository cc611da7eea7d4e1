"""``crosscheck solve``: options in, `crosscheck.harness.workflows.solve` run, its outcome printed."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
from crosscheck.models.base import InvalidInstance
from crosscheck.models.registry import refuse_special_file

if TYPE_CHECKING:  # what each command needs is imported when it runs, so that --help starts fast
    from crosscheck.solvers.base import Clock
from crosscheck.harness.cli.common import (
    EXIT_USAGE,
    BadInput,
    _print,
    _tell,
    workflow_errors,
)
from crosscheck.harness.cli.options import (
    clock_option,
    cpsat_workers_option,
    external_option,
    external_source_option,
    format_option,
    memory_limit_option,
    no_reference_option,
    progress_option,
    solver_option,
    time_limit_option,
)


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
@no_reference_option
@progress_option
def solve(path: Path, solver_names: tuple[str, ...], variant: bool, time_limit: float, clock: Clock,
          memory_limit: int, cpsat_workers: int | None, external_specs: tuple[str, ...],
          external_sources: tuple[str, ...], fmt: str, as_json: bool, out: Path | None, reference: bool,
          progress_mode: str) -> None:
    """Solve one instance file with the named solvers (all applicable ones by default).

    PATH must be a regular file: a directory, FIFO or device is refused at once (exit 2).
    With --external programs and no --solver, the puzzle's reference formulation runs
    beside them (--no-reference: the programs alone).
    """
    from crosscheck.harness.runs.settings import RunSettings
    from crosscheck.harness.workflows.choosing import parse_externals
    from crosscheck.harness.workflows.solve import SolveSettings
    from crosscheck.harness.workflows.solve import solve as run_solve

    with workflow_errors():
        runs = RunSettings(solvers=solver_names, externals=parse_externals(external_specs, external_sources),
                           time_limit=time_limit, clock=clock, memory_limit_mb=memory_limit, jobs=1,
                           cpsat_workers=cpsat_workers, progress=progress_mode)
        try:
            outcome = run_solve(SolveSettings(path, runs, variant=variant, out=out, reference=reference), _tell)
        except InvalidInstance as error:
            click.echo(f"Error: {error}", err=True)
            sys.exit(EXIT_USAGE)  # the one input it was given is unusable: nothing ran (see the README)
    _print(outcome.runs, "json" if as_json else fmt)
    for warning in outcome.changed:
        click.echo(warning, err=True)
    sys.exit(outcome.exit_status)
