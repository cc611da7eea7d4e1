"""Hunting for the smallest instance on which formulations disagree.

`hunt` draws instances of one puzzle from its strategy (`Puzzle.strategy`, Hypothesis), runs the
chosen formulations on each through the normal isolated runner, judges the runs with
the same verdict code as ``compare``, and stops at the first verdict that stops a hunt
(`crosscheck.harness.judging.verdicts.HUNT_STOPS`: some answer is wrong whatever the true optimum is).  Hypothesis's shrinker then looks for a smaller instance on which the same
kind of wrong verdict remains on an instance no larger (`_Judge._size`), driven by
that predicate.  Shrunk counterexamples are
kept as instance files in a hunt database (``DB/<key>/``, the key naming the puzzle,
formulations and ranges), and a later hunt with the same key tries them first.
``seed`` makes the order of draws reproducible (runs that time out can still make two
hunts differ).  A hunt is bounded by seconds (``budget``, ``shrink_budget``) and by
numbers of distinct instances judged (``examples``, ``shrink_examples``), whichever ends
first; a seeded hunt bounded only by numbers judges the same instances on any machine
(unless a run times out).  Hypothesis's own example database is not used: it stores
choice sequences, which a change of the strategies silently reinterprets, and
Hypothesis turns it off for seeded runs anyway; the files Hypothesis writes for itself
(caches) go to ``OUT/hypothesis`` (`hypothesis_home`), never to the current folder.

Each distinct instance is run once: its verdict is cached by text, which also keeps
Hypothesis's final replay of the shrunk example consistent with what was seen.

Nothing found is lost when a hunt is interrupted (Ctrl-C), runs out of budget or is
killed: the first counterexample is written (``OUT/counterexample-PUZZLE-as-found.txt``
and ``OUT/runs-as-found.jsonl``) the moment it is judged, and the smallest one so far
(by `_Judge._size`; the latest of equal ones) is kept in ``OUT/counterexample-PUZZLE.txt``
and ``OUT/runs.jsonl`` and in the hunt database, replaced at once whenever shrinking
meets a smaller one.  Each file is written whole under another name, then renamed.

Every instance judged is data too: it is written to ``OUT/judged/hunt-N.txt`` before
its runs start and their records are appended to ``OUT/judged.jsonl`` as they are
judged (the instance names are relative to ``OUT/judged``, as ``compare`` names them
relative to the folder it searched), so a run that crashed can be replayed and a
hunt's runs load into ``report``, ``tidy`` or a data frame like a comparison's.  A
later hunt into the same OUT numbers its instances after the ones there.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from crosscheck.harness.judging.unanswered import Unanswered
from crosscheck.harness.judging.verdicts import HUNT_STOPS, InstanceVerdict, Verdict, judge
from crosscheck.harness.records.record import Expected, RunRecord, Task, append_record, repair_tail
from crosscheck.harness.reports.hunt_progress import HuntProgress
from crosscheck.harness.reports.tables import explained_runs, failure_reason
from crosscheck.harness.reports.wording import first_line
from crosscheck.harness.runs.batch import run_tasks
from crosscheck.harness.runs.external import External
from crosscheck.harness.runs.schedule import formulations_chosen
from crosscheck.harness.runs.settings import HUNT_SECONDS, HUNT_TIME_LIMIT, RunSettings
from crosscheck.harness.workflows.choosing import (
    Notes,
    SettingsError,
    Tell,
    check_solver_names,
    refuse_runs_on_none,
    silent,
    with_reference,
)
from crosscheck.harness.workflows.exits import EXIT_FAILED_RUNS, EXIT_INTERRUPTED, EXIT_OK, EXIT_WRONG
from crosscheck.harness.workflows.hunt_files import (
    cache_key,
    counterexample_paths,
    free_numbers,
    judged_paths,
    save_draw,
    saved_draws,
    write_counterexample,
    write_whole,
)
from crosscheck.harness.workflows.morph import Where, instance_rng, run_related
from crosscheck.models.base import Instance
from crosscheck.models.puzzle import Puzzle, Range
from crosscheck.models.registry import get_relation, relations
from crosscheck.solvers.base import Status
from hypothesis import HealthCheck, Phase, Verbosity, example, given
from hypothesis import seed as hypothesis_seed
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir, storage_directory

#: A hunt stops when an external program's first runs, this many, all crashed the same way
#: (one `failure_reason`) before any answer: it is not running at all (a file missing, a
#: wrong interpreter), and the budget would be spent on nothing.
SAME_FAILURES_TO_STOP = 3


@dataclass(frozen=True)
class HuntSettings:
    """What to hunt: the puzzle, its runners and limits (`runs`), sizes, where to write, how long to look.

    `runs.solvers` empty means the puzzle's default formulations, or, with external
    programs alone, the puzzle's reference formulation beside them unless `reference` is
    False (`crosscheck.harness.workflows.choosing.with_reference`); `hunt` resolves them first.
    """

    puzzle: Puzzle
    out: Path
    runs: RunSettings = field(default_factory=lambda: RunSettings(time_limit=HUNT_TIME_LIMIT, jobs=1))
    ranges: dict[str, Range] = field(default_factory=dict)
    budget: float | None = HUNT_SECONDS  # seconds of search before giving up (None: no limit)
    shrink_budget: float | None = HUNT_SECONDS  # seconds of shrinking once a counterexample is found (None: no limit)
    examples: int | None = None  # distinct instances to judge before giving up (None: no limit)
    shrink_examples: int | None = None  # distinct instances to judge while shrinking (None: no limit)
    seed: int | None = None
    plugins: tuple[str, ...] = ()
    database: Path | None = None  # the hunt database; default: OUT/hunt-db
    published_shape: bool = False  # draw and shrink only within the published inputs' shape
    morph: tuple[str, ...] | None = None  # hunt a morph-mismatch with these relations (empty: all); None: no
    reference: bool = True  # run the reference formulation beside external programs given alone

    def key(self) -> bytes:
        """Identifies the hunt in the example database: puzzle, formulations, ranges and shape."""
        runs = self.runs
        parts = [self.puzzle.name, *sorted(runs.solvers), *sorted(f"{e.name}={e.command}" for e in runs.externals),
                 *(f"{name}={low}-{high}" for name, (low, high) in sorted(self.ranges.items())),
                 *(["published-shape"] if self.published_shape else []),
                 *([] if self.morph is None else ["morph", *self.morph])]
        return hashlib.sha256("\n".join(parts).encode()).digest()


def search_seconds(seconds: float | None, instances: int | None) -> float | None:
    """A hunt's seconds of search (or of shrinking) when asked for `seconds` and `instances`:
    `HUNT_SECONDS` when neither is given, else `seconds` (None: no limit of seconds)."""
    return HUNT_SECONDS if seconds is None and instances is None else seconds


@dataclass(frozen=True)
class JudgedDraw:
    """One instance with the records of its runs and their verdict (in a morph hunt, with
    the relation and seed drawn with it)."""

    instance: Instance
    records: list[RunRecord]
    verdict: InstanceVerdict
    relation: str | None = None
    seed: int = 0

    @property
    def wrong(self) -> bool:
        return self.verdict.verdict in HUNT_STOPS


@dataclass(frozen=True)
class HuntOutcome:
    """What a hunt saw: the settings it ran with (its formulations resolved), how many
    instances, their sizes, the counterexample if any, the notes told, and a warning per
    solver whose code changed while it ran."""

    settings: HuntSettings
    tried: int = 0  # distinct instances judged before a counterexample (or the budget's end)
    sizes: dict[str, tuple[int, int]] = field(default_factory=dict)  # feature -> (min, max) over those
    unanswered: Unanswered = field(default_factory=Unanswered)  # runs per formulation, searching and shrinking,
    # and those that gave no answer, reported per formulation: a summary leaves none of them out
    first: JudgedDraw | None = None  # the first counterexample, as drawn
    shrunk: JudgedDraw | None = None  # the smallest one with the same kind of wrong verdict
    shrink_tried: int = 0  # distinct instances judged while shrinking
    seconds_to_find: float = 0.0
    seconds_to_shrink: float = 0.0
    exhausted: bool = False  # Hypothesis ran out of distinct instances before the budget
    interrupted: bool = False  # Ctrl-C ended the hunt (`shrunk` is then the smallest so far)
    stopped: str = ""  # why the hunt stopped early: a program failing alike (`SAME_FAILURES_TO_STOP`)
    failed: tuple[RunRecord, ...] = ()  # the runs that crashed or timed out, for their reasons
    notes: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()

    @property
    def crashed(self) -> int:
        """Runs that ended in error or memout (not wrong answers; reported)."""
        return self.unanswered.crashed

    @property
    def exit_status(self) -> int:
        """1 with a counterexample; without one 130 when interrupted, 3 when a run crashed or
        ran out of memory, else 0 (`crosscheck.harness.workflows.exits`)."""
        return (EXIT_WRONG if self.shrunk is not None else EXIT_INTERRUPTED if self.interrupted
                else EXIT_FAILED_RUNS if self.crashed else EXIT_OK)


class _Spent(BaseException):
    """The search budget ran out (a BaseException so that Hypothesis lets it through)."""


class _Broken(BaseException):
    """An external program failed the same way on each of its first runs (`HuntOutcome.stopped`
    says how; a BaseException so that Hypothesis lets it through)."""


class _Wrong(Exception):
    """The failure Hypothesis shrinks: an instance with the hunted kind of wrong verdict."""

    def __init__(self, judged: JudgedDraw) -> None:
        super().__init__(judged.verdict.reason)
        self.judged = judged


class _Judge:
    """Runs and judges instances (each distinct text once) and keeps the hunt's tally."""

    def __init__(self, settings: HuntSettings, progress: HuntProgress | None = None) -> None:
        self.settings, self.progress = settings, progress or HuntProgress("none")  # none: nothing shown
        self.outcome = HuntOutcome(settings)
        self.cache: dict[str, JudgedDraw] = {}
        self.start = time.perf_counter()
        self.found_at: float | None = None
        self.judged, self.judged_records = judged_paths(settings)
        self.judged.mkdir(parents=True, exist_ok=True)
        repair_tail(self.judged_records)
        self.numbers = free_numbers(self.judged)
        self.first_runs: dict[str, list[RunRecord]] = {external.name: [] for external in settings.runs.externals}

    def __call__(self, instance: Instance, relation: str | None = None, seed: int = 0) -> None:
        """Raise `_Wrong` if `instance` (with `relation`'s instance related to it by the draws
        ``morph --seed SEED`` makes for the counterexample's file, `instance_rng`, in a morph
        hunt) shows the kind of wrong verdict hunted; `_Spent` at the budget's end."""
        judged = self.cache.get(cache_key(instance, relation, seed))
        if judged is None:
            if not self._budget_left():
                if self.found_at is None:
                    raise _Spent
                return  # shrinking is over: nothing new fails, so Hypothesis settles on the best so far
            judged = self._run(instance, relation, seed)
            if not judged.wrong:  # a counterexample is kept, whoever else failed on it
                self._stop_if_broken(judged.records)
        if self.outcome.first is None and judged.wrong:
            self.found_at = time.perf_counter()
            self.outcome = replace(self.outcome, first=judged, seconds_to_find=self.found_at - self.start)
            write_counterexample(judged, self.settings, as_found=True)
        first = self.outcome.first
        if (first is not None and judged.wrong and judged.verdict.verdict is first.verdict.verdict
                and self._size(judged) <= self._size(first)):
            self._keep(judged)
            raise _Wrong(judged)

    def _keep(self, judged: JudgedDraw) -> None:
        """Make `judged` the counterexample on disk and in the database unless a smaller one is there."""
        best = self.outcome.shrunk
        if best is not None and self._size(best) < self._size(judged):
            return
        save_draw(self.settings, judged, replacing=best)
        self.outcome = replace(self.outcome, shrunk=judged)
        write_counterexample(judged, self.settings, as_found=False)

    def _size(self, judged: JudgedDraw) -> int:
        """What shrinking must never increase: the sum of the puzzle's size measures
        (Hypothesis's own order is over its choices, which can trade one for another)."""
        return sum(self.settings.puzzle.features(judged.instance).values())

    def _budget_left(self) -> bool:
        """Whether the search (or, once a counterexample is found, the shrinking) may judge
        another new instance: neither its seconds nor its number of instances is spent."""
        settings, outcome, now = self.settings, self.outcome, time.perf_counter()
        if self.found_at is None:
            return _within(now - self.start, settings.budget) and _within(outcome.tried, settings.examples)
        return _within(now - self.found_at, settings.shrink_budget) and _within(outcome.shrink_tried,
                                                                                settings.shrink_examples)

    def _run(self, instance: Instance, relation: str | None, seed: int) -> JudgedDraw:
        text = instance.to_text()
        name = f"hunt-{next(self.numbers)}.txt"
        path = self.judged / name
        write_whole(path, text)
        tasks: list[tuple[Task, Expected]] = [(task, None) for task in self._tasks(str(path), name)]
        shrinking = self.found_at is not None
        self.progress.judging(name, shrinking)
        records = run_tasks(tasks, jobs=self.settings.runs.jobs)
        for record in records:
            append_record(self.judged_records, record)
        verdict = judge(records)
        if relation is not None:
            verdict = self._morphed(instance, relation, seed, tasks, records, verdict)
        judged = JudgedDraw(instance, records, verdict, relation, seed)
        self.cache[cache_key(instance, relation, seed)] = judged
        self._tally(judged)
        self.progress.judged(name, self.settings.puzzle.features(instance),
                             f"{verdict.verdict.value}: {verdict.reason}", shrinking,
                             "" if relation is None else f"with {relation} seed {seed}")
        return judged

    def _stop_if_broken(self, records: list[RunRecord]) -> None:
        """Raise `_Broken` (why in `HuntOutcome.stopped`) once an external program's first
        `SAME_FAILURES_TO_STOP` runs, before a counterexample, were all errors for one reason.
        Called only for an instance that is no counterexample: one found is never lost to the
        stop, and once one is (`found_at`, shrinking) nothing stops the hunt."""
        for record in records:
            first = self.first_runs.get(record.solver)
            if first is None or len(first) == SAME_FAILURES_TO_STOP:
                continue
            first.append(record)
            reasons = {failure_reason(run) for run in first}
            if (len(first) == SAME_FAILURES_TO_STOP and self.found_at is None and len(reasons) == 1
                    and all(run.status is Status.ERROR for run in first)):
                self.outcome = replace(self.outcome, stopped=(
                    f"{record.solver} failed the same way on each of its first {SAME_FAILURES_TO_STOP} runs, before "
                    f"any answer: {first_line(record.message)}"))
                raise _Broken

    def _morphed(self, instance: Instance, relation: str, seed: int, tasks: list[tuple[Task, Expected]],
                 records: list[RunRecord], verdict: InstanceVerdict) -> InstanceVerdict:
        """Run the runners on `instance`'s related instance too (its records appended to
        `records`): the verdict is `morph-mismatch` when a pair breaks the relation and
        the runs of `instance` alone show nothing wrong."""
        def keep(record: RunRecord) -> None:
            append_record(self.judged_records, record)
            records.append(record)

        where = Where(self.judged, "", verdict.instance)
        rng = instance_rng(seed, counterexample_paths(self.settings, as_found=False)[0].name)  # as `morph` draws there
        pairs = run_related(instance, [(get_relation(self.settings.puzzle.name, relation), 1)], list(records), tasks,
                            rng, where,
                            lambda more: run_tasks(more, jobs=self.settings.runs.jobs, on_record=keep), [])
        broken = [pair for pair in pairs if pair.verdict is Verdict.MORPH_MISMATCH]
        if verdict.verdict in HUNT_STOPS or not broken:
            return verdict
        return InstanceVerdict(Verdict.MORPH_MISMATCH, None, broken[0].line(self.judged), instance=verdict.instance,
                               variant=False)

    def _tasks(self, path: str, name: str) -> list[Task]:
        settings, runs = self.settings, self.settings.runs

        def task(solver: str, external: External | None = None) -> Task:
            return Task(path=path, instance=name, puzzle=settings.puzzle.name, solver=solver,
                        external=None if external is None else external.command,
                        external_sources=() if external is None else external.sources, time_limit=runs.time_limit,
                        clock=runs.clock, memory_limit_mb=runs.memory_limit_mb, plugins=settings.plugins,
                        identity=runs.versions(solver, external))

        return [task(solver) for solver in runs.solvers] + [task(e.name, e) for e in runs.externals]

    def _tally(self, judged: JudgedDraw) -> None:
        """Count `judged` in the outcome: its runs, and, while searching, its sizes."""
        outcome = self.outcome
        outcome.unanswered.add(judged.records)
        failed = (*outcome.failed, *explained_runs(judged.records))
        if outcome.first is not None:
            self.outcome = replace(outcome, failed=failed, shrink_tried=outcome.shrink_tried + 1)
            return
        sizes = dict(outcome.sizes)
        for name, value in self.settings.puzzle.features(judged.instance).items():
            low, high = sizes.get(name, (value, value))
            sizes[name] = (min(low, value), max(high, value))
        self.outcome = replace(outcome, failed=failed, tried=outcome.tried + 1, sizes=sizes)


