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
import os
import shlex
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path

from crosscheck.harness.inputs.index import Expected
from crosscheck.harness.judging.unanswered import Unanswered
from crosscheck.harness.judging.verdicts import HUNT_STOPS, InstanceVerdict, Verdict, judge
from crosscheck.harness.records.evidence import Evidence
from crosscheck.harness.records.record import RunRecord, Task, append_record, repair_tail
from crosscheck.harness.records.versions import Pinned
from crosscheck.harness.reports.hunt_progress import HuntProgress
from crosscheck.harness.reports.tables import explained_runs, failure_reason, failure_reasons
from crosscheck.harness.reports.wording import alternatives, counted, first_line
from crosscheck.harness.runs.external import External
from crosscheck.harness.runs.runner import run_tasks
from crosscheck.harness.workflows.morph import Where, instance_rng, numbered_files, run_related
from crosscheck.models.base import Instance, InvalidInstance
from crosscheck.models.puzzle import Puzzle, Range
from crosscheck.models.registry import get_relation, relations
from crosscheck.solvers.base import Clock, Status
from crosscheck.solvers.registry import PLUGIN_VARIABLE
from hypothesis import HealthCheck, Phase, Verbosity, example, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir, storage_directory

#: A hunt stops when an external program's first runs, this many, all crashed the same way
#: (one `failure_reason`) before any answer: it is not running at all (a file missing, a
#: wrong interpreter), and the budget would be spent on nothing.
SAME_FAILURES_TO_STOP = 3


@dataclass(frozen=True)
class HuntConfig:
    """What to hunt: formulations, sizes, limits, where to write, how long to look."""

    puzzle: Puzzle
    solvers: tuple[str, ...]
    externals: tuple[External, ...]
    out: Path
    ranges: dict[str, Range] = field(default_factory=dict)
    budget: float | None = 60.0  # seconds of search before giving up (None: no limit)
    shrink_budget: float | None = 60.0  # seconds of shrinking once a counterexample is found (None: no limit)
    examples: int | None = None  # distinct instances to judge before giving up (None: no limit)
    shrink_examples: int | None = None  # distinct instances to judge while shrinking (None: no limit)
    seed: int | None = None
    time_limit: float = 5.0
    clock: Clock = "wall"  # what time_limit counts
    memory_limit_mb: int = 2048
    jobs: int = 1
    plugins: tuple[str, ...] = ()
    database: Path | None = None  # the hunt database; default: OUT/hunt-db
    published_shape: bool = False  # draw and shrink only within the published inputs' shape
    morph: tuple[str, ...] | None = None  # hunt a morph-mismatch with these relations (empty: all); None: no
    versions: Pinned = field(default_factory=Pinned, compare=False)  # each solver's version, pinned at its first run

    def key(self) -> bytes:
        """Identifies the hunt in the example database: puzzle, formulations, ranges and shape."""
        parts = [self.puzzle.name, *sorted(self.solvers), *sorted(f"{e.name}={e.command}" for e in self.externals),
                 *(f"{name}={low}-{high}" for name, (low, high) in sorted(self.ranges.items())),
                 *(["published-shape"] if self.published_shape else []),
                 *([] if self.morph is None else ["morph", *self.morph])]
        return hashlib.sha256("\n".join(parts).encode()).digest()


@dataclass(frozen=True)
class Judged:
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


@dataclass
class HuntOutcome:
    """What a hunt saw: how many instances, their sizes, and the counterexample if any."""

    tried: int = 0  # distinct instances judged before a counterexample (or the budget's end)
    sizes: dict[str, tuple[int, int]] = field(default_factory=dict)  # feature -> (min, max) over those
    unanswered: Unanswered = field(default_factory=Unanswered)  # runs per formulation, searching and shrinking,
    # and those that gave no answer, reported per formulation: a summary leaves none of them out
    first: Judged | None = None  # the first counterexample, as drawn
    shrunk: Judged | None = None  # the smallest one with the same kind of wrong verdict
    shrink_tried: int = 0  # distinct instances judged while shrinking
    seconds_to_find: float = 0.0
    seconds_to_shrink: float = 0.0
    exhausted: bool = False  # Hypothesis ran out of distinct instances before the budget
    interrupted: bool = False  # Ctrl-C ended the hunt (`shrunk` is then the smallest so far)
    stopped: str = ""  # why the hunt stopped early: a program failing alike (`SAME_FAILURES_TO_STOP`)
    failed: list[RunRecord] = field(default_factory=list)  # the runs that crashed or timed out, for their reasons

    @property
    def crashed(self) -> int:
        """Runs that ended in error or memout (not wrong answers; reported)."""
        return self.unanswered.crashed


