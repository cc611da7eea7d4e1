"""How often a drawn facility exposes each planted elevator mistake, and at what cost.

Run as ``python -m benchmarks.bench_exposure [--draws N] [--time-limit S] [-p NAME=LOW-HIGH ...]``.
Draws `--draws` facilities from the hunt's strategy (`Puzzle.strategy`,
derandomized, so a run repeats its draws until the strategy changes), solves each
in-process with elevator-quotient and with each planted mistake of
planted/hunt_solvers.py (`--time-limit` CPU seconds per solve), and prints how many
facilities started safe (with three pairs or more), how many exposed each mistake (a
status or cost other than the reference's, or a plan the puzzle's checker refuses), how
many solves timed out, and the CPU seconds the solves took.  Exposures per draw measure a
strategy apart from process start-up and machine load, which dominate a hunt's seconds
(`benchmarks.bench_hunt` measures those).  Not a timed test.
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections import Counter

from crosscheck.harness.reports.numbers import significant
from crosscheck.models.base import InvalidPlan
from crosscheck.models.elevator import PUZZLE
from crosscheck.models.elevator import model as elevator
from crosscheck.models.puzzle import parse_ranges
from crosscheck.solvers.base import Result, Solver, Status
from crosscheck.solvers.registry import get_solver
from hypothesis import HealthCheck, Phase, given, settings

from planted.hunt_solvers import ElevatorLeftFloor, ElevatorNoDown2

#: The planted mistakes, each by the name it has in the hunt benchmark.
MISTAKES: tuple[Solver, ...] = (ElevatorNoDown2(), ElevatorLeftFloor())


def exposed(facility: elevator.Facility, reference: Result, planted: Result) -> bool:
    """Does the planted result differ from the reference's exact one, or its plan fail?"""
    if planted.status is Status.TIMEOUT:
        return False
    if (planted.status, planted.cost) != (reference.status, reference.cost):
        return True
    if planted.status is not Status.OPTIMAL:
        return False
    try:
        elevator.check_plan(facility, planted.plan or [])
    except InvalidPlan:
        return True
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=400, help="facilities drawn from the hunt's strategy")
    parser.add_argument("--time-limit", type=float, default=3.0, help="CPU seconds per solve")
    parser.add_argument("-p", "--param", action="append", default=[], metavar="NAME=LOW-HIGH",
                        help="a range of the drawn facilities' parameter NAME, as hunt -p (repeatable)")
    args = parser.parse_args()
    reference = get_solver("elevator-quotient")
    counts: Counter[str] = Counter()
    seconds = 0.0

    @settings(max_examples=args.draws, deadline=None, database=None, phases=[Phase.generate], derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(PUZZLE.strategy(parse_ranges(args.param)))
    def judge(facility: elevator.Facility) -> None:
        nonlocal seconds
        started = time.process_time()
        counts["drawn"] += 1
        counts["safe, 3+ pairs"] += elevator.all_safe(facility.chips, facility.generators) and len(facility.elements) >= 3
        exact = reference.solve(facility, args.time_limit, "cpu")
        if exact.status in (Status.OPTIMAL, Status.INFEASIBLE):
            for mistake in MISTAKES:
                planted = mistake.solve(facility, args.time_limit, "cpu")
                counts["timeouts"] += planted.status is Status.TIMEOUT
                counts[mistake.name] += exposed(facility, exact, planted)
        seconds += time.process_time() - started

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Hypothesis warns about derandomize outside a test
        judge()
    print(f"{counts['drawn']} facilities drawn, {args.time_limit:g} CPU s per solve")
    for key in ("safe, 3+ pairs", *(mistake.name for mistake in MISTAKES), "timeouts"):
        print(f"{key:<22} {counts[key]:>5}")
    print(f"{'CPU seconds':<22} {significant(seconds):>7}")


if __name__ == "__main__":
    main()
