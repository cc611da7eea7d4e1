"""Side by side with a compiled reference: per input file and part, its time and crosscheck's.

Run as ``python -m benchmarks.bench_reference FOLDER --part1 'COMMAND {path}' [--part2 'COMMAND
{path}'] [--env NAME=VALUE ...] [--solver NAME] [--repeat N] [--time-limit S]``.  For example,
with the Rust solutions of ``../shared/reference-rust`` on generated burrows::

    crosscheck generate amphipods -p style=real --published-shape --count 5 -o burrows
    python -m benchmarks.bench_reference burrows --env MEA_TIMING=1 \\
        --part1 'mea amphi {path}' --part2 'mea amphi-deep {path}'

FOLDER holds instance files (``*.txt``) of one puzzle.  Part 1 is each file as it is, part 2
its variant (`crosscheck.models.puzzle.Puzzle.variant`: the program is given the file as it is
and its own part-2 command, crosscheck ``solve --variant``).  Per file and part, in one run,
`--repeat` times alternately:

- the program, in a process of its own with `--env` added: its process wall, and its own
  in-process seconds when it prints a line matching `--seconds` on standard error
  (``mea-seconds: S`` with ``MEA_TIMING=1``); its answer is read as ``crosscheck compare
  --external`` reads it (`crosscheck.harness.runs.external.read_claim`);
- ``crosscheck solve FILE --solver NAME [--variant] --out RECORDS``: the formulation's own
  ``seconds`` from its record, and the command's wall end to end (start-up, parse, run, plan
  check, report).  A lone ``solve`` loads no compiled kernel (`Solver.warm_up_pays_alone`);
- the formulation in this process after its `Solver.warm_up`, as the forked runs of ``compare``
  and ``hunt`` run it: its own ``seconds`` (its plan checked by the puzzle's checker).

Printed per file and part: the medians of each, the ratios crosscheck / program of the warm
and of the lone solver seconds to the program's in-process seconds (its process wall where it
prints none), and of wall to wall, and whether the answers agree (the program's answer is a
claim; crosscheck's is a proven optimum with a checked plan, or a proof of infeasibility).
Then per part the median and largest ratios over files.  Exit status 1 when some answer differs, else 0.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from crosscheck.harness.records.record import RunRecord, read_records
from crosscheck.harness.runs.external import Claim, read_claim
from crosscheck.models.base import InvalidPlan
from crosscheck.models.puzzle import Puzzle
from crosscheck.models.registry import detect_puzzle, get_puzzle
from crosscheck.solvers.base import Solver, Status
from crosscheck.solvers.registry import get_solver

from benchmarks.inputs import read_text, refuse
from benchmarks.targets import figure

#: The default pattern of a program's own seconds on its standard error (first group: seconds).
SECONDS_LINE = r"seconds:\s*([0-9.eE+-]+)\s*$"
PARTS = ("part 1", "part 2")
NO_ANSWER = "no answer"


@dataclass(frozen=True)
class ProgramRun:
    """One run of the program: process wall, in-process seconds (None when it printed none), answer."""

    wall: float
    own: float | None
    answer: str


@dataclass(frozen=True)
class SolveRun:
    """One ``crosscheck solve``: its wall end to end, the formulation's seconds, its answer."""

    wall: float
    seconds: float | None
    answer: str


@dataclass
class Row:
    """One file and part: every repetition of both sides (`warm`: the formulation's seconds in
    this process after its warm-up, as in the forked runs of ``compare``)."""

    name: str
    part: str
    program: list[ProgramRun]
    solve: list[SolveRun]
    warm: list[SolveRun]


def claimed(claim: Claim) -> str:
    """A program's claim as an answer to compare: the cost, ``infeasible``, or why there is none."""
    if claim.cost is not None:
        return str(claim.cost)
    return "infeasible" if claim.infeasible else f"{NO_ANSWER} ({claim.message.strip()[:80]})"


def proven(record: RunRecord) -> str:
    """crosscheck's answer in a record: an optimum with a checked plan, a proof of infeasibility,
    or its status when it is neither."""
    if record.status is Status.OPTIMAL and record.plan_valid:
        return str(record.cost)
    if record.status is Status.INFEASIBLE:
        return "infeasible"
    return f"{NO_ANSWER} ({record.status.value})"


