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
`morph` that holds no instance to run (`crosscheck.harness.plan.holds_nothing`), a ``--solver`` or
``--external`` that applies to none of the puzzles at hand, or an ``index.toml`` that is not TOML,
holds an unknown key or a value of the wrong type (`crosscheck.harness.index.BadIndex`).
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import click
from crosscheck.harness.formats import (FORMATS, HEARTBEAT, HUMAN_FORMATS, LATEX, LONG_TABLE_ROWS, PLOT_FORMATS,
                                        PNG_DPI, PROGRESS_MODES)
from crosscheck.harness.measure import cores
from crosscheck.harness.wording import counted, some_named, with_article
from crosscheck.models.base import Instance, InvalidInstance, Puzzle, generator_argument
from crosscheck.models.registry import PUZZLES, RELATIONS, get_puzzle, load_instance, refuse_special_file

if TYPE_CHECKING:  # what each command needs is imported when it runs, so that --help starts fast
    from crosscheck.harness.external import External
    from crosscheck.harness.index import Expected, InstanceFile
    from crosscheck.harness.morph import RelatedFile
    from crosscheck.harness.plan import Choice
    from crosscheck.harness.progress import Progress
    from crosscheck.harness.records import ResultsFile, RunKey, RunRecord, Task
    from crosscheck.harness.shard import Shard
    from crosscheck.harness.verdicts import JudgedRuns, Verdict
    from crosscheck.harness.versions import Pinned
    from crosscheck.solvers.base import Clock, Solver

EXIT_OK, EXIT_WRONG, EXIT_USAGE, EXIT_FAILED_RUNS = 0, 1, 2, 3
EXIT_INTERRUPTED = 130  # the shell's code for a process ended by SIGINT (Ctrl-C)
#: Seconds a hunt searches, and shrinks, when neither seconds nor a number of instances is given.
DEFAULT_HUNT_SECONDS = 60.0


class BadInput(click.ClickException):
    """Input the command cannot use: ``Error: MESSAGE`` on stderr, exit `EXIT_USAGE`, no traceback."""

    exit_code = EXIT_USAGE


class _Commands(click.Group):
    """The command group: an index of known optima that cannot be used (not TOML, an
    unknown key, a value of the wrong type; `crosscheck.harness.index.BadIndex`), met by
    any command, is `BadInput`."""

    def invoke(self, ctx: click.Context) -> object:
        from crosscheck.harness.index import BadIndex

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
    """Name on stderr every plugin that could not be loaded."""
    from crosscheck.solvers.registry import plugin_errors

    for error in plugin_errors():
        click.echo(f"warning: plugin not loaded: {error}", err=True)


@main.command("list")
@click.option("--params", is_flag=True, help="Also show each puzzle's generator parameters.")
@click.option("--shares", "show_shares", is_flag=True,
              help="Also show, per pair of formulations of a puzzle, the answer-deciding code both run (computed "
                   "from the code, trusted base left out; the same footprints run records use) and how many are "
                   "independent.")
def list_command(params: bool, show_shares: bool) -> None:
    """Show the puzzles, their solvers and where each comes from (built-in, an entry point
    of an installed distribution, or a module of CROSSCHECK_SOLVERS)."""
    from crosscheck.solvers.registry import origin, solvers_for

    for puzzle in PUZZLES.values():
        click.echo(f"{puzzle.name}: {puzzle.title} (variant: {puzzle.variant_name})")
        for solver in solvers_for(puzzle.name):
            missing = solver.unavailable()
            click.echo(f"  {solver.name:<20} {solver.summary} [{origin(solver.name)}]"
                       + (f" [not run by default: {missing}]" if missing else ""))
        if params:
            for name, meaning in puzzle.generator_params.items():
                click.echo(f"  -p {name}=...  {meaning}")
        if show_shares:
            _echo_shares(solvers_for(puzzle.name))


def _echo_shares(solvers: list[Solver]) -> None:
    """Per pair of `solvers` (one puzzle's), what both run; then the largest independent group."""
    from crosscheck.solvers.sharing import independent_group, pairs

    click.echo("  sharing (trusted base: crosscheck.solvers.trusted):")
    for first, second, shared in pairs(solvers):
        click.echo(f"    {first} & {second}: " + ("nothing" if not shared else f"{len(shared)} shared"))
        for name in sorted(shared):
            click.echo(f"      {name}")
    group = independent_group(solvers)
    click.echo(f"  independent: {len(group)} ({', '.join(group)})")


def _check_solver_names(names: tuple[str, ...]) -> None:
    from crosscheck.solvers.registry import get_solver

    for name in names:
        try:
            get_solver(name)
        except KeyError as error:
            raise click.BadParameter(error.args[0], param_hint="--solver") from None


time_limit_option = click.option(
    "--time-limit", type=click.FloatRange(min=0.1), default=60.0, show_default=True,
    help="Seconds per run (of --clock); a run past it is stopped and recorded as timeout.")
clock_option = click.option(
    "--clock", type=click.Choice(["wall", "cpu"]), default="wall", show_default=True,
    help="What --time-limit counts: elapsed wall-clock time, or the run's CPU time (a busy machine then "
         "gives the same runs the same work; CP-SAT's workers count together; a run is also killed "
         "after 10x its limit plus 5 s and a tenth of the limit in wall time, e.g. after 15.1 s for "
         "--time-limit 1, so one that sleeps or waits is stopped too).")
memory_limit_option = click.option(
    "--memory-limit", type=click.IntRange(min=64), default=8192, show_default=True,
    help="Memory in MB a run may use: address space each of its processes may map beyond what it "
         "inherited (libraries loaded before it forked), and memory all its processes hold together "
         "(sampled every 0.2 s); a run past either is recorded as memout.")
solver_option = click.option(
    "--solver", "solver_names", multiple=True, metavar="NAME",
    help="Run only this solver (repeatable; default: every solver of the puzzle, or none with --external).")
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
    help="Worker threads of every CP-SAT run [default: 2, or the cores when fewer]; recorded in each record.")


