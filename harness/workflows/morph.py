"""Metamorphic testing: a solver judged against itself on related instances (``crosscheck morph``).

For each instance, every chosen runner (a built-in or plugin formulation, or an external
program) runs on it and on instances related to it by the puzzle's relations
(`crosscheck.models.relations`): the named ones, each `MorphSettings.count` times, or
`count` drawn at random among all of them, from a `random.Random` seeded by the seed and
the instance's name (a run is reproducible, and an instance's draws do not depend on the
other instances).  An instance's related instances by one relation differ from each other
and from the original (`distinct_draws`); a relation with fewer distinct images than asked
gives those, and `MorphOutcome.fewer` says so.  Relations that need a plan (the suffix
relations) take each runner's own checked plan of the original, so each runner gets its
own related instances; an answer without a checked plan gives those relations nothing to
start from.

Every related instance is saved under ``OUT/related/`` (its name is the original's with
``~RELATION-N``), so a mismatch can be replayed with ``solve``; every run is appended to
``OUT/morph.jsonl`` as it finishes (the originals under their own names, the related
instances as ``related/...``), so ``report`` reads it like a comparison's results.  A
related instance's runs carry ``related_to`` (the original's name, the relation, its
expectation: `link_of`), so ``report`` judges every pair from ``morph.jsonl`` alone, as
``morph`` did (`recorded_verdicts`; `crosscheck.harness.judging.verdicts.judged`).

Each (instance, related instance, runner) pair is judged on exact answers only
(`crosscheck.harness.judging.pairs.answer_of`): a proven optimum with a checked plan or a proof of infeasibility, and an
external program's claim too, since the relation tests the program itself.  A timeout,
a crash or an invalid plan is no answer, and the pair is ``unverified``.  Answers that
break the relation's expectation make the pair a `Verdict.MORPH_MISMATCH`, and the related
instance's verdict too; every pair's verdict is appended to ``OUT/morph-verdicts.jsonl``
(for reading: it holds pairs, not runs, and ``report`` is given ``morph.jsonl``).

Each instance's own runs get the verdict ``compare`` gives them (`MorphOutcome.judged_runs`):
an original's records carry its index entry (``expected``), so a runner answering other
than the index is `Verdict.WRONG_EXPECTED` by the rules of `crosscheck.harness.judging.verdicts`
(a lone program consistently off by two agrees with itself on every pair, and is caught
there).  A related instance has no index entry of its own and gets none: what the index
implies for it is the relation's law, which the pairs check.
"""

from __future__ import annotations

import glob
import json
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path, PurePosixPath

from crosscheck.harness.inputs.index import InstanceFile
from crosscheck.harness.judging.pairs import answer_of, recorded_pairs
from crosscheck.harness.judging.verdicts import JudgedRuns, Verdict, judged, pair_verdict
from crosscheck.harness.records.record import Expected, RelatedTo, RunRecord, Task, append_record, repair_tail
from crosscheck.harness.reports.progress import Progress
from crosscheck.harness.runs.batch import run_tasks
from crosscheck.harness.runs.runner import formulations_of, ready_server
from crosscheck.harness.runs.schedule import instance_tasks
from crosscheck.harness.runs.settings import MORPH_COUNT, RunSettings
from crosscheck.harness.workflows.choosing import Notes, Tell, instance_files, silent
from crosscheck.harness.workflows.exits import EXIT_WRONG, runs_status
from crosscheck.models.answers import ExactAnswer, to_json
from crosscheck.models.base import Instance, InvalidInstance
from crosscheck.models.registry import get_puzzle, load_instance, relations
from crosscheck.models.relations import (
    DRAWS_PER_ASKED,
    NotApplicable,
    Related,
    Relation,
    distinct_draws,
    parse_expectation,
)

#: A file's number in its name (`numbered_files`): ASCII digits only.
DIGITS = re.compile(r"[0-9]+")
#: What runs a batch of tasks and returns their records, in task order.
RunBatch = Callable[[list[tuple[Task, Expected]]], list[RunRecord]]


