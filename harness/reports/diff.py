"""Two comparisons side by side: what changed from OLD to NEW (``report OLD --against NEW``).

Per instance (and variant): the verdict and the independent provers
(`crosscheck.harness.judging.verdicts.independent_count`) before and after.  A verdict *got
worse* when it moved towards the top of `crosscheck.harness.judging.verdicts.Verdict`'s list
(``agree`` to ``unverified``, ``unverified`` to ``false-optimal``, ...).

Per instance and solver (a pair, a `crosscheck.harness.reports.aggregate.Cell` on each side):
the status before and after and the time ratio NEW / OLD of the medians, on the clock
`crosscheck.harness.reports.diff_basis.basis` chooses.  Times are compared only where both sides
are exact (a timeout's time is the limit, a crash's the time until it died).  Where both sides have
repetitions, the ratio is judged against the noise: ``slower`` when every NEW run took
longer than every OLD run and the medians differ by more than `NOISE_FACTOR`,
``faster`` the other way round, ``within noise`` otherwise.  With a single run on either
side there is no noise estimate and nothing is judged (``one run``).

`regressions` names what makes ``--against`` exit 1: a verdict that got worse, an exact
answer changed (the same solver proved another optimum, or infeasible against an optimum,
on the same instance: one of the two answers is wrong, whatever the verdicts say), an exact
answer lost (OLD exact, NEW not, or the pair not run in NEW), a pair run in OLD missing
from NEW (an unreadable file read in NEW is no missing run), an instance with fewer independent provers; and, when asked, a pair ``slower``.
`changes` lists the pairs whose status, exact answer, instance verdict or provers changed
or that are flagged slower or faster; `summary` counts everything, the unchanged included.
Verdicts are `crosscheck.harness.judging.verdicts.judged`'s, morph-mismatches of recorded pairs included.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from crosscheck.harness.judging.pairs import answer_of
from crosscheck.harness.judging.verdicts import InstanceVerdict, Verdict, judged
from crosscheck.harness.records.evidence import Evidence
from crosscheck.harness.records.record import UNREADABLE, RunRecord
from crosscheck.harness.reports.aggregate import Cell, cells, geometric_mean, positive
from crosscheck.harness.reports.diff_basis import NOISE_FACTOR, Basis
from crosscheck.harness.reports.numbers import significant
from crosscheck.harness.reports.wording import counted
from crosscheck.solvers.base import FAILED_STATUSES

DIFF_COLUMNS = ("instance", "solver", "old status", "new status", "old verdict", "new verdict", "provers",
                "old s", "new s", "new/old", "time")
_RANK = {verdict: rank for rank, verdict in enumerate(Verdict)}  # 0 is the worst
#: The `Change.timing` labels, in the order the summary counts them.
TIMINGS = ("slower", "faster", "within noise", "one run", "not compared")


@dataclass(frozen=True)
class Change:
    """One instance and solver in both comparisons (a solver missing on one side: None)."""

    instance: str
    solver: str
    old: Cell | None
    new: Cell | None
    old_verdict: InstanceVerdict | None
    new_verdict: InstanceVerdict | None
    basis: Basis = Basis("wall", "")

    @property
    def unreadable(self) -> bool:
        """Whether this stands for an unreadable instance file (solver `UNREADABLE`: no run)."""
        return self.solver == UNREADABLE

    @property
    def compared(self) -> bool:
        """Whether the times are compared: both sides exact."""
        return self.old is not None and self.new is not None and self.old.exact and self.new.exact

    @property
    def ratio(self) -> float | None:
        """NEW / OLD of the median times, None unless `compared`."""
        if self.old is None or self.new is None or not self.compared:
            return None
        return positive(self.median(self.new)) / positive(self.median(self.old))

    def median(self, cell: Cell) -> float:
        """The median of the cell's times on the basis's clock."""
        return statistics.median(self.basis.times(cell))

    @property
    def timing(self) -> str:
        """One of `TIMINGS` (see the module doc; ``not compared`` unless both sides are exact)."""
        if self.old is None or self.new is None or self.ratio is None:
            return "not compared"
        if len(self.old.runs) < 2 or len(self.new.runs) < 2:
            return "one run"
        old, new = self.basis.times(self.old), self.basis.times(self.new)
        if min(new) > max(old) and self.ratio > NOISE_FACTOR:
            return "slower"
        if max(new) < min(old) and self.ratio < 1 / NOISE_FACTOR:
            return "faster"
        return "within noise"

    @property
    def status_changed(self) -> bool:
        return _status(self.old) != _status(self.new)

    @property
    def verdict_changed(self) -> bool:
        return _verdict(self.old_verdict) != _verdict(self.new_verdict)

    @property
    def provers_changed(self) -> bool:
        return _provers(self.old_verdict) != _provers(self.new_verdict)

    @property
    def answer_changed(self) -> bool:
        """Both sides exact, with other answers (`exact_answers`)."""
        before, after = exact_answers(self.old), exact_answers(self.new)
        return bool(before) and bool(after) and before != after

    @property
    def lost_exact(self) -> bool:
        """OLD had an exact answer, NEW has none (or did not run the pair)."""
        return self.old is not None and self.old.exact and (self.new is None or not self.new.exact)

    @property
    def lost_certificate(self) -> bool:
        """OLD's answer was certified in every run, NEW's is not (or NEW did not run the pair)."""
        return _certified(self.old) and not _certified(self.new)

    @property
    def listed(self) -> bool:
        """Whether `changes` shows this row."""
        return (self.status_changed or self.answer_changed or self.verdict_changed or self.provers_changed
                or self.lost_exact or self.lost_certificate or self.timing in ("slower", "faster"))

    def row(self) -> list[str]:
        """The change as table cells (columns `DIFF_COLUMNS`)."""
        before, after = _provers(self.old_verdict), _provers(self.new_verdict)
        old_status, new_status = (
            (f"{_status(self.old)} {exact_answers(self.old)}", f"{_status(self.new)} {exact_answers(self.new)}")
            if self.answer_changed else (_status(self.old), _status(self.new)))
        return [self.instance, self.solver, old_status, new_status, _verdict(self.old_verdict),
                _verdict(self.new_verdict), str(before) if before == after else f"{before}->{after}",
                self._seconds(self.old), self._seconds(self.new),
                "-" if self.ratio is None else significant(self.ratio), self._time_cell()]

    def _seconds(self, cell: Cell | None) -> str:
        """The median time, '-' for no cell, a failed run (a memout's or crash's time means
        nothing) or a run without a time on the clock."""
        if cell is None or any(r.status in FAILED_STATUSES for r in cell.runs) or not self.basis.measured(cell):
            return "-"
        return significant(self.median(cell))

    def _time_cell(self) -> str:
        """The timing, or the status change where times are not compared."""
        if self.timing != "not compared":
            return self.timing
        return f"{_status(self.old)}->{_status(self.new)}" if self.status_changed else "not exact"


def _certified(cell: Cell | None) -> bool:
    """Whether every run of the cell has a certified answer (`crosscheck.harness.records.evidence.Evidence.CERTIFIED`)."""
    return cell is not None and all(r.evidence is Evidence.CERTIFIED for r in cell.runs)


def _status(cell: Cell | None) -> str:
    return "absent" if cell is None else "/".join(dict.fromkeys(r.status.value for r in cell.runs))


def exact_answers(cell: Cell | None) -> str:
    """The exact answers of a cell's runs (``19``, ``infeasible``; ``19/21`` when its
    repetitions differ), '' unless every run is exact."""
    if cell is None or not cell.exact:
        return ""
    answers = {str(answer_of(r)) for r in cell.runs}
    return "/".join(sorted(answers))


def _verdict(verdict: InstanceVerdict | None) -> str:
    return "absent" if verdict is None else verdict.verdict.value


def _provers(verdict: InstanceVerdict | None) -> int:
    """How many independent provers the instance's answer rests on (0 without an agreement)."""
    return 0 if verdict is None else verdict.independent


