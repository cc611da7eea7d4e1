"""Running one task: in-process (`run_task`) or isolated in a child process (`run_isolated`);
several at a time is `crosscheck.harness.runs.batch.run_tasks`.

Isolation: each run gets its own process group, an address-space limit (what it may map
beyond what it inherited, `crosscheck.solvers.base.cap_address_space`), and a time
limit (the solver's own deadline first, then a hard kill of the whole group after a
grace period).  A wall-clock limit is enforced from outside; a CPU-time limit by the
kernel (RLIMIT_CPU), with a wall-clock cap of `WALL_CAP_FACTOR` times it plus the grace
from outside for runs that wait without computing (`hard_limit`).  A run that is killed, runs out of
memory or dies becomes a record (`timeout`, `memout`, `error`) and the other runs
carry on.  Out of memory means a MemoryError, the run's processes together holding more
than the limit (sampled, `crosscheck.harness.runs.tree_memory`), a death without a record by
a signal a refused allocation can cause or by an exit status while they held most of it
(`_death`), or an error whose message shows a refused allocation under the limit
(`memout_if_limited`); a failed run's seconds are the wall time until it died
(`failed_figures`).  A run's temporary files (a SAT formulation's proofs, a planner's
files) go to a folder of its own (``TMPDIR``), removed once its record is made: a run killed
before it could clean up leaves nothing behind.

How a run's process starts (`Start`): from a forkserver that has imported every solver once
(``"forkserver"``, for many runs: each starts at once, whatever it solves), or forked from
this process (``"fork"``, for a few runs: no server to start and fill, and the run imports only its
own solver; taken only while this process has a single thread, since forking a threaded process
can copy a lock some other thread holds).  Either way the run is a child of its own, under the
same limits.
"""

from __future__ import annotations

import functools
import math
import multiprocessing
import os
import resource
import shutil
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from multiprocessing.connection import Connection
from multiprocessing.context import ForkContext, ForkServerContext
from multiprocessing.process import BaseProcess
from typing import Any, Literal, NotRequired, TypedDict

from crosscheck.harness.records.evidence import Evidence
from crosscheck.harness.records.record import (
    Expected,
    RelatedTo,
    RunRecord,
    Task,
    configured,
    environment,
    run_environment,
    start_facts,
    task_configuration,
)
from crosscheck.harness.records.versions import as_run_here, identity
from crosscheck.harness.runs.certify import certified
from crosscheck.harness.runs.external import TEMPORARY_PREFIX, Claim, run_external
from crosscheck.harness.runs.lifeline import die_with_reader
from crosscheck.harness.runs.limits import WALL_CAP_FACTOR, clock_now, within_limit
from crosscheck.harness.runs.measure import Usage, killed_usage, own_usage, resident_mb
from crosscheck.harness.runs.server_start import start_server
from crosscheck.harness.runs.tree_memory import HALF_LIMIT, NEAR_LIMIT, SAMPLE_SECONDS, TreeWatch, become_subreaper
from crosscheck.models.base import Instance, InvalidInstance, InvalidPlan
from crosscheck.models.puzzle import Puzzle
from crosscheck.models.registry import load_instance
from crosscheck.solvers.base import FAILED_STATUSES, Deadline, Result, Stats, Status, cap_address_space, how_ended
from crosscheck.solvers.engines.cpsat import WORKERS_VARIABLE, default_workers
from crosscheck.solvers.registry import (
    add_plugins,
    built_in_packages,
    get_solver,
    name_warm_ups,
    plugin_errors,
    share_named,
    warm_up_named,
)

#: Extra seconds a solver gets past its limit before its process group is killed.
GRACE_SECONDS = 5.0

#: What an error's message says when memory could not be had: the exception, the loader's
#: words for a shared library it could not map, ENOMEM's text, C++'s exception.
ALLOCATION_FAILURES = ("MemoryError", "failed to map segment", "cannot allocate memory", "std::bad_alloc")

