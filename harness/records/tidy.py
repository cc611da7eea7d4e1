"""Run records as tidy data: one row per record, every column a plain value.

This is what ``crosscheck report FILE --format csv|jsonl|parquet`` writes, and what
`load` hands to pandas::

    import crosscheck.harness.records.tidy
    frame = crosscheck.harness.records.tidy.load("runs.jsonl")   # or a .csv / .parquet written by `report`
    frame[frame.exact].groupby("solver").seconds.median()

Columns (`COLUMNS` first, in this order, then the solvers' numeric and text statistics
under their own names, e.g. ``expanded``, ``generated``, ``conflicts``, ``branches``,
then the instance's size measures as ``feature_NAME``):

- ``instance``, ``variant`` (bool), ``puzzle``, ``solver``, ``repeat``: which run;
- ``status``; ``exact`` (bool: a proven optimum with an accepted plan, or a proof of
  infeasibility, within the time limit); ``evidence`` (``proof``, ``certified`` once the harness checked its
  certificate, or ``claim`` for an external program's answer;
  see `crosscheck.harness.records.evidence`); ``verdict`` and ``independent`` of the instance (on every row: how many
  formulations sharing no answer-deciding component proved its exact answer: the agreed
  one on ``agree``, the one contradicting the index on ``wrong-expected``; else 0);
- ``expected`` (the index's optimum, empty when unknown or infeasible) and
  ``expected_infeasible`` (bool);
- ``cost``, ``bound``, ``checked_cost``, ``plan_valid`` (bool, empty without a plan),
  ``plan_length``;
- ``seconds`` (the solver's), ``wall_seconds`` (the harness's), ``cpu_seconds``,
  ``peak_memory_mb``, ``cpsat_workers``, ``time_limit``, ``clock``, ``memory_limit_mb``;
- ``shares`` (the solver's shared components, ``;``-separated), ``commit``, ``source``
  (digest of the code that ran, uncommitted edits included), ``solver_source`` (digest of
  a plugin formulation's code, its module and the modules of its package it imports, or of
  the files an external program's command names; empty for built-in ones),
  ``solver_distribution`` and ``solver_version`` (of a formulation from an installed
  distribution's entry point, empty otherwise), ``host``, ``cpu_model``, ``started`` (UTC,
  ISO 8601), ``jobs`` (the command's concurrent runs), ``load_average`` (1-minute, as the run
  started; the last four empty in records older than them), ``schema_version``, ``message``;
- last, so that adding them moved none of the columns above: ``left_out``, the solvers
  ``report --solver/--exclude-solver`` left out before judging, ``;``-separated, the same on
  every row, empty when none (then verdict and independent are over every formulation that
  ran); ``start_memory_mb``, what the run's process held as it started, which
  ``peak_memory_mb`` includes (empty in records older than it); ``formulation`` and
  ``configuration`` (its label, as ``solver``; `crosscheck.solvers.configuration`), then each
  option of the configuration as ``option_NAME`` (a CP-SAT parameter passed through as
  ``option_cpsat.NAME``; empty where a run's formulation has no such option), after the statistics; ``late_status``, the status a
  run answered with after its time limit had passed (its ``status`` is then ``timeout`` and
  ``exact`` false, as every figure counts it; empty for a run that answered in time).

A statistic whose name is already a column is written as ``stat_NAME``.  Empty cells
are unknown values (None).  pandas and pyarrow come with the ``analysis`` extra.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import TYPE_CHECKING

from crosscheck.harness.judging.verdicts import JudgedRuns, judged
from crosscheck.harness.records.record import RunRecord, read_records
from crosscheck.models.answers import NoSolution, Optimum

if TYPE_CHECKING:  # pandas is optional (the analysis extra)
    import pandas

Scalar = str | int | float | bool | None

COLUMNS = (
    "instance", "variant", "puzzle", "solver", "repeat", "status", "exact", "evidence", "verdict", "independent",
    "expected", "expected_infeasible", "cost", "bound", "checked_cost", "plan_valid", "plan_length",
    "seconds", "wall_seconds", "cpu_seconds", "peak_memory_mb", "cpsat_workers", "time_limit", "clock",
    "memory_limit_mb", "shares", "commit", "source", "solver_source", "solver_distribution", "solver_version",
    "host", "cpu_model", "started", "jobs", "load_average", "schema_version", "message",
    "left_out", "start_memory_mb", "late_status", "formulation", "configuration",
)
#: Statistics that are not measurements of effort (a crash's traceback is in `message` already).
_SKIPPED_STATS = frozenset({"traceback"})


def rows(runs: JudgedRuns) -> list[dict[str, Scalar]]:
    """One flat row per record, in the records' order, with the columns of every record."""
    flat = []
    for record in runs.records:
        verdict = runs.verdict_of(record.instance, record.variant)
        row = _fixed(record)
        row["verdict"], row["independent"] = verdict.verdict.value, verdict.independent
        row["left_out"] = ";".join(runs.left_out)
        for name, value in sorted(record.stats.items()):
            if name not in _SKIPPED_STATS:
                row[f"stat_{name}" if name in COLUMNS else name] = value
        row.update({f"feature_{name}": value for name, value in sorted(record.features.items())})
        row.update(option_columns(record.options))
        flat.append(row)
    names = list(COLUMNS) + sorted({name for row in flat for name in row} - set(COLUMNS),
                                   key=lambda name: (name.startswith("feature_"), name.startswith("option_"), name))
    return [{name: row.get(name) for name in names} for row in flat]


