"""``crosscheck hunt``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
from crosscheck.harness.reports.formats import (
    PROGRESS_MODES,
)
from crosscheck.models import registry
from crosscheck.models.registry import get_puzzle

if TYPE_CHECKING:  # what each command needs is imported when it runs, so that --help starts fast
    from crosscheck.solvers.base import Clock
from crosscheck.harness.cli.common import (
    EXIT_FAILED_RUNS,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_WRONG,
    _check_solver_names,
    _parse_externals,
    _puzzle_name,
    _refuse_runs_on_none,
    _relation_names,
    _warn_changed,
)
from crosscheck.harness.cli.options import (
    clock_option,
    external_option,
    external_source_option,
    jobs_option,
    memory_limit_option,
    solver_option,
)

#: Seconds a hunt searches, and shrinks, when neither seconds nor a number of instances is given.
DEFAULT_HUNT_SECONDS = 60.0


@click.command("hunt")
@click.argument("puzzle_name", metavar="PUZZLE", callback=_puzzle_name)
@solver_option
@external_option
@external_source_option
@click.option("--budget", type=click.FloatRange(min=0),
              help=f"Seconds to search before giving up [default: {DEFAULT_HUNT_SECONDS:g} without --examples, "
                   "else no limit].")
@click.option("--examples", type=click.IntRange(min=1),
              help="Distinct instances to judge before giving up (with --budget: whichever ends first); "
                   "unlike seconds, the same on any machine.")
@click.option("--shrink-budget", type=click.FloatRange(min=0),
              help="Seconds to shrink a counterexample once found, then the smallest so far is kept "
                   f"[default: {DEFAULT_HUNT_SECONDS:g} without --shrink-examples, else no limit].")
@click.option("--shrink-examples", type=click.IntRange(min=0),
              help="Distinct instances to judge while shrinking (with --shrink-budget: whichever ends first).")
@click.option("--seed", type=int, help="Seed of Hypothesis's draws, for a reproducible hunt.")
@click.option("--time-limit", type=click.FloatRange(min=0.1), default=5.0, show_default=True,
              help="Seconds per run (of --clock).")
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
@click.option("--relations", "relation_names", metavar="NAME,...",
              help="With --morph: draw only among these relations of PUZZLE [default: all].")
@click.option("--published-shape", is_flag=True,
              help="Draw and shrink only instances of the shape of the puzzle's published inputs (docs/hunting.md "
                   "says each built-in puzzle's), within -p.")
@click.option("--db", type=click.Path(file_okay=False, path_type=Path),
              help="Hunt database: counterexamples are saved there, later hunts try them first [default: OUT/hunt-db].")
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
         morph: bool, relation_names: str | None, published_shape: bool, db: Path | None, progress_mode: str) -> None:
    """Search for the smallest PUZZLE instance on which formulations disagree.

    Draws instances (Hypothesis), runs every chosen formulation on each, judges them like
    `compare`, and at the first wrong verdict shrinks the instance while the same kind of
    wrong verdict remains.  Exit 1 with a counterexample; when the budget runs out, 3 if some
    run crashed or ran out of memory, else 0.  A hunt stops early (exit 3) when an external
    program's first 3 runs all crashed the same way: it never ran.
    The counterexample is on disk as soon as it is judged and each smaller one replaces
    it at once: on Ctrl-C the smallest so far is kept (exit 1; 130 if none was found).
    """
    from crosscheck.harness.reports.hunt_progress import HuntProgress
    from crosscheck.harness.runs.schedule import Choice, formulations_chosen
    from crosscheck.harness.workflows.hunt import HuntConfig, explain, reproduce, written
    from crosscheck.harness.workflows.hunt import hunt as run_hunt
    from crosscheck.models.puzzle import parse_ranges
    from crosscheck.solvers.registry import loaded_plugin_modules

    _check_solver_names(solver_names)
    externals = _parse_externals(external_specs, external_sources)
    _refuse_runs_on_none(solver_names, externals, {puzzle_name}, f"hunt {puzzle_name} draws only {{}} instances")
    externals = [e for e in externals if e.applies_to(puzzle_name)]
    try:
        ranges = parse_ranges(params)
        get_puzzle(puzzle_name).strategy(ranges, published_shape)  # checks the ranges (and that they hold the shape)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--param") from None
    names = tuple(formulations_chosen(puzzle_name, Choice(solver_names, tuple(externals))))
    if externals and not solver_names and not morph:  # a claim never contradicts a claim: only plans are checked
        click.echo("warning: external programs alone, without --morph: only the plans they print are checked, "
                   "so a claim alone can never be contradicted; add --solver NAME or --morph to check it", err=True)
    relations = _relation_names(relation_names)
    unknown = [name for name in relations if name not in registry.relations(puzzle_name)]
    if unknown:
        raise click.BadParameter(f"{unknown[0]!r} is no relation of {puzzle_name}; valid: "
                                 f"{', '.join(registry.relations(puzzle_name))}", param_hint="--relations")
    config = HuntConfig(puzzle=get_puzzle(puzzle_name), solvers=names, externals=tuple(externals), out=out,
                        ranges=ranges, budget=DEFAULT_HUNT_SECONDS if budget is None and examples is None else budget,
                        examples=examples, shrink_examples=shrink_examples, seed=seed,
                        shrink_budget=(DEFAULT_HUNT_SECONDS if shrink_budget is None and shrink_examples is None
                                       else shrink_budget),
                        time_limit=time_limit, clock=clock, memory_limit_mb=memory_limit, jobs=jobs, plugins=loaded_plugin_modules(),
                        database=db, published_shape=published_shape, morph=relations if morph else None)
    outcome = run_hunt(config, HuntProgress(progress_mode))
    click.echo(explain(outcome, config))
    _warn_changed(config.versions)
    paths = written(outcome, config)
    for path in paths:
        click.echo(f"written: {path}")
    command = reproduce(outcome, config)
    if command is not None:
        click.echo(f"reproduce: {command}")
    sys.exit(EXIT_WRONG if paths else EXIT_INTERRUPTED if outcome.interrupted
             else EXIT_FAILED_RUNS if outcome.crashed else EXIT_OK)