#: Signals an allocation refused under a memory limit can end a program with: abort (C++'s
#: uncaught std::bad_alloc, a failed check), a null pointer followed, the kernel's OOM killer.
ALLOCATION_DEATHS = frozenset({signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS, signal.SIGKILL})

#: How a run's child process starts (see the module doc).
Start = Literal["forkserver", "fork"]

#: Child processes still running, so an interrupted comparison can kill them all.
_LIVE: set[BaseProcess] = set()


class _Shared(TypedDict):
    """The fields every record of one task has in common."""

    instance: str
    solver: str
    variant: bool
    repeat: int
    cpsat_workers: int
    evidence: Evidence  # a claim for an external program, else a proof
    expected: Expected
    environment: dict[str, Any]
    related_to: RelatedTo | None  # a related instance's link to its original (morph)
    features: NotRequired[dict[str, int]]  # known once the instance is parsed
    shares: NotRequired[list[str]]  # the solver's shared answer-deciding components
    formulation: NotRequired[str]  # the solver's configuration (`configured`)
    configuration: NotRequired[str]
    options: NotRequired[dict[str, Any]]


def run_task(task: Task, expected: Expected = None) -> RunRecord:
    """Load the instance, solve it, and check the plan with the puzzle's own checker.

    `task.cpsat_workers`, when set, is this process's CP-SAT worker count while it runs.
    """
    with cpsat_workers(task.cpsat_workers):
        return _run(task, expected)


@contextmanager
def cpsat_workers(count: int | None) -> Iterator[None]:
    """This process's CP-SAT worker count set to `count` (unchanged when None) within the
    block, and given back after it."""
    saved = os.environ.get(WORKERS_VARIABLE)
    if count is not None:
        os.environ[WORKERS_VARIABLE] = str(count)
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(WORKERS_VARIABLE, None)
        else:
            os.environ[WORKERS_VARIABLE] = saved


def _run(task: Task, expected: Expected) -> RunRecord:
    """`run_task`'s work, CP-SAT's workers set."""
    add_plugins(task.plugins)
    base = _Shared(instance=task.instance, solver=task.solver, variant=task.variant, repeat=task.repeat,
                   cpsat_workers=default_workers(), evidence=task.evidence, expected=expected,
                   environment=_environment(task), related_to=task.related_to)
    try:
        puzzle, instance = load_instance(task.path)
        if task.variant:
            instance = puzzle.variant(instance)
    except InvalidInstance as error:
        return RunRecord(puzzle=None, status=Status.ERROR, message=str(error), **base)
    base["features"] = puzzle.features(instance)
    if task.external is not None:
        return _external(task, task.external, instance, puzzle, base)
    try:
        solver = get_solver(task.solver)
    except KeyError as error:  # a plugin the command has but this process could not load
        return RunRecord(puzzle=puzzle.name, status=Status.ERROR, message=_unknown(error), **base)
    base["shares"] = sorted(solver.shares)
    base.update(configured(solver))
    if solver.puzzle != puzzle.name:
        return RunRecord(puzzle=puzzle.name, status=Status.UNSUPPORTED,
                         message=f"{solver.name} solves {solver.puzzle}, not {puzzle.name}", **base)
    started = clock_now(task.clock)
    result = solver.solve(instance, task.time_limit, task.clock)
    spent = clock_now(task.clock) - started
    return within_limit(_checked(result, puzzle.check_plan, instance, puzzle.name, base), spent)


def _unknown(error: KeyError) -> str:
    """One line on a solver this run's process does not know (`get_solver`'s `error`), with
    why each plugin that failed here was not loaded."""
    failed = "; ".join(plugin_errors())
    return f"{error.args[0]} in the run's process" + (f" (plugins not loaded: {failed})" if failed else "")