def run_program(command: str, path: Path, env: dict[str, str], seconds: re.Pattern[str], limit: float) -> ProgramRun:
    """The program `command` on `path` (``{path}`` replaced), timed from outside and as it says."""
    argv = [part.replace("{path}", str(path)) for part in shlex.split(command)]
    start = time.perf_counter()
    try:
        done = subprocess.run(argv, capture_output=True, timeout=limit, check=False, env=os.environ | env)
    except subprocess.TimeoutExpired:
        return ProgramRun(time.perf_counter() - start, None, f"{NO_ANSWER} (time limit)")
    wall = time.perf_counter() - start
    stderr = done.stderr.decode("utf-8", errors="replace")
    own = [float(match.group(1)) for line in stderr.splitlines() if (match := seconds.search(line))]
    if done.returncode != 0:
        said = [line for line in stderr.strip().splitlines() if not seconds.search(line)]
        tail = said[-1:] or [f"exit status {done.returncode}"]
        return ProgramRun(wall, None, f"{NO_ANSWER} ({tail[0][:80]})")
    answer = claimed(read_claim(done.stdout.decode("utf-8", errors="replace"), argv[0]))
    return ProgramRun(wall, own[-1] if own else None, answer)


def run_solve(path: Path, solver: str, variant: bool, limit: float) -> SolveRun:
    """``crosscheck solve`` of `path` with `solver` (its variant if `variant`), in a process of its own."""
    with tempfile.TemporaryDirectory(prefix="bench-reference-") as folder:
        out = Path(folder) / "records.jsonl"
        argv = [sys.executable, "-m", "crosscheck", "solve", str(path), "--solver", solver, "--out", str(out),
                "--time-limit", f"{limit:g}", "--format", "csv", *(["--variant"] if variant else [])]
        start = time.perf_counter()
        subprocess.run(argv, capture_output=True, check=False)
        wall = time.perf_counter() - start
        records = [r for r in read_records(out) if r.solver == solver] if out.exists() else []
    if not records:
        return SolveRun(wall, None, f"{NO_ANSWER} (no record)")
    return SolveRun(wall, records[0].seconds, proven(records[0]))


def run_warm(solver: Solver, instance: object) -> SolveRun:
    """The formulation run in this process, warmed up (`Solver.warm_up`) as ``compare``'s runs are;
    its plan is checked by the puzzle's checker before its optimum counts."""
    start = time.perf_counter()
    result = solver.solve(instance)
    wall = time.perf_counter() - start
    if result.status is Status.OPTIMAL:
        try:
            valid = get_puzzle(solver.puzzle).check_plan(instance, result.plan or []) == result.cost
        except InvalidPlan:
            valid = False
        answer = str(result.cost) if valid else f"{NO_ANSWER} (plan rejected)"
    else:
        answer = "infeasible" if result.status is Status.INFEASIBLE else f"{NO_ANSWER} ({result.status.value})"
    return SolveRun(wall, result.seconds, answer)


def median(values: Sequence[float | None]) -> float | None:
    """The median of the values, or None when any is missing."""
    known = [value for value in values if value is not None]
    return statistics.median(known) if known and len(known) == len(values) else None


def ratio(mine: float | None, theirs: float | None) -> float | None:
    return mine / theirs if mine is not None and theirs else None


def shown(value: float | None, unit: str = "") -> str:
    return "-" if value is None else f"{figure(value)}{unit}"


def row_figures(row: Row) -> tuple[float | None, ...]:
    """(program in-process or wall, program wall, warm solver seconds, solve's solver seconds, solve
    wall, warm solver ratio, solve's solver ratio, wall ratio); a side's figures are None where
    one of its runs gave no answer."""
    answered = all(exact(run.answer) for run in row.program)
    program_wall = median([run.wall if answered else None for run in row.program])
    own = median([run.own if answered else None for run in row.program])
    reference = own if own is not None else program_wall
    solved = all(exact(run.answer) for run in row.solve + row.warm)
    warm = median([run.seconds if solved else None for run in row.warm])
    solver = median([run.seconds if solved else None for run in row.solve])
    wall = median([run.wall if solved else None for run in row.solve])
    return (reference, program_wall, warm, solver, wall, ratio(warm, reference), ratio(solver, reference),
            ratio(wall, program_wall))


def exact(answer: str) -> bool:
    return not answer.startswith(NO_ANSWER)


