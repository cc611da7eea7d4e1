"""What two comparisons are compared on (``report OLD --against NEW``): the clock and the
settings under which each side ran (`crosscheck.harness.reports.diff.rule_line` names the clock
with the runs per side).

The clock: a run limited by CPU time (``compare --clock cpu``) is timed on its
``cpu_seconds``, which a loaded machine barely moves, while its wall ``seconds`` swing
with the load.  So times are compared on ``cpu_seconds`` when both sides ran every run
with ``clock = cpu`` and every exact run of both has ``cpu_seconds``; otherwise on the
solver's wall ``seconds``, and `basis` says why (the sides' clocks differ, one side has
no runs, some CPU times are missing).

The settings (`settings_warning`): time limit, memory limit, clock and CP-SAT workers,
read from the records.  When the sides differ in one, a change of status may come from
the settings rather than from the code, and the report says so in one line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from crosscheck.harness.records.record import RunRecord, solver_runs
from crosscheck.harness.reports.aggregate import Cell

#: With repeats, a slowdown or speedup beyond the runs' spread must also exceed this factor.
NOISE_FACTOR = 1.1
TimeClock = Literal["wall", "cpu"]


@dataclass(frozen=True)
class Basis:
    """The clock times are compared on and why (see the module doc)."""

    clock: TimeClock
    reason: str

    def times(self, cell: Cell) -> list[float]:
        """The cell's repetitions' times on this clock (a missing CPU time counts as 0:
        `basis` picks ``cpu`` only where the exact runs, the only ones compared, have one)."""
        if self.clock == "cpu":
            return [r.cpu_seconds or 0.0 for r in cell.runs]
        return cell.times

    def measured(self, cell: Cell) -> bool:
        """Whether every repetition of the cell has a time on this clock."""
        return self.clock == "wall" or all(r.cpu_seconds is not None for r in cell.runs)


def _clock(record: RunRecord) -> str:
    return str(record.environment.get("clock", "wall"))  # records before the clock option ran on wall time


def basis(old: list[RunRecord], new: list[RunRecord]) -> Basis:
    """The clock to compare OLD and NEW on (see the module doc)."""
    sides = solver_runs(old), solver_runs(new)
    if not sides[0] or not sides[1]:
        return Basis("wall", f"{'OLD' if not sides[0] else 'NEW'} has no runs")
    clocks = [sorted({_clock(r) for r in side}) for side in sides]
    if clocks[0] != clocks[1]:
        return Basis("wall", f"the sides ran with different clocks: OLD {'/'.join(clocks[0])}, "
                             f"NEW {'/'.join(clocks[1])}")
    if clocks[0] != ["cpu"]:
        return Basis("wall", f"both sides ran with --clock {'/'.join(clocks[0])}")
    if any(r.exact and r.cpu_seconds is None for side in sides for r in side):
        return Basis("wall", "both sides ran with --clock cpu, but some exact runs have no cpu_seconds")
    return Basis("cpu", "both sides ran with --clock cpu")


def _runs_cpsat(record: RunRecord) -> bool:
    """Whether the record's formulation is a CP-SAT model (False for one not registered here)."""
    from crosscheck.solvers.registry import get_solver

    try:
        return get_solver(record.formulation or record.solver).runs_cpsat
    except KeyError:
        return False


#: The settings a side's runs are made under: how to read each from a record, its unit, and
#: which records it matters to (every record carries CP-SAT's workers, only CP-SAT runs use them).
SETTINGS: tuple[tuple[str, Callable[[RunRecord], object], str, Callable[[RunRecord], bool]], ...] = (
    ("time limit", lambda r: r.environment.get("time_limit"), " s", lambda r: True),
    ("memory limit", lambda r: r.environment.get("memory_limit_mb"), " MB", lambda r: True),
    ("clock", _clock, "", lambda r: True),
    ("CP-SAT workers", lambda r: r.cpsat_workers, "", _runs_cpsat),
)


def _values(records: list[RunRecord], read: Callable[[RunRecord], object], unit: str) -> str:
    """The distinct values of one setting over `records`, '/'-joined (``none`` for unset)."""
    values = sorted({"none" if (value := read(r)) is None else f"{value}{unit}" for r in records})
    return "/".join(values)


def settings_warning(old: list[RunRecord], new: list[RunRecord]) -> str:
    """``warning: ...`` naming every setting whose values differ between the sides, with
    both values; '' when none differs (or a side has no runs: nothing to compare).  A
    setting is compared on the runs it matters to (`SETTINGS`), when both sides have some."""
    sides = solver_runs(old), solver_runs(new)
    if not sides[0] or not sides[1]:
        return ""
    differ = []
    for name, read, unit, matters in SETTINGS:
        before, after = (_values([r for r in side if matters(r)], read, unit) for side in sides)
        if before and after and before != after:
            differ.append(f"{name} {before} (OLD) vs {after} (NEW)")
    if not differ:
        return ""
    return (f"warning: the sides ran under different settings: {', '.join(differ)}; "
            "status and time changes may come from these, not from the code")
