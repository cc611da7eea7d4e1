"""The ``crosscheck`` command line.

Exit statuses of ``solve`` and ``compare`` (and of ``report``, on the records it reads):

- 0: every plan is valid and no two answers contradict each other or the index
  (instances without an exact answer within the limits are ``unverified``, not failures);
- 1: some answer is wrong: an invalid plan, a false optimum or infeasibility claim,
  contradicting bounds, or agreement on a value the index contradicts;
- 2: bad usage or unusable input (unknown solver, missing folder, see `EXIT_USAGE`);
- 3: nothing contradicts, but some instance could not be read or some run crashed
  or ran out of memory.

Every command exits 2 (`EXIT_USAGE`) on input it cannot use, with one line on stderr
naming it: a results file with a line that is not a run record (``FILE:LINE[:COLUMN]:
what is wrong``; `report`, `plot`, `record-optima`, `compare --resume`), results files
holding no record at all (``no records in FILE``), or an instance
path given to `solve` that is not a regular file or cannot be parsed, a path given to `compare` or
`morph` that holds no instance to run (`crosscheck.harness.runs.schedule.holds_nothing`), a ``--solver`` or
``--external`` that applies to none of the puzzles at hand, or an ``index.toml`` that is not TOML,
holds an unknown key or a value of the wrong type (`crosscheck.harness.inputs.index.BadIndex`)."""

from __future__ import annotations

import importlib

import click
from crosscheck.harness.cli.common import (
    EXIT_FAILED_RUNS,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    EXIT_WRONG,
    BadInput,
)

#: Each command: its module and the name of its click command there.  A command's module is
#: imported when the command is asked for (a command line imports its own only; --help all).
COMMANDS = {
    "list": ("listing", "list_command"),
    "solve": ("solve", "solve"),
    "compare": ("compare", "compare"),
    "morph": ("morph", "morph"),
    "hunt": ("hunt", "hunt"),
    "report": ("report", "report"),
    "schema": ("schema", "schema"),
    "plot": ("plot", "plot"),
    "generate": ("generate", "generate"),
    "export": ("export", "export"),
    "record-optima": ("record_optima", "record_optima"),
    "check-certificates": ("check_certificates", "check_certificates"),
}


class _Commands(click.Group):
    """The command group: commands come from their modules when asked for (`COMMANDS`); an
    index of known optima that cannot be used (not TOML, an unknown key, a value of the wrong
    type; `crosscheck.harness.inputs.index.BadIndex`), met by any command, is `BadInput`."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, name = COMMANDS[cmd_name]
            command = getattr(importlib.import_module(f"crosscheck.harness.cli.{module}"), name)
            self.add_command(command, cmd_name)
        return self.commands.get(cmd_name)

    def invoke(self, ctx: click.Context) -> object:
        from crosscheck.harness.inputs.index import BadIndex

        try:
            return super().invoke(ctx)
        except BadIndex as error:
            raise BadInput(str(error)) from None


@click.group(cls=_Commands)
@click.version_option(package_name="crosscheck")
def main() -> None:
    """Cross-check independent formulations of combinatorial search puzzles.

    Formulations of your own are registered too: those of installed distributions' entry
    points (group crosscheck.solvers) and the modules named in the environment variable
    CROSSCHECK_SOLVERS (comma-separated). `crosscheck list` shows where each comes from.

    Exit status 2, for every command: bad usage, or input it cannot use, named on one
    line of stderr: a results file with a line that is not a run record (FILE:LINE[:COLUMN]:
    what is wrong; a last line cut short by a kill is skipped), an instance path given
    to solve that is not a regular file, a path given to compare or morph holding no instance
    (an empty folder, no *.txt file in a puzzle's format), an index.toml that is not TOML, cannot be read,
    or holds a key an entry cannot have or a value of the wrong type (FILE:LINE[:COLUMN]:
    what is wrong), report's results files (either side of --against) with no record.
    solve, compare, morph and report without --against (on the records it reads): 0 nothing is wrong, 1 some answer is wrong, 3 an
    instance could not be read or a run crashed or ran out of memory; compare and morph: 130 when interrupted
    (finished runs are saved).  hunt: 1 with a counterexample; without one, 130 when interrupted,
    3 when a run crashed or ran out of memory, else 0.  report OLD --against NEW: 1 when NEW is
    worse on the answers (a verdict got worse, an exact answer changed or lost, a pair of OLD missing, fewer independent
    provers; with --fail-on-slower a pair judged slower), else 0.
    """
    from crosscheck.solvers.registry import add_variable_plugins

    add_variable_plugins()
    # Entry points are read only when a command needs every solver: their errors are known at its end.
    click.get_current_context().call_on_close(_warn_plugin_errors)


def _warn_plugin_errors() -> None:
    """Name on stderr every plugin that could not be loaded: puzzles, then formulations."""
    from crosscheck.models.registry import PUZZLE_ERRORS
    from crosscheck.solvers.registry import plugin_errors

    for error in [*PUZZLE_ERRORS, *plugin_errors()]:
        click.echo(f"warning: plugin not loaded: {error}", err=True)

__all__ = ["EXIT_FAILED_RUNS", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_USAGE", "EXIT_WRONG", "main"]