def verdict(row: Row) -> str:
    """``agree`` when every repetition of both sides gave the same answer; ``DIFFER`` when two
    answers contradict each other; else which side gave no answer."""
    program = {run.answer for run in row.program}
    mine = {run.answer for run in row.solve + row.warm}
    if len(program | mine) == 1:
        return f"agree ({program.pop()})"
    if len({answer for answer in program | mine if exact(answer)}) > 1:
        return f"DIFFER: program {'/'.join(sorted(program))}, crosscheck {'/'.join(sorted(mine))}"
    side, said = ("program", program) if any(not exact(a) for a in program) else ("crosscheck", mine)
    return f"{side} {'/'.join(sorted(said))}"


HEADER = ("input", "part", "program s", "program wall s", "solver s warm", "solver s in solve", "solve wall s",
          "warm ratio", "solve ratio", "wall ratio", "answers")


def print_table(rows: Sequence[Row]) -> None:
    """One line per file and part, then per part the median and largest ratios."""
    print("| " + " | ".join(HEADER) + " |")
    print("|" + "---|" * len(HEADER))
    for row in rows:
        figures = row_figures(row)
        cells = [row.name, row.part, *(shown(value) for value in figures[:5]),
                 *(shown(value, "x") for value in figures[5:]), verdict(row)]
        print("| " + " | ".join(cells) + " |")
    print()
    for part in PARTS:
        for column, what in ((5, "warm solver / program"), (6, "solver in solve / program"),
                             (7, "solve wall / program wall")):
            ratios = [r for row in rows if row.part == part and (r := row_figures(row)[column]) is not None]
            if ratios:
                print(f"{part}: {what}: median {figure(statistics.median(ratios))}x, largest "
                      f"{figure(max(ratios))}x over {len(ratios)} input(s)")


def measure(args: argparse.Namespace, files: Sequence[Path], puzzle: Puzzle, solver: Solver) -> list[Row]:
    """Every file and part, each side `args.repeat` times alternately; a progress line per row."""
    pattern = re.compile(args.seconds)
    env = dict(args.env)
    rows = []
    for path in files:
        instance = puzzle.parse(read_text(path, "an instance file"), path.name)
        for part, command in zip(PARTS, (args.part1, args.part2), strict=True):
            if command is None:
                continue
            row = Row(path.name, part, [], [], [])
            for _ in range(args.repeat):
                row.program.append(run_program(command, path, env, pattern, args.time_limit))
                row.solve.append(run_solve(path, solver.name, part != PARTS[0], args.time_limit))
                row.warm.append(run_warm(solver, instance if part == PARTS[0] else puzzle.variant(instance)))
            print(f"  {path.name} {part}: {verdict(row)}", file=sys.stderr, flush=True)
            rows.append(row)
    return rows


def environment_pair(text: str) -> tuple[str, str]:
    name, equals, value = text.partition("=")
    if not equals or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name, value


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("folder", type=Path, help="instance files (*.txt) of one puzzle")
    parser.add_argument("--part1", required=True, metavar="'COMMAND {path}'", help="the program on a file as it is")
    parser.add_argument("--part2", metavar="'COMMAND {path}'", help="the program on the file's variant (part two)")
    parser.add_argument("--env", type=environment_pair, action="append", default=[], metavar="NAME=VALUE",
                        help="added to the program's environment (repeatable), e.g. MEA_TIMING=1")
    parser.add_argument("--seconds", default=SECONDS_LINE, help="regular expression of the program's own seconds "
                        "on standard error, its first group the seconds (default %(default)r)")
    parser.add_argument("--solver", help="the formulation (default: the puzzle's fastest, Puzzle.reference)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each side per file and part (medians)")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per run")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    files = sorted(args.folder.glob("*.txt")) if args.folder.is_dir() else []
    if not files:
        refuse(args.folder, "a folder of instance files (*.txt)", "no *.txt file in it")
    puzzle = detect_puzzle(read_text(files[0], "an instance file"), str(files[0]))
    solver = get_solver(args.solver or puzzle.reference)
    type(solver).warm_up()
    print(f"{puzzle.name}: {len(files)} file(s) in {args.folder}; part 1 {args.part1!r}, "
          f"part 2 ({puzzle.variant_name}) "
          f"{args.part2!r}; crosscheck solve --solver {solver.name}; medians of {args.repeat}; load average "
          f"{os.getloadavg()[0]:.1f} at the start", flush=True)
    rows = measure(args, files, puzzle, solver)
    print_table(rows)
    return 1 if any(verdict(row).startswith("DIFFER") for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
