"""``crosscheck compare``: options in, `crosscheck.harness.workflows.compare` run, its outcome printed."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
from crosscheck.harness.reports.formats import HUMAN_FORMATS
from crosscheck.harness.reports.wording import counted

if TYPE_CHECKING:  # what each command needs is imported when it runs, so that --help starts fast
    from crosscheck.harness.runs.shard import Shard
    from crosscheck.harness.workflows.compare import CompareOutcome
    from crosscheck.solvers.base import Clock
from crosscheck.harness.cli.common import (
    EXIT_INTERRUPTED,
    _print,
    _tell,
    workflow_errors,
)
from crosscheck.harness.cli.options import (
    clock_option,
    cpsat_workers_option,
    external_option,
    external_source_option,
    format_option,
    jobs_option,
    memory_limit_option,
    progress_option,
    solver_option,
    time_limit_option,
)


@click.command("compare")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@solver_option
@time_limit_option
@clock_option
@memory_limit_option
@jobs_option
@click.option("--variants", is_flag=True, help="Also run each instance's variant where the transform applies.")
@click.option("--all-sizes", is_flag=True,
              help="Run every formulation on every instance, also those beyond the sizes it is known to solve "
                   "within a minute, which the default run leaves out (a note per formulation names them; "
                   "naming a formulation with --solver runs it on every size too).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Append one JSON Lines record per finished run to this file, as it finishes "
                   "[default: a new results/compare-DATE-TIME.jsonl].")
@click.option("--resume", is_flag=True,
              help="Skip runs already recorded in --out (each repetition counts); a run of a plugin or external "
                   "program whose code has changed since (solver_source) runs again, with a warning. A line of "
                   "--out that is not a run record (a last line cut short by a kill aside) stops it before "
                   "anything runs: exit 2, "
                   "naming FILE:LINE, so that no run is dropped or made twice.")
@click.option("--pin-cores", is_flag=True,
              help="Pin each run to its own cores (the cores split between --jobs; Linux), recorded in the "
                   "record's environment as pinned_cores.")
@click.option("--repeat", type=click.IntRange(min=1), default=1, show_default=True,
              help="Run each (instance, solver) this many times, each run its own record with a repeat index.")
@cpsat_workers_option
@format_option
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), hidden=True,
              help="Also write all records as one JSON array to this file (kept for old scripts; "
                   "use --format json).")
@external_option
@external_source_option
@click.option("--shard", metavar="K/N", callback=lambda context, param, value: _shard(value),
              help="Make only part K of N of the runs (deterministic by instance, variant and solver), "
                   "for batch jobs; merge the parts' --out files with report, plot or record-optima.")
@click.option("--morph", "morph_count", type=click.IntRange(min=1), metavar="N",
              help="Also run N related instances of each instance (relations drawn at random, seed 0; saved in a "
                   "folder beside --out) and judge each solver's answers on them against its answer on the "
                   "original (morph-mismatch).")
@click.option("--scheduler", envvar="CROSSCHECK_SCHEDULER", metavar="tcp://HOST:PORT",
              help="Run on the workers of this Dask scheduler instead of local processes (needs the cluster "
                   "extra; --jobs is then unused) [env: CROSSCHECK_SCHEDULER].")
@click.option("--certificates", "certificates", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="Keep each checked certificate (the CNFs, their proofs and data, gzipped) in DIR, a folder per "
                   "instance and solver, for crosscheck check-certificates to check again later.")
@progress_option
def compare(paths: tuple[Path, ...], solver_names: tuple[str, ...], time_limit: float, clock: Clock, memory_limit: int,
            jobs: int,
            variants: bool, all_sizes: bool, out: Path | None, resume: bool, pin_cores: bool, repeat: int,
            cpsat_workers: int | None,
            fmt: str,
            json_path: Path | None, external_specs: tuple[str, ...], external_sources: tuple[str, ...],
            morph_count: int | None, shard: Shard | None, scheduler: str | None, certificates: Path | None,
            progress_mode: str) -> None:
    """Run every applicable solver on every instance file in PATHS (files, or folders searched
    recursively), check every plan, and compare the costs with each other and with the index
    of known optima."""
    from crosscheck.harness.records.record import dump_records
    from crosscheck.harness.runs.settings import RunSettings
    from crosscheck.harness.workflows.choosing import parse_externals
    from crosscheck.harness.workflows.compare import CompareSettings, Interrupted
    from crosscheck.harness.workflows.compare import compare as run_compare

    with workflow_errors():
        runs = RunSettings(solvers=solver_names, externals=parse_externals(external_specs, external_sources),
                           time_limit=time_limit, clock=clock, memory_limit_mb=memory_limit, jobs=jobs,
                           cpsat_workers=cpsat_workers, progress=progress_mode,
                           certificates=None if certificates is None else str(certificates),
                           within_reach=not all_sizes)
        try:
            outcome = run_compare(CompareSettings(paths, runs, out=out, resume=resume, variants=variants,
                                                  repeat=repeat, pin_cores=pin_cores, shard=shard, morph=morph_count,
                                                  scheduler=scheduler), _tell)
        except Interrupted as stop:
            click.echo(f"{stop}; continue with --out {stop.out} --resume", err=True)
            sys.exit(EXIT_INTERRUPTED)
    _print(outcome.runs, fmt, environment=True)
    _print_pairs(outcome, err=fmt not in HUMAN_FORMATS)
    for warning in outcome.changed:
        click.echo(warning, err=True)
    click.echo(f"records: {outcome.out}" if outcome.out.exists()
               else f"records: none ({outcome.out} not written: no run was planned)", err=True)
    if json_path is not None:
        json_path.write_text(dump_records(outcome.runs.records) + "\n", encoding="utf-8")
    sys.exit(outcome.exit_status)


def _print_pairs(outcome: CompareOutcome, err: bool) -> None:
    """Each morph-mismatch of ``--morph`` and how many pairs were judged (on stderr with
    `err`, beside the data formats' notes); nothing when no related instance ran."""
    if outcome.pairs is None:
        return
    for pair in outcome.mismatches:
        click.echo(pair.line(outcome.out.parent), err=err)
    click.echo(f"morph: {counted(len(outcome.pairs), 'pair')} judged, {len(outcome.mismatches)} morph-mismatch",
               err=err)


def _shard(text: str | None) -> Shard | None:
    if text is None:
        return None
    from crosscheck.harness.runs.shard import Shard

    try:
        return Shard.parse(text)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--shard") from None
