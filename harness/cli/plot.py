"""``crosscheck plot``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click
from crosscheck.harness.reports.formats import (
    PLOT_FORMATS,
    PNG_DPI,
)

if TYPE_CHECKING:  # what each command needs is imported when it runs, so that --help starts fast
    pass
from crosscheck.harness.cli.common import _read_all


@click.command("plot")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--output", "folder", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder for the figures and captions.txt.")
@click.option("--format", "fmt", type=click.Choice(PLOT_FORMATS), default=PLOT_FORMATS[0], show_default=True,
              help=f"png ({PNG_DPI} dpi), or vector svg or pdf for a paper.")
def plot(files: tuple[Path, ...], folder: Path, fmt: str) -> None:
    """Draw the report's figures from results files (from --out): a cactus plot, per puzzle a
    performance profile, a scatter plot per pair of solvers and time against size, and with
    repeats the spread; each figure's caption goes to captions.txt in the folder.  Variant
    runs are curves of their own; a figure not drawn (time against size when every instance
    has one size) is named, with why, in captions.txt and on stderr."""
    from crosscheck.harness.reports.plots import figure_notes, plot_all  # matplotlib is slow to import

    records = _read_all(files)
    for path in plot_all(records, folder, fmt):
        click.echo(str(path))
    for note in figure_notes(records):
        click.echo(f"note: {note}", err=True)