@dataclass(frozen=True)
class MorphSettings:
    """What `morph` runs: the instance files or folders at `paths`, the runners and limits
    of `runs`, the relations, and the folder `out` it writes to.

    `relations` empty means `count` relations drawn at random per instance, else each
    named one `count` times (names a puzzle lacks are skipped for its instances); the
    draws are seeded by `seed` and each instance's name.
    """

    paths: tuple[Path, ...]
    out: Path
    runs: RunSettings = field(default_factory=RunSettings)
    relations: tuple[str, ...] = ()
    count: int = MORPH_COUNT
    seed: int = 0


@dataclass(frozen=True)
class PairVerdict:
    """The verdict on one runner's answers on an instance and on a related instance."""

    verdict: Verdict  # MORPH_MISMATCH, AGREE or UNVERIFIED
    runner: str
    relation: str
    detail: str  # what the relation did ("rotate 90", "after 3 of 9 moves")
    expectation: str
    original: str  # the instance's name, as its records carry it
    related: str  # the related instance's name (relative to OUT)
    original_answer: ExactAnswer | None
    related_answer: ExactAnswer | None
    reason: str

    def as_json(self) -> dict[str, object]:
        """The pair as a line of ``morph-verdicts.jsonl`` holds it (answers as `to_json` writes them)."""
        return {**asdict(self), "original_answer": to_json(self.original_answer),
                "related_answer": to_json(self.related_answer)}

    def line(self, out: Path) -> str:
        """One line for people, naming both files."""
        return (f"{self.original} ~{self.relation} ({self.detail}): {self.verdict.value}: {self.runner}: "
                f"{self.reason} [{self.original} -> {out / self.related}]")


@dataclass(frozen=True)
class MorphOutcome:
    """Every run record and pair verdict of a morph run, what could not be derived, the
    notes told, the files left unrun (no chosen runner applies to them), and a warning per
    solver whose code changed while it ran."""

    records: tuple[RunRecord, ...] = ()
    pairs: tuple[PairVerdict, ...] = ()
    skipped: tuple[str, ...] = ()  # relations that did not apply, and why
    fewer: tuple[str, ...] = ()  # relations with fewer distinct related instances than asked
    notes: tuple[str, ...] = ()
    left_unrun: tuple[Path, ...] = ()
    changed: tuple[str, ...] = ()

    @property
    def mismatches(self) -> list[PairVerdict]:
        return [pair for pair in self.pairs if pair.verdict is Verdict.MORPH_MISMATCH]

    def judged_runs(self) -> JudgedRuns:
        """The records with each instance's verdict on its runs, as ``compare`` judges them
        (`judged`): an original's against its index entry, a related instance's without one."""
        return judged(list(self.records))

    @property
    def exit_status(self) -> int:
        """1 on a morph-mismatch or a wrong verdict on an instance, 3 when a file was
        unreadable or a run crashed, else 0 (`crosscheck.harness.workflows.exits`)."""
        return EXIT_WRONG if self.mismatches else runs_status(self.judged_runs())


@dataclass
class _Gathered:
    """What a morph run gathers as it goes (`MorphOutcome` holds it once done)."""

    records: list[RunRecord] = field(default_factory=list)
    pairs: list[PairVerdict] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    fewer: list[str] = field(default_factory=list)


def link_of(related: Related, relation: str, original: str) -> RelatedTo:
    """What a run of `related` (made by `relation` from the instance named `original`)
    records of its link to the original."""
    return RelatedTo(original=original, relation=relation, detail=related.detail,
                     expectation=str(related.expectation))


def judge_pair(related: Related, relation: str, original: RunRecord, again: RunRecord) -> PairVerdict:
    """The verdict on `original` (a runner's record of an instance) and `again` (the same
    runner's record of the `related` instance) by the relation's expectation."""
    return judge_link(link_of(related, relation, original.instance), original, again)


def judge_link(link: RelatedTo, original: RunRecord, again: RunRecord) -> PairVerdict:
    """The verdict on a runner's records `original` and `again`, `again`'s instance linked
    to `original`'s by `link` (`crosscheck.harness.judging.verdicts.pair_verdict`)."""
    first, second = answer_of(original), answer_of(again)
    verdict, reason = pair_verdict(parse_expectation(link.expectation), first, second)
    return PairVerdict(verdict, original.solver, link.relation, link.detail, link.expectation,
                       original.instance, again.instance, first, second, reason)