def _external(task: Task, command: str, instance: Instance, puzzle: Puzzle, base: _Shared) -> RunRecord:
    """Run the external program `command` and record its claim, with its plan checked if it printed one.

    The record's evidence is a claim (set from the task) and it carries no bound: a program's
    claim is never a proof (see `crosscheck.harness.runs.external`).  ``stats["external"]`` names
    the command that ran.
    """
    start, started = time.perf_counter(), clock_now(task.clock)
    claim = run_external(task.solver, command, instance.to_text(), Deadline(task.time_limit, task.clock))
    seconds = time.perf_counter() - start
    return within_limit(_claimed(command, claim, seconds, instance, puzzle, base), clock_now(task.clock) - started)


def _claimed(command: str, claim: Claim, seconds: float, instance: Instance, puzzle: Puzzle,
             base: _Shared) -> RunRecord:
    """The record of an external program's `claim`, its plan checked (`_external`)."""
    stats: Stats = {"external": command}
    if claim.unsupported:
        return RunRecord(puzzle=puzzle.name, status=Status.UNSUPPORTED, seconds=seconds, stats=stats,
                         message=claim.message, **base)
    if claim.infeasible:
        return RunRecord(puzzle=puzzle.name, status=Status.INFEASIBLE, seconds=seconds, stats=stats,
                         message=claim.message, **base)
    if claim.plan is None and claim.cost is None:
        return RunRecord(puzzle=puzzle.name, status=Status.TIMEOUT if claim.timed_out else Status.ERROR,
                         seconds=seconds, stats=stats, message=claim.message, **base)
    plan_valid, plan_error, checked_cost = _check_plan(puzzle.check_plan, instance, claim.plan, claim.cost)
    return RunRecord(puzzle=puzzle.name, status=Status.OPTIMAL, cost=checked_cost if claim.cost is None else claim.cost,
                     plan_valid=plan_valid, plan_error=plan_error, checked_cost=checked_cost, plan=claim.plan,
                     seconds=seconds, stats=stats, message=claim.message, **base)


def _check_plan(check_plan: Callable[[Any, Sequence[Any]], int], instance: Instance, plan: list[Any] | None,
                cost: int | None) -> tuple[bool | None, str, int | None]:
    """(valid, why not, checked cost) of a plan claimed to cost `cost` (None: any cost it has)."""
    if plan is None:
        return None, "", None
    try:
        checked_cost = check_plan(instance, plan)
    except InvalidPlan as error:
        return False, str(error), None
    if cost is not None and checked_cost != cost:
        return False, f"plan costs {checked_cost}, solver reported {cost}", checked_cost
    return True, "", checked_cost


def _checked(result: Result, check_plan: Callable[[Any, Sequence[Any]], int], instance: Instance, puzzle: str,
             base: _Shared) -> RunRecord:
    plan_valid, plan_error, checked_cost = _check_plan(check_plan, instance, result.plan, result.cost)
    return RunRecord(
        puzzle=puzzle, status=result.status, cost=result.cost, bound=result.bound,
        plan_valid=plan_valid, plan_error=plan_error, checked_cost=checked_cost,
        seconds=result.seconds, stats=result.stats, message=result.message, plan=result.plan,
        certificate=result.certificate, **base,
    )


def _environment(task: Task) -> dict[str, Any]:
    """The record's environment: `run_environment` and its solver's version (`solver_identity`)."""
    return {**run_environment(task), **solver_identity(task)}


def solver_identity(task: Task) -> dict[str, str]:
    """Which version of the task's solver ran (`crosscheck.harness.records.versions.identity`): the
    one pinned in the task as its invocation started, else (a task made without one) its
    version now.  Every record of the run carries it, also one written for a run that
    crashed, timed out or met an unreadable file."""
    if task.identity is not None:
        return dict(task.identity)
    return identity(task.solver, task.external, task.external_sources)


# --- isolation -----------------------------------------------------------------------