class _Spent(BaseException):
    """The search budget ran out (a BaseException so that Hypothesis lets it through)."""


class _Broken(BaseException):
    """An external program failed the same way on each of its first runs (`HuntOutcome.stopped`
    says how; a BaseException so that Hypothesis lets it through)."""


class _Wrong(Exception):
    """The failure Hypothesis shrinks: an instance with the hunted kind of wrong verdict."""

    def __init__(self, judged: Judged) -> None:
        super().__init__(judged.verdict.reason)
        self.judged = judged


class _Judge:
    """Runs and judges instances (each distinct text once) and keeps the hunt's tally."""

    def __init__(self, config: HuntConfig, progress: HuntProgress | None = None) -> None:
        self.config, self.progress = config, progress or HuntProgress("none")  # none: nothing shown
        self.outcome = HuntOutcome()
        self.cache: dict[str, Judged] = {}
        self.start = time.perf_counter()
        self.found_at: float | None = None
        self.judged, self.judged_records = judged_paths(config)
        self.judged.mkdir(parents=True, exist_ok=True)
        repair_tail(self.judged_records)
        self.numbers = _free_numbers(self.judged)
        self.first_runs: dict[str, list[RunRecord]] = {external.name: [] for external in config.externals}

    def __call__(self, instance: Instance, relation: str | None = None, seed: int = 0) -> None:
        """Raise `_Wrong` if `instance` (with `relation`'s instance related to it by the draws
        ``morph --seed SEED`` makes for the counterexample's file, `instance_rng`, in a morph
        hunt) shows the kind of wrong verdict hunted; `_Spent` at the budget's end."""
        judged = self.cache.get(_cache_key(instance, relation, seed))
        if judged is None:
            if not self._budget_left():
                if self.found_at is None:
                    raise _Spent
                return  # shrinking is over: nothing new fails, so Hypothesis settles on the best so far
            judged = self._run(instance, relation, seed)
            if not judged.wrong:  # a counterexample is kept, whoever else failed on it
                self._stop_if_broken(judged.records)
        outcome = self.outcome
        if outcome.first is None and judged.wrong:
            outcome.first, self.found_at = judged, time.perf_counter()
            outcome.seconds_to_find = self.found_at - self.start
            _write(judged, self.config, as_found=True)
        first = outcome.first
        if (first is not None and judged.wrong and judged.verdict.verdict is first.verdict.verdict
                and self._size(judged) <= self._size(first)):
            self._keep(judged)
            raise _Wrong(judged)

    def _keep(self, judged: Judged) -> None:
        """Make `judged` the counterexample on disk and in the database unless a smaller one is there."""
        outcome, best = self.outcome, self.outcome.shrunk
        if best is not None and self._size(best) < self._size(judged):
            return
        _save(self.config, judged, replacing=best)
        outcome.shrunk = judged
        _write(judged, self.config, as_found=False)

    def _size(self, judged: Judged) -> int:
        """What shrinking must never increase: the sum of the puzzle's size measures
        (Hypothesis's own order is over its choices, which can trade one for another)."""
        return sum(self.config.puzzle.features(judged.instance).values())

    def _budget_left(self) -> bool:
        """Whether the search (or, once a counterexample is found, the shrinking) may judge
        another new instance: neither its seconds nor its number of instances is spent."""
        config, outcome, now = self.config, self.outcome, time.perf_counter()
        if self.found_at is None:
            return _within(now - self.start, config.budget) and _within(outcome.tried, config.examples)
        return _within(now - self.found_at, config.shrink_budget) and _within(outcome.shrink_tried,
                                                                              config.shrink_examples)

    def _run(self, instance: Instance, relation: str | None, seed: int) -> Judged:
        text = instance.to_text()
        name = f"hunt-{next(self.numbers)}.txt"
        path = self.judged / name
        _write_whole(path, text)
        tasks: list[tuple[Task, Expected]] = [(task, None) for task in self._tasks(str(path), name)]
        shrinking = self.found_at is not None
        self.progress.judging(name, shrinking)
        records = run_tasks(tasks, jobs=self.config.jobs)
        for record in records:
            append_record(self.judged_records, record)
        verdict = judge(records)
        if relation is not None:
            verdict = self._morphed(instance, relation, seed, tasks, records, verdict)
        judged = Judged(instance, records, verdict, relation, seed)
        self.cache[_cache_key(instance, relation, seed)] = judged
        self._tally(judged)
        self.progress.judged(name, self.config.puzzle.features(instance), f"{verdict.verdict.value}: {verdict.reason}",
                             shrinking, "" if relation is None else f"with {relation} seed {seed}")
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
                self.outcome.stopped = (f"{record.solver} failed the same way on each of its first "
                                        f"{SAME_FAILURES_TO_STOP} runs, before any answer: {first_line(record.message)}")
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
        rng = instance_rng(seed, counterexample_paths(self.config, as_found=False)[0].name)  # as `morph` draws there
        pairs = run_related(instance, [(get_relation(self.config.puzzle.name, relation), 1)], list(records), tasks,
                            rng, where,
                            lambda more: run_tasks(more, jobs=self.config.jobs, on_record=keep), [])
        broken = [pair for pair in pairs if pair.verdict is Verdict.MORPH_MISMATCH]
        if verdict.verdict in HUNT_STOPS or not broken:
            return verdict
        return InstanceVerdict(Verdict.MORPH_MISMATCH, None, broken[0].line(self.judged), instance=verdict.instance,
                               variant=False)

    def _tasks(self, path: str, name: str) -> list[Task]:
        config = self.config

        def task(solver: str, external: External | None = None) -> Task:
            return Task(path=path, instance=name, puzzle=config.puzzle.name, solver=solver,
                        external=None if external is None else external.command,
                        external_sources=() if external is None else external.sources, time_limit=config.time_limit,
                        clock=config.clock, memory_limit_mb=config.memory_limit_mb, plugins=config.plugins,
                        identity=config.versions(solver, external))

        return [task(solver) for solver in config.solvers] + [task(e.name, e) for e in config.externals]

    def _tally(self, judged: Judged) -> None:
        outcome = self.outcome
        outcome.unanswered.add(judged.records)
        outcome.failed += explained_runs(judged.records)
        if outcome.first is not None:
            outcome.shrink_tried += 1
            return
        outcome.tried += 1
        for name, value in self.config.puzzle.features(judged.instance).items():
            low, high = outcome.sizes.get(name, (value, value))
            outcome.sizes[name] = (min(low, value), max(high, value))