def recorded_verdicts(records: list[RunRecord]) -> list[PairVerdict]:
    """The verdict on every pair the records link (`crosscheck.harness.judging.pairs.recorded_pairs`)."""
    return [judge_link(pair.link, pair.original, pair.related) for pair in recorded_pairs(records)]


def morph(settings: MorphSettings, tell: Tell = silent,
          on_pair: Callable[[PairVerdict], None] = lambda pair: None) -> MorphOutcome:
    """Run and judge every instance below `MorphSettings.paths` and its related instances
    (module docstring), each pair's verdict handed to `on_pair` as it is judged.

    `SettingsError` or `UnusableInput` before any run when the settings cannot make
    sense; Ctrl-C (`KeyboardInterrupt`) stops it, the finished runs saved in OUT/morph.jsonl."""
    told = Notes(tell)
    files, left = instance_files(settings.paths, settings.runs, told)
    gathered = _run_all(files, settings, on_pair)
    return MorphOutcome(tuple(gathered.records), tuple(gathered.pairs), tuple(gathered.skipped),
                        tuple(gathered.fewer), tuple(told.lines), tuple(left),
                        tuple(f"warning: {line}" for line in settings.runs.versions.changed()))


def _run_all(files: list[InstanceFile], settings: MorphSettings, on_pair: Callable[[PairVerdict], None]
             ) -> _Gathered:
    """Run and judge every instance of `files` (`crosscheck.harness.runs.schedule.discover_all`) and its
    related instances (module docstring)."""
    settings.out.mkdir(parents=True, exist_ok=True)
    results, verdicts = settings.out / "morph.jsonl", settings.out / "morph-verdicts.jsonl"
    repair_tail(results)
    gathered = _Gathered()
    runs = settings.runs

    def save(record: RunRecord) -> None:
        append_record(results, record)
        gathered.records.append(record)

    def judged(pair: PairVerdict) -> None:
        with open(verdicts, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(pair.as_json()) + "\n")
        gathered.pairs.append(pair)
        on_pair(pair)

    scheduled = [(instance_file, instance_tasks(instance_file, runs)) for instance_file in files]
    ready_server(formulations_of(task for _, (_, tasks) in scheduled for task, _ in tasks))
    progress = Progress(sum(len(tasks) for _, (_, tasks) in scheduled), runs.jobs, limit=runs.time_limit,
                        mode=runs.progress)

    def shown(record: RunRecord) -> None:
        save(record)
        progress(record)

    def run(tasks: list[tuple[Task, Expected]]) -> list[RunRecord]:
        return run_tasks(tasks, jobs=runs.jobs, on_record=shown, on_start=progress.started, on_end=progress.ended)

    def run_more(tasks: list[tuple[Task, Expected]]) -> list[RunRecord]:
        progress.add(len(tasks))  # the related instances' runs, unknown until their originals ran
        return run(tasks)

    try:
        for instance_file, (unreadable, tasks) in scheduled:
            for record in unreadable:
                save(record)
            if tasks:
                _morph_instance(instance_file, tasks, settings, (run, run_more), judged, gathered)
    finally:
        progress.close()
    return gathered


def _morph_instance(instance_file: InstanceFile, tasks: list[tuple[Task, Expected]], settings: MorphSettings,
                    batches: tuple[RunBatch, RunBatch], judged: Callable[[PairVerdict], None],
                    gathered: _Gathered) -> None:
    """Run one instance's `tasks` (`instance_tasks`) with the first of `batches`, and its
    related instances' with the second; judge the pairs (what did not apply, or gave
    fewer related instances than asked, noted in `gathered`)."""
    puzzle = get_puzzle(tasks[0][0].puzzle or "")
    instance = puzzle.parse(instance_file.path.read_text(encoding="utf-8"), str(instance_file.path))
    originals = batches[0](tasks)
    rng = instance_rng(settings.seed, instance_file.name)
    relations = _relations(puzzle.name, settings, rng)
    where = Where(settings.out / "related", "related/", instance_file.name)
    for pair in run_related(instance, relations, originals, tasks, rng, where, batches[1], gathered.skipped,
                            gathered.fewer):
        judged(pair)


