"""Two comparisons side by side: what changed from OLD to NEW (``report OLD --against NEW``).

Per instance (and variant): the verdict before and after.  A verdict *got worse* when
it moved towards the top of `crosscheck.harness.verdicts.Verdict`'s list (``agree`` to
``unverified``, ``unverified`` to ``false-optimal``, ...): that is what the exit status
reports.  An instance in only one of the files is listed as added or removed.

Per instance and solver (a cell, `crosscheck.harness.aggregate.Cell`): the status
before and after and the time ratio NEW / OLD of the cells' medians.  Where both
sides have repetitions, the ratio is judged against the noise: ``slower`` when every
NEW run took longer than every OLD run and the medians differ by more than
`NOISE_FACTOR`, ``faster`` the other way round, ``within noise`` otherwise.  With a
single run on either side there is no noise to judge by (``one run``).  A cell where
some run crashed (``error``, ``memout``) has no time to compare: its ratio is ``-`` and
its time ``failed`` (the status columns show the crash).

`changes` lists the cells whose status or instance verdict changed, that are flagged
slower or faster, or (without repeats) whose ratio is past `UNREPEATED_FACTOR`
either way; `summary` counts everything, the unchanged included.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from crosscheck.harness.aggregate import Cell, cells, positive
from crosscheck.harness.records import UNREADABLE, RunRecord
from crosscheck.harness.verdicts import InstanceVerdict, Verdict, judge_all
from crosscheck.harness.wording import counted
from crosscheck.solvers.base import FAILED_STATUSES

#: With repeats, a slowdown or speedup beyond the runs' spread must also exceed this factor.
NOISE_FACTOR = 1.1
#: Without repeats, a ratio past this factor either way is listed (but not judged).
UNREPEATED_FACTOR = 2.0
DIFF_COLUMNS = ("instance", "solver", "old status", "new status", "old verdict", "new verdict", "old s", "new s",
                "new/old", "time")
_RANK = {verdict: rank for rank, verdict in enumerate(Verdict)}  # 0 is the worst


@dataclass(frozen=True)
class Change:
    """One instance and solver in both comparisons (a solver missing on one side: None)."""

    instance: str
    solver: str
    old: Cell | None
    new: Cell | None
    old_verdict: InstanceVerdict | None
    new_verdict: InstanceVerdict | None

    @property
    def ratio(self) -> float | None:
        """NEW's median seconds over OLD's; None without both, or when a run crashed (its time is no speed)."""
        if self.old is None or self.new is None or self.crashed:
            return None
        return positive(self.new.seconds) / positive(self.old.seconds)

    @property
    def crashed(self) -> bool:
        """Whether some run of either side crashed (``error``, ``memout``)."""
        return any(r.status in FAILED_STATUSES for cell in (self.old, self.new) if cell for r in cell.runs)

    @property
    def timing(self) -> str:
        """``slower``, ``faster``, ``within noise``, ``one run``, ``failed`` or ``-`` (see the module doc)."""
        if self.crashed:
            return "failed"
        if self.old is None or self.new is None or self.ratio is None:
            return "-"
        if len(self.old.runs) < 2 or len(self.new.runs) < 2:
            return "one run"
        if min(self.new.times) > max(self.old.times) and self.ratio > NOISE_FACTOR:
            return "slower"
        if max(self.new.times) < min(self.old.times) and self.ratio < 1 / NOISE_FACTOR:
            return "faster"
        return "within noise"

    @property
    def status_changed(self) -> bool:
        return _status(self.old) != _status(self.new)

    @property
    def verdict_changed(self) -> bool:
        return _verdict(self.old_verdict) != _verdict(self.new_verdict)

    @property
    def listed(self) -> bool:
        """Whether `changes` shows this row."""
        unrepeated_jump = self.timing == "one run" and self.ratio is not None and not (
            1 / UNREPEATED_FACTOR < self.ratio < UNREPEATED_FACTOR)
        return self.status_changed or self.verdict_changed or self.timing in ("slower", "faster") or unrepeated_jump

    def row(self) -> list[str]:
        """The change as table cells (columns `DIFF_COLUMNS`)."""
        return [self.instance, self.solver, _status(self.old), _status(self.new), _verdict(self.old_verdict),
                _verdict(self.new_verdict), _seconds(self.old), _seconds(self.new),
                "-" if self.ratio is None else f"{self.ratio:.2f}", self.timing]


def _status(cell: Cell | None) -> str:
    return "absent" if cell is None else "/".join(dict.fromkeys(r.status.value for r in cell.runs))


def _verdict(verdict: InstanceVerdict | None) -> str:
    return "absent" if verdict is None else verdict.verdict.value


def _seconds(cell: Cell | None) -> str:
    return "-" if cell is None else f"{cell.seconds:.3f}"


def diff(old: Iterable[RunRecord], new: Iterable[RunRecord]) -> list[Change]:
    """Every (instance, solver) of either comparison, OLD's order first; unreadable files
    appear under the solver ``-``."""
    old, new = list(old), list(new)
    verdicts = [{(v.instance, v.variant): v for v in judge_all(records)} for records in (old, new)]
    grids = [{(*c.key, c.solver): c for c in cells(records)} for records in (old, new)]
    for side, records in enumerate((old, new)):  # unreadable files: no cell, but a verdict
        for record in records:
            if record.solver == UNREADABLE:
                grids[side].setdefault((record.instance, record.variant, UNREADABLE), Cell((record,)))
    keys = list(dict.fromkeys([*grids[0], *grids[1]]))
    return [Change(instance + (" [variant]" if variant else ""), solver, grids[0].get((instance, variant, solver)),
                   grids[1].get((instance, variant, solver)), verdicts[0].get((instance, variant)),
                   verdicts[1].get((instance, variant))) for instance, variant, solver in keys]


def worse(changes: list[Change]) -> list[InstanceVerdict]:
    """The NEW verdicts of instances whose verdict got worse (each instance once)."""
    found: dict[str, InstanceVerdict] = {}
    for change in changes:
        before, after = change.old_verdict, change.new_verdict
        if before is not None and after is not None and _RANK[after.verdict] < _RANK[before.verdict]:
            found[change.instance] = after
    return list(found.values())


def summary(changes: list[Change]) -> str:
    """One line counting verdicts worse and better, pairs run on one side only, status
    changes of the pairs run on both, and timings."""
    instances = {c.instance: c for c in changes}.values()
    better = sum(c.old_verdict is not None and c.new_verdict is not None
                 and _RANK[c.new_verdict.verdict] > _RANK[c.old_verdict.verdict] for c in instances)
    timings = {name: sum(c.timing == name for c in changes) for name in ("slower", "faster", "within noise", "one run")}
    both = [c for c in changes if c.old is not None and c.new is not None]
    only_old, only_new = sum(c.new is None for c in changes), sum(c.old is None for c in changes)
    one_side = f"{only_old} only in OLD, {only_new} only in NEW; " if only_old or only_new else ""
    return (f"{counted(len(instances), 'instance')}, {counted(len(changes), '(instance, solver) pair')}: "
            f"{counted(len(worse(changes)), 'verdict')} worse, {better} better; {one_side}"
            f"{counted(sum(c.status_changed for c in both), 'status change')}; "
            + ", ".join(f"{count} {name}" for name, count in timings.items()))