def hunt(config: HuntConfig, progress: HuntProgress | None = None) -> HuntOutcome:
    """Replay saved counterexamples, search, shrink; see the module docstring.  Each
    instance judged is shown by `progress` [default: nothing shown], closed at the end.

    Writes ``OUT/judged`` and ``OUT/judged.jsonl`` and, with a counterexample, the
    counterexample files and the hunt database.
    """
    referee = _Judge(config, progress)

    drawn = config.puzzle.strategy(config.ranges, config.published_shape)
    if config.morph is None:
        def probe(instance: Instance) -> None:
            referee(instance)

        test = given(drawn)(probe)
        for saved, _, _ in _saved(config):
            test = example(saved)(test)
    else:
        names = sorted(config.morph or relations(config.puzzle.name))

        def morph_probe(instance: Instance, relation: str, seed: int) -> None:
            referee(instance, relation, seed)

        test = given(drawn, st.sampled_from(names), st.integers(0, 2**16 - 1))(morph_probe)
        for saved, relation, seed in _saved(config):
            if relation in names:
                test = example(saved, relation, seed)(test)
    test = settings(database=None, max_examples=10**9, deadline=None, suppress_health_check=list(HealthCheck),
                    report_multiple_bugs=False, phases=[Phase.explicit, Phase.generate, Phase.shrink],
                    verbosity=Verbosity.quiet, print_blob=False)(test)
    if config.seed is not None:
        test = hypothesis_seed(config.seed)(test)
    outcome = referee.outcome
    try:
        with _hypothesis_home(hypothesis_home(config)):
            test()
        outcome.exhausted = True
    except (_Spent, _Wrong, _Broken):  # a counterexample found was kept on disk as it was judged
        pass
    except KeyboardInterrupt:
        outcome.interrupted = True
    finally:
        referee.progress.close()
    if referee.found_at is not None:
        outcome.seconds_to_shrink = time.perf_counter() - referee.found_at
    return outcome