def _print(runs: JudgedRuns, fmt: str, environment: bool = False) -> None:
    """The judged records in `fmt` on stdout (a table for people with the environment of the
    runs after it when `environment`, as ``report`` shows it); for the data formats, the
    verdict notes on stderr."""
    from crosscheck.harness.report import notes, render

    click.echo(render(runs, fmt, environment=environment), nl=False)
    if fmt not in HUMAN_FORMATS:
        click.echo(notes(runs), err=True, nl=False)


def _saver(out: Path | None) -> Callable[[RunRecord], None]:
    """What saves each finished record: appended to `out` (made ready first), or nothing."""
    from crosscheck.harness.records import append_record, repair_tail

    if out is None:
        return lambda record: None
    out.parent.mkdir(parents=True, exist_ok=True)
    repair_tail(out)
    return lambda record: append_record(out, record)


def _warn_oversubscribed(tasks: list[Task], jobs: int) -> None:
    """Warn on stderr when runs would wait for a core (`oversubscription`)."""
    from crosscheck.harness.measure import oversubscription
    from crosscheck.harness.run import threads

    warning = oversubscription(min(jobs, len(tasks)), max((threads(task) for task in tasks), default=1))
    if warning:
        click.echo(warning, err=True)


def _regular_file(context: click.Context, param: click.Parameter, path: Path) -> Path:
    """An instance path given alone: a directory, FIFO or device is `BadInput`, found
    without opening it (opening a FIFO would wait for a writer forever)."""
    try:
        refuse_special_file(str(path))
    except InvalidInstance as error:
        raise BadInput(str(error)) from None
    return path


@main.command()
@click.argument("path", type=click.Path(exists=True, path_type=Path), callback=_regular_file)
@solver_option
@click.option("--variant", "--four-robots", "--deep", "--extended", "variant", is_flag=True,
              help="Solve the puzzle's variant (four robots, deep burrow, extended elevator).")
@time_limit_option
@clock_option
@memory_limit_option
@cpsat_workers_option
@external_option
@external_source_option
@format_option
@click.option("--json", "as_json", is_flag=True, hidden=True, help="Same as --format json (kept for old scripts).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Also append one JSON Lines record per run to this file (as compare --out does).")
@progress_option
def solve(path: Path, solver_names: tuple[str, ...], variant: bool, time_limit: float, clock: Clock,
          memory_limit: int, cpsat_workers: int | None, external_specs: tuple[str, ...],
          external_sources: tuple[str, ...], fmt: str, as_json: bool, out: Path | None, progress_mode: str) -> None:
    """Solve one instance file with the named solvers (all applicable ones by default).

    PATH must be a regular file: a directory, FIFO or device is refused at once (exit 2).
    """
    from crosscheck.harness.index import discover
    from crosscheck.harness.plan import Choice, formulations_chosen, task
    from crosscheck.harness.progress import Progress
    from crosscheck.harness.run import run_tasks
    from crosscheck.harness.verdicts import judged

    _check_solver_names(solver_names)
    externals = _parse_externals(external_specs, external_sources)
    try:
        puzzle, _ = load_instance(str(path))
    except InvalidInstance as error:
        click.echo(f"Error: {error}", err=True)
        sys.exit(EXIT_USAGE)  # the one input it was given is unusable: nothing ran (see the README)
    _refuse_runs_on_none(solver_names, externals, {puzzle.name}, f"{path} is {{}} instance", article=True)
    instance_file = discover(path)[0]
    choice = Choice(solver_names, tuple(externals), time_limit=time_limit, memory_limit=memory_limit,
                    cpsat_workers=cpsat_workers, clock=clock)
    names = formulations_chosen(puzzle.name, choice)  # each once, as compare runs them
    tasks = [task(instance_file, puzzle.name, name, variant, choice) for name in names]
    tasks += [task(instance_file, puzzle.name, e.name, variant, choice, e) for e in externals]
    _warn_oversubscribed([run for run, _ in tasks], jobs=1)
    # One run at a time, as compare shows them; no ticking thread, so the runs may still fork.
    progress = Progress(len(tasks), 1, limit=time_limit, mode=progress_mode, ticking=False)
    save = _saver(out)

    def finished(record: RunRecord) -> None:
        save(record)
        progress(record)

    try:  # fork: no forkserver to fill
        records = run_tasks(tasks, jobs=1, on_record=finished, on_start=progress.started, on_end=progress.ended,
                            start_method="fork")
    finally:
        progress.close()
    runs = judged(records)
    _print(runs, "json" if as_json else fmt)
    _warn_changed(choice.versions)
    sys.exit(_exit_status(runs))


@main.command()
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
@progress_option
def compare(paths: tuple[Path, ...], solver_names: tuple[str, ...], time_limit: float, clock: Clock, memory_limit: int,
            jobs: int,
            variants: bool, out: Path | None, resume: bool, pin_cores: bool, repeat: int, cpsat_workers: int | None,
            fmt: str,
            json_path: Path | None, external_specs: tuple[str, ...], external_sources: tuple[str, ...],
            morph_count: int | None, shard: Shard | None, scheduler: str | None, progress_mode: str) -> None:
    """Run every applicable solver on every instance file in PATHS (files, or folders searched
    recursively), check every plan, and compare the costs with each other and with the index
    of known optima."""
    from crosscheck.harness.plan import Choice, plan_comparison, puzzles_held
    from crosscheck.harness.progress import Progress
    from crosscheck.harness.records import append_record, dump_records, repair_tail
    from crosscheck.harness.verdicts import judged
    from crosscheck.harness.versions import Pinned

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
                    versions)
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
    from crosscheck.harness import morph as morphing
    from crosscheck.harness.plan import plan_instance

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


