"""Tables rebuilt from run records: plain text, Markdown or CSV.

Reports never rerun anything: `crosscheck report FILE` and the table printed at the
end of `compare` come from the same records through `render`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from harness.records import RunRecord
from harness.verdicts import InstanceVerdict, judge_all

COLUMNS = ("instance", "solver", "status", "cost", "bound", "plan", "seconds", "effort", "verdict")
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


def render(records: Iterable[RunRecord], fmt: str = "table") -> str:
    """The run table followed by the verdicts that are not plain agreement."""
    records = list(records)
    body = rows(records)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(COLUMNS)
        for record, row in zip(sorted(records, key=lambda r: (r.instance, r.variant)), body, strict=True):
            writer.writerow([_name(record), *row[1:]])
        return out.getvalue()
    if fmt == "markdown":
        lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
        lines += ["| " + " | ".join(row) + " |" for row in body]
        return "\n".join(lines) + "\n" + _notes(records)
    widths = [max(len(COLUMNS[i]), *(len(row[i]) for row in body)) for i in range(len(COLUMNS))] if body else []
    # without rows there are no widths, and the header is left out too
    lines = ["  ".join(c.ljust(w) for c, w in zip(COLUMNS, widths, strict=False))]
    lines += ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in body]
    return "\n".join(lines) + "\n" + _notes(records)


def _notes(records: list[RunRecord]) -> str:
    """The reason behind every verdict other than `agree`, and a count of verdicts."""
    verdicts = judge_all(records)
    lines = [f"{_name(v)}: {v.verdict.value}: {v.reason}" for v in verdicts if v.verdict.value != "agree"]
    counts: dict[str, int] = {}
    for v in verdicts:
        counts[v.verdict.value] = counts.get(v.verdict.value, 0) + 1
    summary = ", ".join(f"{n} {name}" for name, n in sorted(counts.items()))
    return "\n".join([*lines, f"{len(verdicts)} instances: {summary}"]) + "\n"
