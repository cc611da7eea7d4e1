"""Comparing formulations on instance files (``crosscheck compare``, ``crosscheck.compare``).

`compare` runs every chosen formulation and external program on every instance file
below the paths given, each run in an isolated process, appends one JSON Lines record
per run to the results file as it finishes, and judges the runs of each instance
(`crosscheck.harness.judging.verdicts.judged`).  It returns a `CompareOutcome` and never
prints: notes go to the `Tell` callback as they are found, progress to a
`crosscheck.harness.reports.progress.Progress` in the mode the settings name.

- Resume (`CompareSettings.resume`): the runs already recorded in the results file are
  not made again; a run of a plugin or external program whose code has changed since
  runs again, with a warning (`crosscheck.harness.records.versions.stale_runs`).
- Shards (`CompareSettings.shard`): only part K of N of the runs is made, the same split
  on any machine (`crosscheck.harness.runs.shard`).
- Related instances (`CompareSettings.morph`): N related instances of each instance,
  drawn at random (seed 0) among the relations that need no plan, are saved in a folder
  beside the results file and run too; each runner's answers on them are judged against
  its answer on the original (`crosscheck.harness.workflows.morph.recorded_verdicts`).

Ctrl-C stops the runs: the finished ones are saved, and `Interrupted` names the file
to resume from.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from crosscheck.harness.runs.settings import RunSettings
from crosscheck.harness.workflows.choosing import (
    Notes,
    SettingsError,
    Tell,
    UnusableInput,
    instance_files,
    oversubscribed,
    silent,
)
from crosscheck.harness.workflows.exits import EXIT_WRONG, runs_status

if TYPE_CHECKING:
    from crosscheck.harness.inputs.index import InstanceFile
    from crosscheck.harness.judging.verdicts import JudgedRuns
    from crosscheck.harness.records.record import Expected, RunKey, RunRecord, Task
    from crosscheck.harness.records.versions import Pinned
    from crosscheck.harness.reports.progress import Progress
    from crosscheck.harness.runs.external import External
    from crosscheck.harness.runs.shard import Shard
    from crosscheck.harness.workflows.morph import PairVerdict

#: Why resuming stops at a results file it cannot read whole.
RESUME_REFUSAL = ("--resume reads every record first, so that no run is dropped or made twice; nothing was run: "
                  "repair or delete that line")


@dataclass(frozen=True)
class CompareSettings:
    """What a comparison runs and where it writes.

    `paths` are instance files or folders searched recursively; `out` the JSON Lines
    results file (None: a new ``results/compare-DATE-TIME.jsonl``, `fresh_results_path`);
    `resume` skips the runs `out` already holds; `variants` adds each instance's variant
    where the transform applies; every run is made `repeat` times; `pin_cores` pins each
    run to cores of its own; `shard` makes one part of the runs; `morph` adds that many
    related instances per instance; `scheduler` runs on a Dask cluster at that address
    instead of local processes.
    """

    paths: tuple[Path, ...]
    runs: RunSettings = field(default_factory=RunSettings)
    out: Path | None = None
    resume: bool = False
    variants: bool = False
    repeat: int = 1
    pin_cores: bool = False
    shard: Shard | None = None
    morph: int | None = None
    scheduler: str | None = None


@dataclass(frozen=True)
class CompareOutcome:
    """What a comparison found: the judged runs (those resumed included), the results file,
    the notes told as it went, the files left unrun (no chosen runner applies to them), the
    verdict on each pair of related instances (None when none was run: no
    `CompareSettings.morph`, or no instance to relate), and a warning per solver whose code
    changed while it ran."""

    runs: JudgedRuns
    out: Path
    notes: tuple[str, ...] = ()
    left_unrun: tuple[Path, ...] = ()
    pairs: tuple[PairVerdict, ...] | None = None
    changed: tuple[str, ...] = ()

    @property
    def mismatches(self) -> list[PairVerdict]:
        """The pairs of related instances whose answers break their relation."""
        from crosscheck.harness.judging.verdicts import Verdict

        return [pair for pair in self.pairs or () if pair.verdict is Verdict.MORPH_MISMATCH]

    @property
    def exit_status(self) -> int:
        """1 on a wrong verdict or a morph-mismatch, 3 when a file was unreadable or a run
        crashed, else 0 (`crosscheck.harness.workflows.exits`)."""
        return EXIT_WRONG if self.mismatches else runs_status(self.runs)


class Interrupted(KeyboardInterrupt):
    """A comparison stopped by Ctrl-C: the finished runs are saved in `out`."""

    def __init__(self, out: Path) -> None:
        super().__init__(f"interrupted: finished runs are saved in {out}")
        self.out = out


def compare(settings: CompareSettings, tell: Tell = silent) -> CompareOutcome:
    """Run and judge the comparison `settings` describe (module docstring).

    `SettingsError` or `UnusableInput` before any run when they cannot make sense;
    `Interrupted` on Ctrl-C; a `crosscheck.harness.inputs.index.BadIndex` for an index
    that cannot be used."""
    from crosscheck.harness.judging.verdicts import judged
    from crosscheck.harness.records.record import append_record
    from crosscheck.harness.runs.schedule import comparison_tasks

    told = Notes(tell)
    files, left = instance_files(settings.paths, settings.runs, told)
    out, done = _results_file(settings, told)
    records, tasks = comparison_tasks(files, settings.runs, done, settings.variants, settings.repeat)
    _note_beyond_reach(files, settings, told)
    related = _related(files, settings, done, (records, tasks), out, told) if settings.morph else False
    if settings.shard is not None:
        shard = settings.shard
        records, tasks = [r for r in records if shard.holds(r.key)], [t for t in tasks if shard.holds(t[0].key)]
    for record in records:
        if record.key not in done:
            append_record(out, record)
    warning = oversubscribed([run for run, _ in tasks], settings.runs.jobs)
    if warning:
        told(warning)
    records += _run_saving(tasks, settings, out, told)
    pairs = _pair_verdicts(records) if related else None
    return CompareOutcome(judged(records), out, tuple(told.lines), tuple(left), pairs,
                          tuple(f"warning: {line}" for line in settings.runs.versions.changed()))


def _note_beyond_reach(files: list[InstanceFile], settings: CompareSettings, tell: Tell) -> None:
    """A note per formulation whose runs the comparison leaves out as beyond the sizes it is
    known to solve (`crosscheck.harness.runs.schedule.left_beyond_reach`): how many, the first
    instance and why, and how to run them."""
    from crosscheck.harness.reports.wording import counted
    from crosscheck.harness.runs.schedule import left_beyond_reach

    for name, left in left_beyond_reach(files, settings.runs, settings.variants).items():
        instance, why = left[0]
        tell(f"note: {name}: {counted(len(left), 'run')} left out, beyond the sizes it is known to solve "
             f"within a minute (on {instance}: {why}); --all-sizes or --solver {name} runs them")


def _results_file(settings: CompareSettings, tell: Tell) -> tuple[Path, dict[RunKey, RunRecord]]:
    """The results file, made ready (its folder made, a last line cut short by a kill
    repaired), and the runs it already holds that a resumed comparison keeps (by
    `RunRecord.key`): none unless resuming, and none made under another version of their
    solver's code.  A file that already holds records is `SettingsError` unless resuming."""
    from crosscheck.harness.records.record import read_results, repair_tail
    from crosscheck.harness.records.schema import UnreadableRecord

    if settings.resume and settings.out is None:
        raise SettingsError("--resume needs --out", "--resume")
    out = settings.out or fresh_results_path()
    out.parent.mkdir(parents=True, exist_ok=True)
    repair_tail(out)
    if not settings.resume:
        if out.exists() and out.stat().st_size:
            raise SettingsError(f"{out} already holds records; add --resume or choose another file", "--out")
        return out, {}
    try:
        held = read_results(out).records
    except UnreadableRecord as error:
        raise UnusableInput(f"{error} ({RESUME_REFUSAL})") from None
    done = {record.key: record for record in held}
    runs = settings.runs
    _warn_other_limits(done.values(), out, {"time_limit": runs.time_limit, "clock": runs.clock,
                                            "memory_limit_mb": runs.memory_limit_mb}, tell)
    return out, _without_stale(done, runs.externals, runs.versions, out, tell)