def _discovered(paths: tuple[Path, ...]) -> list[InstanceFile]:
    """The instance files of `paths` (`crosscheck.harness.plan.discover_all`), with a
    warning on stderr for each index entry that names no instance file, and the notes of
    `_note_clashes`, and one for the files below a folder that are in a puzzle's format but
    not named ``*.txt`` (`crosscheck.harness.lookalikes`).  A path holding no instance to run (`crosscheck.harness.plan.holds_nothing`)
    is `BadInput`: a run of nothing must not look like a success."""
    from crosscheck.harness.index import Indexes, discover
    from crosscheck.harness.lookalikes import lookalikes, lookalikes_note
    from crosscheck.harness.plan import discover_all, holds_nothing

    indexes = Indexes()
    for path in paths:
        unread = lookalikes(path) if path.is_dir() else []
        note = lookalikes_note(path, unread) if unread else ""
        why = holds_nothing(path, discover(path, indexes))
        if why is not None:
            raise BadInput(f"{why}; {note}" if note else why)
        if note:
            click.echo(f"note: {note}", err=True)
    files = discover_all(paths, indexes)
    for warning in indexes.unmatched():
        click.echo(f"warning: {warning}", err=True)
    _note_clashes(files)
    return files


def _note_left_unrun(files: list[InstanceFile], solver_names: tuple[str, ...], externals: Iterable[External]) -> None:
    """A note on stderr per puzzle whose files nothing chosen runs on (`crosscheck.harness.plan.left_unrun`),
    naming up to three: they have no run, no record and no verdict."""
    from crosscheck.harness.plan import left_unrun

    for puzzle, left in left_unrun(files, solver_names, externals).items():
        named = some_named([str(instance_file.path) for instance_file in left])
        click.echo(f"note: {counted(len(left), puzzle + ' file')} not run (no chosen solver or program runs on "
                   f"{puzzle}): {named}", err=True)


def _note_clashes(files: list[InstanceFile]) -> None:
    """A note on stderr for each name two files would have shared, with the names (their
    paths as given) that keep their runs apart instead (`crosscheck.harness.plan.unique_names`)."""
    clashes: dict[str, list[str]] = {}
    for instance_file in files:
        if instance_file.clashed_name is not None:
            clashes.setdefault(instance_file.clashed_name, []).append(instance_file.name)
    for shared, names in clashes.items():
        click.echo(f"note: {counted(len(names), 'file')} would share the name {shared}; named by their paths "
                   f"instead: {', '.join(names)}", err=True)


def _morph_mismatches(records: list[RunRecord], folder: Path, err: bool) -> int:
    """Print every morph-mismatch of ``--morph`` (the pairs `records` link, judged as
    ``report`` judges them) and how many pairs were judged (on stderr with `err`, beside
    the data formats' notes); return their number."""
    from crosscheck.harness import morph as morphing
    from crosscheck.harness.verdicts import Verdict

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
    will run (`crosscheck.harness.versions.stale_runs`, pinned in `versions`), with a warning
    per solver: they run again."""
    from crosscheck.harness.versions import stale_runs

    stale = stale_runs(done.values(), {external.name: external for external in externals}, versions)
    for warning in stale.warnings(out):
        click.echo(f"warning: {warning}", err=True)
    return {key: record for key, record in done.items() if key not in stale.keys}


#: Why `compare --resume` stops at a results file it cannot read whole.
RESUME_REFUSAL = ("--resume reads every record first, so that no run is dropped or made twice; nothing was run: "
                  "repair or delete that line")


def _read(path: Path, refusal: str = "") -> ResultsFile:
    """A results file's records and what reading it skipped; a line that is not a record,
    or one from a newer crosscheck, is `BadInput` naming file and line (with `refusal`
    after it, when given)."""
    from crosscheck.harness.records import read_results
    from crosscheck.harness.schema import UnreadableRecord

    try:
        return read_results(path)
    except UnreadableRecord as error:
        raise BadInput(f"{error} ({refusal})" if refusal else str(error)) from None


def _shard(text: str | None) -> Shard | None:
    if text is None:
        return None
    from crosscheck.harness.shard import Shard

    try:
        return Shard.parse(text)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--shard") from None


def _read_all(paths: tuple[Path, ...]) -> list[RunRecord]:
    """The records of several results files (the parts of a sharded comparison, say),
    one per run: a run recorded twice keeps its later record, with a warning on stderr
    (`_read_files` says what else)."""
    return _merged(_read_files(paths)[0])[0]


def _read_files(paths: tuple[Path, ...]) -> tuple[list[tuple[str, list[RunRecord]]], list[str]]:
    """Each results file's name and records, and the notes on reading them (a last line
    cut short, records of an older schema: `ResultsFile.notes`; a file without records
    among others), each also on stderr.  `BadInput` when no file holds a record (nothing
    to report), or when a line is not a record (naming it as `_read` does)."""
    named, notes = [], []
    for path in paths:
        contents = _read(path)
        named.append((str(path), contents.records))
        notes += contents.notes(str(path))
    if any(records for _, records in named):
        notes += [f"{name}: no records" for name, records in named if not records]
    for note in notes:
        click.echo(f"note: {note}", err=True)
    if not any(records for _, records in named):
        raise BadInput(f"no records in {', '.join(map(str, paths))}")
    return named, notes


def _merged(files: list[tuple[str, list[RunRecord]]]) -> tuple[list[RunRecord], list[str]]:
    """The records of `files` (name, records) merged as `_read_all` says, and the warnings
    (also on stderr)."""
    from crosscheck.harness.shard import merge

    records, warnings = merge(files)
    for warning in warnings:
        click.echo(f"warning: {warning}", err=True)
    return records, warnings


def _run_saving(tasks: list[tuple[Task, Expected]], jobs: int, scheduler: str | None, out: Path,
                progress: Progress, pin_cores: bool) -> list[RunRecord]:
    """`_run` the tasks, each record appended to `out` as it comes and shown by `progress`
    (closed at the end); on Ctrl-C, say how to resume and exit `EXIT_INTERRUPTED`."""
    from crosscheck.harness.records import append_record

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
    from crosscheck.harness.run import run_tasks

    if scheduler is None:
        return run_tasks(tasks, jobs=jobs, on_record=on_record, on_start=progress.started, on_end=progress.ended,
                         pin_cores=pin_cores)
    try:
        from crosscheck.harness.cluster import ClusterError, run_on_cluster  # Dask is optional, and slow to import
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


def _parse_externals(specs: tuple[str, ...], source_specs: tuple[str, ...] = ()) -> list[External]:
    """The ``--external`` programs, each with the files ``--external-source`` names for it.

    A name stands for one program in the records (their runs, and its version, are found by
    it), so a name given twice, even for two puzzles, and a solver's name are usage errors."""
    from crosscheck.harness.external import External
    from crosscheck.solvers.registry import get_solver, origin

    externals: list[External] = []
    for spec in specs:
        try:
            external = External.parse(spec)
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="--external") from None
        try:
            get_solver(external.name)
        except KeyError:
            pass
        else:
            raise click.BadParameter(f"{external.name!r} is already a solver's name ({origin(external.name)}): "
                                     "give the program another name", param_hint="--external")
        if external.puzzle is not None and external.puzzle not in PUZZLES:
            raise click.BadParameter(f"unknown puzzle {external.puzzle!r} (valid: {', '.join(PUZZLES)})",
                                     param_hint="--external")
        for given in externals:
            if given.name == external.name:
                raise click.BadParameter(
                    f"the name {external.name!r} is given twice ({given.spec!r} and {external.spec!r}): its runs and "
                    "its version are recorded by name, so each program needs a name of its own, even on different "
                    "puzzles", param_hint="--external")
        externals.append(external)
    return _with_sources(externals, source_specs)


