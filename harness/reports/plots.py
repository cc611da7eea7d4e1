"""Figures rebuilt from run records (matplotlib, no display needed): PNG, SVG or PDF files, or SVG text.

Times are per cell (`crosscheck.harness.reports.aggregate.Cell`: one solver on one instance, the
median over its repetitions); a cell is solved when it is exact (a proven optimum with
an accepted plan, or a proof of infeasibility).  Every time axis is logarithmic, and a log
axis cannot show 0: times below `MIN_SECONDS` (1e-4 s; CP-SAT's trivial infeasibility
proofs lie below it) are drawn at it, as are the times in the ratios of ``profile``
and ``spread``.  Where some time lies below it, a dotted line marks the floor, and every
figure's `Plot.caption` states it.

Variant runs (``variant``: the instance solved under the puzzle's variant rules) are kept
apart from base runs as the tables keep them apart: cactus, profile and size draw a
curve per solver and variant (`series`: ``keys-grid [variant]``), so one curve never counts
an instance twice; the spread has a column per solver and variant, and a scatter plot pairs
base runs with base runs and variant with variant, drawing variant points in marks of their
own (`VARIANT_MARKS`) with ``[variant]`` in the legend.

- ``cactus``: per puzzle, each solver's exactly solved instances sorted by time:
  x = instances solved, y = seconds.  A curve further right and lower is better.
- ``scatter-PUZZLE-A-vs-B``: A's time (x) against B's (y) on the instances both ran;
  points below the diagonal are instances B solved faster.  A cell not solved exactly is
  drawn on the axis' far edge (past the time limit): triangles for unproven (timeout,
  answer without proof), red crosses for failures (error, memout, rejected plan); variant
  runs as squares, downward triangles and pluses.
- ``profile-PUZZLE``: Dolan-More performance profile over the instances some solver
  solved exactly: for each solver, the fraction of instances it solved within a factor
  tau of the fastest solver (x = tau, log2).  The value at 1 is how often it was the
  fastest; the height at the right is how often it solved the instance at all.
- ``size-PUZZLE``: time against the puzzle's first size feature: a dot per cell (hollow:
  not solved exactly), a diamond per family at its median size and the solver's median
  time over the family's exactly solved instances, and per solver a line through the
  diamonds: at each size, the median of the solver's diamonds of that size (the diamond
  itself where one family has that size).  Generated families share their size
  parameters, so the line shows how each formulation scales.  Not drawn when every
  instance of the puzzle has the same size (one vertical stripe): `figure_notes` says so.
- ``spread``: with repetitions (``compare --repeat``), every run's seconds divided by
  the median of its cell, per solver and variant: how far one run can be from another.
"""

from __future__ import annotations

import io
import math
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import combinations
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only; never open a window
matplotlib.rcParams["svg.hashsalt"] = "crosscheck"  # the same records give the same SVG text
matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: small files, no embedded fonts
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
from crosscheck.harness.records.record import RunRecord  # noqa: E402
from crosscheck.harness.reports.aggregate import MIN_SECONDS, Cell, cells, positive  # noqa: E402
from crosscheck.harness.reports.formats import PLOT_FORMATS, PNG_DPI  # noqa: E402
from crosscheck.harness.reports.wording import counted
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

#: What the caption of a figure with a time axis says about the floor.
FLOOR = (f"Times below {MIN_SECONDS:g} s are drawn at {MIN_SECONDS:g} s (a log scale cannot show 0); a dash-dotted "
         "line marks the floor where some time lies below it.")
#: What the caption of a figure of ratios of times says about the floor.
RATIO_FLOOR = f"Times below {MIN_SECONDS:g} s count as {MIN_SECONDS:g} s in the ratios (a log scale cannot show 0)."
#: The caption of each kind of figure: what is plotted, its axes and scales, and the floor.
CAPTIONS = {
    "cactus": "Cactus plot, a panel per puzzle: each solver's instances solved exactly, sorted by time (its "
              "variant runs a curve of their own, marked [variant]); "
              "x: instances solved (linear), y: seconds, the median over an instance's repetitions (log). "
              f"Further right and lower is better. {FLOOR}",
    "profile": "Dolan-More performance profile over the instances some solver solved exactly: x: tau "
               "(log2), y: the fraction of those instances the solver solved exactly within a factor tau of "
               "the fastest (linear); its value at tau = 1 is how often it was fastest, its height on the "
               f"right how often it solved the instance at all. {RATIO_FLOOR}",
    "scatter": "Seconds on the instances both ran (both axes log); below the diagonal the second was faster. "
               "Instances not solved exactly are drawn past the dotted lines at the far edge: triangles "
               "unproven (timeout, answer without proof), red crosses failed (error, memout, rejected plan); "
               "variant runs (legend: [variant]) as squares, downward triangles and pluses. "
               f"{FLOOR}",
    "size": "Time against the puzzle's first size measure: x: that measure (linear), y: seconds (log); a dot "
            "per instance and solver (hollow: not solved exactly), a diamond per family (its median size, "
            "the solver's median time over the family's instances it solved exactly), and per solver a "
            "line through, at each size, the median of its diamonds of that size (the diamond itself "
            f"where one family has that size). {FLOOR}",
    "spread": "Run-to-run noise (compare --repeat): x: solver (its variant runs apart, marked [variant]), "
              "y: each repeated run's seconds over the "
              f"median of its instance's repetitions (log; 1 is the median). {RATIO_FLOOR}",
}
#: How each outcome of a cell is marked on a scatter plot's edge.
_EDGE_MARKS = {"unproven": ("^", "tab:orange"), "failed": ("x", "tab:red")}
#: The mark of a variant run's scatter point in place of a base run's of the same outcome.
VARIANT_MARKS = {"o": "s", "^": "v", "x": "+"}


