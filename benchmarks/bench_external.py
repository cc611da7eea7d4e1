"""Side by side: your own solver against the fastest built-in formulation, on real-size instances.

Run as ``python -m benchmarks.bench_external --puzzle PUZZLE --external NAME='COMMAND {path}'
[--seeds N] [--variant V ...] [--solver NAME] [--time-limit S] [--memory-limit MB]
[--repeat R --clock cpu --save FILE.json]``.  Not in `benchmarks.speed` (it needs a program).

The program is given exactly as to ``crosscheck compare --external``
(`crosscheck.harness.runs.external`: ``{path}`` stands for a copy of the instance; it prints
``plan: [...]`` and/or its optimum, or ``infeasible``, or ``unsupported``).  Each puzzle's
variants are generated from seeds 0..N-1 in the real inputs' shapes, the puzzle's
`crosscheck.models.puzzle.Puzzle.real_shapes`: for the built-in ones, vaults 81x81 with 26
keys, one robot and four (`1-robot`, `4-robots`); elevators of four floors with five pairs and
their extended seven (`5-pairs`, `7-pairs`); burrows of the real kind, depth 2 and 4
(`depth-2`, `depth-4`).  On each instance, in one run, the program and the built-in
formulation (default the puzzle's fastest, `Puzzle.reference`) each run `--repeat` times, alternately, every
run in its own process under the same limits, as ``crosscheck compare`` runs them
(`benchmarks.timing.Timer.isolated`; ``--warmups`` does not apply).

Printed per variant and runner: how many runs gave an answer, the median and maximum over
instances of each instance's median over repetitions of wall seconds (the run's own: for
the program, from its start to its exit, its start-up included) and CPU seconds (user +
system of the run's processes, the program's included, and on both sides the harness's
reading of the instance and checking of the plan: a few hundredths of a second), with a run
that gave no answer counted as infinite; and
the ratio program / built-in of each.  Then the program's answers judged against the
built-in's: its optimum proven with a plan the puzzle's checker accepted, or its proof of
infeasibility (the program's plan, if it prints one, is checked too).  Nobody is assumed
right: a difference is printed loudly, and a checked plan of the program's that beats the
built-in's proven optimum says the built-in is wrong.  Exit status 1 on a difference, 3 when
a run crashed (and nothing differs), else 0.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from crosscheck.harness.judging.pairs import answer_of
from crosscheck.harness.records.record import RunRecord
from crosscheck.harness.runs.external import External
from crosscheck.models.answers import ExactAnswer, NoSolution, Optimum
from crosscheck.models.puzzle import Puzzle
from crosscheck.models.registry import get_puzzle, puzzles
from crosscheck.solvers.base import Status
from crosscheck.solvers.registry import get_solver

from benchmarks.targets import figure
from benchmarks.timing import Timer, add_options


def shaped_puzzles() -> dict[str, Puzzle]:
    """The puzzles a program can be timed on: those with real-size shapes and a reference formulation."""
    return {name: puzzle for name, puzzle in sorted(puzzles().items()) if puzzle.real_shapes and puzzle.reference}


AGREE, DIFFER, NO_ANSWER, UNJUDGED = "agree", "differ", "no answer", "unjudged"
JUDGEMENTS = (AGREE, DIFFER, NO_ANSWER, UNJUDGED)
CRASHES = (Status.ERROR, Status.MEMOUT)


@dataclass(frozen=True)
class Finding:
    """One instance's judgement of the program's answer, and why."""

    kind: str
    why: str


@dataclass
class Tally:
    """One variant's figures: per runner, each instance's timings; the judgements."""

    seconds: dict[str, list[tuple[float, float]]] = field(default_factory=dict)  # runner -> (wall, cpu) per instance
    answered: dict[str, int] = field(default_factory=dict)
    judged: list[Finding] = field(default_factory=list)
    crashed: int = 0


def reference(records: Sequence[RunRecord], solver: str) -> tuple[ExactAnswer | None, str]:
    """The built-in's exact answer over its repetitions (`answer_of`: an optimum with a plan
    the checker accepted, or a proof of infeasibility), or None and why it is not known."""
    answers = {answer for answer in map(answer_of, records) if answer is not None}
    rejected = [r.plan_error for r in records if r.plan_valid is False]
    if rejected:
        return None, f"{solver}'s own plan was rejected by the checker: {rejected[0]}"
    if len(answers) != 1:
        why = "its repetitions disagree" if answers else f"no exact answer ({records[-1].status.value})"
        return None, f"{solver}: {why}"
    return answers.pop(), ""


def show(answer: ExactAnswer) -> str:
    return "no solution" if isinstance(answer, NoSolution) else str(answer)


def judge_one(record: RunRecord, proven: ExactAnswer, solver: str) -> Finding:
    """The program's run `record` against the built-in `solver`'s exact answer `proven`
    (the program's claim counts unless the checker rejected its plan: `answer_of`)."""
    name = record.solver
    if record.plan_valid is False:
        return Finding(DIFFER, f"{name}'s plan is rejected by the checker: {record.plan_error}")
    claimed = answer_of(record)
    if claimed is None:
        return Finding(NO_ANSWER, f"{name}: {record.status.value}: {record.message.strip()[:200]}")
    if claimed == proven:
        return Finding(AGREE, f"both {show(proven)}")
    why = f"{name} claims {show(claimed)}, {solver} proved {show(proven)} (checked)"
    beats = isinstance(proven, NoSolution) or (isinstance(claimed, Optimum) and claimed.cost < proven.cost)
    if record.plan_valid and beats:
        why += f"; {name}'s plan checks, so {solver} is wrong"
    return Finding(DIFFER, why)


def judge(external: Sequence[RunRecord], builtin: Sequence[RunRecord], solver: str) -> Finding:
    """One instance: the worst judgement over the program's repetitions (differ, no answer,
    agree), or unjudged when the built-in has no checked exact answer."""
    proven, why = reference(builtin, solver)
    if proven is None:
        return Finding(UNJUDGED, why)
    judged = [judge_one(record, proven, solver) for record in external]
    return next((j for kind in (DIFFER, NO_ANSWER) for j in judged if j.kind == kind), judged[-1])


def timings(records: Sequence[RunRecord]) -> tuple[float, float]:
    """(wall, CPU) seconds of one instance: medians over its repetitions, a run without an
    answer counted as infinite."""
    def value(record: RunRecord, seconds: float | None) -> float:
        answered = record.status in (Status.OPTIMAL, Status.INFEASIBLE) and seconds is not None
        return seconds if answered and seconds is not None else math.inf
    return (statistics.median(value(r, r.seconds) for r in records),
            statistics.median(value(r, r.cpu_seconds) for r in records))


def outcome(records: Sequence[RunRecord]) -> str:
    """The last repetition's answer and the instance's median seconds, for a progress line."""
    record, (wall, cpu) = records[-1], timings(records)
    answer = f" {record.cost}" if record.status is Status.OPTIMAL else ""
    return f"{record.solver}: {record.status.value}{answer}, {figure(wall)} s wall, {figure(cpu)} s cpu"


def run_variant(timer: Timer, args: argparse.Namespace, program: External, variant: str) -> Tally:
    """Both runners on every seed of `variant`, one progress line per instance."""
    tally = Tally()
    for seed in range(args.seeds):
        puzzle = get_puzzle(args.puzzle)
        instance = puzzle.shaped(puzzle.real_shapes[variant], seed)
        runs = {name: timer.isolated(name, instance, args.time_limit, args.memory_limit, variant, command)
                for name, command in ((program.name, program.command), (args.solver, None))}
        for name, records in runs.items():
            tally.seconds.setdefault(name, []).append(timings(records))
            tally.answered[name] = tally.answered.get(name, 0) + sum(
                r.status in (Status.OPTIMAL, Status.INFEASIBLE) for r in records)
            tally.crashed += sum(r.status in CRASHES for r in records)
        judged = judge(runs[program.name], runs[args.solver], args.solver)
        tally.judged.append(Finding(judged.kind, f"{variant} seed {seed} ({instance.name}): {judged.why}"))
        loud = f"DIFFERS: {judged.why}" if judged.kind == DIFFER else judged.kind
        print(f"  {variant} seed {seed}: {outcome(runs[program.name])} | {outcome(runs[args.solver])} | {loud}",
              flush=True)
    return tally


def ratio(external: float, builtin: float) -> str:
    if not (math.isfinite(external) and math.isfinite(builtin)) or builtin <= 0:
        return "none"
    return figure(external / builtin)


def print_times(tallies: dict[str, Tally], program: str, solver: str, runs: int) -> None:
    """Per variant, a row per runner (answered runs, median and max wall and CPU seconds)
    and a row of ratios program / built-in."""
    width = max(len(program), len(solver), len("ratio")) + 2
    print(f"\n{'variant':10}{'runner':{width}}{'answered':>9}{'median wall s':>15}{'max wall s':>12}"
          f"{'median cpu s':>14}{'max cpu s':>11}")
    for variant, tally in tallies.items():
        figures = {}
        for name in (program, solver):
            walls, cpus = zip(*tally.seconds[name], strict=True)
            figures[name] = (statistics.median(walls), max(walls), statistics.median(cpus), max(cpus))
            print(f"{variant:10}{name:{width}}{f'{tally.answered[name]}/{runs}':>9}{figure(figures[name][0]):>15}"
                  f"{figure(figures[name][1]):>12}{figure(figures[name][2]):>14}{figure(figures[name][3]):>11}")
        ratios = [ratio(mine, theirs) for mine, theirs in zip(figures[program], figures[solver], strict=True)]
        print(f"{variant:10}{'ratio':{width}}{'':>9}{ratios[0]:>15}{ratios[1]:>12}{ratios[2]:>14}{ratios[3]:>11}")


def print_answers(tallies: dict[str, Tally], program: str, solver: str) -> list[Finding]:
    """Per variant, how many instances agree, differ, got no answer from the program, or could
    not be judged; then every difference, loudly.  Returns the differences."""
    print(f"\n{program}'s answers against {solver}'s checked ones, instances:")
    print(f"{'variant':10}" + "".join(f"{kind:>11}" for kind in JUDGEMENTS))
    for variant, tally in tallies.items():
        print(f"{variant:10}" + "".join(f"{sum(j.kind == kind for j in tally.judged):>11}" for kind in JUDGEMENTS))
    unclear = [j for tally in tallies.values() for j in tally.judged if j.kind in (NO_ANSWER, UNJUDGED)]
    for judged in unclear:
        print(f"  {judged.kind}: {judged.why}")
    differences = [j for tally in tallies.values() for j in tally.judged if j.kind == DIFFER]
    if differences:
        print(f"\n!!! {len(differences)} ANSWER(S) DIFFER !!!")
        for judged in differences:
            print(f"!!! DIFFERS: {judged.why}")
    return differences


def parse_args(argv: Sequence[str] | None) -> tuple[argparse.Namespace, External]:
    """The options, checked: the program, the variants and the built-in formulation."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    shaped = shaped_puzzles()
    parser.add_argument("--puzzle", required=True, choices=sorted(shaped), help="the puzzle your program solves")
    parser.add_argument("--external", required=True, metavar="[PUZZLE:]NAME='COMMAND {path}'",
                        help="your program, as to crosscheck compare --external")
    parser.add_argument("--seeds", type=int, default=5, help="instances per variant (seeds 0..N-1)")
    parser.add_argument("--variant", action="append", help="a variant to run (repeatable; default every one: "
                        + "; ".join(f"{name}: {', '.join(p.real_shapes)}" for name, p in shaped.items()) + ")")
    parser.add_argument("--solver", help="the built-in formulation (default: the puzzle's fastest)")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per run, on --clock's clock")
    parser.add_argument("--memory-limit", type=int, default=8192, help="MB of address space per run")
    add_options(parser)
    args = parser.parse_args(argv)
    try:
        program = External.parse(args.external)
    except ValueError as error:
        parser.error(f"--external: {error}")
    if not program.applies_to(args.puzzle):
        parser.error(f"--external {program.puzzle}:{program.name} is for {program.puzzle}, not {args.puzzle}")
    variants = shaped[args.puzzle].real_shapes
    args.solver = args.solver or shaped[args.puzzle].reference
    try:
        solver_puzzle = get_solver(args.solver).puzzle
    except KeyError as error:
        parser.error(f"--solver: {error}")
    if solver_puzzle != args.puzzle or program.name == args.solver:
        parser.error(f"--solver {args.solver} must be a built-in {args.puzzle} formulation other than the program")
    unknown = sorted(set(args.variant or ()) - set(variants))
    if unknown or args.seeds < 1:
        parser.error(f"need --seeds >= 1 and variants among {', '.join(variants)}, got {unknown}")
    args.variant = args.variant or list(variants)
    return args, program


def main(argv: Sequence[str] | None = None) -> int:
    args, program = parse_args(argv)
    timer = Timer.from_args(args)
    print(f"side by side on {args.puzzle}: {program.name} ({program.command}) against {args.solver}")
    print(f"seeds 0..{args.seeds - 1} per variant, {timer.repeat} run(s) of each, each in its own process; "
          f"limits {args.time_limit:g} s {timer.clock}, {args.memory_limit} MB; "
          f"load average {os.getloadavg()[0]:.1f} at the start", flush=True)
    tallies = {variant: run_variant(timer, args, program, variant) for variant in args.variant}
    print_times(tallies, program.name, args.solver, args.seeds * timer.repeat)
    differences = print_answers(tallies, program.name, args.solver)
    crashed = sum(tally.crashed for tally in tallies.values())
    if crashed:
        print(f"{crashed} run(s) crashed (error or memout): see the lines above", file=sys.stderr)
    if differences:
        print(f"{len(differences)} answer(s) of {program.name} differ from {args.solver}'s", file=sys.stderr)
    timer.save()
    return 1 if differences else 3 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