def _with_sources(externals: list[External], specs: tuple[str, ...]) -> list[External]:
    """`externals`, each with the paths of the ``--external-source NAME=PATH`` naming it; a
    spec naming no ``--external``, or a path that does not exist, is a usage error."""
    by_name = {external.name: external for external in externals}
    for spec in specs:
        name, separator, path = spec.partition("=")
        if not separator or not path:
            raise click.BadParameter(f"expected NAME=PATH, got {spec!r}", param_hint="--external-source")
        if name not in by_name:
            raise click.BadParameter(f"{name!r} is no --external program (given: {', '.join(by_name) or 'none'})",
                                     param_hint="--external-source")
        if not Path(path).exists():
            raise click.BadParameter(f"{path}: no such file or folder", param_hint="--external-source")
        by_name[name] = by_name[name].with_source(path)
    return [by_name[external.name] for external in externals]


def _warn_changed(versions: Pinned) -> None:
    """Warn on stderr of each solver whose code changed while the command ran (`Pinned.changed`)."""
    for warning in versions.changed():
        click.echo(f"warning: {warning}", err=True)


def _refuse_runs_on_none(solver_names: tuple[str, ...], externals: Iterable[External], puzzles: set[str], held: str,
                         article: bool = False) -> None:
    """Stop with exit 2 when a named formulation or external program applies to none of
    `puzzles`, the puzzles at hand (`crosscheck.harness.plan.runs_on_none`): nothing would
    run it, and a run in which nothing runs must not look like a success.  `held` says
    where the puzzles come from, ``{}`` standing for them (with their article when
    `article`).  No puzzle at hand (no readable instance) refuses nothing."""
    from crosscheck.harness.plan import runs_on_none

    refused = runs_on_none(solver_names, externals, puzzles) if puzzles else None
    if refused is not None:
        option, why = refused
        names = sorted(puzzles)
        listed = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        raise click.BadParameter(f"{why}, and {held.format(with_article(listed) if article else listed)}",
                                 param_hint=option)


def _exit_status(runs: JudgedRuns) -> int:
    from crosscheck.harness.verdicts import FAILURES
    from crosscheck.solvers.base import FAILED_STATUSES

    if any(v.verdict in FAILURES for v in runs.verdicts):
        return EXIT_WRONG
    if any(r.status in FAILED_STATUSES for r in runs.records):
        return EXIT_FAILED_RUNS
    return EXIT_OK


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@solver_option
@external_option
@external_source_option
@click.option("--relations", "relation_names", metavar="NAME,...",
              help="Apply these relations (comma-separated; each --count times per instance) [default: --count "
                   "relations drawn at random per instance]: " + "; ".join(
                       f"{puzzle}: {', '.join(relations)}" for puzzle, relations in RELATIONS.items()) + ".")
@click.option("--count", type=click.IntRange(min=1), default=3, show_default=True,
              help="Related instances per instance (per named relation with --relations).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the relations' draws.")
@time_limit_option
@clock_option
@memory_limit_option
@jobs_option
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder for the related instances (related/), the runs (morph.jsonl) and every pair's "
                   "verdict (morph-verdicts.jsonl).")
@progress_option
def morph(paths: tuple[Path, ...], solver_names: tuple[str, ...], external_specs: tuple[str, ...],
          external_sources: tuple[str, ...], relation_names: str | None, count: int, seed: int, time_limit: float, clock: Clock, memory_limit: int,
          jobs: int, out: Path, progress_mode: str) -> None:
    """Test solvers against themselves: run them on each instance in PATHS and on related
    instances (same optimum under a symmetry, a renaming, ...; `crosscheck.models.relations`),
    and report each pair of answers that breaks its relation (morph-mismatch).

    Each instance's own runs are judged as compare judges them: an original's answers
    against its index.toml entry too (wrong-expected; a related instance has no entry).
    With --external and no --solver only the external programs run.  Exit 1 on a
    mismatch or a wrong verdict on an instance (wrong-expected included), 3 when a file
    was unreadable or a run crashed, else 0.
    """
    from crosscheck.harness import morph as morphing
    from crosscheck.harness.plan import puzzles_held
    from crosscheck.harness.report import crashed, failure_reasons, verdict_count, verdict_line
    from crosscheck.harness.verdicts import FAILURES, Verdict

    _check_solver_names(solver_names)
    externals = tuple(_parse_externals(external_specs, external_sources))
    relations = _relation_names(relation_names)
    files = _discovered(paths)
    _refuse_runs_on_none(solver_names, externals, puzzles_held(files), "the paths given hold only {} instances")
    _note_left_unrun(files, solver_names, externals)
    config = morphing.MorphConfig(solver_names, externals, out, relations, count, seed, time_limit, clock,
                                  memory_limit, jobs, progress=progress_mode)
    try:
        outcome = morphing.morph(files, config, on_pair=lambda pair: click.echo(pair.line(out))
                                 if pair.verdict is Verdict.MORPH_MISMATCH else None)
    except KeyboardInterrupt:  # not exit 1, which says a relation broke
        click.echo(f"interrupted: finished runs are saved in {out / 'morph.jsonl'}", err=True)
        sys.exit(EXIT_INTERRUPTED)
    _warn_changed(config.versions)
    runs = outcome.judged_runs()
    verdicts = runs.verdicts
    for verdict in verdicts:  # wrong answers and unreadable files, as compare names them; a pair's line said its own
        if verdict.verdict in FAILURES | {Verdict.ERROR} and verdict.verdict is not Verdict.MORPH_MISMATCH:
            click.echo(verdict_line(verdict))
    if crashed(outcome.records):
        click.echo(crashed(outcome.records))
    for line in failure_reasons(outcome.records):
        click.echo(line)
    for line in outcome.skipped:
        click.echo(f"not applicable: {line}")
    for line in outcome.fewer:
        click.echo(f"fewer related instances than asked: {line}")
    tally = Counter(pair.verdict.value for pair in outcome.pairs)
    tallied = ", ".join(f"{n} {v}" for v, n in sorted(tally.items())) or "none"
    click.echo(f"{counted(len(outcome.pairs), 'pair')} judged: {tallied}; {verdict_count(verdicts)}; "
               f"records: {out / 'morph.jsonl'}")
    status = _exit_status(runs)
    sys.exit(EXIT_WRONG if outcome.mismatches else status)


