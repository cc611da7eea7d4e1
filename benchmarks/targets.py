"""Speed targets: how a benchmark states one, and how `benchmarks.speed` gathers them into one table.

A benchmark script measures values (seconds, MB for a memory peak, or a bare count with unit
``""``) over a set of instances and calls `report` once per target with them; `report` prints one
``TARGET {json}`` line, and ``python -m benchmarks.speed`` collects those lines from every
benchmark it runs and prints (and with ``--write``, keeps in the results file) one table: per target its median, max, limits and the
ratio of each to its limit.  A run that did not finish (time-out, no proof) counts as an infinite
value, so it can never meet a limit silently.

Targets are read on the benchmark's own clock (``--clock cpu`` for CPU seconds) and only mean
something on a quiet machine: the table's section in the results file records the load average.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

from crosscheck.harness.reports.numbers import significant
from crosscheck.harness.reports.tables import render_table

#: The prefix of a target's line in a benchmark's output.
PREFIX = "TARGET "


@dataclass(frozen=True)
class Measured:
    """One target's figures: `values` over its instances (``inf`` for a run that did not finish)."""

    name: str
    unit: str
    values: tuple[float, ...]
    median_limit: float | None = None
    max_limit: float | None = None

    @property
    def median(self) -> float:
        return statistics.median(self.values) if self.values else math.inf

    @property
    def max(self) -> float:
        return max(self.values, default=math.inf)

    @property
    def met(self) -> bool:
        """Whether every stated limit holds (a target with no value never does)."""
        return bool(self.values) and all(
            value <= limit for value, limit in ((self.median, self.median_limit), (self.max, self.max_limit))
            if limit is not None)


def report(name: str, values: Iterable[float], unit: str = "s", median_limit: float | None = None,
           max_limit: float | None = None) -> Measured:
    """Print target `name`'s line (see the module doc) and return it.

    `values`: one per instance, ``math.inf`` for a run that did not finish; at least one limit."""
    if median_limit is None and max_limit is None:
        raise ValueError(f"target {name!r} states no limit")
    measured = Measured(name, unit, tuple(float(v) for v in values), median_limit, max_limit)
    record = asdict(measured) | {"values": [v if math.isfinite(v) else None for v in measured.values]}
    print(PREFIX + json.dumps(record), flush=True)
    return measured


#: The columns of `table`.
COLUMNS = ("target", "n", "median", "limit", "ratio", "max", "limit", "ratio", "met")


def parse(lines: Iterable[str]) -> list[Measured]:
    """The targets printed among `lines` (other lines are ignored)."""
    found = []
    for line in lines:
        if line.startswith(PREFIX):
            record = json.loads(line[len(PREFIX):])
            values = tuple(math.inf if v is None else float(v) for v in record["values"])
            found.append(Measured(record["name"], record["unit"], values, record["median_limit"], record["max_limit"]))
    return found


def figure(value: float) -> str:
    """A measured `value` to three significant digits (`significant`); "none" for a run that did not finish."""
    return significant(value) if math.isfinite(value) else "none"


def table(targets: Sequence[Measured]) -> str:
    """One line per target: median and max with their limits and ratios, and whether it is met."""
    def quantity(value: float, unit: str) -> str:
        """`value` with its unit; "none" (a run that did not finish) has no unit."""
        return f"{figure(value)} {unit}".rstrip() if math.isfinite(value) else figure(value)

    def ratio(value: float, limit: float | None) -> str:
        if limit is None:
            return ""
        if not math.isfinite(value) or (limit == 0 and value > 0):
            return "inf"
        return "0" if limit == 0 else figure(value / limit)

    def limit_text(limit: float | None, unit: str) -> str:
        return "" if limit is None else f"{limit:g} {unit}".rstrip()

    rows = [[t.name, str(len(t.values)), quantity(t.median, t.unit), limit_text(t.median_limit, t.unit),
             ratio(t.median, t.median_limit), quantity(t.max, t.unit), limit_text(t.max_limit, t.unit),
             ratio(t.max, t.max_limit), "yes" if t.met else "NO"] for t in targets]
    return render_table(COLUMNS, rows, "table").rstrip("\n")