def hypothesis_home(config: HuntConfig) -> Path:
    """Where Hypothesis keeps its own files during a hunt (``OUT/hypothesis``), instead of
    ``.hypothesis/`` in the current folder (its caches are written even with no database)."""
    return config.out / "hypothesis"


@contextmanager
def _hypothesis_home(folder: Path) -> Iterator[None]:
    """Hypothesis's home folder set to `folder` while the block runs, then restored (it is global)."""
    before = storage_directory(intent_to_write=False).home_directory
    set_hypothesis_home_dir(folder)
    try:
        yield
    finally:
        set_hypothesis_home_dir(before)


def _cache_key(instance: Instance, relation: str | None, seed: int) -> str:
    """What identifies a judged draw: the instance's text, and in a morph hunt the relation and its seed."""
    return instance.to_text() if relation is None else f"{instance.to_text()}\0{relation}\0{seed}"


def _within(spent: float, limit: float | None) -> bool:
    return limit is None or spent < limit


def judged_paths(config: HuntConfig) -> tuple[Path, Path]:
    """The folder of every instance a hunt judged, and the JSON Lines file of their runs."""
    return config.out / "judged", config.out / "judged.jsonl"


def _free_numbers(folder: Path) -> Iterator[int]:
    """Instance numbers after the highest ``hunt-N.txt`` already in `folder`."""
    return count(max(numbered_files(folder, "hunt-"), default=0) + 1)


def _folder(config: HuntConfig) -> Path:
    return (config.database or config.out / "hunt-db") / config.key().hex()[:16]


#: A saved draw: the instance, and in a morph hunt the relation and seed drawn with it.
Draw = tuple[Instance, str | None, int]


def _saved(config: HuntConfig) -> list[Draw]:
    """The counterexamples earlier hunts with the same key saved (unreadable ones skipped;
    in a morph hunt, also those without a readable draw beside them, ``HASH.draw``)."""
    found: list[Draw] = []
    for path in sorted(_folder(config).glob("*.txt")):
        try:
            instance = config.puzzle.parse(path.read_text(encoding="utf-8"), str(path))
        except InvalidInstance:
            continue
        if config.morph is None:
            found.append((instance, None, 0))
            continue
        draw = path.with_suffix(".draw")
        words = draw.read_text(encoding="utf-8").split() if draw.exists() else []
        if len(words) == 2 and words[1].isdigit():
            found.append((instance, words[0], int(words[1])))
    return found


def _save(config: HuntConfig, judged: Judged, replacing: Judged | None) -> None:
    """Put `judged`'s instance (and its relation and seed, in a morph hunt) in the hunt
    database in place of `replacing`'s (the smaller one of the same find)."""
    folder = _folder(config)
    folder.mkdir(parents=True, exist_ok=True)
    path = _database_path(folder, judged)
    if judged.relation is not None:  # the draw first: an instance without its draw is never replayed
        _write_whole(path.with_suffix(".draw"), f"{judged.relation} {judged.seed}\n")
    _write_whole(path, judged.instance.to_text())
    if replacing is not None and _database_path(folder, replacing) != path:
        _database_path(folder, replacing).unlink(missing_ok=True)
        _database_path(folder, replacing).with_suffix(".draw").unlink(missing_ok=True)


