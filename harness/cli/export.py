"""``crosscheck export``."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import click
from crosscheck.models.base import Instance, InvalidInstance
from crosscheck.models.puzzle import Puzzle
from crosscheck.models.registry import load_instance

if TYPE_CHECKING:  # what each command needs is imported when it runs, so that --help starts fast
    pass
from crosscheck.harness.cli.common import EXIT_USAGE


@click.command("export")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.option("--pddl", "folder", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder for the PDDL files (NAME-domain.pddl and NAME-problem.pddl per instance; "
                   "for a folder PATH, in the subfolder the instance file has below PATH).")
@click.option("--variant", "--four-robots", "--deep", "--extended", "variant", is_flag=True,
              help="Export the puzzle's variant (crosscheck list names each puzzle's).")
@click.option("--force", is_flag=True,
              help="Overwrite files already in the folder (without it, export writes nothing when one of "
                   "its files exists, and exits 2 naming the first).")
def export(path: Path, folder: Path, variant: bool, force: bool) -> None:
    """Write a PDDL domain and problem with action costs for each instance file at PATH
    (a file or a folder), as the Fast Downward solvers (*-fd) see them.

    The files of an instance in a subfolder of PATH go to the same subfolder of the
    output folder, so that instances of the same name in different folders keep their
    own files.  An instance file that cannot be parsed (or has no variant) gets one line
    on stderr naming its file, line and column, and so does each of the files that would
    write the same output files (``x.txt`` beside ``x.TXT``), which are then not
    exported; the others are still exported, and the exit status is then 2.

    Files already in the output folder (an earlier export's) are not overwritten unless
    ``--force`` is given: export then writes nothing and exits 2, naming the first of them.
    """
    from crosscheck.solvers.engines.pddl_files import export as export_pddl

    loaded, unusable = _exported_instances(path, folder, variant)
    if not force:
        _refuse_existing(loaded)
    for puzzle, instance, subfolder in loaded:
        for written in export_pddl(puzzle.name, instance, subfolder):
            click.echo(str(written))
    if unusable:
        sys.exit(EXIT_USAGE)


def _refuse_existing(loaded: list[tuple[Puzzle, Instance, Path]]) -> None:
    """`click.BadParameter` (exit 2) naming the first file `export` would write over, and how
    many more there are; nothing when none of its files exists yet."""
    from crosscheck.solvers.engines.pddl_files import pddl_paths

    existing = [target for _, instance, subfolder in loaded for target in pddl_paths(instance, subfolder)
                if target.exists()]
    if existing:
        more = f", and {len(existing) - 1} more of the files to write" if len(existing) > 1 else ""
        raise click.BadParameter(f"{existing[0]} already exists{more}; nothing was written: add --force to "
                                 "overwrite, or choose another folder", param_hint="--pddl")


def _exported_instances(path: Path, folder: Path, variant: bool) -> tuple[list[tuple[Puzzle, Instance, Path]], int]:
    """The instances at `path` `export` writes, each with the folder it writes them to, and
    how many files it reported on stderr (unparsable, or clashing with another's output)."""
    from crosscheck.harness.inputs.index import discover
    from crosscheck.solvers.engines.pddl_files import pddl_paths

    loaded: dict[Path, tuple[Puzzle, Instance, Path]] = {}
    unusable = 0
    for instance_file in discover(path):
        try:
            puzzle, instance = load_instance(str(instance_file.path))
            if variant:
                instance = puzzle.variant(instance)
        except InvalidInstance as error:
            click.echo(f"Error: {error}", err=True)
            unusable += 1
            continue
        below = instance_file.path.parent.relative_to(path) if path.is_dir() else Path()
        loaded[instance_file.path] = (puzzle, instance, folder / below)
    writers = Counter(target for _, instance, subfolder in loaded.values()
                      for target in pddl_paths(instance, subfolder))
    for source, (_, instance, subfolder) in list(loaded.items()):
        if any(writers[target] > 1 for target in pddl_paths(instance, subfolder)):
            click.echo(f"Error: {source}: not exported: another instance file there would write "
                       f"{pddl_paths(instance, subfolder)[0]} too", err=True)
            del loaded[source]
            unusable += 1
    return list(loaded.values()), unusable
