"""Which instance sizes Fast Downward's A* solves within a time limit, per puzzle.

Run as ``python -m benchmarks.bench_planner [--time-limit 60] [--seeds 3] [--puzzle keys]
[--heuristic lmcut] [--warmups W --repeat R --save FILE.json]`` (needs the ``planners`` extra; defaults here:
no warm-up, one repetition, as the ladder is long; times are each instance's median over
repetitions, `benchmarks.timing`).  For each size of a ladder of seeded generated
instances it prints how many seeds were solved (optimal or proven infeasible) and the
median time over all seeds (a timeout counts as the limit); a ladder stops after the
first size where no seed is solved.  Plans are replayed by the puzzle's checker.
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

from crosscheck.harness.reports.numbers import significant
from crosscheck.models.registry import puzzles
from crosscheck.solvers.base import Status
from crosscheck.solvers.engines.downward import HEURISTICS
from crosscheck.solvers.registry import get_solver

from benchmarks.timing import Timer, add_options

#: (label, generator parameters) from small to large, per puzzle.
LADDERS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "keys": [(f"{size}x{size}, {keys} keys, {robots} robot(s)",
              {"size": size, "keys": keys, "loops": 2, "robots": robots})
             for robots in (1, 4)
             for size, keys in ((9, 4), (13, 6), (17, 8), (17, 10), (21, 12), (25, 14), (41, 16), (81, 26))],
    "amphipods": [("depth 1", {"depth": 1}), ("depth 2", {"depth": 2}), ("depth 2 real", {"depth": 2, "style": "real"}),
                  ("depth 3", {"depth": 3}), ("depth 4 real", {"depth": 4, "style": "real"})],
    "elevator": [(f"{pairs} pairs, 4 floors", {"pairs": pairs, "floors": 4}) for pairs in (2, 3, 4, 5, 6, 7)],
}
SOLVER = {"keys": "keys-fd", "amphipods": "amphipods-fd", "elevator": "elevator-fd"}


def run(timer: Timer, puzzle: str, seeds: int, limit: float, heuristic: str | None) -> None:
    model = puzzles()[puzzle]
    solver = get_solver(SOLVER[puzzle] if heuristic is None else f"{SOLVER[puzzle]}[heuristic={heuristic}]")
    print(f"\n{puzzle} ({solver.name}, limit {limit:g} s, seeds 0-{seeds - 1})")
    print(f"{'size':<32} {'solved':>7} {'median s':>9} {'max solved s':>13}")
    stopped: set[str] = set()
    for label, params in LADDERS[puzzle]:
        family = label.split(", ")[-1] if puzzle == "keys" else ""
        if family in stopped:
            continue
        times, solved = [], []
        for seed in range(seeds):
            instance = model.generate(seed, **params)
            timed = timer.solve(solver, instance, limit, puzzle)
            result, seconds = timed.result, timed.median
            if result.status is Status.ERROR:
                raise RuntimeError(f"{instance.name}: {result.message}")
            if result.plan is not None:
                assert model.check_plan(instance, result.plan) == result.cost, instance.name
            exact = result.status in (Status.OPTIMAL, Status.INFEASIBLE)
            times.append(seconds if exact else limit)
            solved += [seconds] if exact else []
        most = significant(max(solved)) if solved else "-"
        median = significant(statistics.median(times))
        print(f"{label:<32} {len(solved):>3}/{seeds:<3} {median:>9} {most:>13}", flush=True)
        if not solved:
            stopped.add(family)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per solve")
    parser.add_argument("--seeds", type=int, default=3, help="generated instances per size (seeds 0..N-1)")
    parser.add_argument("--puzzle", choices=sorted(LADDERS), action="append",
                        help="a puzzle whose ladder runs (repeatable; default every one)")
    parser.add_argument("--heuristic", choices=sorted(HEURISTICS),
                        help="A*'s heuristic (the formulations' option; default: their own default)")
    add_options(parser)
    parser.set_defaults(warmups=0, repeat=1)
    arguments = parser.parse_args()
    timer = Timer.from_args(arguments)
    for puzzle in arguments.puzzle or sorted(LADDERS):
        if puzzle in puzzles():
            run(timer, puzzle, arguments.seeds, arguments.time_limit, arguments.heuristic)
        else:
            print(f"\n{puzzle}: model not available in this checkout")
    timer.save()


if __name__ == "__main__":
    main()
