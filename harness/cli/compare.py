"""``crosscheck compare``."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import click
from crosscheck.harness.reports.formats import (
    HUMAN_FORMATS,
)
from crosscheck.harness.reports.wording import counted

if TYPE_CHECKING:  # what each command needs is imported when it runs, so that --help starts fast
    from crosscheck.harness.inputs.index import Expected, InstanceFile
    from crosscheck.harness.records.record import RunKey, RunRecord, Task
    from crosscheck.harness.records.versions import Pinned
    from crosscheck.harness.reports.progress import Progress
    from crosscheck.harness.runs.external import External
    from crosscheck.harness.runs.schedule import Choice
    from crosscheck.harness.runs.shard import Shard
    from crosscheck.harness.workflows.morph import RelatedFile
    from crosscheck.solvers.base import Clock
from crosscheck.harness.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_WRONG,
    _check_solver_names,
    _discovered,
    _exit_status,
    _note_left_unrun,
    _parse_externals,
    _print,
    _read,
    _refuse_runs_on_none,
    _warn_changed,
    _warn_oversubscribed,
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
            variants: bool, out: Path | None, resume: bool, pin_cores: bool, repeat: int, cpsat_workers: int | None,
            fmt: str,
            json_path: Path | None, external_specs: tuple[str, ...], external_sources: tuple[str, ...],
            morph_count: int | None, shard: Shard | None, scheduler: str | None, certificates: Path | None,
            progress_mode: str) -> None:
    """Run every applicable solver on every instance file in PATHS (files, or folders searched
    recursively), check every plan, and compare the costs with each other and with the index
    of known optima."""
    from crosscheck.harness.judging.verdicts import judged
    from crosscheck.harness.records.record import append_record, dump_records, repair_tail
    from crosscheck.harness.records.versions import Pinned
    from crosscheck.harness.reports.progress import Progress
    from crosscheck.harness.runs.schedule import Choice, plan_comparison, puzzles_held

    _check_solver_names(solver_names)
    externals = _parse_externals(external_specs, external_sources)
    files = _discovered(paths)
    _refuse_runs_on_none(solver_names, externals, puzzles_held(files), "the paths given hold only {} instances")
    _note_left_unrun(files, solver_names, externals)
    if resume and out is None:
        raise click.BadParameter("--resume needs --out", param_hint="--resume")
    out = out or _fresh_results_path()
    out.parent.mkdir(parents=True, exist_ok=True)
    repair_tail(out)
    done: dict[RunKey, RunRecord] = {}  # by RunRecord.key
    versions = Pinned()  # the version of each solver's code, as it is now: every record names that one
    if resume:
        done = {record.key: record for record in _read(out, RESUME_REFUSAL).records}
        _warn_other_limits(done.values(), out, {"time_limit": time_limit, "clock": clock, "memory_limit_mb": memory_limit})
        done = _without_stale(done, externals, versions, out)
    elif out.exists() and out.stat().st_size:
        raise click.BadParameter(f"{out} already holds records; add --resume or choose another file",
                                 param_hint="--out")
    choice = Choice(solver_names, tuple(externals), variants, time_limit, memory_limit, repeat, cpsat_workers, clock,
                    versions, None if certificates is None else str(certificates))
    records, tasks = plan_comparison(files, choice, done)
    related = _related(files, choice, done, records, tasks, out, morph_count)
    if shard is not None:
        records, tasks = [r for r in records if shard.holds(r.key)], [t for t in tasks if shard.holds(t[0].key)]
    for record in records:
        if record.key not in done:
            append_record(out, record)
    _warn_oversubscribed([run for run, _ in tasks], jobs)
    progress = Progress(len(tasks), jobs, limit=time_limit, mode=progress_mode)
    records += _run_saving(tasks, jobs, scheduler, out, progress, pin_cores)
    runs = judged(records)
    _print(runs, fmt, environment=True)
    mismatches = _morph_mismatches(records, out.parent, err=fmt not in HUMAN_FORMATS) if related else 0
    _warn_changed(versions)
    click.echo(f"records: {out}" if out.exists() else f"records: none ({out} not written: no run was planned)",
               err=True)
    if json_path is not None:
        json_path.write_text(dump_records(records) + "\n", encoding="utf-8")
    sys.exit(EXIT_WRONG if mismatches else _exit_status(runs))


def _related(files: list[InstanceFile], choice: Choice, done: dict[RunKey, RunRecord], records: list[RunRecord],
             tasks: list[tuple[Task, Expected]], out: Path, count: int | None) -> list[RelatedFile]:
    """With ``--morph``, the related instances (saved in OUT-STEM-related/ beside `out`),
    their runs added to `records` (already done) and `tasks` (to run)."""
    from crosscheck.harness.runs.schedule import plan_instance
    from crosscheck.harness.workflows import morph as morphing

    if count is None:
        return []
    fewer: list[str] = []
    related = morphing.related_files(files, count, 0, out.parent / f"{out.stem}-related", fewer)
    for line in fewer:
        click.echo(f"note: fewer related instances than asked: {line}", err=True)
    for one in related:
        for run, expected in plan_instance(one.file, choice)[1]:
            run = run.model_copy(update={"related_to": morphing.link_of(one.related, one.relation, one.original)})
            if run.key in done and done[run.key].related_to is not None:
                records.append(done[run.key])
            else:  # not run yet, or recorded before runs kept their link: run again, so report can judge it
                tasks.append((run, expected))
    return related


def _morph_mismatches(records: list[RunRecord], folder: Path, err: bool) -> int:
    """Print every morph-mismatch of ``--morph`` (the pairs `records` link, judged as
    ``report`` judges them) and how many pairs were judged (on stderr with `err`, beside
    the data formats' notes); return their number."""
    from crosscheck.harness.judging.verdicts import Verdict
    from crosscheck.harness.workflows import morph as morphing

    pairs = morphing.recorded_verdicts(records)
    mismatches = [pair for pair in pairs if pair.verdict is Verdict.MORPH_MISMATCH]
    for pair in mismatches:
        click.echo(pair.line(folder), err=err)
    click.echo(f"morph: {counted(len(pairs), 'pair')} judged, {len(mismatches)} morph-mismatch", err=err)
    return len(mismatches)


def _warn_other_limits(records: Iterable[RunRecord], out: Path, limits: dict[str, object]) -> None:
    """Warn when `out` holds runs made under other limits than a resumed comparison asks for:
    their timeouts are not comparable (each record keeps its own limits, so the mix stays
    visible in reports and tidy rows).  Records without limits (unreadable files) pass."""
    for record in records:
        if "time_limit" not in record.environment:
            continue
        had = {name: record.environment.get(name, "wall" if name == "clock" else None) for name in limits}
        if had != limits:
            differ = ", ".join(f"{name} {had[name]} (asked: {limits[name]})" for name in limits if had[name] != limits[name])
            click.echo(f"warning: {out} holds runs made with {differ}; the file will mix limits (each record "
                       "keeps its own: tidy columns time_limit, clock, memory_limit_mb)", err=True)
            return


def _without_stale(done: dict[RunKey, RunRecord], externals: list[External], versions: Pinned,
                   out: Path) -> dict[RunKey, RunRecord]:
    """`done` but the runs made by another version of their solver's code than the one that
    will run (`crosscheck.harness.records.versions.stale_runs`, pinned in `versions`), with a warning
    per solver: they run again."""
    from crosscheck.harness.records.versions import stale_runs

    stale = stale_runs(done.values(), {external.name: external for external in externals}, versions)
    for warning in stale.warnings(out):
        click.echo(f"warning: {warning}", err=True)
    return {key: record for key, record in done.items() if key not in stale.keys}


#: Why `compare --resume` stops at a results file it cannot read whole.
RESUME_REFUSAL = ("--resume reads every record first, so that no run is dropped or made twice; nothing was run: "
                  "repair or delete that line")


def _shard(text: str | None) -> Shard | None:
    if text is None:
        return None
    from crosscheck.harness.runs.shard import Shard

    try:
        return Shard.parse(text)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--shard") from None


def _run_saving(tasks: list[tuple[Task, Expected]], jobs: int, scheduler: str | None, out: Path,
                progress: Progress, pin_cores: bool) -> list[RunRecord]:
    """`_run` the tasks, each record appended to `out` as it comes and shown by `progress`
    (closed at the end); on Ctrl-C, say how to resume and exit `EXIT_INTERRUPTED`."""
    from crosscheck.harness.records.record import append_record

    def finished(record: RunRecord) -> None:
        append_record(out, record)
        progress(record)

    try:
        records = _run(tasks, jobs, scheduler, finished, progress, pin_cores)
    except KeyboardInterrupt:
        progress.close()  # before the message: the display's last line ends first
        click.echo(f"interrupted: finished runs are saved in {out}; continue with --out {out} --resume", err=True)
        sys.exit(EXIT_INTERRUPTED)
    progress.close()
    return records


def _run(tasks: list[tuple[Task, Expected]], jobs: int, scheduler: str | None,
         on_record: Callable[[RunRecord], None], progress: Progress, pin_cores: bool) -> list[RunRecord]:
    """Run the tasks in local processes, `jobs` at a time, or on the Dask cluster at `scheduler`."""
    from crosscheck.harness.runs.runner import run_tasks

    if scheduler is None:
        return run_tasks(tasks, jobs=jobs, on_record=on_record, on_start=progress.started, on_end=progress.ended,
                         pin_cores=pin_cores)
    try:
        from crosscheck.harness.runs.cluster import ClusterError, run_on_cluster  # Dask is optional, and slow to import
    except ImportError as error:
        from crosscheck.extras import missing_extra

        raise click.UsageError(missing_extra("--scheduler", "cluster", str(error))) from None
    try:
        return run_on_cluster(tasks, scheduler, on_record, progress.started, progress.ended,
                              report=lambda message: click.echo(message, err=True))
    except ClusterError as error:
        raise click.BadParameter(str(error), param_hint="--scheduler") from None


def _fresh_results_path() -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = Path("results") / f"compare-{stamp}.jsonl"
    number = 1
    while path.exists():
        number += 1
        path = Path("results") / f"compare-{stamp}-{number}.jsonl"
    return path