def _relation_names(text: str | None) -> tuple[str, ...]:
    """The names of ``--relations``; each must be a relation of some puzzle."""
    names = tuple(name.strip() for name in (text or "").split(",") if name.strip())
    known = sorted({name for relations in RELATIONS.values() for name in relations})
    for name in names:
        if name not in known:
            raise click.BadParameter(f"unknown relation {name!r}; valid: {', '.join(known)}", param_hint="--relations")
    return names


@main.command()
@click.argument("puzzle_name", metavar="PUZZLE", type=click.Choice(sorted(PUZZLES)))
@solver_option
@external_option
@external_source_option
@click.option("--budget", type=click.FloatRange(min=0),
              help=f"Seconds to search before giving up [default: {DEFAULT_HUNT_SECONDS:g} without --examples, "
                   "else no limit].")
@click.option("--examples", type=click.IntRange(min=1),
              help="Distinct instances to judge before giving up (with --budget: whichever ends first); "
                   "unlike seconds, the same on any machine.")
@click.option("--shrink-budget", type=click.FloatRange(min=0),
              help="Seconds to shrink a counterexample once found, then the smallest so far is kept "
                   f"[default: {DEFAULT_HUNT_SECONDS:g} without --shrink-examples, else no limit].")
@click.option("--shrink-examples", type=click.IntRange(min=0),
              help="Distinct instances to judge while shrinking (with --shrink-budget: whichever ends first).")
@click.option("--seed", type=int, help="Seed of Hypothesis's draws, for a reproducible hunt.")
@click.option("--time-limit", type=click.FloatRange(min=0.1), default=5.0, show_default=True,
              help="Seconds per run (of --clock).")
@clock_option
@memory_limit_option
@jobs_option
@click.option("-p", "--param", "params", multiple=True, metavar="NAME=RANGE",
              help="A size range such as floors=2-4 or pairs=3 (repeatable); see docs/hunting.md for the names.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder for counterexample-PUZZLE.txt and runs.jsonl, every instance judged (judged/) with "
                   "its runs (judged.jsonl), and hunt-db unless --db.")
@click.option("--morph", is_flag=True,
              help="Draw a relation with each instance too, and stop at a morph-mismatch (a solver's answers on "
                   "the instance and its related instance break the relation); then shrink the instance.")
@click.option("--relations", "relation_names", metavar="NAME,...",
              help="With --morph: draw only among these relations of PUZZLE [default: all].")
@click.option("--published-shape", is_flag=True,
              help="Draw and shrink only instances of the published inputs' shape (vault: every door's key "
                   "present; burrow: depth 2 or 4, empty hallway; elevator: four floors, a safe start), within -p.")
@click.option("--db", type=click.Path(file_okay=False, path_type=Path),
              help="Hunt database: counterexamples are saved there, later hunts try them first [default: OUT/hunt-db].")
@click.option(
    "--progress", "progress_mode", type=click.Choice(PROGRESS_MODES), default="auto", show_default=True,
    envvar="CROSSCHECK_PROGRESS",
    help="Progress on stderr: auto draws a live line when stderr is a terminal and nothing otherwise; lines "
         "writes one plain line per instance judged ([N] or [shrinking N], instance, sizes, seconds, verdict: "
         "which formulations agreed or what disagreed); none shows nothing. Stdout is the same in every mode "
         "[env: CROSSCHECK_PROGRESS].")
