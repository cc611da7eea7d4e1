"""The ``crosscheck`` command line.

Exit statuses of ``solve`` and ``compare``:

- 0: every plan is valid and no two answers contradict each other or the index
  (instances without an exact answer within the limits are ``unverified``, not failures);
- 1: some answer is wrong: an invalid plan, a false optimum or infeasibility claim,
  contradicting bounds, or agreement on a value the index contradicts;
- 2: bad usage (unknown solver, missing folder, ...);
- 3: nothing contradicts, but some instance could not be read or some run crashed
  or ran out of memory.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from harness.index import InstanceFile, discover
from harness.records import RunRecord, Task, append_record, dump_records, read_records, repair_tail
from harness.report import FORMATS, render
from harness.run import run_tasks
from harness.verdicts import FAILURES, judge_all
from models.base import InvalidInstance
from models.registry import PUZZLES, load_instance
from solvers.base import Status
from solvers.registry import add_plugins, get_solver, plugin_modules, solvers_for

EXIT_OK, EXIT_WRONG, EXIT_FAILED_RUNS = 0, 1, 3


@click.group()
@click.version_option(package_name="crosscheck")
def main() -> None:
    """Cross-check independent formulations of combinatorial search puzzles.

    Extra solver modules named in the environment variable CROSSCHECK_SOLVERS
    (comma-separated) are registered too.
    """
    add_plugins(plugin_modules())


@main.command("list")
def list_command() -> None:
    """Show the puzzles and their solvers."""
    for puzzle in PUZZLES.values():
        click.echo(f"{puzzle.name}: {puzzle.title} (variant: {puzzle.variant_name})")
        for solver in solvers_for(puzzle.name):
            click.echo(f"  {solver.name:<20} {solver.summary}")


def _check_solver_names(names: tuple[str, ...]) -> None:
    for name in names:
        try:
            get_solver(name)
        except KeyError as error:
            raise click.BadParameter(error.args[0], param_hint="--solver") from None


time_limit_option = click.option(
    "--time-limit", type=click.FloatRange(min=0.1), default=60.0, show_default=True,
    help="Wall-clock seconds per run; a run past it is stopped and recorded as timeout.")
memory_limit_option = click.option(
    "--memory-limit", type=click.IntRange(min=64), default=8192, show_default=True,
    help="Address-space limit per run in MB; a run past it is recorded as memout.")
solver_option = click.option(
    "--solver", "solver_names", multiple=True, metavar="NAME",
    help="Run only this solver (repeatable; default: every solver of the puzzle).")


@main.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@solver_option
@click.option("--variant", "--four-robots", "--deep", "--extended", "variant", is_flag=True,
              help="Solve the puzzle's variant (four robots, deep burrow, extended elevator).")
@time_limit_option
@memory_limit_option
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array of run records instead of a table.")
def solve(path: Path, solver_names: tuple[str, ...], variant: bool, time_limit: float,
          memory_limit: int, as_json: bool) -> None:
    """Solve one instance file with the named solvers (all applicable ones by default)."""
    _check_solver_names(solver_names)
    try:
        puzzle, _ = load_instance(str(path))
    except InvalidInstance as error:
        raise click.ClickException(str(error)) from None
    instance_file = discover(path)[0]
    names = solver_names or tuple(solver.name for solver in solvers_for(puzzle.name))
    tasks = [_task(instance_file, name, variant, time_limit, memory_limit) for name in names]
    records = run_tasks(tasks, jobs=1)
    click.echo(dump_records(records) if as_json else render(records), nl=not as_json)
    sys.exit(_exit_status(records))


@main.command()
@click.argument("folder", type=click.Path(exists=True, path_type=Path))
@solver_option
@time_limit_option
@memory_limit_option
@click.option("--jobs", type=click.IntRange(min=1), default=os.cpu_count() or 1, show_default="cores",
              help="Runs at a time.")
@click.option("--variants", is_flag=True, help="Also run each instance's variant where the transform applies.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Append one JSON Lines record per finished run to this file, as it finishes.")
@click.option("--resume", is_flag=True, help="Skip runs already recorded in --out.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write all records of this comparison as one JSON array to this file.")
def compare(folder: Path, solver_names: tuple[str, ...], time_limit: float, memory_limit: int, jobs: int,
            variants: bool, out: Path | None, resume: bool, json_path: Path | None) -> None:
    """Run every applicable solver on every instance file below FOLDER, check every plan,
    and compare the costs with each other and with the index of known optima."""
    _check_solver_names(solver_names)
    if resume and out is None:
        raise click.BadParameter("--resume needs --out", param_hint="--resume")
    done: dict[tuple, RunRecord] = {}
    if out is not None:
        repair_tail(out)
        if resume:
            done = {record.key: record for record in read_records(out)}
        elif out.exists() and out.stat().st_size:
            raise click.BadParameter(f"{out} already holds records; add --resume or choose another file",
                                     param_hint="--out")
    records, tasks = [], []
    for instance_file in discover(folder):
        unreadable, planned = _plan_instance(instance_file, solver_names, variants, time_limit, memory_limit)
        records += unreadable
        for task, expected in planned:
            if task.key in done:
                records.append(done[task.key])
            else:
                tasks.append((task, expected))
    for record in records:
        if out is not None and record.key not in done:
            append_record(out, record)
    saved = (lambda record: append_record(out, record)) if out is not None else (lambda record: None)
    records += run_tasks(tasks, jobs=jobs, on_record=saved)
    click.echo(render(records))
    if json_path is not None:
        json_path.write_text(dump_records(records) + "\n", encoding="utf-8")
    sys.exit(_exit_status(records))


def _task(instance_file: InstanceFile, solver: str, variant: bool, time_limit: float,
          memory_limit: int) -> tuple[Task, int | str | None]:
    task = Task(path=str(instance_file.path), instance=instance_file.name, solver=solver, variant=variant,
                time_limit=time_limit, memory_limit_mb=memory_limit, plugins=plugin_modules())
    return task, instance_file.variant_expected if variant else instance_file.expected


def _plan_instance(instance_file: InstanceFile, solver_names: tuple[str, ...], variants: bool,
                   time_limit: float, memory_limit: int) -> tuple[list[RunRecord], list[tuple[Task, object]]]:
    """The runs one instance file needs, or an error record when it cannot be read."""
    try:
        puzzle, instance = load_instance(str(instance_file.path))
    except InvalidInstance as error:
        return [RunRecord(instance=instance_file.name, puzzle=None, solver="-", status=Status.ERROR,
                          message=str(error), expected=instance_file.expected)], []
    names = [s.name for s in solvers_for(puzzle.name) if not solver_names or s.name in solver_names]
    planned = [_task(instance_file, name, False, time_limit, memory_limit) for name in names]
    if variants:
        try:
            puzzle.variant(instance)
        except InvalidInstance:
            pass  # the transform does not apply to this instance
        else:
            planned += [_task(instance_file, name, True, time_limit, memory_limit) for name in names]
    return [], planned


def _exit_status(records: list[RunRecord]) -> int:
    verdicts = judge_all(records)
    if any(v.verdict in FAILURES for v in verdicts):
        return EXIT_WRONG
    if any(r.status in (Status.ERROR, Status.MEMOUT) for r in records):
        return EXIT_FAILED_RUNS
    return EXIT_OK


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True)
def report(file: Path, fmt: str) -> None:
    """Rebuild the comparison table from a JSON Lines results file (from --out)."""
    click.echo(render(read_records(file), fmt), nl=False)


if __name__ == "__main__":
    main()