def _warn_other_limits(records: Iterable[RunRecord], out: Path, limits: dict[str, object], tell: Tell) -> None:
    """Warn when `out` holds runs made under other limits than a resumed comparison asks for:
    their timeouts are not comparable (each record keeps its own limits, so the mix stays
    visible in reports and tidy rows).  Records without limits (unreadable files) pass."""
    for record in records:
        if "time_limit" not in record.environment:
            continue
        had = {name: record.environment.get(name, "wall" if name == "clock" else None) for name in limits}
        if had != limits:
            differ = ", ".join(f"{name} {had[name]} (asked: {limits[name]})" for name in limits if had[name] != limits[name])
            tell(f"warning: {out} holds runs made with {differ}; the file will mix limits (each record "
                 "keeps its own: tidy columns time_limit, clock, memory_limit_mb)")
            return


def _without_stale(done: dict[RunKey, RunRecord], externals: Iterable[External], versions: Pinned,
                   out: Path, tell: Tell) -> dict[RunKey, RunRecord]:
    """`done` but the runs made by another version of their solver's code than the one that
    will run (`crosscheck.harness.records.versions.stale_runs`, pinned in `versions`), with a
    warning per solver: they run again."""
    from crosscheck.harness.records.versions import stale_runs

    stale = stale_runs(done.values(), {external.name: external for external in externals}, versions)
    for warning in stale.warnings(out):
        tell(f"warning: {warning}")
    return {key: record for key, record in done.items() if key not in stale.keys}