def hunt(puzzle_name: str, solver_names: tuple[str, ...], external_specs: tuple[str, ...],
         external_sources: tuple[str, ...], budget: float | None,
         examples: int | None, shrink_budget: float | None, shrink_examples: int | None, seed: int | None,
         time_limit: float, clock: Clock, memory_limit: int, jobs: int, params: tuple[str, ...], out: Path,
         morph: bool, relation_names: str | None, published_shape: bool, db: Path | None, progress_mode: str) -> None:
    """Search for the smallest PUZZLE instance on which formulations disagree.

    Draws instances (Hypothesis), runs every chosen formulation on each, judges them like
    `compare`, and at the first wrong verdict shrinks the instance while the same kind of
    wrong verdict remains.  Exit 1 with a counterexample; when the budget runs out, 3 if some
    run crashed or ran out of memory, else 0.  A hunt stops early (exit 3) when an external
    program's first 3 runs all crashed the same way: it never ran.
    The counterexample is on disk as soon as it is judged and each smaller one replaces
    it at once: on Ctrl-C the smallest so far is kept (exit 1; 130 if none was found).
    """
    from crosscheck.harness.hunt import HuntConfig, explain, reproduce, written
    from crosscheck.harness.hunt import hunt as run_hunt
    from crosscheck.harness.hunt_progress import HuntProgress
    from crosscheck.harness.plan import Choice, formulations_chosen
    from crosscheck.models.strategies import instances, parse_ranges
    from crosscheck.solvers.registry import loaded_plugin_modules

    _check_solver_names(solver_names)
    externals = _parse_externals(external_specs, external_sources)
    _refuse_runs_on_none(solver_names, externals, {puzzle_name}, f"hunt {puzzle_name} draws only {{}} instances")
    externals = [e for e in externals if e.applies_to(puzzle_name)]
    try:
        ranges = parse_ranges(params)
        instances(puzzle_name, ranges, published_shape)  # checks the ranges (and that they hold the shape)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--param") from None
    names = tuple(formulations_chosen(puzzle_name, Choice(solver_names, tuple(externals))))
    if externals and not solver_names and not morph:  # a claim never contradicts a claim: only plans are checked
        click.echo("warning: external programs alone, without --morph: only the plans they print are checked, "
                   "so a claim alone can never be contradicted; add --solver NAME or --morph to check it", err=True)
    relations = _relation_names(relation_names)
    unknown = [name for name in relations if name not in RELATIONS[puzzle_name]]
    if unknown:
        raise click.BadParameter(f"{unknown[0]!r} is no relation of {puzzle_name}; valid: "
                                 f"{', '.join(RELATIONS[puzzle_name])}", param_hint="--relations")
    config = HuntConfig(puzzle=get_puzzle(puzzle_name), solvers=names, externals=tuple(externals), out=out,
                        ranges=ranges, budget=DEFAULT_HUNT_SECONDS if budget is None and examples is None else budget,
                        examples=examples, shrink_examples=shrink_examples, seed=seed,
                        shrink_budget=(DEFAULT_HUNT_SECONDS if shrink_budget is None and shrink_examples is None
                                       else shrink_budget),
                        time_limit=time_limit, clock=clock, memory_limit_mb=memory_limit, jobs=jobs, plugins=loaded_plugin_modules(),
                        database=db, published_shape=published_shape, morph=relations if morph else None)
    outcome = run_hunt(config, HuntProgress(progress_mode))
    click.echo(explain(outcome, config))
    _warn_changed(config.versions)
    paths = written(outcome, config)
    for path in paths:
        click.echo(f"written: {path}")
    command = reproduce(outcome, config)
    if command is not None:
        click.echo(f"reproduce: {command}")
    sys.exit(EXIT_WRONG if paths else EXIT_INTERRUPTED if outcome.interrupted
             else EXIT_FAILED_RUNS if outcome.crashed else EXIT_OK)


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice((*FORMATS, "parquet", "html")), default="table",
              show_default=True,
              help="table or markdown for people (verdict notes follow); html: one self-contained page with "
                   "every table, figure and note (use -o); latex: a booktabs tabular of the --by table, the notes as "
                   "comments; csv, jsonl "
                   "(tidy: one flat row per run), json (full records) or parquet (tidy, needs the analysis "
                   "extra and -o) for programs.")
@click.option("--by", type=click.Choice(["run", "solver", "family"]), default="run", show_default=True,
              help="One row per (instance, solver), a summary per puzzle and solver (exact answers, timeouts, "
                   "times: medians over each instance's repetitions, then over instances), or per family "
                   "(puzzle and instance folder) and solver with times over the instances every solver solved.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write to this file instead of stdout (required for parquet).")
@click.option("--against", "against", multiple=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              metavar="NEW.jsonl",
              help="Compare FILES (old) with this newer results file (repeatable, merged): status, verdict, "
                   "provers and time changes per instance and solver (times on CPU seconds when both sides ran "
                   "with --clock cpu, else wall); exit 1 when a verdict got worse, an exact answer changed or was "
                   "lost, a pair run in OLD is missing from NEW, or an instance has fewer independent provers.")
@click.option("--fail-on-slower", is_flag=True,
              help="With --against: exit 1 also when a pair is judged slower (needs --repeat on both sides).")
@click.option("--solver", "kept", multiple=True, metavar="NAME",
              help="Report only this solver's runs (repeatable): verdicts are judged again from them, and the "
                   "report names the solvers left out.")
@click.option("--exclude-solver", "dropped", multiple=True, metavar="NAME",
              help="Leave this solver's runs out (repeatable; a formulation that solved nothing, say): verdicts "
                   "are judged again without them, and the report names them.")
@click.option("--longtable-rows", "long_rows", type=click.IntRange(min=0), default=None, metavar="N",
              help=f"With --format latex: a table of more than N rows is a longtable, which breaks across pages "
                   f"and cannot go in a table float; fewer stay one tabular [default: {LONG_TABLE_ROWS}, about a "
                   "page; 0: always a longtable].")