def _database_path(folder: Path, judged: Judged) -> Path:
    """Where `judged` is kept: named by the hash of its instance's text (and draw, in a morph hunt)."""
    key = _cache_key(judged.instance, judged.relation, judged.seed)
    return folder / f"{hashlib.sha256(key.encode()).hexdigest()[:16]}.txt"


def written(outcome: HuntOutcome, config: HuntConfig) -> list[Path]:
    """The files holding the outcome's counterexamples (none without one)."""
    if outcome.shrunk is None:
        return []
    return [*counterexample_paths(config, as_found=False), *counterexample_paths(config, as_found=True)]


def counterexample_paths(config: HuntConfig, as_found: bool) -> tuple[Path, Path]:
    """Where a hunt writes its counterexample (the smallest so far, or the first as found) and its records."""
    name = config.puzzle.name
    if as_found:
        return config.out / f"counterexample-{name}-as-found.txt", config.out / "runs-as-found.jsonl"
    return config.out / f"counterexample-{name}.txt", config.out / "runs.jsonl"


def reproduce(outcome: HuntOutcome, config: HuntConfig) -> str | None:
    """A shell command that judges the shrunk counterexample again (None without one):
    ``crosscheck compare`` on its file with the same formulations, programs and limits, or,
    for a morph hunt's draw, ``crosscheck morph`` with its relation and seed (which relate
    the same instance to the file, `instance_rng`), its output in ``OUT/reproduce``.  Both
    exit 1 on the wrong verdict; plugins loaded are named in ``CROSSCHECK_SOLVERS`` before it."""
    shrunk = outcome.shrunk
    if shrunk is None:
        return None
    path = str(counterexample_paths(config, as_found=False)[0])
    words = ["crosscheck", "compare", path]
    if shrunk.relation is not None:
        words = ["crosscheck", "morph", path, "--relations", shrunk.relation, "--count", "1",
                 "--seed", str(shrunk.seed), "--out", str(config.out / "reproduce")]
    for solver in config.solvers:
        words += ["--solver", solver]
    for external in config.externals:
        words += ["--external", f"{external.name}={external.command}"]
        for source in external.sources:
            words += ["--external-source", f"{external.name}={source}"]
    words += ["--time-limit", str(config.time_limit), "--clock", config.clock,
              "--memory-limit", str(config.memory_limit_mb)]
    plugins = f"{PLUGIN_VARIABLE}={shlex.quote(','.join(config.plugins))} " if config.plugins else ""
    return plugins + shlex.join(words)


def _write(judged: Judged, config: HuntConfig, as_found: bool) -> None:
    """Write a counterexample and its records (naming it) to OUT."""
    text_path, records_path = counterexample_paths(config, as_found)
    _write_whole(text_path, judged.instance.to_text())
    own = judged.records[0].instance  # a morph hunt's related instances keep their names in judged/
    lines = (r.model_copy(update={"instance": text_path.name} if r.instance == own else {}).model_dump_json() + "\n"
             for r in judged.records)
    _write_whole(records_path, "".join(lines))