@dataclass(frozen=True)
class Where:
    """Where related instances go: the `folder` they are saved in, the `prefix` of their
    record names (their folder relative to the records' root), and the `original`'s name
    they are named after."""

    folder: Path
    prefix: str
    original: str


def instance_rng(seed: int, name: str) -> random.Random:
    """The draws of the related instances of the instance file `name` under `seed` (`hunt`
    uses it too, so that ``morph --seed`` on a hunt's counterexample draws what the hunt drew)."""
    return random.Random(f"{seed}:{name}")


def run_related(instance: Instance, relations: list[tuple[Relation, int]], originals: list[RunRecord],
                tasks: list[tuple[Task, Expected]], rng: random.Random, where: Where, run_batch: RunBatch,
                skipped: list[str], fewer: list[str] | None = None) -> list[PairVerdict]:
    """Derive each relation's related instances of `instance` (as many as its count asks,
    distinct: `distinct_draws`; whose runs `originals` are, made by `tasks`), save them,
    run their runners (with `run_batch`) and judge each pair; what did not apply is
    appended to `skipped`, and each relation that gave fewer than asked to `fewer`."""
    derived = _derived(instance, relations, originals, rng, (skipped, [] if fewer is None else fewer), where.original)
    related_tasks: list[tuple[Task, Expected]] = []
    pairs: list[tuple[Related, str, RunRecord]] = []
    for number, (relation, related, runners) in enumerate(derived, start=1):
        name = save_related(where.folder, where.original, relation.name, number, related)
        for original, (run, _) in zip(originals, tasks, strict=True):
            if original.solver in runners:
                update = {"path": str(where.folder / name), "instance": where.prefix + name,
                          "related_to": link_of(related, relation.name, original.instance)}
                related_tasks.append((run.model_copy(update=update), None))
                pairs.append((related, relation.name, original))
    again = run_batch(related_tasks)
    return [judge_pair(related, name, original, record)
            for (related, name, original), record in zip(pairs, again, strict=True)]


def _relations(puzzle: str, settings: MorphSettings, rng: random.Random) -> list[tuple[Relation, int]]:
    """The relations to apply to one instance of `puzzle`, each with how many related
    instances it is asked for (see `MorphSettings`), in the order first named or drawn."""
    mine = relations(puzzle)
    if settings.relations:
        return [(mine[name], settings.count) for name in settings.relations if name in mine]
    names = sorted(mine)
    drawn = Counter(rng.choice(names) for _ in range(settings.count))
    return [(mine[name], count) for name, count in drawn.items()]


def _derived(instance: Instance, relations: list[tuple[Relation, int]], originals: list[RunRecord],
             rng: random.Random, notes: tuple[list[str], list[str]], name: str
             ) -> list[tuple[Relation, Related, set[str]]]:
    """Each relation's related instances with the runners they are for: all of them, or,
    for a relation that needs a plan, each runner's own from its checked plan.  What did
    not apply goes to the first of `notes`, a relation that gave fewer than asked to the
    second (`fewer_note`)."""
    skipped, fewer = notes
    found: list[tuple[Relation, Related, set[str]]] = []
    for relation, count in relations:
        sources = ([(r.solver, r.plan) for r in originals if r.plan_valid and answer_of(r) is not None]
                   if relation.needs_plan else [(None, None)])
        if not sources:
            skipped.append(f"{name} ~{relation.name}: no runner has a checked plan with an exact answer")
        for runner, plan in sources:
            on = f" ({runner})" if runner else ""
            try:
                draws = distinct_draws(relation, instance, rng, count, plan)
            except NotApplicable as why:
                skipped.append(f"{name} ~{relation.name}{on}: {why}")
                continue
            if len(draws) < count:
                fewer.append(fewer_note(relation.name, name + on, len(draws), count))
            found.extend((relation, related, {runner} if runner else {r.solver for r in originals})
                         for related in draws)
    return found


