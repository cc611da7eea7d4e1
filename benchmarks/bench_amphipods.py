"""Amphipod timings: ``python -m benchmarks.bench_amphipods [--search N] [--cpsat N] [--stops N] [--steps]
[--steps-everywhere] [--warmups W --repeat R --save FILE.json]``.

Times are each burrow's median over repetitions (`benchmarks.timing`).

Targets (issue 10): ``amphipods-stops`` (and ideally the literal ``amphipods-steps``)
proves every real-kind depth-4 burrow, solvable or not, within 60 s, median at most
15 s.  ``--stops N`` runs it on the first N seeds, each solve isolated by the harness
(its own process: wall and CPU seconds, peak memory, plan replayed; `Timer.isolated`:
``--repeat`` runs each, no warm-up, figures are medians over them), next to
``amphipods-search`` in the same run, and ``--steps`` adds ``amphipods-steps``.

Targets (issue 27): ``amphipods-steps`` proves every burrow of ``instances/amphipods/``,
depth 4 included, within 60 CPU s and 8 GB each.  ``--steps-everywhere`` runs it on each
burrow there, isolated (`Timer.isolated` with ``--clock cpu``: the limit and the figures are
CPU seconds, and each run's peak memory), prints one line per burrow and states both
targets; it runs nothing else.

Targets (issues 3 and 14): ``amphipods-search`` median at most 0.5 s on depth-2 and
0.2 s (max 0.5 s) on depth-4 burrows of the real kind; ``amphipods-cpsat`` proves optimality within 60 s on
depth 4 (or reports its bound).  Real-kind depth-4 burrows without any solution are
timed separately (real puzzle inputs always have one).
"""

from __future__ import annotations

import argparse
import math
import statistics
from pathlib import Path

from crosscheck.harness.records.record import RunRecord
from crosscheck.harness.reports.numbers import significant
from crosscheck.models.amphipods.model import Burrow, generate, parse
from crosscheck.solvers.amphipods.cpsat import AmphipodsCpsat
from crosscheck.solvers.amphipods.search import AmphipodsSearch
from crosscheck.solvers.base import Solver, Status

from benchmarks.targets import report
from benchmarks.timing import Timed, Timer, add_options

EXAMPLES = Path(__file__).resolve().parent.parent / "instances" / "amphipods"
TARGETS = {2: 0.5, 4: 0.2}  # issue 14: depth 4 median at most 0.2 s (max at most 0.5 s)
CPSAT_LIMIT = 60.0
REAL_SIZE_LIMIT = 60.0
MEMORY_LIMIT_MB = 8192


def run(timer: Timer, solver: Solver, burrows: list[Burrow], limit: float) -> list[Timed]:
    return [timer.solve(solver, burrow, limit) for burrow in burrows]


def describe(timings: list[Timed]) -> str:
    times = [t.median for t in timings]
    statuses = ", ".join(f"{status}: {sum(t.result.status == status for t in timings)}" for status in Status
                         if any(t.result.status == status for t in timings))
    return f"median {significant(statistics.median(times))} s, max {significant(max(times))} s ({statuses})"


def isolated(timer: Timer, solver: str, burrows: list[Burrow]) -> list[RunRecord]:
    """Each burrow solved by `solver` in its own process, as ``crosscheck compare`` runs it
    (medians over the timer's repetitions)."""
    records = []
    for burrow in burrows:
        runs = timer.isolated(solver, burrow, REAL_SIZE_LIMIT, MEMORY_LIMIT_MB, "real-size")
        for run in runs:
            assert run.plan_valid is not False, f"{solver} on {burrow.name}: {run.plan_error}"
        record = Timer.median_record(runs)
        records.append(record)
        print(f"  {burrow.name:22} {solver:16} {record.status:10} cost {record.cost} "
              f"wall {significant(record.seconds):>6} s cpu {significant(record.cpu_seconds or 0):>6} s "
              f"peak {record.peak_memory_mb or 0:5.0f} MB "
              f"{record.stats.get('expanded')} expanded, {record.stats.get('stacks', '-')} stacks")
    return records


