"""Several runs at a time (`run_tasks`), as many as the cores allow.

Each run is made by `crosscheck.harness.runs.runner` (isolated in a process of its own, or
in this one); this module decides when each starts: at most ``jobs`` at once, their
threads together within the cores, the largest instances first, and records come back in
task order.
"""

from __future__ import annotations

import os
import queue
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

from crosscheck.harness.records.record import Expected, RunRecord, Task, start_facts
from crosscheck.harness.runs.encoding_ledger import EncodingLedger
from crosscheck.harness.runs.measure import core_groups, cores
from crosscheck.harness.runs.runner import Start, formulations_of, kill_live, runner_for
from crosscheck.solvers.engines.cpsat import WORKERS, default_workers
from crosscheck.solvers.registry import get_solver


def threads(task: Task) -> int:
    """The threads one run of `task` uses: CP-SAT's workers, else one (an external program
    is one process as far as the harness knows)."""
    if task.external is not None:
        return 1
    try:
        solver = get_solver(task.solver)
    except KeyError:  # a plugin only the run imports: its record will say what it is
        return 1
    return (task.cpsat_workers or default_workers()) if solver.runs_cpsat else 1


def core_share(jobs: int) -> int:
    """The CP-SAT workers a run gets when the command leaves them to the default: its share
    of the cores (`cores`) among the `jobs` runs made at a time, at least one and at most
    `WORKERS`.  On two cores, ``--jobs 2`` gives each CP-SAT run one worker, so it runs beside
    another run instead of alone; ``--jobs 1`` (and `solve`) gives two."""
    return max(1, min(WORKERS, cores() // max(1, jobs)))


def shared_out(task: Task, jobs: int) -> Task:
    """`task` with its CP-SAT workers, when left to the default (None), its `core_share`.  Not
    for runs made in this process: they share its environment, where the workers are set."""
    return task if task.cpsat_workers is not None else task.model_copy(update={"cpsat_workers": core_share(jobs)})


def run_tasks(
    tasks: Iterable[tuple[Task, Expected]],
    jobs: int = 1,
    on_record: Callable[[RunRecord], None] = lambda record: None,
    *,
    isolate: bool = True,
    on_start: Callable[[Task], None] = lambda task: None,
    on_end: Callable[[Task], None] = lambda task: None,
    pin_cores: bool = False,
    start_method: Start = "forkserver",
) -> list[RunRecord]:
    """Run every task, calling `on_start` and `on_end` in the thread that runs it as it
    starts (holding one of the `jobs` places) and ends, and `on_record` in this thread with
    its record: between an `on_start` and its `on_end` a run is in flight, and never more
    than `jobs` are.

    At most `jobs` runs at a time, and together they use at most as many threads as there
    are cores (`crosscheck.harness.runs.measure.cores`, or `jobs` when that is more): a run holds
    as many cores as its `threads` (all of them at most) from start to end, so a CP-SAT run
    of two workers on two cores runs alone; a task whose CP-SAT workers are left to the
    default (None) gets its `core_share` when isolated.  Several at a time, runs start in `start_order`
    (a run waiting for cores is not overtaken); one at a time, in task order.  With
    `pin_cores`, each isolated run is pinned to cores no other run at the same time has.

    Each run's task carries `start_facts(jobs)` as it starts (when, at which load, how many
    runs at a time).  Records come back in task order, whatever order they finished in.
    `start_method`: how each isolated run's process starts (`crosscheck.harness.runs.runner.Start`).
    """
    tasks = [(shared_out(task, jobs) if isolate else task, expected) for task, expected in tasks]
    run = runner_for(isolate, start_method, tuple(sorted(formulations_of(task for task, _ in tasks))))
    ledger = EncodingLedger()
    groups: queue.SimpleQueue[tuple[int, ...]] = queue.SimpleQueue()
    for group in core_groups(jobs) if pin_cores and isolate else [()] * jobs:
        groups.put(group)

    def runner(task: Task, expected: Expected) -> RunRecord:
        cores = groups.get()  # as many groups as jobs: one is always free here
        on_start(task)  # in flight from here, once it holds its place
        try:
            record = run(task.model_copy(update={"cores": cores, "start": start_facts(jobs)}), expected)
            return ledger.seen(record, task)  # a checked plan meets a certified encoding: checked here
        finally:
            groups.put(cores)
            on_end(task)

    if jobs <= 1 or len(tasks) <= 1:
        records = []
        for task, expected in tasks:
            records.append(runner(task, expected))
            on_record(records[-1])
        return records
    pool = ThreadPoolExecutor(max_workers=jobs)
    try:
        records = _scheduled(pool, runner, tasks, jobs, max(jobs, cores()), on_record)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        kill_live()
        raise
    pool.shutdown()
    return records


def start_order(tasks: Sequence[Task]) -> list[int]:
    """The numbers of `tasks` in the order their runs start when several run at a time: the
    longest expected first (`expected_effort`: larger instance files, then variants), task
    order among equals.  The longest runs, started last, would leave cores idle at the end
    while they finish alone."""
    sizes: dict[str, int] = {}
    for task in tasks:
        if task.path not in sizes:
            try:
                sizes[task.path] = os.path.getsize(task.path)
            except OSError:  # it will be an error record: no run to wait for
                sizes[task.path] = 0
    return sorted(range(len(tasks)), key=lambda number: expected_effort(tasks[number], sizes[tasks[number].path]),
                  reverse=True)


def expected_effort(task: Task, size: int) -> tuple[int, bool]:
    """How long a run of `task` on an instance of `size` (its file's bytes or characters) is
    expected to take, as a sort key: larger instances, then variants, take longer."""
    return (size, task.variant)


def _scheduled(pool: ThreadPoolExecutor, runner: Callable[[Task, Expected], RunRecord],
               tasks: Sequence[tuple[Task, Expected]], jobs: int, budget: int,
               on_record: Callable[[RunRecord], None]) -> list[RunRecord]:
    """Every task's record from `runner` on `pool`, returned in task order.  Whenever fewer
    than `jobs` run, the first waiting task (in `start_order`) whose threads (at most `budget`)
    fit in the `budget` left free starts: a run of one thread does not leave a core idle
    behind a wider run still waiting for two free cores (which starts once they are)."""
    waiting = [(number, tasks[number][0], tasks[number][1], min(threads(tasks[number][0]), budget))
               for number in start_order([task for task, _ in tasks])]
    running: dict[Future[RunRecord], tuple[int, int]] = {}  # future -> (task number, threads held)
    results: dict[int, RunRecord] = {}
    free = budget
    while waiting or running:
        position = 0
        while position < len(waiting) and len(running) < jobs and free > 0:
            number, task, expected, held = waiting[position]
            if held > free:
                position += 1
                continue
            del waiting[position]
            free -= held
            running[pool.submit(runner, task, expected)] = (number, held)
        finished, _ = wait(running, return_when=FIRST_COMPLETED)
        for future in finished:
            number, held = running.pop(future)
            free += held
            results[number] = future.result()
            on_record(results[number])
    return [results[number] for number in range(len(tasks))]
