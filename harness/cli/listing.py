"""``crosscheck list``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click
from crosscheck.models.registry import puzzles

if TYPE_CHECKING:  # what each command needs is imported when it runs, so that --help starts fast
    from crosscheck.solvers.base import Solver


@click.command("list")
@click.option("--params", is_flag=True, help="Also show each puzzle's generator parameters and the sizes hunt draws within "
                                        "(default range, and the bounds of any range).")
@click.option("--relations", "show_relations", is_flag=True, help="Also show each puzzle's metamorphic relations.")
@click.option("--options", "show_options", is_flag=True,
              help="Also show each formulation's options (--solver 'NAME[OPTION=VALUE,...]'): values, default "
                   "and meaning; a value marked inexact gives up optimality (its answers are checked plans only).")
@click.option("--shares", "show_shares", is_flag=True,
              help="Also show, per pair of formulations of a puzzle, the answer-deciding code both run (computed "
                   "from the code, trusted base left out; the same footprints run records use) and how many are "
                   "independent.")
def list_command(params: bool, show_relations: bool, show_options: bool, show_shares: bool) -> None:
    """Show the puzzles, their solvers and where each comes from (built-in, an entry point
    of an installed distribution, or a module of CROSSCHECK_SOLVERS)."""
    from crosscheck.solvers.registry import origin, solvers_for

    for puzzle in puzzles().values():
        click.echo(f"{puzzle.name}: {puzzle.title}" + (f" (variant: {puzzle.variant_name})" if puzzle.variant_name else ""))
        for solver in solvers_for(puzzle.name):
            missing = solver.unavailable()
            click.echo(f"  {solver.name:<20} {solver.summary} [{origin(solver.name)}]"
                       + (f" [not run by default: {missing}]" if missing else ""))
            if show_options:
                _echo_options(solver)
        if params:
            for name, meaning in puzzle.generator_params.items():
                click.echo(f"  -p {name}=...  {meaning}")
            for size in puzzle.sizes:
                low, high = size.default
                click.echo(f"  hunt -p {size.name}={low}-{high}  {size.meaning} (from {size.least} to {size.most})")
        if show_relations:
            for relation in puzzle.relations:
                click.echo(f"  relation {relation.name}")
        if show_shares:
            _echo_shares(solvers_for(puzzle.name))


def _echo_options(solver: Solver) -> None:
    """The options of `solver`'s formulation, one line each: name=values, default, meaning."""
    from crosscheck.solvers.configuration import described

    rows = described(solver.Options)
    if not rows:
        click.echo("    no options")
    for name, values, default, meaning in rows:
        click.echo(f"    {name}={values}  [default: {default}]  {meaning}")


def _echo_shares(solvers: list[Solver]) -> None:
    """Per pair of `solvers` (one puzzle's), what both run; then the largest independent group."""
    from crosscheck.harness.independence.sharing import independent_group, pairs

    click.echo("  sharing (trusted base: crosscheck.harness.independence.trusted):")
    for first, second, shared in pairs(solvers):
        click.echo(f"    {first} & {second}: " + ("nothing" if not shared else f"{len(shared)} shared"))
        for name in sorted(shared):
            click.echo(f"      {name}")
    group = independent_group(solvers)
    click.echo(f"  independent: {len(group)} ({', '.join(group)})")
