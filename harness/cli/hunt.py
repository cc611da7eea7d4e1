"""``crosscheck hunt``: options in, `crosscheck.harness.workflows.hunt` run, its outcome printed."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
from crosscheck.harness.reports.formats import (
    PROGRESS_MODES,
)
from crosscheck.harness.runs.settings import HUNT_SECONDS

if TYPE_CHECKING:  # what each command needs is imported when it runs, so that --help starts fast
    from crosscheck.solvers.base import Clock
from crosscheck.harness.cli.common import (
    _puzzle_name,
    _tell,
    workflow_errors,
)
from crosscheck.harness.cli.options import (
    clock_option,
    external_option,
    external_source_option,
    hunt_time_limit_option,
    jobs_option,
    memory_limit_option,
    no_reference_option,
    solver_option,
)


@click.command("hunt")
@click.argument("puzzle_name", metavar="PUZZLE", callback=_puzzle_name)
@solver_option
@external_option
@external_source_option
@click.option("--budget", type=click.FloatRange(min=0),
              help=f"Seconds to search before giving up [default: {HUNT_SECONDS:g} without --examples, "
                   "else no limit].")
@click.option("--examples", type=click.IntRange(min=1),
              help="Distinct instances to judge before giving up (with --budget: whichever ends first); "
                   "unlike seconds, the same on any machine.")
@click.option("--shrink-budget", type=click.FloatRange(min=0),
              help="Seconds to shrink a counterexample once found, then the smallest so far is kept "
                   f"[default: {HUNT_SECONDS:g} without --shrink-examples, else no limit].")
@click.option("--shrink-examples", type=click.IntRange(min=0),
              help="Distinct instances to judge while shrinking (with --shrink-budget: whichever ends first).")
@click.option("--seed", type=int, help="Seed of Hypothesis's draws, for a reproducible hunt.")
@hunt_time_limit_option
@clock_option
@memory_limit_option
@jobs_option
@click.option("-p", "--param", "params", multiple=True, metavar="NAME=RANGE",
              help="A size range such as floors=2-4 or pairs=3 (repeatable); see docs/hunting.md for the names.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder for counterexample-PUZZLE.txt and runs.jsonl, every instance judged (judged/) with "
                   "its runs (judged.jsonl), and hunt-db unless --db.")
@click.option("--morph", is_flag=True,
              help="Draw a relation with each instance too, and stop at a morph-mismatch (a solver's answers on "
                   "the instance and its related instance break the relation); then shrink the instance.")
@click.option("--relations", "relation_text", metavar="NAME,...",
              help="With --morph: draw only among these relations of PUZZLE [default: all].")
@click.option("--published-shape", is_flag=True,
              help="Draw and shrink only instances of the shape of the puzzle's published inputs (docs/hunting.md "
                   "says each built-in puzzle's), within -p.")
@click.option("--db", type=click.Path(file_okay=False, path_type=Path),
              help="Hunt database: counterexamples are saved there, later hunts try them first [default: OUT/hunt-db].")
@no_reference_option
@click.option(
    "--progress", "progress_mode", type=click.Choice(PROGRESS_MODES), default="auto", show_default=True,
    envvar="CROSSCHECK_PROGRESS",
    help="Progress on stderr: auto draws a live line when stderr is a terminal and nothing otherwise; lines "
         "writes one plain line per instance judged ([N] or [shrinking N], instance, sizes, seconds, verdict: "
         "which formulations agreed or what disagreed); none shows nothing. Stdout is the same in every mode "
         "[env: CROSSCHECK_PROGRESS].")
def hunt(puzzle_name: str, solver_names: tuple[str, ...], external_specs: tuple[str, ...],
         external_sources: tuple[str, ...], budget: float | None,
         examples: int | None, shrink_budget: float | None, shrink_examples: int | None, seed: int | None,
         time_limit: float, clock: Clock, memory_limit: int, jobs: int, params: tuple[str, ...], out: Path,
         morph: bool, relation_text: str | None, published_shape: bool, db: Path | None, reference: bool,
         progress_mode: str) -> None:
    """Search for the smallest PUZZLE instance on which formulations disagree.

    Draws instances (Hypothesis), runs every chosen formulation on each, judges them like
    `compare`, and at the first wrong verdict shrinks the instance while the same kind of
    wrong verdict remains.  Exit 1 with a counterexample; when the budget runs out, 3 if some
    run crashed or ran out of memory, else 0.  A hunt stops early (exit 3) when an external
    program's first 3 runs all crashed the same way: it never ran.
    The counterexample is on disk as soon as it is judged and each smaller one replaces
    it at once: on Ctrl-C the smallest so far is kept (exit 1; 130 if none was found).
    With --external programs and no --solver, the puzzle's reference formulation runs
    beside them (--no-reference: the programs alone).
    """
    from crosscheck.harness.reports.hunt_progress import HuntProgress
    from crosscheck.harness.runs.settings import RunSettings
    from crosscheck.harness.workflows.choosing import SettingsError, parse_externals, relation_names
    from crosscheck.harness.workflows.hunt import HuntSettings, search_seconds
    from crosscheck.harness.workflows.hunt import hunt as run_hunt
    from crosscheck.harness.workflows.hunt_files import written
    from crosscheck.harness.workflows.hunt_summary import explain, reproduce
    from crosscheck.models.puzzle import parse_ranges
    from crosscheck.models.registry import get_puzzle
    from crosscheck.solvers.registry import loaded_plugin_modules

    with workflow_errors():
        runs = RunSettings(solvers=solver_names, externals=parse_externals(external_specs, external_sources),
                           time_limit=time_limit, clock=clock, memory_limit_mb=memory_limit, jobs=jobs)
        try:
            ranges = parse_ranges(params)
        except ValueError as error:
            raise SettingsError(str(error), "--param") from None
        relations = relation_names(relation_text)
        settings = HuntSettings(get_puzzle(puzzle_name), out, runs, ranges, budget=search_seconds(budget, examples),
                                shrink_budget=search_seconds(shrink_budget, shrink_examples), examples=examples,
                                shrink_examples=shrink_examples, seed=seed, plugins=loaded_plugin_modules(),
                                database=db, published_shape=published_shape, morph=relations if morph else None,
                                reference=reference)
        outcome = run_hunt(settings, HuntProgress(progress_mode), _tell)
    click.echo(explain(outcome))
    for warning in outcome.changed:
        click.echo(warning, err=True)
    for path in written(outcome):
        click.echo(f"written: {path}")
    command = reproduce(outcome)
    if command is not None:
        click.echo(f"reproduce: {command}")
    sys.exit(outcome.exit_status)
