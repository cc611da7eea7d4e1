"""Benchmark keys-cpsat on loopy 81x81 vaults with 26 keys, and on the published `one-robot-4`.

The family (issue 27): ``generate(seed, size=81, keys=26, loops=71, robots=r)`` for r in 1
and 4 (about 76 independent cycles with one robot, 72 with four).  Targets: each vault
proven optimal within 60 s, and `one-robot-4` within 5 s.  Both are stated on the
``--clock`` (the issue's targets are CPU seconds: ``--clock cpu`` counts every CP-SAT
worker thread, and the time limit of each solve counts CPU seconds too).  A run not
proven optimal within its limit counts as ``inf``.  Every plan is replayed by
`crosscheck.models.keys.model.check_plan`.  Prints one line per run, then per robot count the
median time and statuses, and one target line each (`benchmarks.targets.report`).

    python -m benchmarks.bench_keys_cpsat [--seeds 0 1 2 3 4] [--robots 1 4] [--loops 71] [--limit 60]
        [--example instances/keys/one-robot-4.txt] [--clock cpu --warmups W --repeat R --save FILE.json]

Times are each vault's median over repetitions (`benchmarks.timing`).
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections import Counter
from pathlib import Path

from crosscheck.harness.reports.numbers import significant
from crosscheck.models.base import InvalidInstance
from crosscheck.models.keys.model import Vault, check_plan, generate, parse
from crosscheck.solvers.base import Status
from crosscheck.solvers.engines.cpsat import default_workers
from crosscheck.solvers.keys.cpsat import KeysCpsat

from benchmarks.inputs import read_text, refuse
from benchmarks.targets import report
from benchmarks.timing import Timed, Timer, add_options

FAMILY_LIMIT = 60.0  # seconds per family vault (issue 27, item 2)
EXAMPLE_LIMIT = 5.0  # seconds for the published example (issue 27, item 3)
EXAMPLE = Path(__file__).resolve().parent.parent / "instances" / "keys" / "one-robot-4.txt"


def proven_seconds(timed: Timed) -> float:
    """The run's seconds if it proved optimality, else ``inf`` (it did not finish)."""
    return timed.median if timed.result.status is Status.OPTIMAL else math.inf


def timed_run(timer: Timer, solver: KeysCpsat, vault: Vault, limit: float) -> Timed:
    """One timed solve of `vault`, its line printed; a plan that does not replay raises."""
    timed = timer.solve(solver, vault, limit)
    result = timed.result
    if result.plan is not None:
        assert check_plan(vault, result.plan) == result.cost, "plan does not replay"
    gap = "-"
    if result.cost is not None and result.bound is not None:
        gap = f"{(result.cost - result.bound) / max(result.cost, 1):.1%}"
    print(f"  {vault.name:32} {result.status.value:9} cost {result.cost} bound {result.bound} gap {gap}"
          f" {significant(timed.median):>6} s conflicts {result.stats.get('conflicts')}", flush=True)
    return timed


#: What ``--example`` must be.
EXPECTED = "a key vault in the puzzle's text format (instances/keys/one-robot-4.txt), or 'skip'"


def read_vault(path: Path) -> Vault:
    """The vault in the file at `path`; exits 2 with one line naming the file (with the line and
    column the model's parser gives) when it cannot be read or is no vault."""
    text = read_text(path, EXPECTED)
    try:
        return parse(text, str(path))
    except InvalidInstance as error:
        where = "".join(f":{n}" for n in (error.line, error.column) if n is not None)
        refuse(path, EXPECTED, error.reason + (f", expected {error.expected}" if error.expected else ""), where)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4], help="seeds of the family vaults")
    parser.add_argument("--robots", type=int, nargs="+", default=[1, 4], help="robot counts of the family vaults")
    parser.add_argument("--loops", type=int, default=71, help="loops added to each family vault")
    parser.add_argument("--limit", type=float, default=FAMILY_LIMIT, help="seconds per family vault")
    parser.add_argument("--example", type=Path, default=EXAMPLE, help="the published example (none: 'skip')")
    add_options(parser)
    args = parser.parse_args()
    # Read before any solve: a bad --example is said at once, not after the family's minutes.
    example = None if str(args.example) == "skip" else read_vault(args.example)
    solver = KeysCpsat()
    timer = Timer.from_args(args)
    print(f"keys-cpsat, {timer.clock} clock, limit {args.limit:g} s, num_workers {default_workers()},"
          f" seed {solver.random_seed}")
    for robots in args.robots:
        runs = [timed_run(timer, solver, generate(seed, size=81, keys=26, loops=args.loops, robots=robots), args.limit)
                for seed in args.seeds]
        statuses = Counter(timed.result.status.value for timed in runs)
        print(f"robots={robots} loops={args.loops}: median {significant(statistics.median(t.median for t in runs))} s,"
              f" {dict(statuses)}")
        report(f"keys-cpsat, 81x81 k26 l{args.loops} r{robots}, proven ({timer.clock})",
               [proven_seconds(timed) for timed in runs], max_limit=FAMILY_LIMIT)
    if example is not None:
        timed = timed_run(timer, solver, example, FAMILY_LIMIT)
        report(f"keys-cpsat, {example.name}, proven ({timer.clock})", [proven_seconds(timed)], max_limit=EXAMPLE_LIMIT)
    timer.save()


if __name__ == "__main__":
    main()