def hunt(settings: HuntSettings, progress: HuntProgress | None = None, tell: Tell = silent) -> HuntOutcome:
    """Replay saved counterexamples, search, shrink; see the module docstring.  Each
    instance judged is shown by `progress` [default: nothing shown], closed at the end;
    notes go to `tell` as they come.

    `SettingsError` before any run when the settings cannot make sense (`resolved`).
    Writes ``OUT/judged`` and ``OUT/judged.jsonl`` and, with a counterexample, the
    counterexample files and the hunt database.
    """
    told = Notes(tell)
    settings = resolved(settings, told)
    outcome = _search(settings, _Judge(settings, progress))
    return replace(outcome, notes=tuple(told.lines),
                   changed=tuple(f"warning: {line}" for line in settings.runs.versions.changed()))


def resolved(settings: HuntSettings, tell: Tell) -> HuntSettings:
    """`settings` checked, with the formulations that will run named (`RunSettings.solvers`:
    the named ones, else the puzzle's defaults, or its reference beside external programs
    given alone) and only the external programs that apply to the puzzle kept.

    `SettingsError` for an unknown formulation, a formulation or program of another
    puzzle, size ranges the puzzle's strategy refuses (``--param``), or a relation the
    puzzle lacks (``--relations``)."""
    puzzle, runs = settings.puzzle.name, settings.runs
    check_solver_names(runs.solvers)
    refuse_runs_on_none(runs, {puzzle}, f"hunt {puzzle} draws only {{}} instances")
    runs = replace(runs, externals=tuple(e for e in runs.externals if e.applies_to(puzzle)))
    try:
        settings.puzzle.strategy(settings.ranges, settings.published_shape)  # checks the ranges (and the shape)
    except ValueError as error:
        raise SettingsError(str(error), "--param") from None
    runs = with_reference(puzzle, runs, settings.reference, tell)
    runs = replace(runs, solvers=tuple(formulations_chosen(puzzle, runs)))
    if runs.externals and not runs.solvers and settings.morph is None:  # a claim never contradicts a claim
        tell("warning: external programs alone, without --morph: only the plans they print are checked, "
             "so a claim alone can never be contradicted; add --solver NAME or --morph to check it")
    unknown = [name for name in settings.morph or () if name not in relations(puzzle)]
    if unknown:
        raise SettingsError(f"{unknown[0]!r} is no relation of {puzzle}; valid: {', '.join(relations(puzzle))}",
                            "--relations")
    return replace(settings, runs=runs)