def report(files: tuple[Path, ...], fmt: str, by: str, output: Path | None, against: tuple[Path, ...],
           fail_on_slower: bool, kept: tuple[str, ...], dropped: tuple[str, ...], long_rows: int | None) -> None:
    """Rebuild the comparison table from JSON Lines results files (from --out; several are
    merged into one run each: a run recorded twice keeps its later record, with a
    warning), or with --against, what changed between two comparisons.  A table for
    people is followed by the environment of the runs (when, by which command and
    commit, on which machine, how many at a time), then the verdict notes.  --solver or
    --exclude-solver leave formulations out: every format then names them (above a
    table, in LaTeX comments, under the HTML page's lead, on stderr).

    A line that is not a run record (a last line cut short by a kill aside: a note says
    so), or files without a record (on either side of --against), stop it: exit 2 with
    FILE[:LINE[:COLUMN]]: what is wrong.  Without --against the exit status is
    compare's for the same records: 1 some answer is wrong, 3 a file was unreadable or a
    run crashed, else 0.  With --against: 1 on a regression (see --against and
    --fail-on-slower), else 0."""
    from crosscheck.harness.report import notes, render
    from crosscheck.harness.verdicts import judged

    if long_rows is not None and fmt != LATEX:
        raise click.UsageError("--longtable-rows sets when a LaTeX table breaks across pages: add --format latex")
    if against:
        if kept or dropped:
            raise click.UsageError("--solver and --exclude-solver choose the runs of one report; --against "
                                   "compares every run of both sides")
        if by != "run":
            raise click.UsageError("--by summarises one comparison; --against lists changes per instance and "
                                   "solver: drop --by, or report each file with --by on its own")
        sys.exit(_report_diff(files, against, fmt, output, fail_on_slower))
    if fail_on_slower:
        raise click.UsageError("--fail-on-slower goes with --against")
    parquet = _parquet_file(by, output) if fmt == "parquet" else None
    if fmt == "html" and by != "run":
        raise click.UsageError("--format html holds every table; --by is for the other formats")
    named, read_notes = _read_files(files)
    records, warnings = _merged(named)
    records, left_out, remarks = _chosen_solvers(records, kept, dropped)
    runs = judged(records, left_out)
    if parquet is not None:
        from crosscheck.harness.tidy import write_parquet

        write_parquet(runs, parquet)
    else:
        _write(_html(runs, named, [*read_notes, *warnings, *remarks]) if fmt == "html"
               else render(runs, fmt, by, environment=True, remarks=remarks,
                           long_rows=LONG_TABLE_ROWS if long_rows is None else long_rows), output)
    if fmt not in HUMAN_FORMATS:
        click.echo(notes(runs), err=True, nl=False)
    sys.exit(_exit_status(runs))


def _chosen_solvers(records: list[RunRecord], kept: tuple[str, ...],
                    dropped: tuple[str, ...]) -> tuple[list[RunRecord], list[str], list[str]]:
    """`crosscheck.harness.report.leave_out` for report's --solver and --exclude-solver, its
    remark also on stderr; a usage error for a name that ran nowhere, or both options."""
    from crosscheck.harness.report import leave_out

    if kept and dropped:
        raise click.UsageError("--solver keeps, --exclude-solver drops: give one of them")
    try:
        chosen, left_out, remarks = leave_out(records, kept, dropped)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--solver" if kept else "--exclude-solver") from None
    for remark in remarks:
        click.echo(f"note: {remark}", err=True)
    return chosen, left_out, remarks


def _parquet_file(by: str, output: Path | None) -> Path:
    """The file `--format parquet` writes (`output`); a usage error for what it cannot do,
    saying what instead, and `BadInput` without the analysis extra."""
    if by != "run":
        raise click.UsageError(f"--format parquet writes the tidy rows, one per run, not --by {by}: drop --by, "
                               f"or use --by {by} --format csv (or json)")
    if output is None:
        raise click.UsageError("--format parquet writes a file: add -o FILE.parquet")
    _need_analysis_extra("--format parquet")
    return output


def _need_analysis_extra(what: str) -> None:
    """`BadInput` (exit 2, one line) when pandas or pyarrow, the analysis extra `what` needs, is missing."""
    from importlib.util import find_spec

    from crosscheck.extras import missing_extra

    missing = [name for name in ("pandas", "pyarrow") if find_spec(name) is None]
    if missing:
        raise BadInput(missing_extra(what, "analysis", f"{' and '.join(missing)} not installed"))


def _html(runs: JudgedRuns, files: list[tuple[str, list[RunRecord]]], read_notes: list[str]) -> str:
    from crosscheck.harness.html_report import build  # matplotlib is slow to import; only this format needs it

    return build(runs, files, read_notes)


def _write(text: str, output: Path | None) -> None:
    """`text` to `output`, or to stdout without one."""
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")


def _report_diff(old: tuple[Path, ...], new: tuple[Path, ...], fmt: str, output: Path | None,
                 fail_on_slower: bool) -> int:
    """Print what changed from `old` to `new`: a warning when the sides ran under other
    settings, the timing rule, the changes, the summary and one line per regression; the
    exit status: 1 when there is a regression (`crosscheck.harness.diff.regressions`)."""
    from crosscheck.harness.diff import DIFF_COLUMNS, diff, regressions, rule_line, summary
    from crosscheck.harness.diff_basis import basis, settings_warning
    from crosscheck.harness.report import render_table

    if fmt not in HUMAN_FORMATS:
        raise click.UsageError(f"--against prints a table ({' or '.join(HUMAN_FORMATS)}), not {fmt}")
    before, after = _read_all(old), _read_all(new)
    chosen = basis(before, after)
    changes = diff(before, after, chosen)
    listed = [change.row() for change in changes if change.listed]
    warning = settings_warning(before, after)
    found = regressions(changes, fail_on_slower)
    text = "".join(line + "\n" for line in (warning, rule_line(chosen, changes)) if line)
    text += (render_table(DIFF_COLUMNS, listed, fmt) if listed else "no changes\n") + summary(changes) + "\n"
    text += "".join(line + "\n" for line in found)
    _write(text, output)
    return EXIT_WRONG if found else EXIT_OK


@main.command()
def schema() -> None:
    """Print the JSON Schema of one run record (one line of a results file)."""
    from crosscheck.harness.records import json_schema

    click.echo(json.dumps(json_schema(), indent=2))


@main.command()
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
    from crosscheck.harness.plots import figure_notes, plot_all  # matplotlib is slow to import

    records = _read_all(files)
    for path in plot_all(records, folder, fmt):
        click.echo(str(path))
    for note in figure_notes(records):
        click.echo(f"note: {note}", err=True)


@main.command()
@click.argument("puzzle_name", metavar="PUZZLE", type=click.Choice(sorted(PUZZLES)))
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
    from crosscheck.harness.records import environment
    from crosscheck.models.shape import outside_published_shape

    puzzle = get_puzzle(puzzle_name)
    values = _generator_values(puzzle, params)
    instances: dict[str, dict[str, int]] = {}  # file name -> its seed
    family = {"puzzle": puzzle.name, "params": values, "instances": instances, "environment": environment()}
    for number in range(seed, seed + count):
        try:
            instance = puzzle.generate(number, **values)
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="--param") from None
        outside = outside_published_shape(instance) if published_shape else ""
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