@dataclass(frozen=True)
class Plot:
    """One figure, drawn when asked: `name` is its file stem, `kind` the family of plots
    (``cactus``, ``scatter``, ``profile``, ``size``, ``spread``), `puzzle` its puzzle
    ("" for all) and `caption` what it shows: what is plotted, its axes and scales, and the floor."""

    name: str
    kind: str
    puzzle: str
    draw: Callable[[], Figure]
    caption: str


def series(cell: Cell) -> str:
    """The curve a cell belongs to: its solver, marked `` [variant]`` for a variant run."""
    return cell.solver + (" [variant]" if cell.first.variant else "")


def size_feature(grid: list[Cell]) -> str:
    """The size measure `time_by_size` draws: the first feature the cells record ('' for none)."""
    return next((name for c in grid for name in c.first.features), "")


def _one_size(grid: list[Cell]) -> str:
    """Why the size figure of `grid` (one puzzle's cells) is not drawn: every instance has
    the same size (or none records one); '' when it is drawn."""
    feature = size_feature(grid)
    sizes = {c.first.features[feature] for c in grid if feature in c.first.features}
    if len(sizes) > 1:
        return ""
    measure = f"{feature} {next(iter(sizes))}" if sizes else "no size measure"
    return (f"size-{grid[0].puzzle} not drawn: every instance has {measure}, so time against size would be "
            "one vertical stripe")


def figure_notes(records: Iterable[RunRecord]) -> list[str]:
    """The figures `plots` leaves out and why (the size figure of a puzzle whose instances
    all have one size), for captions.txt, the plot command and the HTML page."""
    grid = [c for c in cells(records) if c.puzzle]
    return [note for puzzle in sorted({c.puzzle for c in grid})
            if (note := _one_size([c for c in grid if c.puzzle == puzzle]))]


def plots(records: Iterable[RunRecord]) -> list[Plot]:
    """Every figure the records support (see the module doc), cactus first."""
    grid = [c for c in cells(records) if c.puzzle]
    puzzles = sorted({c.puzzle for c in grid})
    found = [Plot("cactus", "cactus", "", partial(cactus, grid), CAPTIONS["cactus"])] if grid else []
    for puzzle in puzzles:
        own = [c for c in grid if c.puzzle == puzzle]
        found.append(Plot(f"profile-{puzzle}", "profile", puzzle, partial(profile, own),
                          f"{puzzle}: {CAPTIONS['profile']}"))
        for a, b in combinations(sorted({c.solver for c in own}), 2):
            found.append(Plot(f"scatter-{puzzle}-{a}-vs-{b}", "scatter", puzzle, partial(scatter, own, a, b),
                              f"{puzzle}: {a} (x) against {b} (y). {CAPTIONS['scatter']}"))
        if not _one_size(own):
            found.append(Plot(f"size-{puzzle}", "size", puzzle, partial(time_by_size, own),
                              f"{puzzle}: {CAPTIONS['size']}"))
    if any(len(c.runs) > 1 for c in grid):
        found.append(Plot("spread", "spread", "", partial(spread, grid), CAPTIONS["spread"]))
    return found


#: What makes a file the same for the same records: no creation date in it.
_NO_DATE = {"png": None, "svg": {"Date": None}, "pdf": {"CreationDate": None}}


def plot_all(records: Sequence[RunRecord], folder: Path, fmt: str = "png") -> list[Path]:
    """Draw every plot into `folder` (created if needed) as `fmt` (one of `PLOT_FORMATS`; a
    PNG at `PNG_DPI`), and its caption into ``captions.txt`` there (``FILE: caption`` per
    line, then the `figure_notes` on figures not drawn); return the figure files written."""
    if fmt not in PLOT_FORMATS:
        raise ValueError(f"no figure format {fmt!r} (valid: {', '.join(PLOT_FORMATS)})")
    folder.mkdir(parents=True, exist_ok=True)
    written, captions = [], []
    for plot in plots(records):
        figure = plot.draw()
        path = folder / f"{plot.name}.{fmt}"
        figure.savefig(path, format=fmt, dpi=PNG_DPI, metadata=_NO_DATE[fmt])
        plt.close(figure)
        written.append(path)
        captions.append(f"{path.name}: {plot.caption}\n")
    captions += [f"{note}\n" for note in figure_notes(records)]
    (folder / "captions.txt").write_text("".join(captions), encoding="utf-8")
    return written


