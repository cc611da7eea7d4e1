"""Under what conditions the runs of a report were made, in a few lines for people.

Every record's environment holds the command line, the commit, the machine and (in
records written since these entries exist) when the run started, how many runs its
command ran at a time and the machine's load average then (`crosscheck.harness.records.record`).
`conditions` sums them up for the terminal report, the HTML page and the comment heading
a LaTeX table: the date range of the runs, each distinct command, commit and machine
(with how many runs had it when they differ), the concurrency and the load.  Records
written before an entry existed count as ``unknown`` for it, never as a value.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from crosscheck.harness.records.record import RunRecord, solver_runs
from crosscheck.harness.reports.wording import counted

#: The environment entries `conditions` sums up (``machine`` is not among them: it stands in
#: for a missing ``cpu_model`` only).
SUMMED = ("started", "argv", "commit", "cpu_model", "cpus", "system", "host", "jobs", "load_average")


def conditions(records: Sequence[RunRecord]) -> list[tuple[str, str]]:
    """(entry, value) pairs: ``runs`` (first to last start time, UTC), ``command``, ``commit``,
    ``machine`` (CPU model, logical CPUs, system, host), ``jobs`` and ``load average``.

    Only the solver runs count (`solver_runs`): the record of an unreadable file is no run
    (it has no ``jobs``), unless there is nothing else."""
    records = solver_runs(records) or list(records)
    return [
        ("runs", _date_range(records)),
        ("command", _values(records, lambda env: env.get("argv"))),
        ("commit", _values(records, lambda env: env.get("commit"))),
        ("machine", _values(records, _machine)),
        ("jobs", _values(records, lambda env: env.get("jobs"))),
        ("load average", _load(records)),
    ]


def condition_lines(records: Sequence[RunRecord]) -> list[str]:
    """`conditions` as ``entry: value`` lines."""
    return [f"{entry}: {value}" for entry, value in conditions(records)]


def _date_range(records: Sequence[RunRecord]) -> str:
    """``FIRST to LAST (UTC)`` of the runs' start times (ISO 8601 strings in UTC sort as times),
    with how many runs do not say when they started."""
    times = sorted(str(r.environment["started"]) for r in records if r.environment.get("started"))
    unknown = len(records) - len(times)
    if not times:
        return "unknown (the records do not say when the runs started)"
    span = times[0] if times[0] == times[-1] else f"{times[0]} to {times[-1]}"
    return span + (f"; {counted(unknown, 'run')} unknown" if unknown else "")


def _values(records: Sequence[RunRecord], value: Callable[[dict[str, Any]], object]) -> str:
    """The distinct values among the records, most common first, each with its count of runs
    when there are several; ``unknown`` stands for a record without the entry."""
    counts = Counter("unknown" if (v := value(r.environment)) is None else str(v) for r in records)
    return tallied(counts) if counts else "unknown"


def tallied(counts: Counter[str], runs: int | None = None) -> str:
    """The values counted, most common first, ``VALUE (N runs)`` joined by '; '; a single
    value alone, without its count.  When fewer than `runs` (the runs there are) carry a
    value, every value says out of how many: ``my-lifts (50 of 125 runs)``, so a value of
    some runs never reads as everyone's."""
    total = sum(counts.values())
    if runs is not None and total < runs:
        return "; ".join(f"{value} ({n} of {counted(runs, 'run')})" for value, n in counts.most_common())
    if len(counts) == 1:
        return next(iter(counts))
    return "; ".join(f"{value} ({counted(n, 'run')})" for value, n in counts.most_common())


def _machine(environment: dict[str, Any]) -> str | None:
    """CPU model, logical CPUs, system and host of one record (None when it names none of them)."""
    model = environment.get("cpu_model") or environment.get("machine")
    parts = [str(model) if model else None,
             f"{environment['cpus']} logical CPUs" if environment.get("cpus") else None,
             environment.get("system"), f"host {environment['host']}" if environment.get("host") else None]
    known = [part for part in parts if part]
    return ", ".join(known) if known else None


def _load(records: Sequence[RunRecord]) -> str:
    """The least and greatest 1-minute load average at the runs' starts."""
    loads = [float(r.environment["load_average"]) for r in records
             if r.environment.get("load_average") is not None]
    if not loads:
        return "unknown"
    unknown = len(records) - len(loads)
    span = f"{min(loads):g}" if min(loads) == max(loads) else f"{min(loads):g} to {max(loads):g}"
    return span + " at the runs' starts" + (f"; {counted(unknown, 'run')} unknown" if unknown else "")