def real_size(timer: Timer, seeds: int, solvers: list[str]) -> None:
    """The issue-10 figures: each of `solvers` on real-kind depth-4 burrows, solvable and not."""
    burrows = [generate(seed, depth=4, style="real") for seed in range(seeds)]
    runs = {solver: isolated(timer, solver, burrows) for solver in solvers}
    search = runs["amphipods-search"]
    for label, solvable in (("solvable", True), ("without solution", False)):
        chosen = [i for i, r in enumerate(search) if (r.status is Status.OPTIMAL) == solvable]
        if not chosen:
            continue
        base = statistics.median(search[i].cpu_seconds or 0 for i in chosen)
        for solver, records in runs.items():
            picked = [records[i] for i in chosen]
            wall, cpu = [r.seconds for r in picked], [r.cpu_seconds or 0 for r in picked]
            proved = sum(r.status in (Status.OPTIMAL, Status.INFEASIBLE) for r in picked)
            print(f"{solver}, real kind, depth 4, {label}: proved {proved}/{len(picked)} within "
                  f"{REAL_SIZE_LIMIT:.0f} s; "
                  f"wall median {significant(statistics.median(wall))} max {significant(max(wall))} s; "
                  f"cpu median {significant(statistics.median(cpu))} max {significant(max(cpu))} s; "
                  f"peak {max(r.peak_memory_mb or 0 for r in picked):.0f} MB; "
                  f"median cpu / amphipods-search's {significant(statistics.median(cpu) / max(base, 1e-9))}")


def steps_everywhere(timer: Timer) -> None:
    """The issue-27 targets: amphipods-steps on every burrow of instances/amphipods/."""
    paths = sorted(EXAMPLES.rglob("*.txt"))
    burrows = [parse(path.read_text(encoding="utf-8"), path.stem) for path in paths]
    print(f"amphipods-steps on every burrow of {EXAMPLES.name}/ ({len(burrows)}; "
          f"limit {REAL_SIZE_LIMIT:.0f} s on the {timer.clock} clock, {MEMORY_LIMIT_MB} MB):")
    records = isolated(timer, "amphipods-steps", burrows)
    proved = [r.status in (Status.OPTIMAL, Status.INFEASIBLE) for r in records]
    report("amphipods-steps proves every burrow (CPU s)",
           [r.cpu_seconds or 0.0 if ok else math.inf for r, ok in zip(records, proved, strict=True)],
           max_limit=REAL_SIZE_LIMIT)
    report("amphipods-steps peak memory (MB)",
           [r.peak_memory_mb if r.peak_memory_mb is not None and r.status is not Status.MEMOUT else math.inf
            for r in records], unit="MB", max_limit=MEMORY_LIMIT_MB)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--search", type=int, default=20, help="real-kind burrows per depth for the search")
    parser.add_argument("--cpsat", type=int, default=5, help="solvable real-kind depth-4 burrows for CP-SAT")
    parser.add_argument("--stops", type=int, default=10, help="real-kind depth-4 burrows for amphipods-stops")
    parser.add_argument("--steps", action="store_true", help="run amphipods-steps on them too (60 s each)")
    parser.add_argument("--steps-everywhere", action="store_true",
                        help="only amphipods-steps on every burrow of instances/amphipods/ (issue 27)")
    add_options(parser)
    args = parser.parse_args()
    timer = Timer.from_args(args)
    if args.steps_everywhere:
        steps_everywhere(timer)
        timer.save()
        return
    if args.stops:
        real_size(timer, args.stops, ["amphipods-search", "amphipods-stops"] + ["amphipods-steps"] * args.steps)

    examples = [parse(path.read_text(encoding="utf-8"), path.name) for path in sorted(EXAMPLES.glob("depth*.txt"))]
    print("amphipods-search on the published examples:")
    for burrow, timed in zip(examples, run(timer, AmphipodsSearch(), examples, 60), strict=True):
        print(f"  {burrow.name:16} {timed.result.status:8} {timed.result.cost} in {significant(timed.median)} s, "
              f"{timed.result.stats['expanded']} expanded")

    solvable: list[Burrow] = []
    for depth, target in TARGETS.items():
        burrows = [generate(seed, depth=depth, style="real") for seed in range(args.search)]
        results = run(timer, AmphipodsSearch(), burrows, 60)
        solved = [t for t in results if t.result.status is Status.OPTIMAL]
        unsolvable = [t for t in results if t.result.status is Status.INFEASIBLE]
        median = statistics.median(t.median for t in solved)
        print(f"amphipods-search, real kind, depth {depth}: solvable {describe(solved)}; "
              f"ratio to the {target} s target {significant(median / target)}")
        if unsolvable:
            print(f"  without solution: {describe(unsolvable)}")
        if depth == 4:
            solvable = [b for b, t in zip(burrows, results, strict=True) if t.result.status is Status.OPTIMAL]

    if args.cpsat:
        cpsat = run(timer, AmphipodsCpsat(), solvable[:args.cpsat], CPSAT_LIMIT)
        print(f"amphipods-cpsat, solvable real-kind depth 4 ({len(cpsat)}, limit {CPSAT_LIMIT:.0f} s): "
              f"{describe(cpsat)}")
        for timed in cpsat:
            result = timed.result
            print(f"  {result.instance:22} {result.status:8} cost {result.cost} bound {result.bound} "
                  f"in {significant(timed.median)} s, {result.stats.get('conflicts')} conflicts")
    timer.save()


if __name__ == "__main__":
    main()
