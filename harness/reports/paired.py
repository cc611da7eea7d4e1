"""Is one formulation faster than another? A paired comparison on their common instances.

For two solvers of one puzzle, the sample is one number per instance both solved
exactly: the log of the ratio of their times (B's median seconds over A's, each the
median of the cell's repetitions).  Two statistics of it:

- the geometric mean ratio with a 95% bootstrap interval.  The resampling is
  hierarchical where repeats exist: instances are drawn with replacement, then each
  solver's repetitions within a drawn instance, so the interval carries the run-to-run
  noise as well as the spread over instances; without repeats it is the ordinary
  paired bootstrap.  numpy's seeded generator does the resampling (same records, same
  interval).
- the Wilcoxon signed-rank test of "the log ratios are symmetric about 0"
  (`scipy.stats.wilcoxon`, two-sided): SciPy computes the exact distribution for small
  samples and handles ties and zeros; it comes with the ``analysis`` extra, and without
  it the p-value is left out (None).

A ratio above 1 means B is slower.  Fewer than `MIN_INSTANCES` common instances give
no statistic: the pair is left out.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from itertools import combinations

import numpy
from crosscheck.harness.reports.aggregate import MIN_SECONDS, Cell, positive
from crosscheck.harness.reports.numbers import significant

#: The fewest common instances a pair needs for an interval and a test to mean anything.
MIN_INSTANCES = 5
RESAMPLES = 2000
SEED = 20240601
PAIRED_COLUMNS = ("puzzle", "A", "B", "instances", "runs per cell", "B/A geo mean", "95% interval", "wilcoxon p")


@dataclass(frozen=True)
class Paired:
    """The comparison of solver `b` against solver `a` (see the module doc)."""

    puzzle: str
    a: str
    b: str
    instances: int
    repeats: int  # the fewest repetitions of any cell compared (1: no repeats)
    ratio: float  # the geometric mean of b's time over a's
    low: float
    high: float
    p_value: float | None  # None without SciPy

    def row(self) -> list[str]:
        """The comparison as table cells (columns `PAIRED_COLUMNS`)."""
        p = "needs scipy" if self.p_value is None else f"{self.p_value:.3g}"
        return [self.puzzle, self.a, self.b, str(self.instances), str(self.repeats), significant(self.ratio),
                f"{significant(self.low)} - {significant(self.high)}", p]


def compare_all(grid: list[Cell]) -> list[Paired]:
    """Every pair of solvers of each puzzle with at least `MIN_INSTANCES` common exact instances."""
    found = []
    for puzzle in sorted({c.puzzle for c in grid if c.puzzle}):
        own = [c for c in grid if c.puzzle == puzzle and c.exact]
        for a, b in combinations(sorted({c.solver for c in own}), 2):
            result = compare(own, puzzle, a, b)
            if result is not None:
                found.append(result)
    return found


def compare(grid: list[Cell], puzzle: str, a: str, b: str) -> Paired | None:
    """Solver `b` against `a` on the instances both solved exactly in `grid` (None: too few)."""
    left = {c.key: c for c in grid if c.solver == a and c.exact}
    right = {c.key: c for c in grid if c.solver == b and c.exact}
    pairs = [(left[key].times, right[key].times) for key in sorted(left.keys() & right.keys())]
    if len(pairs) < MIN_INSTANCES:
        return None
    logs = [_log_ratio(x, y) for x, y in pairs]
    low, high = bootstrap(pairs)
    repeats = min(min(len(x), len(y)) for x, y in pairs)
    return Paired(puzzle, a, b, len(pairs), repeats, math.exp(statistics.fmean(logs)), low, high, wilcoxon(logs))


def _log_ratio(a: list[float], b: list[float]) -> float:
    return math.log(positive(statistics.median(b))) - math.log(positive(statistics.median(a)))


def bootstrap(pairs: list[tuple[list[float], list[float]]], resamples: int = RESAMPLES) -> tuple[float, float]:
    """A 95% percentile interval of the geometric mean ratio (b over a) by hierarchical
    resampling: instances, then each side's repetitions within every drawn instance."""
    rng = numpy.random.default_rng(SEED)
    drawn = rng.integers(len(pairs), size=(resamples, len(pairs)))
    logs = numpy.empty(drawn.shape)
    for index, (a, b) in enumerate(pairs):
        where = drawn == index
        count = int(where.sum())  # every draw of this instance resamples its repetitions afresh
        medians = [numpy.median(rng.choice(numpy.array(times), size=(count, len(times))), axis=1)
                   for times in (a, b)]
        logs[where] = numpy.log(numpy.maximum(medians[1], MIN_SECONDS)) - numpy.log(numpy.maximum(medians[0],
                                                                                                  MIN_SECONDS))
    low, high = numpy.percentile(logs.mean(axis=1), [2.5, 97.5])
    return math.exp(low), math.exp(high)


def wilcoxon(logs: list[float]) -> float | None:
    """The two-sided p-value of the signed-rank test of the log ratios, None without SciPy.
    All ratios equal to 1 give 1.0 (no evidence of a difference)."""
    try:
        from scipy.stats import wilcoxon as signed_rank
    except ImportError:
        return None
    if all(value == 0 for value in logs):
        return 1.0
    return float(signed_rank(logs).pvalue)
