"""What each design choice of a formulation is worth: its configurations against its default.

A formulation's configurations (`crosscheck.solvers.configuration`) are compared with its default
configuration (the run named by the formulation alone), each on the instances both ran (the
*common* instances, variants apart):

- ``solved``: instances on which every repetition found an answer the checker accepts, or a
  proof of infeasibility (`crosscheck.harness.reports.aggregate.Cell.solved`), the default's
  count first; ``exact``: proven answers (a configuration that gives up optimality has none);
- the geometric mean of the configuration's time over the default's (each cell's median of its
  repetitions' times) on the instances both answered: the default exactly, the configuration
  exactly (or, when it gives up optimality, with a checked plan: its time to a plan against the
  default's time to the optimum), timed on CPU seconds when both ran every run
  on the CPU clock, else on the solvers' own wall seconds (`crosscheck.harness.reports.diff_basis`:
  ``report --against``'s rule; the ``clock`` column says which), with its 95% bootstrap interval and the
  two-sided Wilcoxon signed-rank p-value of the per-instance log ratios (the statistics of
  `crosscheck.harness.reports.paired`: hierarchical resampling where there are repeats; SciPy's
  test, ``n/a`` without SciPy); above 1, the configuration is slower;
- the same of effort (`crosscheck.harness.judging.same_effort.effort_figure`: states expanded, or
  CP-SAT's conflicts; an effort below 1 counts as 1), on the instances both answered and both
  counted it.  (A run stopped at its limit, with a plan or not, is left out of both: its time
  is the limit's.)

Intervals and tests need `MIN_INSTANCES` instances (``-`` with fewer).  Each row names the
settings that differ from the default (``bound=none``); a configuration that gives up
optimality is marked ``(inexact)``.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from crosscheck.harness.judging.same_effort import effort_figure
from crosscheck.harness.records.evidence import Evidence
from crosscheck.harness.records.record import RunRecord, solver_runs
from crosscheck.harness.reports.aggregate import Cell, cells, positive
from crosscheck.harness.reports.diff_basis import Basis, basis
from crosscheck.harness.reports.numbers import significant
from crosscheck.harness.reports.paired import MIN_INSTANCES, bootstrap, wilcoxon

ABLATION_COLUMNS = ("configuration", "setting", "common", "solved", "exact", "clock", "time ratio", "95% interval",
                    "wilcoxon p", "effort ratio", "95% interval", "wilcoxon p")
#: What a p-value cell says without SciPy (the analysis extra).
NO_SCIPY = "n/a"
Pairs = list[tuple[list[float], list[float]]]


class NoAblation(ValueError):
    """Records that hold no ablation of the formulation asked for: the message says what they hold."""


@dataclass(frozen=True)
class Ratio:
    """B over A on paired samples: the geometric mean ratio, its interval, the test's p-value."""

    instances: int
    ratio: float | None
    low: float | None
    high: float | None
    p_value: float | None

    def cells(self) -> list[str]:
        """The ratio, its interval and p-value as table cells ('-' where unknown)."""
        if self.ratio is None:
            return ["-", "-", "-"]
        interval = "-" if self.low is None or self.high is None else \
            f"{significant(self.low)} - {significant(self.high)}"
        tested = self.instances >= MIN_INSTANCES
        p = "-" if not tested else NO_SCIPY if self.p_value is None else f"{self.p_value:.3g}"
        return [significant(self.ratio), interval, p]


def ratio(pairs: Pairs) -> Ratio:
    """The paired statistics of `pairs` (each instance's default and configuration values)."""
    if not pairs:
        return Ratio(0, None, None, None, None)
    logs = [math.log(positive(statistics.median(b))) - math.log(positive(statistics.median(a))) for a, b in pairs]
    low = high = None
    p_value = None
    if len(pairs) >= MIN_INSTANCES:
        low, high = bootstrap(pairs)
        p_value = wilcoxon(logs)
    return Ratio(len(pairs), math.exp(statistics.fmean(logs)), low, high, p_value)


@dataclass(frozen=True)
class AblationRow:
    """One configuration of the formulation against its default (see the module doc)."""

    configuration: str
    setting: str
    common: int
    solved: tuple[int, int]
    exact: tuple[int, int]
    clock: str
    time: Ratio
    effort: Ratio

    def cells(self) -> list[str]:
        """The row as table cells (columns `ABLATION_COLUMNS`)."""
        return [self.configuration, self.setting, str(self.common), f"{self.solved[0]} / {self.solved[1]}",
                f"{self.exact[0]} / {self.exact[1]}", self.clock, *self.time.cells(), *self.effort.cells()]