def _child(task: Task, expected: Expected, conn: Connection, from_server: bool, scratch: str) -> None:
    """Child process body: own process group, dies with the harness, temporary files in the
    folder `scratch`, record sent back through `conn`.  Forked `from_server` (not from the
    command), its plugins are the server's imports, which may be other files than the command
    pinned (on a Dask worker, the worker's own installation): the record names the version it
    ran (`as_run_here`)."""
    start_memory = resident_mb()  # first: what the run inherited from the process it was forked from
    os.environ["TMPDIR"] = tempfile.tempdir = scratch  # the programs it starts write there too
    os.setsid()
    become_subreaper()  # its orphans stay in its tree, where the memory watch finds them
    die_with_reader(conn.fileno())
    if task.cores:
        os.sched_setaffinity(0, task.cores)  # children (Fast Downward) inherit it
    record = measured_record(task, expected, start_memory)
    conn.send((as_run_here(record, task) if from_server else record).model_dump(mode="json"))
    conn.close()


def measured_record(task: Task, expected: Expected, start_memory_mb: float | None) -> RunRecord:
    """`limited_record` with this process's CPU time and peak memory (read last: the check
    counts too) and `start_memory_mb`, the resident MB it held before the run began
    (`crosscheck.harness.runs.measure.resident_mb`, read by the caller first thing)."""
    start = None if start_memory_mb is None else round(start_memory_mb, 3)
    return limited_record(task, expected).model_copy(update={**own_usage().fields(), "start_memory_mb": start})


def limited_record(task: Task, expected: Expected) -> RunRecord:
    """Run `task` in this process under its memory cap; a crash by exception becomes a record.

    For a process of the run's own (its limit stays with it).  The cap is the task's limit on
    top of the address space the process has mapped now (`cap_address_space`).
    """
    if task.memory_limit_mb:
        cap_address_space(task.memory_limit_mb * 1024 * 1024)
    _limit_cpu(task)
    record = None
    try:
        record = run_task(task, expected)
    except MemoryError:
        pass  # recorded below: here its traceback still holds the solver's frames, and their memory
    except BaseException as error:  # report, never crash silently
        record = failure(task, expected, Status.ERROR,
                         f"{type(error).__name__}: {error}\n{traceback.format_exc(limit=5)}")
    if record is None:
        return failure(task, expected, Status.MEMOUT, f"memory limit of {task.memory_limit_mb} MB reached")
    return memout_if_limited(record, task.memory_limit_mb)


def memout_if_limited(record: RunRecord, memory_limit_mb: int | None) -> RunRecord:
    """`record` as a `memout` when it is an `error` of a run under a memory limit whose
    message shows a failed allocation (`ALLOCATION_FAILURES`, in any case): the limit is
    why, even where no MemoryError said so (a shared library that cannot be mapped, an
    mmap refused).  Any other record, and every error of a run without a limit, unchanged."""
    if memory_limit_mb is None or record.status is not Status.ERROR:
        return record
    text = record.message.lower()
    if not any(sign.lower() in text for sign in ALLOCATION_FAILURES):
        return record
    return record.model_copy(update={"status": Status.MEMOUT,
                                     "message": f"memory limit of {memory_limit_mb} MB reached: {record.message}"})


def _limit_cpu(task: Task) -> None:
    """Under a CPU-time limit, have the kernel end this process (SIGXCPU) once it has spent
    the limit with grace beyond the CPU time it used before the run."""
    limit = limit_with_grace(task)
    if task.clock == "cpu" and limit is not None:
        used = resource.getrusage(resource.RUSAGE_SELF)
        soft = math.ceil(used.ru_utime + used.ru_stime + limit)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # SIGXCPU would dump core
        resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 1))


def failure(task: Task, expected: Expected, status: Status, message: str, seconds: float = 0.0) -> RunRecord:
    """The record of a run that produced none itself."""
    return RunRecord(instance=task.instance, puzzle=task.puzzle, solver=task.solver, variant=task.variant,
                     repeat=task.repeat, status=status, message=message, **task_configuration(task),
                     seconds=seconds, expected=expected, environment=_environment(task),
                     related_to=task.related_to, cpsat_workers=default_workers() if task.cpsat_workers is None else task.cpsat_workers)