def svg(plot: Plot) -> str:
    """The plot as SVG text (no date, deterministic ids; text as text in a generic font)."""
    figure = plot.draw()
    out = io.StringIO()
    figure.savefig(out, format="svg", metadata={"Date": None})
    plt.close(figure)
    return out.getvalue()


def cactus(grid: list[Cell]) -> Figure:
    """Per puzzle, each solver's exact cells by time."""
    puzzles = sorted({c.puzzle for c in grid})
    figure, panels = plt.subplots(1, len(puzzles), figsize=(4.2 * len(puzzles), 4), squeeze=False)
    for axes, puzzle in zip(panels[0], puzzles, strict=True):
        for name in sorted({series(c) for c in grid if c.puzzle == puzzle}):
            times = sorted(c.seconds for c in grid if c.puzzle == puzzle and series(c) == name and c.exact)
            axes.step(range(1, len(times) + 1), list(map(positive, times)), where="post", label=name, marker=".")
        _mark_floor(axes, [c.seconds for c in grid if c.puzzle == puzzle and c.exact], "y")
        _label(axes, "instances solved exactly", "seconds (log)", puzzle)
        axes.set_yscale("log")
    figure.suptitle("Cactus plot: instances solved by time")
    figure.tight_layout()
    return figure


def scatter(grid: list[Cell], a: str, b: str) -> Figure:
    """`a`'s time against `b`'s on their common instances; unsolved cells on the far edges."""
    left = {c.key: c for c in grid if c.solver == a}
    right = {c.key: c for c in grid if c.solver == b}
    pairs = [(left[key], right[key]) for key in left if key in right]
    edge = 2 * max([_limit(grid), *(c.seconds for c in grid)])
    figure, axes = plt.subplots(figsize=(5, 5))
    _scatter_points(axes, pairs, edge)
    low = min([positive(c.seconds) for pair in pairs for c in pair], default=1.0) / 2
    axes.plot([low, edge], [low, edge], color="grey", linewidth=0.8)
    for limit_line in (axes.axvline, axes.axhline):
        limit_line(edge / 1.5, color="grey", linestyle=":", linewidth=0.8)
    _mark_floor(axes, [c.seconds for pair in pairs for c in pair if c.exact], "xy")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlim(low, edge * 1.2)
    axes.set_ylim(low, edge * 1.2)
    _label(axes, f"{a} seconds (log)", f"{b} seconds (log)", f"{a} vs {b}: {len(pairs)} common instances\n"
                                                 "(past the dotted lines: not solved exactly)")
    figure.tight_layout()
    return figure


def _scatter_points(axes: Axes, pairs: list[tuple[Cell, Cell]], edge: float) -> None:
    """A group of points per outcome (`_worst`) and kind of run: base runs in the outcome's
    mark, variant runs (when there are any) in its `VARIANT_MARKS` one, ``[variant]`` in
    the legend, as the other figures name a variant curve."""
    kinds = sorted({x.first.variant for x, _ in pairs}) or [False]
    for outcome, (marker, colour) in {"exact": ("o", "tab:blue"), **_EDGE_MARKS}.items():
        for variant in kinds:
            chosen = [(x, y) for x, y in pairs if _worst(x, y) == outcome and x.first.variant == variant]
            axes.scatter([_place(x, edge) for x, _ in chosen], [_place(y, edge) for _, y in chosen],
                         marker=VARIANT_MARKS[marker] if variant else marker, color=colour, s=22, clip_on=False,
                         label=f"{outcome}{' [variant]' if variant else ''} ({len(chosen)})")


def _worst(x: Cell, y: Cell) -> str:
    """How a scatter point is marked: failed over unproven over exact."""
    outcomes = {x.outcome, y.outcome}
    return next(kind for kind in ("failed", "unproven", "exact") if kind in outcomes)


def _place(cell: Cell, edge: float) -> float:
    return positive(cell.seconds) if cell.exact else edge


def _limit(grid: list[Cell]) -> float:
    """The largest time limit the runs had (0 when none is recorded)."""
    return max((float(r.environment.get("time_limit") or 0) for c in grid for r in c.runs), default=0.0)


