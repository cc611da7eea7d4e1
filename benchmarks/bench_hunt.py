"""How reliably `hunt` finds each planted wrong formulation, over several seeds.

Run as ``python -m benchmarks.bench_hunt [--seeds 1 2 3] [--budget S | --examples N]
[--shrink-budget S | --shrink-examples N] [--only NAME ...] [--jobs J]``.  For every planted mistake in `PLANTED` (the
formulations of planted/hunt_solvers.py and the programs of planted/externals/, each hunted
against a built-in reference, the hunting table of docs/results.md) and every seed,
one hunt with that budget (seconds, or a number of instances judged, the same on any
machine), as ``crosscheck hunt`` runs it (isolated runs, 10 s per run).
Prints per hunt whether it found a wrong verdict, which one, after how many instances
and seconds, and the sizes of the instance as found and shrunk; then per mistake how
many seeds found it and the median seconds to find over those.  Wall seconds, with the
load average at the start of each hunt: a hunt's time goes into many small isolated
runs, and a loaded machine stretches it.  Each hunt writes under ``--out`` (default a
temporary folder).  Not a timed test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from crosscheck.harness.reports.numbers import significant
from crosscheck.harness.runs.external import External
from crosscheck.harness.runs.settings import RunSettings
from crosscheck.harness.workflows.hunt import HuntOutcome, HuntSettings, JudgedDraw, hunt
from crosscheck.models.puzzle import Range
from crosscheck.models.registry import get_puzzle
from crosscheck.solvers.registry import add_plugins

from planted.externals import EXTERNALS

#: The module of the planted formulations (loaded as a plugin, in the runs too).
PLUGINS = ("planted.hunt_solvers",)


@dataclass(frozen=True)
class Planted:
    """A planted mistake: the puzzle, the reference and the wrong formulation, the size ranges."""

    puzzle: str
    solvers: tuple[str, ...]
    external: str | None = None  # a script of planted/externals, run as an external program
    ranges: tuple[tuple[str, Range], ...] = ()

    def externals(self) -> tuple[External, ...]:
        if self.external is None:
            return ()
        script = EXTERNALS / f"{self.external}.py"
        return (External(name=self.external, command=f"{sys.executable} {script} {{path}}", puzzle=self.puzzle),)


PLANTED: dict[str, Planted] = {
    "keys-onepath": Planted("keys", ("keys-graph", "keys-onepath")),
    "elevator-nodown2": Planted("elevator", ("elevator-quotient",), "elevator_nodown2"),
    "elevator-leftfloor": Planted("elevator", ("elevator-quotient", "elevator-leftfloor")),
    "amphipods-aboverooms": Planted("amphipods", ("amphipods-search", "amphipods-aboverooms"), ranges=(("depth", (1, 3)),)),
    "amphipods-hallhops": Planted("amphipods", ("amphipods-search", "amphipods-hallhops"), ranges=(("depth", (1, 3)),)),
    "keys-regions": Planted("keys", ("keys-graph",), "keys_regions", ranges=(("robots", (4, 4)),)),
}


def run(name: str, planted: Planted, seed: int, args: argparse.Namespace, out: Path) -> HuntOutcome:
    runs = RunSettings(solvers=planted.solvers, externals=planted.externals(), time_limit=10.0, jobs=args.jobs)
    settings = HuntSettings(puzzle=get_puzzle(planted.puzzle), runs=runs, out=out / f"{name}-seed{seed}",
                            ranges=dict(planted.ranges), budget=None if args.examples else args.budget,
                            examples=args.examples,
                            shrink_budget=None if args.shrink_examples is not None else args.shrink_budget,
                            shrink_examples=args.shrink_examples, seed=seed, plugins=PLUGINS)
    return hunt(settings)


def line(name: str, planted: Planted, seed: int, outcome: HuntOutcome, load: float) -> str:
    """One hunt's outcome: the verdict, when it was found, the sizes as found and shrunk."""
    head = f"{name:<22} seed {seed:<3} load {load:4.1f}  "
    if outcome.first is None or outcome.shrunk is None:
        return head + f"none in {outcome.tried} instances"
    features = get_puzzle(planted.puzzle).features

    def sizes(judged: JudgedDraw) -> str:
        return " ".join(f"{key}={value}" for key, value in features(judged.instance).items())

    return (head + f"{outcome.first.verdict.verdict.value} after {outcome.tried} instances, "
            f"{significant(outcome.seconds_to_find)} s; as found {sizes(outcome.first)}; "
            f"shrunk {sizes(outcome.shrunk)} "
            f"({outcome.shrink_tried} more, {significant(outcome.seconds_to_shrink)} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3], help="hunt seeds, one hunt each per mistake")
    parser.add_argument("--budget", type=float, default=120.0, help="seconds of search per hunt")
    parser.add_argument("--shrink-budget", type=float, default=30.0, help="seconds of shrinking once found")
    parser.add_argument("--examples", type=int, help="instances judged per hunt, instead of --budget")
    parser.add_argument("--shrink-examples", type=int,
                        help="instances judged while shrinking, instead of --shrink-budget")
    parser.add_argument("--only", nargs="+", choices=sorted(PLANTED), help="hunt only these planted mistakes")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="runs of one instance at a time")
    parser.add_argument("--out", type=Path, help="folder for the hunts' outputs (default: a temporary one)")
    args = parser.parse_args()
    add_plugins(PLUGINS)
    with tempfile.TemporaryDirectory() as scratch:
        out = args.out or Path(scratch)
        search = f"{args.examples} instances" if args.examples else f"{args.budget:g} s"
        shrink = (f"{args.shrink_examples} instances" if args.shrink_examples is not None
                  else f"{args.shrink_budget:g} s")
        print(f"hunts of {search} (+{shrink} shrinking), seeds {args.seeds}, 10 s per run")
        summary = []
        for name in args.only or list(PLANTED):
            found = []
            for seed in args.seeds:
                load = os.getloadavg()[0]
                outcome = run(name, PLANTED[name], seed, args, out)
                print(line(name, PLANTED[name], seed, outcome, load), flush=True)
                if outcome.first is not None:
                    found.append(outcome.seconds_to_find)
            median = f"median {significant(statistics.median(found))} s to find" if found else "never found"
            summary.append(f"{name:<22} found with {len(found)}/{len(args.seeds)} seeds, {median}")
        print("\n" + "\n".join(summary))


if __name__ == "__main__":
    main()
