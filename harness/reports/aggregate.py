"""Runs gathered per (instance, solver) and per family, for tables, plots and statistics.

A *cell* is one solver on one instance (or its variant): its repetitions
(``compare --repeat``) summarised.  A cell is ``exact`` when every repetition is, and
``solved`` when every repetition found an answer the checker accepts (a checked plan,
or a proof of infeasibility) within its time limit (a late answer is a timeout here, as in
every figure: `crosscheck.harness.runs.limits`); its time is the median of the repetitions' seconds.

A *family* is a puzzle and the folder an instance of it sits in (``elevator/generated/p5``,
or ``keys`` for the hand-written vaults), with `` [variant]`` for variant runs: generated
families share their generator's parameters.  A folder holding instances of two puzzles
holds two families: formulations of different puzzles are never compared.

The per-family table (`family_rows`) compares formulations on equal terms: its median
and geometric mean are taken over the instances of the family that every formulation run
on it solved exactly (``common``), and the *virtual best* row takes, per instance, the
fastest exact answer of any formulation.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from crosscheck.harness.records.record import RunRecord, solver_runs
from crosscheck.harness.reports.numbers import significant
from crosscheck.solvers.base import Status

#: The least seconds a time counts as: logarithms (geometric means, log axes) cannot take zero.
MIN_SECONDS = 1e-4
#: The solver name of the per-family row built from the fastest exact answer per instance.
VIRTUAL_BEST = "virtual best"
FAMILY_COLUMNS = ("puzzle", "family", "solver", "instances", "solved", "exact", "fastest", "common",
                  "median s (common)", "geo mean s (common)")


def positive(seconds: float) -> float:
    """`seconds`, at least `MIN_SECONDS`."""
    return max(seconds, MIN_SECONDS)


def family(instance: str, variant: bool = False) -> str:
    """The folder of `instance` (its name relative to the index), marked for variants."""
    return str(PurePosixPath(instance).parent) + (" [variant]" if variant else "")


def repetitions(records: Iterable[RunRecord]) -> list[list[RunRecord]]:
    """The repetitions of each (instance, variant, solver), groups sorted by instance and
    variant, solvers in first-seen order."""
    groups: dict[tuple[str, bool, str], list[RunRecord]] = {}
    for record in sorted(records, key=lambda r: (r.instance, r.variant)):
        groups.setdefault((record.instance, record.variant, record.solver), []).append(record)
    return list(groups.values())


@dataclass(frozen=True)
class Cell:
    """One solver on one instance, its repetitions summarised (see the module doc)."""

    runs: tuple[RunRecord, ...]

    @property
    def first(self) -> RunRecord:
        return self.runs[0]

    @property
    def key(self) -> tuple[str, bool]:
        """The instance the cell is about: name and variant."""
        return self.first.instance, self.first.variant

    @property
    def puzzle(self) -> str:
        return self.first.puzzle or ""

    @property
    def solver(self) -> str:
        return self.first.solver

    @property
    def family(self) -> str:
        return family(*self.key)

    @property
    def exact(self) -> bool:
        return all(r.exact for r in self.runs)

    @property
    def solved(self) -> bool:
        return all(r.late_status is None and r.plan_valid is True or (r.exact and r.status is Status.INFEASIBLE)
                   for r in self.runs)

    @property
    def seconds(self) -> float:
        """The median of the repetitions' seconds."""
        return statistics.median(r.seconds for r in self.runs)

    @property
    def times(self) -> list[float]:
        return [r.seconds for r in self.runs]

    @property
    def outcome(self) -> str:
        """``exact``; ``unproven`` (timeout, or an answer without proof); or ``failed``
        (an error, memout, rejected plan, unsupported instance) when any repetition failed."""
        if self.exact:
            return "exact"
        failed = (Status.ERROR, Status.MEMOUT, Status.UNSUPPORTED)
        if any(r.status in failed or r.plan_valid is False for r in self.runs):
            return "failed"
        return "unproven"


def cells(records: Iterable[RunRecord]) -> list[Cell]:
    """The cells of every solver run (records of unreadable files have no solver and are left out)."""
    return [Cell(tuple(group)) for group in repetitions(solver_runs(records))]


def geometric_mean(values: Sequence[float]) -> float:
    """The geometric mean of `values` (each counted as at least `MIN_SECONDS`)."""
    return math.exp(statistics.fmean(math.log(positive(v)) for v in values))


def family_rows(records: Iterable[RunRecord]) -> list[list[str]]:
    """One row per (puzzle, family, solver) and a virtual best row per puzzle and family
    (columns `FAMILY_COLUMNS`), sorted by puzzle and family.

    ``solved`` and ``exact`` count instances; ``fastest`` the instances on which the
    solver's exact answer was the fastest (ties count for each); ``common`` the instances
    every solver of the family solved exactly, over which the times are summarised.
    """
    by_family: dict[tuple[str, str], list[Cell]] = {}
    for cell in cells(records):
        by_family.setdefault((cell.puzzle, cell.family), []).append(cell)
    table = []
    for (puzzle, name), members in sorted(by_family.items()):
        solvers = list(dict.fromkeys(c.solver for c in members))
        instances = list(dict.fromkeys(c.key for c in members))
        grid = {(c.key, c.solver): c for c in members}
        common = [key for key in instances if all((key, s) in grid and grid[key, s].exact for s in solvers)]
        best = {key: min(c.seconds for c in members if c.key == key and c.exact)
                for key in instances if any(c.key == key and c.exact for c in members)}
        for solver in solvers:
            own = [c for c in members if c.solver == solver]
            fastest = sum(c.exact and c.seconds <= best[c.key] for c in own)
            table.append([puzzle, *_family_row(name, solver, own, fastest,
                                               [grid[key, solver].seconds for key in common])])
        solved = sum(any(c.key == key and c.solved for c in members) for key in instances)
        times = [best[key] for key in common]
        table.append([puzzle, name, VIRTUAL_BEST, str(len(instances)), str(solved), str(len(best)), "-",
                      str(len(common)), *_summary(times)])
    return table


def empty_common(table: Sequence[Sequence[str]]) -> list[str]:
    """A line per family of `family_rows`' `table` whose *common* set is empty (so it has no
    times), naming its solvers that solved none of its instances exactly: the table keeps to
    equal terms rather than time each solver on its own instances, and says so."""
    lines = []
    for puzzle, name, solver, *counts in table:
        if solver == VIRTUAL_BEST and counts[4] == "0":
            idle = [row[2] for row in table if list(row[:2]) == [puzzle, name] and row[2] != VIRTUAL_BEST
                    and row[5] == "0"]
            lines.append(f"{puzzle} {name}: common 0, no times: no instance was solved exactly by every solver"
                         + (f" ({', '.join(idle)} solved none exactly)" if idle else "")
                         + "; report --exclude-solver NAME compares the others")
    return lines


def _family_row(name: str, solver: str, own: list[Cell], fastest: int, times: list[float]) -> list[str]:
    return [name, solver, str(len(own)), str(sum(c.solved for c in own)), str(sum(c.exact for c in own)),
            str(fastest), str(len(times)), *_summary(times)]


def _summary(times: list[float]) -> list[str]:
    """The median and geometric mean of `times` as cells ('-' for none)."""
    if not times:
        return ["-", "-"]
    return [significant(statistics.median(times)), significant(geometric_mean(times))]