def profile(grid: list[Cell]) -> Figure:
    """The Dolan-More performance profile of the solvers of one puzzle, a curve per `series`
    (variant runs over the variant instances, base runs over the base ones)."""
    best: dict[tuple[str, bool], float] = {}
    for cell in grid:
        if cell.exact:
            best[cell.key] = min(best.get(cell.key, math.inf), positive(cell.seconds))
    figure, axes = plt.subplots(figsize=(6, 4))
    top = 2.0
    for name in sorted({series(c) for c in grid}):
        own = [c for c in grid if series(c) == name]
        ratios = sorted(positive(c.seconds) / best[c.key] for c in own if c.exact)
        top = max(top, *ratios, 2.0)
        instances = sum(variant == own[0].first.variant for _, variant in best)
        fractions = [(i + 1) / instances for i in range(len(ratios))]
        axes.step([1.0, *ratios], [0.0, *fractions], where="post", label=name)
    axes.set_xscale("log", base=2)
    axes.set_xlim(1, top * 1.1)
    axes.set_ylim(0, 1.02)
    _label(axes, "tau: within this factor of the fastest", "fraction of instances",
           f"{grid[0].puzzle}: performance profile over {counted(len(best), 'instance')} solved exactly")
    figure.tight_layout()
    return figure


def time_by_size(grid: list[Cell]) -> Figure:
    """Time against the puzzle's first size feature: a dot per cell (hollow: not exact), a
    diamond per family's median, and per solver a line through them (see the module doc)."""
    feature = size_feature(grid)
    sized = [c for c in grid if feature in c.first.features]
    figure, axes = plt.subplots(figsize=(7, 4.5))
    for number, name in enumerate(sorted({series(c) for c in sized})):
        colour = f"C{number}"
        own = [c for c in sized if series(c) == name]
        for done, face in ((True, colour), (False, "none")):
            chosen = [c for c in own if c.exact == done]
            axes.scatter([c.first.features[feature] for c in chosen], [positive(c.seconds) for c in chosen],
                         s=14, facecolors=face, edgecolors=colour, alpha=0.5)
        medians = sorted((statistics.median(c.first.features[feature] for c in members),
                          statistics.median(positive(c.seconds) for c in members))
                         for family in sorted({c.family for c in own})
                         if (members := [c for c in own if c.family == family and c.exact]))
        axes.scatter([x for x, _ in medians], [y for _, y in medians], color=colour, marker="D", s=20)
        sizes = sorted({x for x, _ in medians})  # families of one size share a point of the line
        axes.plot(sizes, [statistics.median(y for x, y in medians if x == size) for size in sizes], color=colour,
                  label=name)
    _mark_floor(axes, [c.seconds for c in sized], "y")
    axes.set_yscale("log")
    _label(axes, feature or "size", "seconds (log)", f"{grid[0].puzzle}: time against {feature or 'size'} "
           "(diamonds: family medians; line: their median per size)")
    figure.tight_layout()
    return figure


def spread(grid: list[Cell]) -> Figure:
    """Every repeated run's seconds over its cell's median, a column per `series` (solver and variant)."""
    repeated = [c for c in grid if len(c.runs) > 1]
    names = sorted({series(c) for c in repeated})
    figure, axes = plt.subplots(figsize=(max(6, 0.7 * len(names) + 2), 4))
    for position, name in enumerate(names):
        ratios = [positive(t) / positive(c.seconds) for c in repeated if series(c) == name for t in c.times]
        offsets = [position + 0.3 * ((i * 0.618) % 1 - 0.5) for i in range(len(ratios))]  # spread the dots apart
        axes.scatter(offsets, ratios, s=10, alpha=0.6)
    axes.axhline(1.0, color="grey", linewidth=0.8)
    axes.set_xticks(range(len(names)), names, rotation=30, ha="right")
    axes.set_yscale("log")
    _label(axes, "", "run seconds / median of its cell", "Spread of repeated runs")
    figure.tight_layout()
    return figure


def _mark_floor(axes: Axes, seconds: list[float], time_axes: str) -> None:
    """A dotted line at `MIN_SECONDS` on each of `time_axes` ("x", "y" or "xy") when some of
    `seconds` lie below it, so times drawn at the floor are not read as measured there."""
    if any(value < MIN_SECONDS for value in seconds):
        for number, axis in enumerate(time_axes):
            line = axes.axhline if axis == "y" else axes.axvline
            line(MIN_SECONDS, color="black", linestyle="-.", linewidth=0.8,
                 label=f"floor {MIN_SECONDS:g} s" if number == 0 else None)


def _label(axes: Axes, xlabel: str, ylabel: str, title: str, legend: bool = True) -> None:
    """Axis labels, title, a light grid and (unless not `legend`) a legend when something is labelled."""
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.set_title(title, fontsize="medium")
    axes.grid(True, which="both", alpha=0.3)
    if legend and axes.get_legend_handles_labels()[0]:
        axes.legend(fontsize="small")
