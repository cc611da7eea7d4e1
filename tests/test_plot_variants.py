"""Figures keep variant runs apart from base runs, as the tables do (a curve, column or
mark of their own in every figure), and leave out a time-against-size figure that would be
one vertical stripe, saying so (hand-made records)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from crosscheck.harness.cli import main
from crosscheck.harness.records.record import RunRecord, append_record
from crosscheck.harness.reports.plots import figure_notes, plot_all, plots
from crosscheck.solvers.base import Status


def _run(n: int, solver: str, variant: bool, keys: int, repeat: int = 0) -> RunRecord:
    return RunRecord(instance=f"keys/gen/{n}.txt", puzzle="keys", solver=solver, variant=variant,
                     status=Status.OPTIMAL, cost=8, bound=8, plan_valid=True, checked_cost=8, repeat=repeat,
                     seconds=0.01 * (n + 1) * (3 if variant else 1) * (1 + repeat), plan=[], features={"keys": keys})


def _study(sizes: bool, repeats: int = 1) -> list[RunRecord]:
    """Two solvers on three vaults, each run on the base rules and on the variant (`repeats`
    times, each repetition slower); the vaults have three sizes, or all one."""
    return [_run(n, solver, variant, 2 + n if sizes else 4, repeat)
            for n in range(3) for solver in ("a", "b") for variant in (False, True) for repeat in range(repeats)]


def _curves(name: str, records: list[RunRecord], axis: int = 0) -> dict[str, list[float]]:
    """The x (`axis` 0) or y (1) values of each labelled line of the figure `name`."""
    figure = next(plot for plot in plots(records) if plot.name == name).draw()
    found: dict[str, list[float]] = {}
    for axes in figure.axes:
        for line in axes.get_lines():
            label = str(line.get_label())
            if not label.startswith("_"):  # matplotlib's unlabelled lines
                found[label] = np.asarray(line.get_data()[axis], dtype=float).tolist()
    return found


def test_the_cactus_plot_draws_a_curve_per_solver_and_variant() -> None:
    curves = _curves("cactus", _study(sizes=True))
    assert set(curves) == {"a", "a [variant]", "b", "b [variant]"}
    assert all(max(xs) == 3 for xs in curves.values())  # three instances each, never six


def test_the_profile_counts_variant_instances_apart() -> None:
    tops = {label: max(ys) for label, ys in _curves("profile-keys", _study(sizes=True), axis=1).items()}
    assert tops == {"a": 1.0, "a [variant]": 1.0, "b": 1.0, "b [variant]": 1.0}


def test_the_size_figure_draws_a_line_per_solver_and_variant() -> None:
    curves = _curves("size-keys", _study(sizes=True))
    assert set(curves) == {"a", "a [variant]", "b", "b [variant]"}


def test_the_scatter_plot_marks_variant_points_apart() -> None:
    """Base runs pair with base runs and variant with variant, each kind in marks of its own."""
    figure = next(plot for plot in plots(_study(sizes=True)) if plot.name == "scatter-keys-a-vs-b").draw()
    groups = {str(c.get_label()): c for axes in figure.axes for c in axes.collections}
    base, variant = groups["exact (3)"], groups["exact [variant] (3)"]
    assert np.asarray(base.get_offsets())[:, 0].tolist() == pytest.approx([0.01, 0.02, 0.03])
    assert np.asarray(variant.get_offsets())[:, 0].tolist() == pytest.approx([0.03, 0.06, 0.09])
    assert not np.array_equal(base.get_paths()[0].vertices, variant.get_paths()[0].vertices)  # another mark
    alone = next(plot for plot in plots(_study(sizes=True)[::2]) if plot.name == "scatter-keys-a-vs-b").draw()
    assert {str(c.get_label()) for c in alone.axes[0].collections} == {"exact (3)", "unproven (0)", "failed (0)"}


def test_the_spread_has_a_column_per_solver_and_variant() -> None:
    figure = next(plot for plot in plots(_study(sizes=True, repeats=2)) if plot.name == "spread").draw()
    [axes] = figure.axes
    assert [label.get_text() for label in axes.get_xticklabels()] == ["a", "a [variant]", "b", "b [variant]"]
    columns = [np.rint(np.asarray(c.get_offsets())[:, 0]).tolist() for c in axes.collections]
    assert [set(xs) for xs in columns] == [{0.0}, {1.0}, {2.0}, {3.0}]
    assert [len(xs) for xs in columns] == [6, 6, 6, 6]  # three vaults, two runs each: never twelve


def test_a_size_figure_of_one_size_is_left_out_and_named(tmp_path: Path) -> None:
    records = _study(sizes=False)
    assert "size-keys" not in {plot.name for plot in plots(records)}
    note = ("size-keys not drawn: every instance has keys 4, so time against size would be one vertical stripe")
    assert figure_notes(records) == [note]
    plot_all(records, tmp_path / "figures", "svg")
    captions = (tmp_path / "figures" / "captions.txt").read_text()
    assert captions.splitlines()[-1] == note and captions.endswith(f"{note}\n")  # a text file: its last line ends too
    results = tmp_path / "runs.jsonl"
    for record in records:
        append_record(results, record)
    done = CliRunner().invoke(main, ["plot", str(results), "-o", str(tmp_path / "cli"), "--format", "svg"])
    assert done.exit_code == 0 and f"note: {note}" in done.stderr
    page = tmp_path / "report.html"
    CliRunner().invoke(main, ["report", str(results), "--format", "html", "-o", str(page)])
    assert f'<p class="note figure-note">{note}</p>' in page.read_text(encoding="utf-8")
