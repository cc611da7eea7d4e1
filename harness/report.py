"""Tables rebuilt from run records: plain text, Markdown or CSV.

Reports never rerun anything: `crosscheck report FILE` and the table printed at the
end of `compare` come from the same records through `render`.
"""

from __future__ import annotations

import csv
import io
import statistics
from collections.abc import Iterable, Sequence

from harness.records import RunRecord
from harness.verdicts import InstanceVerdict, judge_all
from solvers.base import Status

COLUMNS = ("instance", "solver", "status", "cost", "bound", "plan", "seconds", "effort", "verdict")
SUMMARY_COLUMNS = ("puzzle", "solver", "runs", "exact", "feasible", "timeout", "memout", "error", "invalid plans",
                   "median s (exact)", "max s (exact)")
FORMATS = ("table", "markdown", "csv")


def effort(record: RunRecord) -> str:
    """The solver's own measure of work: states expanded, or CP-SAT conflicts."""
    stats = record.stats
    if "expanded" in stats:
        return f"{stats['expanded']} states"
    if "conflicts" in stats:
        return f"{stats['conflicts']} conflicts"
    return ""


def _plan_cell(record: RunRecord) -> str:
    if record.plan_valid is None:
        return "-"
    return "ok" if record.plan_valid else "INVALID"


def _name(record: RunRecord | InstanceVerdict) -> str:
    return record.instance + (" [variant]" if record.variant else "")


def rows(records: list[RunRecord]) -> list[list[str]]:
    """One row per run; the instance's verdict stands on its first row."""
    verdicts = {(v.instance, v.variant): v for v in judge_all(records)}
    table, seen = [], set()
    for record in sorted(records, key=lambda r: (r.instance, r.variant)):
        key = (record.instance, record.variant)
        verdict = verdicts[key].verdict.value if key not in seen else ""
        seen.add(key)
        table.append([
            _name(record) if verdict else "",
            record.solver,
            record.status.value,
            "" if record.cost is None else str(record.cost),
            "" if record.bound is None else str(record.bound),
            _plan_cell(record),
            f"{record.seconds:.3f}",
            effort(record),
            verdict,
        ])
    return table


def summary_rows(records: list[RunRecord]) -> list[list[str]]:
    """One row per (puzzle, solver): how many runs ended how, and the times of the exact ones."""
    groups: dict[tuple[str, str], list[RunRecord]] = {}
    for record in records:
        if record.puzzle is not None:  # unreadable files have no solver to summarise
            groups.setdefault((record.puzzle, record.solver), []).append(record)
    table = []
    for (puzzle, solver), runs in sorted(groups.items()):
        times = [r.seconds for r in runs if r.exact]
        counts = [sum(r.exact for r in runs), *(sum(r.status is status for r in runs)
                  for status in (Status.FEASIBLE, Status.TIMEOUT, Status.MEMOUT, Status.ERROR))]
        table.append([
            puzzle, solver, str(len(runs)), *map(str, counts), str(sum(r.plan_valid is False for r in runs)),
            f"{statistics.median(times):.3f}" if times else "-", f"{max(times):.3f}" if times else "-",
        ])
    return table


def render(records: Iterable[RunRecord], fmt: str = "table", by: str = "run") -> str:
    """The run table (or with `by="solver"` the per-solver summary) followed by the
    verdicts that are not plain agreement."""
    records = list(records)
    if by == "solver":
        return _format(SUMMARY_COLUMNS, summary_rows(records), fmt) + _notes(records)
    body = rows(records)
    if fmt == "csv":  # every row names its instance, for spreadsheets
        body = [[_name(record), *row[1:]]
                for record, row in zip(sorted(records, key=lambda r: (r.instance, r.variant)), body, strict=True)]
        return _format(COLUMNS, body, fmt)
    return _format(COLUMNS, body, fmt) + _notes(records)


def _format(columns: Sequence[str], body: list[list[str]], fmt: str) -> str:
    """`body` under `columns` as CSV, a Markdown table or aligned plain text."""
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(columns)
        writer.writerows(body)
        return out.getvalue()
    if fmt == "markdown":
        lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
        lines += ["| " + " | ".join(row) + " |" for row in body]
        return "\n".join(lines) + "\n"
    widths = [max(len(columns[i]), *(len(row[i]) for row in body)) for i in range(len(columns))] if body else []
    # without rows there are no widths, and the header is left out too
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=False)).rstrip()]
    lines += ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in body]
    return "\n".join(lines) + "\n"


def _notes(records: list[RunRecord]) -> str:
    """The reason behind every verdict other than `agree`, and a count of verdicts."""
    verdicts = judge_all(records)
    lines = [f"{_name(v)}: {v.verdict.value}: {v.reason}" for v in verdicts if v.verdict.value != "agree"]
    counts: dict[str, int] = {}
    for v in verdicts:
        counts[v.verdict.value] = counts.get(v.verdict.value, 0) + 1
    summary = ", ".join(f"{n} {name}" for name, n in sorted(counts.items()))
    return "\n".join([*lines, f"{len(verdicts)} instances: {summary}"]) + "\n"
