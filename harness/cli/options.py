"""The options several commands share."""

from __future__ import annotations

import click
from crosscheck.harness.reports.formats import (
    FORMATS,
    HEARTBEAT,
    PROGRESS_MODES,
)
from crosscheck.harness.runs.measure import cores
from crosscheck.harness.runs.settings import HUNT_TIME_LIMIT, MEMORY_LIMIT_MB, TIME_LIMIT

time_limit_option = click.option(
    "--time-limit", type=click.FloatRange(min=0.1), default=TIME_LIMIT, show_default=True,
    help="Seconds per run (of --clock); a run past it is stopped and recorded as timeout.")


hunt_time_limit_option = click.option(
    "--time-limit", type=click.FloatRange(min=0.1), default=HUNT_TIME_LIMIT, show_default=True,
    help="Seconds per run (of --clock).")


clock_option = click.option(
    "--clock", type=click.Choice(["wall", "cpu"]), default="wall", show_default=True,
    help="What --time-limit counts: elapsed wall-clock time, or the run's CPU time (a busy machine then "
         "gives the same runs the same work; CP-SAT's workers count together; a run is also killed "
         "after 10x its limit plus 5 s and a tenth of the limit in wall time, e.g. after 15.1 s for "
         "--time-limit 1, so one that sleeps or waits is stopped too).")


memory_limit_option = click.option(
    "--memory-limit", type=click.IntRange(min=64), default=MEMORY_LIMIT_MB, show_default=True,
    help="Memory in MB a run may use: address space each of its processes may map beyond what it "
         "inherited (libraries loaded before it forked), and memory all its processes hold together "
         "(sampled every 0.2 s); a run past either is recorded as memout.")


def _configurations(context: click.Context, parameter: click.Parameter, specs: tuple[str, ...]) -> tuple[str, ...]:
    """The labels of the configurations the --solver specs stand for
    (`crosscheck.solvers.configuration.parse_specs`); a usage error naming what is valid."""
    from crosscheck.solvers.configuration import ConfigurationError, parse_specs

    try:
        return parse_specs(specs)
    except ConfigurationError as error:
        raise click.BadParameter(str(error), ctx=context, param=parameter) from None


solver_option = click.option(
    "--solver", "solver_names", multiple=True, metavar="NAME[OPTION=VALUE,...]", callback=_configurations,
    help="Run only this solver (repeatable; default: every solver of the puzzle, or none with --external), "
         "or a configuration of it: NAME[bound=none,dominance=off]; a value may list alternatives, "
         "bound=door-free|none|default, one configuration each (crosscheck list --options shows them).")


format_option = click.option(
    "--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
    help="What to print on stdout: a table for people (table, markdown; verdict notes follow), a booktabs "
         "tabular (latex; the notes also as comments), or data only (csv, jsonl: tidy rows, one per run; json: "
         "the full records as one array); notes go to stderr for all but table and markdown.")


jobs_option = click.option(
    "--jobs", type=click.IntRange(min=1), default=cores, show_default=f"the cores this process may use: {cores()}",
    help="Runs at a time, at most. Runs never share a core unless --jobs exceeds the cores: a run holds as many "
         "cores as it has threads (a CP-SAT run its --cpsat-workers) and waits until they are free.")


external_option = click.option(
    "--external", "external_specs", multiple=True, metavar="[PUZZLE:]NAME='COMMAND {path}'",
    help="Also run your own program on each instance (of PUZZLE), {path} standing for a temporary copy of the "
         "instance (of its variant, in a variant's run): a line 'optimum: N', else the one integer it "
         "prints outside a plan line (two or more are refused as ambiguous), is its claimed optimum; a line "
         "'infeasible' claims no solution, a line 'plan: JSON' is checked like any plan, a line 'unsupported' "
         "declines the instance; claims are judged, never used as proofs (repeatable, each NAME given once).")


external_source_option = click.option(
    "--external-source", "external_sources", multiple=True, metavar="NAME=PATH",
    help="A file or folder the external program NAME depends on besides the files its command names (a module "
         "its script imports): digested into its records' solver_source, so that an edit to it is seen "
         "(compare --resume runs again) (repeatable).")


progress_option = click.option(
    "--progress", "progress_mode", type=click.Choice(PROGRESS_MODES), default="auto", show_default=True,
    envvar="CROSSCHECK_PROGRESS",
    help="Progress on stderr: auto draws a live display when stderr is a terminal and nothing otherwise; lines "
         "writes plain lines for logs, pipes, nohup, CI and batch jobs (one per finished run: [done/total] "
         "instance, solver, status, cost, seconds, a crashed run FAILED with why; a heartbeat, except in solve, naming the runs "
         f"in flight when none finished for {HEARTBEAT:g} s); none shows nothing. Stdout and the notes are the "
         "same in every mode [env: CROSSCHECK_PROGRESS].")


cpsat_workers_option = click.option(
    "--cpsat-workers", type=click.IntRange(min=1), default=None, metavar="N",
    help="Worker threads of every CP-SAT run [default: the cores shared among the --jobs runs at a time, at most "
         "2: one with --jobs 2 on two cores, two with --jobs 1]; recorded in each record.")


no_reference_option = click.option(
    "--no-reference", "reference", is_flag=True, flag_value=False, default=True,
    help="With --external programs and no --solver, run the programs alone: without it the puzzle's reference "
         "formulation (its fastest exact one) runs beside them, so that their claims can be contradicted.")