def ablation(records: Sequence[RunRecord], formulation: str) -> list[AblationRow]:
    """A row per configuration of `formulation` in `records` other than its default, by label;
    `NoAblation` when the records hold no run of its default or no other configuration."""
    own = [r for r in solver_runs(records) if r.formulation == formulation]
    labels = list(dict.fromkeys(r.solver for r in own))
    if formulation not in labels:
        held = sorted({r.formulation for r in solver_runs(records)})
        raise NoAblation(f"no run of {formulation}'s default configuration ({formulation}) to compare with"
                         + (f"; configurations run: {', '.join(labels)}" if labels else
                            f"; formulations run: {', '.join(held) or 'none'}"))
    if len(labels) == 1:
        raise NoAblation(f"only {formulation}'s default configuration ran: compare runs it beside others, "
                         f"e.g. --solver '{formulation}[OPTION=VALUE|default]' (crosscheck list --options)")
    by_label: dict[str, dict[tuple[str, bool], Cell]] = {}
    for cell in cells(own):
        by_label.setdefault(cell.solver, {})[cell.key] = cell
    baseline = by_label[formulation]
    return [_row(label, own, baseline, by_label[label], _clock(own, formulation, label))
            for label in sorted(labels) if label != formulation]


def _clock(records: Sequence[RunRecord], formulation: str, label: str) -> Basis:
    """The clock the default's and `label`'s times are compared on (`report --against`'s rule)."""
    return basis([r for r in records if r.solver == formulation], [r for r in records if r.solver == label])


def _row(label: str, records: Sequence[RunRecord], baseline: dict[tuple[str, bool], Cell],
         other: dict[tuple[str, bool], Cell], clock: Basis) -> AblationRow:
    """`label`'s row: what it sets away from the default (the bracket's contents, marked when it
    gives up optimality, as its `records` say), its counts and ratios against `baseline`."""
    inexact = any(r.evidence is Evidence.PLAN for r in records if r.solver == label)
    setting = label.partition("[")[2].removesuffix("]").replace(",", ", ") + (" (inexact)" if inexact else "")
    common = [key for key in baseline if key in other]
    both = [key for key in common if baseline[key].exact and (other[key].exact or inexact and other[key].solved)]
    times: Pairs = [(clock.times(baseline[key]), clock.times(other[key])) for key in both
                    if clock.measured(baseline[key]) and clock.measured(other[key])]
    efforts: Pairs = []
    for key in both:
        a, b = _efforts(baseline[key]), _efforts(other[key])
        if a and b:
            efforts.append((a, b))
    return AblationRow(label, setting, len(common),
                       (sum(baseline[key].solved for key in common), sum(other[key].solved for key in common)),
                       (sum(baseline[key].exact for key in common), sum(other[key].exact for key in common)),
                       clock.clock, ratio(times), ratio(efforts))


def _efforts(cell: Cell) -> list[float]:
    """The effort of each repetition of `cell` (at least 1), or [] when one did not count it."""
    values = []
    for run in cell.runs:
        figure = effort_figure(run)
        if figure is None or not isinstance(figure[1], int | float):
            return []
        values.append(max(float(figure[1]), 1.0))
    return values


def ablations(records: Sequence[RunRecord]) -> dict[str, list[AblationRow]]:
    """The ablation of every formulation in `records` that ran in its default configuration and
    in at least one other, by formulation (first seen first)."""
    found = {}
    for formulation in dict.fromkeys(r.formulation for r in solver_runs(records)):
        try:
            found[formulation] = ablation(records, formulation)
        except NoAblation:
            continue
    return found


def ablation_notes(formulation: str) -> list[str]:
    """What the ablation table of `formulation` shows, in words."""
    return [f"ablation of {formulation}: each configuration against the default ({formulation}) on the instances "
            "both ran (common); solved and exact as default / configuration",
            "time and effort ratios: geometric means of configuration over default on the instances both answered "
            "exactly (an inexact configuration: with a checked plan) "
            "(above 1: slower, more effort; time on the clock named: cpu when both ran on the CPU clock), 95% bootstrap intervals and Wilcoxon signed-rank p-values from "
            f"{MIN_INSTANCES} instances on ({NO_SCIPY}: SciPy, the analysis extra, is not installed); effort: "
            "states expanded, or CP-SAT's conflicts",
            "(inexact): the configuration gives up optimality; its answers are checked plans only"]


def render_ablation(records: Sequence[RunRecord], formulation: str, fmt: str) -> str:
    """The ablation table of `formulation` as aligned text (``table``), Markdown or a booktabs
    tabular (``latex``, the notes as comments), the notes after it for people; `NoAblation`
    when there is none."""
    from crosscheck.harness.reports.latex import tabular
    from crosscheck.harness.reports.tables import render_table

    body = [row.cells() for row in ablation(records, formulation)]
    lines = ablation_notes(formulation)
    if fmt == "latex":
        return tabular(ABLATION_COLUMNS, body, [f"crosscheck report --ablation {formulation}", *lines])
    return render_table(ABLATION_COLUMNS, body, fmt) + "\n" + "".join(f"{line}\n" for line in lines)