def _related(files: list[InstanceFile], settings: CompareSettings, done: dict[RunKey, RunRecord],
             scheduled: tuple[list[RunRecord], list[tuple[Task, Expected]]], out: Path, tell: Tell) -> bool:
    """Derive `CompareSettings.morph` related instances of each file (saved in
    OUT-STEM-related/ beside `out`), their runs added to `scheduled`'s records (already
    done) and tasks (to run); True when there are any."""
    from crosscheck.harness.runs.schedule import instance_tasks
    from crosscheck.harness.workflows import morph as morphing

    records, tasks = scheduled
    fewer: list[str] = []
    related = morphing.related_files(files, settings.morph or 0, 0, out.parent / f"{out.stem}-related", fewer)
    for line in fewer:
        tell(f"note: fewer related instances than asked: {line}")
    for one in related:
        for run, expected in instance_tasks(one.file, settings.runs)[1]:
            run = run.model_copy(update={"related_to": morphing.link_of(one.related, one.relation, one.original)})
            if run.key in done and done[run.key].related_to is not None:
                records.append(done[run.key])
            else:  # not run yet, or recorded before runs kept their link: run again, so report can judge it
                tasks.append((run, expected))
    return bool(related)


def _pair_verdicts(records: list[RunRecord]) -> tuple[PairVerdict, ...]:
    """The verdict on every pair of related instances `records` link, as ``report`` judges them."""
    from crosscheck.harness.workflows.morph import recorded_verdicts

    return tuple(recorded_verdicts(records))


def _run_saving(tasks: list[tuple[Task, Expected]], settings: CompareSettings, out: Path,
                tell: Tell) -> list[RunRecord]:
    """Run the tasks, each record appended to `out` as it comes and shown by a `Progress`
    (closed at the end); `Interrupted` on Ctrl-C."""
    from crosscheck.harness.records.record import append_record
    from crosscheck.harness.reports.progress import Progress

    runs = settings.runs
    progress = Progress(len(tasks), runs.jobs, limit=runs.time_limit, mode=runs.progress)

    def finished(record: RunRecord) -> None:
        append_record(out, record)
        progress(record)

    try:
        records = _run(tasks, settings, finished, progress, tell)
    except KeyboardInterrupt:
        progress.close()  # before the message: the display's last line ends first
        raise Interrupted(out) from None
    progress.close()
    return records


def _run(tasks: list[tuple[Task, Expected]], settings: CompareSettings, on_record: Callable[[RunRecord], None],
         progress: Progress, tell: Tell) -> list[RunRecord]:
    """Run the tasks in local processes, `RunSettings.jobs` at a time, or on the Dask
    cluster at `CompareSettings.scheduler`."""
    from crosscheck.harness.runs.batch import run_tasks

    if settings.scheduler is None:
        return run_tasks(tasks, jobs=settings.runs.jobs, on_record=on_record, on_start=progress.started,
                         on_end=progress.ended, pin_cores=settings.pin_cores)
    try:
        from crosscheck.harness.runs.cluster import ClusterError, run_on_cluster  # Dask is optional, and slow to import
    except ImportError as error:
        from crosscheck.extras import missing_extra

        raise SettingsError(missing_extra("--scheduler", "cluster", str(error))) from None
    try:
        return run_on_cluster(tasks, settings.scheduler, on_record, progress.started, progress.ended, report=tell)
    except ClusterError as error:
        raise SettingsError(str(error), "--scheduler") from None


def fresh_results_path() -> Path:
    """A results file no one has written yet: ``results/compare-DATE-TIME.jsonl`` (numbered
    ``-2``, ``-3``, ... when one of that second exists)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = Path("results") / f"compare-{stamp}.jsonl"
    number = 1
    while path.exists():
        number += 1
        path = Path("results") / f"compare-{stamp}-{number}.jsonl"
    return path