def _context(start: Start, solvers: tuple[str, ...] | None) -> ForkContext | ForkServerContext:
    """A forkserver whose server has imported the packages of the formulations `solvers` names
    (every built-in's for `None`; those of the first runs, when it starts) and warmed those up
    once, so children start fast; or, for ``"fork"`` while this process has one thread,
    forking this process (its standard streams flushed first, so that a child never writes
    out what this process had buffered)."""
    if start == "fork" and threading.active_count() == 1:
        environment()  # computed once here and inherited, as the forkserver's preload does
        sys.stdout.flush()
        sys.stderr.flush()
        return multiprocessing.get_context("fork")
    context = multiprocessing.get_context("forkserver")
    # the preload imports the command's script once (else each child would), with the command's path
    # last, crosscheck.harness.runs.warm: the formulations the runs name warm up once for all runs
    context.set_forkserver_preload(["crosscheck.harness.runs.preload", *built_in_packages(solvers),
                                    "crosscheck.harness.runs.warm"])
    name_warm_ups(solvers)  # read by the server when it starts (it inherits this environment)
    start_server()  # so that it imports from where this process does, not from the current folder
    return context


def runner_for(isolate: bool, start_method: Start, solvers: tuple[str, ...]) -> Callable[[Task, Expected], RunRecord]:
    """How `run_tasks` runs each task: `run_here` in this process, or `run_isolated` started as
    `start_method` says, its forkserver readied for the formulations `solvers` names only;
    runs forked from this process start with those warmed up here (`_warm_up_here`)."""
    if not isolate:
        return run_here
    if start_method == "fork":
        _warm_up_here(solvers)
    return functools.partial(run_isolated, start_method=start_method, solvers=solvers)


def _warm_up_here(solvers: tuple[str, ...]) -> None:
    """Warm up the formulations `solvers` names in this process, as the forkserver's
    `crosscheck.harness.runs.warm` does for its runs: runs forked from this process then start
    with that done (OR-Tools imported), and their clocks count the same work as a forkserver
    child's; but only the warm-ups that pay for a run alone (`Solver.warm_up_pays_alone`: a
    numba kernel is not loaded for the few runs of a ``solve``)."""
    name_warm_ups(solvers)
    warm_up_named(lone=True)
    share_named()


def formulations_of(tasks: Iterable[Task]) -> set[str]:
    """The formulations `tasks` run in-process (external programs left out)."""
    return {task.solver for task in tasks if task.external is None}


def ready_server(solvers: Iterable[str]) -> None:
    """Start the forkserver of isolated runs now, ready for the formulations `solvers` names
    (imported and warmed up, `_context`): every isolated run this process starts later forks
    from it, whatever it names.  For a caller that runs several batches (morph, one per
    instance), whose first batch would otherwise decide what the server is ready for."""
    _context("forkserver", tuple(sorted(set(solvers))))


def grace(time_limit: float) -> float:
    """Seconds a run gets past its limit of `time_limit` seconds to notice its own
    deadline and report (`GRACE_SECONDS` and a tenth of the limit), before it is killed."""
    return GRACE_SECONDS + 0.1 * time_limit


def limit_with_grace(task: Task) -> float | None:
    """Seconds of the task's clock after which its run is killed."""
    return None if task.time_limit is None else task.time_limit + grace(task.time_limit)


def hard_limit(task: Task) -> float | None:
    """Wall seconds after which a run's process group is killed from outside: its limit
    with grace; under a CPU-time limit, `WALL_CAP_FACTOR` times the limit with the same
    grace added once (not multiplied: the grace is time to report, and a run that waits
    must still be stopped near ten times its limit), e.g. 15.1 s for a limit of 1 s."""
    if task.time_limit is None:
        return None
    return (WALL_CAP_FACTOR if task.clock == "cpu" else 1) * task.time_limit + grace(task.time_limit)