def option_columns(options: dict[str, object]) -> dict[str, Scalar]:
    """A configuration's options as tidy columns: ``option_NAME``, and ``option_NAME.KEY`` for
    each entry of a mapping (CP-SAT's parameters passed through)."""
    columns: dict[str, Scalar] = {}
    for name, value in sorted(options.items()):
        if isinstance(value, dict):
            columns.update({f"option_{name}.{key}": inner for key, inner in sorted(value.items())})
        elif value is None or isinstance(value, str | int | float | bool):
            columns[f"option_{name}"] = value
        else:
            columns[f"option_{name}"] = json.dumps(value)
    return columns


def _fixed(record: RunRecord) -> dict[str, Scalar]:
    """The columns every record has (`rows` adds the verdict)."""
    environment = record.environment
    return {
        "instance": record.instance, "variant": record.variant, "puzzle": record.puzzle, "solver": record.solver,
        "repeat": record.repeat, "status": record.status.value, "exact": record.exact,
        "evidence": record.evidence.value,
        "expected": record.expected.cost if isinstance(record.expected, Optimum) else None,
        "expected_infeasible": isinstance(record.expected, NoSolution),
        "cost": record.cost, "bound": record.bound, "checked_cost": record.checked_cost,
        "plan_valid": record.plan_valid, "plan_length": None if record.plan is None else len(record.plan),
        "seconds": record.seconds, "wall_seconds": record.wall_seconds, "cpu_seconds": record.cpu_seconds,
        "peak_memory_mb": record.peak_memory_mb, "start_memory_mb": record.start_memory_mb,
        "late_status": None if record.late_status is None else record.late_status.value,
        "cpsat_workers": record.cpsat_workers,
        "time_limit": environment.get("time_limit"), "clock": environment.get("clock", "wall"),
        "memory_limit_mb": environment.get("memory_limit_mb"),
        "shares": ";".join(record.shares), "commit": environment.get("commit"),
        "source": environment.get("source"), "solver_source": environment.get("solver_source"),
        "solver_distribution": environment.get("solver_distribution"),
        "solver_version": environment.get("solver_version"), "host": environment.get("host"),
        "cpu_model": environment.get("cpu_model"), "started": environment.get("started"),
        "jobs": environment.get("jobs"), "load_average": environment.get("load_average"),
        "schema_version": record.schema_version, "message": record.message,
        "formulation": record.formulation, "configuration": record.configuration,
    }


def _cell(value: Scalar) -> Scalar:
    """A CSV cell: empty for unknown, lower-case booleans (read as booleans by pandas and R)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def to_csv(runs: JudgedRuns) -> str:
    """The tidy rows as CSV with a header line (nothing else)."""
    table = rows(runs)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(table[0] if table else COLUMNS)
    writer.writerows([_cell(value) for value in row.values()] for row in table)
    return out.getvalue()


def to_jsonl(runs: JudgedRuns) -> str:
    """The tidy rows as JSON Lines (one flat object per record; null for unknown)."""
    return "".join(json.dumps(row) + "\n" for row in rows(runs))


def frame(runs: JudgedRuns) -> pandas.DataFrame:
    """The tidy rows as a pandas DataFrame (needs the analysis extra)."""
    import pandas

    table = rows(runs)
    return pandas.DataFrame(table, columns=list(table[0]) if table else list(COLUMNS))


def write_parquet(runs: JudgedRuns, path: Path) -> None:
    """The tidy rows as a Parquet file (needs the analysis extra: pandas and pyarrow)."""
    frame(runs).to_parquet(path, index=False)


def load(path: str | Path) -> pandas.DataFrame:
    """A results file as a tidy DataFrame, one row per run (the columns of `rows`).

    `path` is a JSON Lines results file (from ``compare --out``), or a ``.csv`` or
    ``.parquet`` file written by ``report --format csv|parquet``.  A JSON Lines file is
    read by `read_records`: a line that is not a run record raises
    `crosscheck.harness.records.schema.MalformedRecord` naming ``FILE:LINE`` and what is wrong.
    """
    import pandas

    path = Path(path)
    if path.suffix == ".parquet":
        return pandas.read_parquet(path)
    if path.suffix == ".csv":
        return pandas.read_csv(path)
    return frame(judged(read_records(path)))