def diff(old: Iterable[RunRecord], new: Iterable[RunRecord], basis: Basis = Basis("wall", "")) -> list[Change]:  # noqa: B008 (frozen)
    """Every (instance, solver) of either comparison, OLD's order first, times on `basis`;
    unreadable files appear under the solver ``-``."""
    old, new = list(old), list(new)
    verdicts = [{(v.instance, v.variant): v for v in judged(records).verdicts} for records in (old, new)]
    grids = [{(*c.key, c.solver): c for c in cells(records)} for records in (old, new)]
    for side, records in enumerate((old, new)):  # unreadable files: no cell, but a verdict
        for record in records:
            if record.solver == UNREADABLE:
                grids[side].setdefault((record.instance, record.variant, UNREADABLE), Cell((record,)))
    keys = list(dict.fromkeys([*grids[0], *grids[1]]))
    return [Change(instance + (" [variant]" if variant else ""), solver, grids[0].get((instance, variant, solver)),
                   grids[1].get((instance, variant, solver)), verdicts[0].get((instance, variant)),
                   verdicts[1].get((instance, variant)), basis) for instance, variant, solver in keys]


def rule_line(chosen: Basis, changes: list[Change]) -> str:
    """One line naming the timing rule of `changes` (from `diff` on `chosen`): clock and why,
    runs per pair on each side (an unreadable file's record is no run), and the threshold
    for slower / faster / within noise (or that there is no noise estimate)."""
    ran = [c for c in changes if not c.unreadable]
    old, new = [c.old for c in ran if c.old is not None], [c.new for c in ran if c.new is not None]
    runs = f"runs per pair: OLD {runs_per_pair(old)}, NEW {runs_per_pair(new)}"
    repeated = any(len(c.runs) > 1 for c in old) and any(len(c.runs) > 1 for c in new)
    judged = (f"slower (faster): every NEW run above (below) every OLD run and the medians more than "
              f"{NOISE_FACTOR - 1:.0%} apart, else within noise; a pair with one run on a side is not judged"
              if repeated else "no noise estimate with one run on a side, so no time change is judged "
                               "(rerun both with compare --repeat 3)")
    return (f"timing: {chosen.clock} seconds ({chosen.reason}); {runs}; {judged}; "
            "times compared only where both sides are exact")