def run_isolated(task: Task, expected: Expected = None, should_stop: Callable[[], bool] | None = None,
                 start_method: Start = "forkserver", solvers: tuple[str, ...] | None = None) -> RunRecord:
    """Run `task` in a child process under its limits, started as `start_method` says (module doc);
    always returns a record.  A forkserver started for it is made ready for the formulations
    `solvers` names [default: every built-in].

    `should_stop` is asked every half second; when it says so, the run is killed (a
    Dask worker uses it when the client cancels the run).  Under a memory limit the run's
    processes are sampled together (`crosscheck.harness.runs.tree_memory.TreeWatch`) and killed
    as a memout once they hold more than the limit between them.
    """
    if not task.start:  # stamped here, so a record made after a kill still says when the run began
        task = task.model_copy(update={"start": start_facts(None)})
    context = _context(start_method, solvers)
    receive, send = context.Pipe(duplex=False)
    scratch = tempfile.mkdtemp(prefix=TEMPORARY_PREFIX)  # a name reports know to shorten
    process = context.Process(target=_child, daemon=True,
                              args=(task, expected, send, isinstance(context, ForkServerContext), scratch))
    start = time.perf_counter()
    try:
        process.start()
        _LIVE.add(process)
        send.close()
        record, usage, watch = None, None, TreeWatch(process.pid, task.memory_limit_mb)
        watch.over()  # its starting size, taken before it has run much: what it inherited is not its own
        try:
            if waited(receive.poll, hard_limit(task), *watching(watch, should_stop)):
                record = RunRecord.model_validate(receive.recv())
        except EOFError:
            pass  # the child died before sending: judged below from its exit code
        finally:
            if record is None and process.pid is not None:
                usage = killed_usage(process.pid)  # what it used, read before the kill
            _kill_group(process)
            _LIVE.discard(process)
            receive.close()
        return settled(record, task, expected, process.exitcode, time.perf_counter() - start, usage, watch)
    finally:  # after `settled`, which checks and keeps the run's certificate from there
        shutil.rmtree(scratch, ignore_errors=True)


def watching(watch: TreeWatch, should_stop: Callable[[], bool] | None) -> tuple[Callable[[], bool] | None, float]:
    """What `waited` asks, and how often, to stop a run: `should_stop`, and under a memory
    limit also whether the run's processes hold more than it (`watch`, every `SAMPLE_SECONDS`)."""
    if watch.limit_mb is None:
        return should_stop, 0.5
    return (lambda: watch.over() or (should_stop is not None and should_stop())), SAMPLE_SECONDS


def settled(record: RunRecord | None, task: Task, expected: Expected, exitcode: int | None, elapsed: float,
            usage: Usage | None, watch: TreeWatch | None = None) -> RunRecord:
    """The run's record with its wall time: the one it sent, else judged from how it ended
    (`exitcode`, `usage` read before it was killed, and what `watch` saw its processes hold)."""
    if record is None:
        judged = _judged(task, expected, exitcode, elapsed, watch or TreeWatch(None, task.memory_limit_mb))
        record = judged.model_copy(update=usage.fields() if usage else {})
    return certified(failed_figures(record.model_copy(update={"wall_seconds": round(elapsed, 6)})), task)


def run_here(task: Task, expected: Expected = None) -> RunRecord:
    """`run_task` in this process, its certificate then checked as an isolated run's is."""
    return certified(run_task(task, expected), task)


def failed_figures(record: RunRecord) -> RunRecord:
    """A failed run's figures (`error`, `memout`; any other record unchanged): its
    `seconds` are the wall time until it died (`wall_seconds`), not the solver's own
    (it has none, or stopped counting when it crashed), and a memout's peak memory is
    unknown: the limit is on address space, and the resident peak of a run refused more
    of it says nothing of what it needed."""
    if record.status not in FAILED_STATUSES or record.wall_seconds is None:
        return record
    peak = None if record.status is Status.MEMOUT else record.peak_memory_mb
    return record.model_copy(update={"seconds": record.wall_seconds, "peak_memory_mb": peak})