def fewer_note(relation: str, original: str, found: int, asked: int) -> str:
    """What a summary says of `relation` giving `original` fewer distinct related
    instances than `asked`."""
    return (f"{relation} on {original}: {found} distinct related instance{'' if found == 1 else 's'} "
            f"(of {asked} asked)")


def save_related(folder: Path, original: str, relation: str, number: int, related: Related) -> str:
    """Write the related instance's text under `folder` and return its name there
    (the original's name with ``~RELATION-NUMBER``).  A name that climbs out (``..``) or is
    absolute keeps a mark of it (``^`` for each ``..``, ``^root`` for ``/``), so the file stays
    under `folder` and ``../other/x.txt`` and ``other/x.txt`` never share a related file.

    A file there is never overwritten (earlier runs' records point to it): a file of the
    same original and relation that holds the same text is reused (`number`'s first), else
    a taken `number` becomes the one after the highest there."""
    marks = {"..": "^", "/": "^root"}
    stem = "/".join(marks.get(part, part) for part in PurePosixPath(original.removesuffix(".txt")).parts)
    prefix = f"{stem}~{relation}-"
    parent = (folder / prefix).parent
    parent.mkdir(parents=True, exist_ok=True)
    taken = numbered_files(parent, PurePosixPath(prefix).name)
    size = len(related.text.encode("utf-8"))
    for held in sorted(taken, key=lambda held: held != number):  # only a file of the same size is read
        if taken[held].stat().st_size == size and taken[held].read_text(encoding="utf-8") == related.text:
            return f"{prefix}{held}.txt"
    if number in taken:
        number = max(taken) + 1
    (folder / f"{prefix}{number}.txt").write_text(related.text, encoding="utf-8")
    return f"{prefix}{number}.txt"


def numbered_files(folder: Path, prefix: str) -> dict[int, Path]:
    """The files ``PREFIXN.txt`` in `folder` by their number N, of ASCII digits (``str.isdigit``
    also takes ``²``, which `int` refuses)."""
    return {int(number): path for path in folder.glob(glob.escape(prefix) + "*.txt")
            if DIGITS.fullmatch(number := path.name[len(prefix):-len(".txt")])}


# --- compare --morph --------------------------------------------------------------------

@dataclass(frozen=True)
class RelatedFile:
    """A related instance added to a comparison: its file, and what it is related to."""

    file: InstanceFile
    original: str  # the original's instance name
    relation: str
    related: Related


def related_files(instance_files: list[InstanceFile], count: int, seed: int, folder: Path,
                  fewer: list[str] | None = None) -> list[RelatedFile]:
    """`count` related instances of each readable instance file, by relations drawn at
    random among those that need no plan (seeded by `seed` and the instance's name),
    saved under `folder` and named ``FOLDER-NAME/...`` (`folder` sits beside the results
    file, so the names read like the originals').  An unreadable file gets none (its
    error record says why).  An instance's related instances differ from each other and
    from it (as texts): a relation that does not apply, or a draw that repeats, is drawn
    again, at most ``count * DRAWS_PER_ASKED`` draws in all; an instance that gets fewer
    than `count` is noted in `fewer` (`fewer_note`)."""
    found = []
    for instance_file in instance_files:
        try:
            puzzle, instance = load_instance(str(instance_file.path))
        except InvalidInstance:
            continue
        rng = instance_rng(seed, instance_file.name)
        plan_free = [r for _, r in sorted(relations(puzzle.name).items()) if not r.needs_plan]
        seen = {instance.to_text()}
        for _ in range(count * DRAWS_PER_ASKED):
            if len(seen) > count:
                break
            relation = rng.choice(plan_free)
            try:
                related = relation.derive(instance, rng, None)
            except NotApplicable:
                continue
            if related.text in seen:
                continue
            seen.add(related.text)
            name = save_related(folder, instance_file.name, relation.name, len(seen) - 1, related)
            found.append(RelatedFile(InstanceFile(folder / name, f"{folder.name}/{name}", None, None),
                                     instance_file.name, relation.name, related))
        if len(seen) - 1 < count and fewer is not None:
            fewer.append(fewer_note("the relations drawn", instance_file.name, len(seen) - 1, count))
    return found
