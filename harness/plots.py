"""PNG plots rebuilt from run records (matplotlib, no display needed).

- ``cactus.png``: for each solver, its exactly solved runs (optimal or infeasible,
  with a valid plan where there is one) sorted by time: x = runs solved, y = seconds.
  A curve further right and lower is better.
- ``size-PUZZLE.png``: time against the puzzle's first size feature, one series per
  solver; unsolved runs are drawn hollow at their time.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only; never open a window
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

from crosscheck.harness.records import RunRecord  # noqa: E402


def _seconds(record: RunRecord) -> float:
    return max(record.seconds, 1e-4)  # log axes cannot show zero


def plot_all(records: Iterable[RunRecord], folder: Path) -> list[Path]:
    """Draw every plot into `folder` (created if needed); return the files written."""
    records = [r for r in records if r.puzzle is not None]
    folder.mkdir(parents=True, exist_ok=True)
    written = [cactus(records, folder / "cactus.png")]
    for puzzle in sorted({r.puzzle for r in records if r.puzzle is not None}):
        written.append(time_by_size([r for r in records if r.puzzle == puzzle], puzzle,
                                    folder / f"size-{puzzle}.png"))
    return written


def cactus(records: list[RunRecord], path: Path) -> Path:
    """Solved runs against time, per solver."""
    times: dict[str, list[float]] = defaultdict(list)
    for record in records:
        if record.exact:
            times[record.solver].append(_seconds(record))
    figure, axes = plt.subplots(figsize=(7, 4.5))
    for solver, values in sorted(times.items()):
        values.sort()
        axes.step(range(1, len(values) + 1), values, where="post", label=solver, marker=".")
    return _save(figure, axes, "runs solved exactly", "Cactus plot: solved runs by time", path)


def time_by_size(records: list[RunRecord], puzzle: str, path: Path) -> Path:
    """Time against the first size feature, per solver (hollow marks: not solved)."""
    feature = next((name for r in records for name in r.features), "")  # "": no features, nothing to plot
    figure, axes = plt.subplots(figsize=(7, 4.5))
    for solver in sorted({r.solver for r in records}):
        runs = [r for r in records if r.solver == solver and feature in r.features]
        done = [r for r in runs if r.exact]
        failed = [r for r in runs if not r.exact]
        line = axes.scatter([r.features[feature] for r in done], [_seconds(r) for r in done], label=solver, s=18)
        axes.scatter([r.features[feature] for r in failed], [_seconds(r) for r in failed],
                     facecolors="none", edgecolors=line.get_facecolor(), s=18)
    title = f"{puzzle}: time against {feature or 'size'} (hollow: not solved)"
    return _save(figure, axes, feature or "size", title, path)


def _save(figure: plt.Figure, axes: plt.Axes, xlabel: str, title: str, path: Path) -> Path:
    """Label a time-on-a-log-axis plot, write it as PNG and free it."""
    axes.set_xlabel(xlabel)
    axes.set_ylabel("seconds (log scale)")
    axes.set_yscale("log")
    axes.set_title(title)
    axes.grid(True, which="both", alpha=0.3)
    if axes.get_legend_handles_labels()[0]:
        axes.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path