def _search(settings: HuntSettings, referee: _Judge) -> HuntOutcome:
    """Hypothesis's search and shrinking, each draw judged by `referee`; the outcome as it ends."""
    drawn = settings.puzzle.strategy(settings.ranges, settings.published_shape)
    if settings.morph is None:
        def probe(instance: Instance) -> None:
            referee(instance)

        test = given(drawn)(probe)
        for saved, _, _ in saved_draws(settings):
            test = example(saved)(test)
    else:
        names = sorted(settings.morph or relations(settings.puzzle.name))

        def morph_probe(instance: Instance, relation: str, seed: int) -> None:
            referee(instance, relation, seed)

        test = given(drawn, st.sampled_from(names), st.integers(0, 2**16 - 1))(morph_probe)
        for saved, relation, seed in saved_draws(settings):
            if relation in names:
                test = example(saved, relation, seed)(test)
    test = hypothesis_settings(database=None, max_examples=10**9, deadline=None,
                               suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
                               phases=[Phase.explicit, Phase.generate, Phase.shrink], verbosity=Verbosity.quiet,
                               print_blob=False)(test)
    if settings.seed is not None:
        test = hypothesis_seed(settings.seed)(test)
    exhausted = interrupted = False
    try:
        with _hypothesis_home(hypothesis_home(settings)):
            test()
        exhausted = True
    except (_Spent, _Wrong, _Broken):  # a counterexample found was kept on disk as it was judged
        pass
    except KeyboardInterrupt:
        interrupted = True
    finally:
        referee.progress.close()
    shrinking = 0.0 if referee.found_at is None else time.perf_counter() - referee.found_at
    return replace(referee.outcome, seconds_to_shrink=shrinking, exhausted=exhausted, interrupted=interrupted)


def hypothesis_home(settings: HuntSettings) -> Path:
    """Where Hypothesis keeps its own files during a hunt (``OUT/hypothesis``), instead of
    ``.hypothesis/`` in the current folder (its caches are written even with no database)."""
    return settings.out / "hypothesis"


@contextmanager
def _hypothesis_home(folder: Path) -> Iterator[None]:
    """Hypothesis's home folder set to `folder` while the block runs, then restored (it is global)."""
    before = storage_directory(intent_to_write=False).home_directory
    set_hypothesis_home_dir(folder)
    try:
        yield
    finally:
        set_hypothesis_home_dir(before)


def _within(spent: float, limit: float | None) -> bool:
    return limit is None or spent < limit