def waited(ready: Callable[[float | None], bool], limit: float | None,
           should_stop: Callable[[], bool] | None, every: float = 0.5) -> bool:
    """Call `ready(seconds)`, which waits at most that long for the run's end, until it says
    True; False once `limit` seconds have passed or `should_stop` (asked every `every` seconds) says so."""
    if should_stop is None:
        return ready(limit)
    deadline = None if limit is None else time.monotonic() + limit
    while deadline is None or time.monotonic() < deadline:
        if ready(every if deadline is None else min(every, max(0.0, deadline - time.monotonic()))):
            return True
        if should_stop():
            return False
    return False


def _judged(task: Task, expected: Expected, exitcode: int | None, elapsed: float, watch: TreeWatch) -> RunRecord:
    """The record of a run that sent none: killed over its memory limit (`watch`), at its
    time limit, or dead with `exitcode`."""
    if watch.exceeded:
        return failure(task, expected, Status.MEMOUT, watch.message(), elapsed)
    limit = hard_limit(task)
    if exitcode is None or (limit is not None and elapsed >= limit):
        within = ("no time limit" if limit is None else
                  f"limit {task.time_limit} s {task.clock}" if task.clock == "wall" else
                  f"limit {task.time_limit} s cpu; wall cap of {limit:.1f} s")
        return failure(task, expected, Status.TIMEOUT, f"killed after {elapsed:.1f} s wall ({within})", elapsed)
    return failure(task, expected, *_death(exitcode, task, watch), seconds=elapsed)


def _death(exitcode: int, task: Task, watch: TreeWatch) -> tuple[Status, str]:
    """Status and message for a child that died without a record.  Under a memory limit, a
    signal a refused allocation can end a program with (`ALLOCATION_DEATHS`) is a memout:
    an address-space limit refuses reservations far beyond what the run holds, so what was
    sampled cannot rule it out.  A non-zero exit status is a memout when its processes were
    seen holding most of the limit (`NEAR_LIMIT`), else an error, which says the limit may
    be why only when they held at least half of it (`HALF_LIMIT`)."""
    if exitcode == -signal.SIGXCPU:
        return Status.TIMEOUT, f"killed at its CPU-time limit with grace (limit {task.time_limit} s cpu)"
    died = f"solver process {how_ended(exitcode)} before reporting"
    if not task.memory_limit_mb or (exitcode < 0 and -exitcode not in ALLOCATION_DEATHS):
        return Status.ERROR, died
    seen = f"its processes held at most {watch.peak_mb:.0f} MB together as sampled"
    if exitcode < 0:
        return Status.MEMOUT, f"{died}, probably at the memory limit of {task.memory_limit_mb} MB ({seen})"
    if watch.seen_holding(NEAR_LIMIT):
        return Status.MEMOUT, f"{died}, at the memory limit of {task.memory_limit_mb} MB ({seen})"
    if watch.seen_holding(HALF_LIMIT):
        return Status.ERROR, (f"{died}; the memory limit of {task.memory_limit_mb} MB may be the cause "
                              f"(a refused allocation can end a program without a word; {seen})")
    return Status.ERROR, died


def _kill_group(process: BaseProcess) -> None:
    """Kill the child's whole process group (any grandchildren too) and reap it."""
    kill_group(process.pid)
    process.join(timeout=5)


def kill_group(pid: int | None) -> None:
    """Kill the process group led by `pid`, if it still exists."""
    if pid is not None:
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def kill_live() -> None:
    """Kill the process group of every isolated run still alive (a batch of runs stopped)."""
    for process in list(_LIVE):
        _kill_group(process)
