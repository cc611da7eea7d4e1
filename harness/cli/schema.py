"""``crosscheck schema``."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:  # what each command needs is imported when it runs, so that --help starts fast
    pass


@click.command("schema")
def schema() -> None:
    """Print the JSON Schema of one run record (one line of a results file)."""
    from crosscheck.harness.records.record import json_schema

    click.echo(json.dumps(json_schema(), indent=2))