def _write_whole(path: Path, text: str) -> None:
    """Write `path` so that it is never seen half-written: a temporary file forced to disk, then renamed."""
    temporary = path.with_name(path.name + ".partial")
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def explain(outcome: HuntOutcome, config: HuntConfig) -> str:
    """One paragraph: what was contradicted by what, the sizes before and after shrinking,
    and every run that gave no answer (timeout, unsupported, error, memout), per formulation."""
    if outcome.shrunk is None or outcome.first is None:
        why = ("Hypothesis ran out of distinct instances in these ranges" if outcome.exhausted
               else "before the hunt was interrupted" if outcome.interrupted
               else f"before the hunt stopped early: {outcome.stopped}" if outcome.stopped
               else f"within the budget ({_budget(config)})")
        after = ("Fix the program or its command (run it on a file of judged/ by hand), then hunt again."
                 if outcome.stopped else _not_evidence(outcome, config))
        return (f"No wrong verdict on {counted(outcome.tried, config.puzzle.name + ' instance')} "
                f"({_ranges(outcome.sizes)}), "
                f"{why}.{_unanswered(outcome)}{_crashes(outcome)}{_reasons(outcome)}\n{after}")
    shrunk, first = outcome.shrunk, outcome.first
    features = config.puzzle.features
    shrunk_name = "Smallest so far (shrinking was interrupted)" if outcome.interrupted else "Shrunk instance"
    return (f"Counterexample ({shrunk.verdict.verdict}): {shrunk.verdict.reason}. {shrunk_name}: "
            f"{_sizes(features(shrunk.instance))}; as found: {_sizes(features(first.instance))}, after "
            f"{counted(outcome.tried, 'instance')} in {outcome.seconds_to_find:.1f} s; shrinking judged "
            f"{outcome.shrink_tried} more in {outcome.seconds_to_shrink:.1f} s. Answers on the shrunk instance: "
            f"{'; '.join(_answer(r) for r in shrunk.records)}.{_unanswered(outcome)}{_crashes(outcome)}"
            f"{_reasons(outcome)}")


def _not_evidence(outcome: HuntOutcome, config: HuntConfig) -> str:
    """The line after a hunt that found nothing: that is no evidence of correctness (a
    wrong answer may need instances this search did not draw), and what to try next."""
    tries = (["wider -p ranges"] if outcome.exhausted else
             ["a larger --budget (or --examples)", "another --seed" if config.seed is not None else "running it again "
              "(a new seed each time)", "narrower -p ranges around the sizes you suspect"])
    tries += [] if config.morph is not None else ["--morph"]
    return (f"Finding none is no evidence that the formulations are right: a wrong answer may need an instance "
            f"this search did not draw. Try {alternatives(tries)}.")


def _budget(config: HuntConfig) -> str:
    """The search's limits in words: "60 s", "200 instances" or "60 s or 200 instances"."""
    limits = [] if config.budget is None else [f"{config.budget:g} s"]
    limits += [] if config.examples is None else [counted(config.examples, "instance")]
    return " or ".join(limits) or "none"


def _sizes(values: dict[str, int]) -> str:
    return ", ".join(f"{name} {value}" for name, value in values.items())


def _ranges(sizes: dict[str, tuple[int, int]]) -> str:
    return ", ".join(f"{name} {low}-{high}" if low != high else f"{name} {low}" for name, (low, high) in sizes.items())


def _unanswered(outcome: HuntOutcome) -> str:
    """The runs that gave no answer, per formulation and status, e.g. `` Runs without an
    answer: mine 10 of 110 (10 timeout); lift 3 of 110 (2 error, 1 memout).``; '' when
    every run answered."""
    parts = outcome.unanswered.parts()
    return f" Runs without an answer: {'; '.join(parts)}." if parts else ""


def _crashes(outcome: HuntOutcome) -> str:
    return (f" {counted(outcome.crashed, 'run')} crashed or ran out of memory (their instances are in judged/, their "
            "records in judged.jsonl)." if outcome.crashed else "")


def _reasons(outcome: HuntOutcome) -> str:
    """Why runs crashed or timed out (`failure_reasons`, as compare notes them), a line
    each after the paragraph; '' when none did."""
    return "".join(f"\n{line}" for line in failure_reasons(outcome.failed))


def _answer(record: RunRecord) -> str:
    """A run's answer in a few words: status, cost, proven bound, and what the checker said."""
    text = f"{record.solver} {record.status}"
    if record.cost is not None:
        text += f" {record.cost}"
    if record.bound is not None and record.bound != record.cost:
        text += f" (bound {record.bound})"
    if record.plan_valid is not None:
        text += " with a checked plan" if record.plan_valid else f" with an invalid plan ({record.plan_error})"
    return text + (" [claim]" if record.evidence is Evidence.CLAIM else "")