@main.command()
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.option("--pddl", "folder", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder for the PDDL files (NAME-domain.pddl and NAME-problem.pddl per instance; "
                   "for a folder PATH, in the subfolder the instance file has below PATH).")
@click.option("--variant", "--four-robots", "--deep", "--extended", "variant", is_flag=True,
              help="Export the puzzle's variant (four robots, deep burrow, extended elevator).")
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
    from crosscheck.solvers.planner.export import export as export_pddl

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
    from crosscheck.solvers.planner.export import pddl_paths

    existing = [target for _, instance, subfolder in loaded for target in pddl_paths(instance, subfolder)
                if target.exists()]
    if existing:
        more = f", and {len(existing) - 1} more of the files to write" if len(existing) > 1 else ""
        raise click.BadParameter(f"{existing[0]} already exists{more}; nothing was written: add --force to "
                                 "overwrite, or choose another folder", param_hint="--pddl")


def _exported_instances(path: Path, folder: Path, variant: bool) -> tuple[list[tuple[Puzzle, Instance, Path]], int]:
    """The instances at `path` `export` writes, each with the folder it writes them to, and
    how many files it reported on stderr (unparsable, or clashing with another's output)."""
    from crosscheck.harness.index import discover
    from crosscheck.solvers.planner.export import pddl_paths

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


@main.command("record-optima")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--index", "index_path", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The index.toml to extend (instance names in FILES are relative to its folder).")
@click.option("--min-agreeing", type=click.IntRange(min=1), default=2, show_default=True,
              help="How many independent solvers (sharing no contraction or bound) must have proven "
                   "the same exact answer.")
@click.option("--allow-single", is_flag=True,
              help="Also record optima proven by a single independent line of evidence (--min-agreeing 1).")
@click.option("--refresh", is_flag=True,
              help="Also rewrite what the entries the index lists already rest on (provers, independent, shared) "
                   "from these runs, where they agree with the index; their answers never change.")
def record_optima(files: tuple[Path, ...], index_path: Path, min_agreeing: int, allow_single: bool,
                  refresh: bool) -> None:
    """Add to the index the optima that formulations proved and agreed on in results files.

    Only instances the index does not list yet are added (variant runs are skipped);
    an optimum is never typed in by hand, it comes from agreeing runs.  An index names
    the files it judges by their path from its folder: an instance that names no file there
    (a run of another folder), or whose own folder's index.toml judges it, is not recorded,
    and said so on stderr; so is a file the index lists under a link's name (never looked
    up: rename the entry).  An agreement of
    fewer than --min-agreeing independent provers is refused, and said so on stderr, as is
    every instance whose verdict is not agree (with why); a last line on stderr counts
    them.  stdout holds the index tables added, as TOML, exactly as appended to the index
    (nothing when none was).  Exit status 0 unless the input is unusable (2).
    """
    from crosscheck.harness.index import append_entries, judged_by, linked_entries, load_index, refresh_entries
    from crosscheck.harness.provenance import agreed_entries, refreshed_evidence
    from crosscheck.harness.verdicts import judged

    required = 1 if allow_single else min_agreeing
    runs = judged(_read_all(files))
    index = load_index(index_path) if index_path.exists() else {}  # an unusable index stops it before any output
    if refresh and index:
        for name in refresh_entries(index_path, refreshed_evidence(runs, index)):
            click.echo(f"{name}: evidence refreshed", err=True)
    entries, refused, skipped = agreed_entries(runs, required)
    elsewhere = [name for name in entries if not judged_by(index_path, name)]
    entries = {name: entry for name, entry in entries.items() if name not in elsewhere}
    for name in elsewhere:
        click.echo(f"{name}: not recorded: no such file under {index_path.parent}, or an index.toml between "
                   "holds its answer (an index names the files it judges by their path from its folder: "
                   "record a run of that folder)", err=True)
    links = linked_entries(index_path, index)
    linked = [name for name in entries if name in links]
    entries = {name: entry for name, entry in entries.items() if name not in links}
    for name in linked:
        click.echo(f'{name}: not recorded: {index_path} lists it as ["{links[name]}"], the name of a link to it, '
                   f'which is never looked up, so its answer is checked against nothing: rename that entry '
                   f'["{name}"]', err=True)
    for verdict in refused:
        click.echo(f"{verdict.instance}: not recorded: {verdict.answer} rests on "
                   f"{counted(verdict.independent, 'independent prover')} ({', '.join(verdict.provers)}), "
                   f"{required} required "
                   f"(--allow-single records it anyway)", err=True)
    for verdict in skipped:
        click.echo(f"{verdict.instance}: not recorded: {verdict.verdict.value}: {verdict.reason}", err=True)
    added, written = append_entries(index_path, entries)
    click.echo(written, nl=False)  # stdout: the index tables added, as written to the index
    click.echo(_recorded_summary(len(added), len(entries) - len(added), len(refused),
                                 Counter(v.verdict for v in skipped), len(elsewhere), len(linked)), err=True)


def _recorded_summary(added: int, listed: int, refused: int, skipped: Counter[Verdict], elsewhere: int,
                      linked: int) -> str:
    """record-optima's last line: how many instances were recorded, and how many were not
    and why (not judged by this index, listed under a link's name, too few provers, the
    verdicts other than `agree` worst first)."""
    from crosscheck.harness.verdicts import SEVERITY

    parts = [f"recorded {added}"]
    parts += [f"{listed} already in the index"] if listed else []
    parts += [f"not recorded {elsewhere}: not judged by this index"] if elsewhere else []
    parts += [f"not recorded {linked}: listed under a link's name"] if linked else []
    parts += [f"refused {refused}: too few independent provers"] if refused else []
    if skipped:
        worst_first = sorted(skipped, key=SEVERITY.__getitem__)
        reasons = ", ".join(f"{verdict.value} ({skipped[verdict]})" for verdict in worst_first)
        parts.append(f"skipped {skipped.total()}: {reasons}")
    return "; ".join(parts)


if __name__ == "__main__":
    main()
