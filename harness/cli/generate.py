"""``crosscheck generate``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click
from crosscheck.models.puzzle import Puzzle, generator_argument
from crosscheck.models.registry import get_puzzle

if TYPE_CHECKING:  # what each command needs is imported when it runs, so that --help starts fast
    pass
from crosscheck.harness.cli.common import BadInput, _puzzle_name


@click.command("generate")
@click.argument("puzzle_name", metavar="PUZZLE", callback=_puzzle_name)
@click.option("--count", type=click.IntRange(min=1), default=10, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the first instance; then seed+1, ...")
@click.option("-p", "--param", "params", multiple=True, metavar="NAME=VALUE",
              help="A generator parameter (repeatable); `crosscheck list --params` shows them.")
@click.option("-o", "--output", "folder", type=click.Path(file_okay=False, path_type=Path), required=True)
@click.option("--published-shape", is_flag=True,
              help="Refuse (exit 2, naming the seed and why) an instance outside the published inputs' shape "
                   "(see hunt --published-shape).")
def generate(puzzle_name: str, count: int, seed: int, params: tuple[str, ...], folder: Path,
             published_shape: bool) -> None:
    """Write a seeded family of instances (and family.json with their parameters) to a folder."""
    from crosscheck.harness.records.record import environment

    puzzle = get_puzzle(puzzle_name)
    values = _generator_values(puzzle, params)
    instances: dict[str, dict[str, int]] = {}  # file name -> its seed
    family = {"puzzle": puzzle.name, "params": values, "instances": instances, "environment": environment()}
    for number in range(seed, seed + count):
        try:
            instance = puzzle.generate(number, **values)
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="--param") from None
        outside = puzzle.published_shape(instance) if published_shape else ""
        if outside:
            raise BadInput(f"seed {number}: not of the published shape: {outside}; change --param")
        folder.mkdir(parents=True, exist_ok=True)  # not before: a refused parameter leaves no folder
        path = folder / f"{instance.name}.txt"
        path.write_text(instance.to_text(), encoding="utf-8")
        instances[path.name] = {"seed": number}
        click.echo(str(path))
    (folder / "family.json").write_text(json.dumps(family, indent=2) + "\n", encoding="utf-8")


def _generator_values(puzzle: Puzzle, params: tuple[str, ...]) -> dict[str, object]:
    """The generator's keyword arguments from ``NAME=VALUE`` options, each of its parameter's
    type (`generator_argument`); `click.BadParameter` (exit 2) naming the one that is not."""
    values: dict[str, object] = {}
    for param in params:
        name, separator, text = param.partition("=")
        if not separator or name not in puzzle.generator_params:
            known = ", ".join(f"{key} ({meaning})" for key, meaning in puzzle.generator_params.items())
            raise click.BadParameter(f"{param!r}: expected NAME=VALUE with NAME one of: {known}",
                                     param_hint="--param")
        try:
            values[name] = generator_argument(puzzle, name, text)
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="--param") from None
    return values
