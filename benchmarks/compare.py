"""Compare two saved benchmark runs and flag regressions beyond noise.

    python -m benchmarks.compare OLD.json NEW.json [--threshold 0.1]

Both files come from a benchmark script's ``--save`` (pyperf JSON).  For every
benchmark in both, it prints the old and new medians and their ratio, and a verdict:

- ``slower`` (a regression): the new median exceeds the old by more than the threshold
  (relative, and at least ``--min-seconds``, below which clocks cannot tell) *and* every
  new value is above every old value, so the ranges of the repetitions do not overlap
  (with three repetitions each, two runs of one distribution are that far apart by chance
  one time in twenty);
- ``faster``: the same, the other way;
- ``same``: anything else, within the noise of the repetitions.

Benchmarks measured on different clocks, or present in only one file, are listed as
such.  Exit status 1 when some benchmark is slower, else 0.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

import pyperf
from crosscheck.harness.reports.numbers import significant

from benchmarks.inputs import read_json, shaped


@dataclass(frozen=True)
class Change:
    """How one benchmark moved between two runs."""

    name: str
    old: float
    new: float
    verdict: str  # slower, faster, same, or why the two cannot be compared

    @property
    def ratio(self) -> float:
        return self.new / self.old


#: Differences of medians below this many seconds are never reported (clock resolution).
MIN_SECONDS = 0.002


def change(name: str, old: list[float], new: list[float], threshold: float, min_seconds: float = MIN_SECONDS) -> Change:
    """The verdict on one benchmark's values before (`old`) and after (`new`)."""
    before, after = statistics.median(old), statistics.median(new)
    if after - before > max(before * threshold, min_seconds) and min(new) > max(old):
        return Change(name, before, after, "slower")
    if before - after > max(after * threshold, min_seconds) and max(new) < min(old):
        return Change(name, before, after, "faster")
    return Change(name, before, after, "same")


def compare(old: pyperf.BenchmarkSuite, new: pyperf.BenchmarkSuite, threshold: float,
            min_seconds: float = MIN_SECONDS) -> tuple[list[Change], list[str]]:
    """The changes of the benchmarks in both suites, and notes on those that cannot be compared."""
    before = {bench.get_name(): bench for bench in old.get_benchmarks()}
    changes, notes = [], []
    for bench in new.get_benchmarks():
        name = bench.get_name()
        if name not in before:
            notes.append(f"{name}: only in the new run")
            continue
        clocks = before[name].get_metadata().get("clock"), bench.get_metadata().get("clock")
        if clocks[0] != clocks[1]:
            notes.append(f"{name}: measured on different clocks ({clocks[0]} then {clocks[1]})")
            continue
        changes.append(change(name, list(before[name].get_values()), list(bench.get_values()), threshold,
                              min_seconds))
    names = {bench.get_name() for bench in new.get_benchmarks()}
    notes += [f"{name}: only in the old run" for name in before if name not in names]
    return changes, notes


#: What `main` expects of each file it is given.
EXPECTED = "a pyperf JSON file, as a benchmark's --save writes"


def load(path: str) -> pyperf.BenchmarkSuite:
    """The saved run at `path`; exits 2 with one line naming the file when it is no such run."""
    read_json(Path(path), EXPECTED)  # missing, unreadable or not JSON: said with the line and column
    suite = shaped(path, EXPECTED, lambda: pyperf.BenchmarkSuite.load(path))
    shaped(path, EXPECTED, lambda: [bench.get_values() for bench in suite.get_benchmarks()])
    return suite


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", help="the earlier run's --save file (pyperf JSON)")
    parser.add_argument("new", help="the later run's --save file (pyperf JSON)")
    parser.add_argument("--threshold", type=float, default=0.1, help="smallest relative change reported (0.1: 10%%)")
    parser.add_argument("--min-seconds", type=float, default=MIN_SECONDS,
                        help="smallest absolute change of a median reported")
    args = parser.parse_args(argv)
    changes, notes = compare(load(args.old), load(args.new), args.threshold, args.min_seconds)
    width = max((len(c.name) for c in changes), default=10)
    print(f"{'benchmark':<{width}} {'old s':>9} {'new s':>9} {'ratio':>6}  verdict")
    for c in changes:
        old, new, ratio = significant(c.old), significant(c.new), significant(c.ratio)
        print(f"{c.name:<{width}} {old:>9} {new:>9} {ratio:>6}  {c.verdict}")
    for note in notes:
        print(note)
    slower = [c for c in changes if c.verdict == "slower"]
    print(f"{len(slower)} slower, {sum(c.verdict == 'faster' for c in changes)} faster, "
          f"{sum(c.verdict == 'same' for c in changes)} within noise")
    return 1 if slower else 0


if __name__ == "__main__":
    sys.exit(main())