def runs_per_pair(cells: list[Cell]) -> str:
    """How many runs each (instance, solver) pair of one side has: ``3``, or ``1-3`` when they differ."""
    counts = sorted({len(cell.runs) for cell in cells})
    if not counts:
        return "0"
    return str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"


def worse(changes: list[Change]) -> list[InstanceVerdict]:
    """The NEW verdicts of instances whose verdict got worse (each instance once)."""
    found: dict[str, InstanceVerdict] = {}
    for change in changes:
        before, after = change.old_verdict, change.new_verdict
        if before is not None and after is not None and _RANK[after.verdict] < _RANK[before.verdict]:
            found[change.instance] = after
    return list(found.values())


def regressions(changes: list[Change], fail_slower: bool = False) -> list[str]:
    """One line per reason to exit 1 (see the module doc), worst kind first: ``worse:``,
    ``changed:``, ``fewer provers:``, ``lost:``, ``uncertified:``, ``missing:`` and, with `fail_slower`, ``slower:``."""
    lines = [f"worse: {v.instance}{' [variant]' if v.variant else ''}: {v.verdict.value}: {v.reason}"
             for v in worse(changes)]
    lines += [f"changed: {c.instance} {c.solver}: exact answer {exact_answers(c.old)} -> {exact_answers(c.new)}"
              for c in changes if c.answer_changed]
    instances = {c.instance: c for c in changes}.values()
    lines += [f"fewer provers: {c.instance}: {_provers(c.old_verdict)} -> {_provers(c.new_verdict)} independent "
              f"({_provers_named(c.old_verdict)} -> {_provers_named(c.new_verdict)})"
              for c in instances if _provers(c.new_verdict) < _provers(c.old_verdict)]
    lines += [f"lost: {c.instance} {c.solver}: exact {_status(c.old)} -> {_status(c.new)}"
              + (" (only in OLD)" if c.new is None else "") for c in changes if c.lost_exact]
    lines += [f"uncertified: {c.instance} {c.solver}: certified {_status(c.old)} in OLD, "
              + ("not run in NEW" if c.new is None else f"{_status(c.new)} without a checked certificate in NEW")
              for c in changes if c.lost_certificate]
    lines += [f"missing: {c.instance} {c.solver}: {_status(c.old)} in OLD, not run in NEW"
              for c in changes if c.new is None and not c.lost_exact and not c.unreadable]
    if fail_slower:
        lines += [f"slower: {c.instance} {c.solver}: new/old {significant(c.ratio)}" for c in changes
                  if c.timing == "slower" and c.ratio is not None]
    return lines


def _provers_named(verdict: InstanceVerdict | None) -> str:
    return "none" if verdict is None or not verdict.provers else ", ".join(verdict.provers)


def summary(changes: list[Change]) -> str:
    """One line counting verdicts worse and better, pairs run on one side only, status
    changes of the pairs run on both, exact answers lost, timings, and the geometric mean
    of NEW / OLD over the pairs whose times are compared."""
    instances = {c.instance: c for c in changes}.values()
    better = sum(c.old_verdict is not None and c.new_verdict is not None
                 and _RANK[c.new_verdict.verdict] > _RANK[c.old_verdict.verdict] for c in instances)
    counts = Counter(c.timing for c in changes)  # each change's timing worked out once
    timings = {name: counts[name] for name in TIMINGS}
    both = [c for c in changes if c.old is not None and c.new is not None]
    only_old, only_new = sum(c.new is None for c in changes), sum(c.old is None for c in changes)
    one_side = f"{only_old} only in OLD, {only_new} only in NEW; " if only_old or only_new else ""
    ratios = [c.ratio for c in changes if c.ratio is not None]
    mean = f"; geometric mean new/old {significant(geometric_mean(ratios))} over {len(ratios)} compared" if ratios else ""
    return (f"{counted(len(instances), 'instance')}, {counted(len(changes), '(instance, solver) pair')}: "
            f"{counted(len(worse(changes)), 'verdict')} worse, {better} better; {one_side}"
            f"{counted(sum(c.status_changed for c in both), 'status change')}, "
            f"{counted(sum(c.answer_changed for c in both), 'exact answer')} changed, "
            f"{counted(sum(c.lost_exact for c in changes), 'exact answer')} lost; "
            + ", ".join(f"{count} {name}" for name, count in timings.items()) + mean)
