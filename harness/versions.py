"""Which version of a formulation's code made a run (``environment.solver_source``), and
the runs of one formulation that come from more than one version.

A plugin's ``solver_source`` digests its own code (`crosscheck.harness.records.plugin_source`),
an external program's the files its command names (`crosscheck.harness.records.command_source`);
a built-in formulation has none (the record's ``source`` and ``commit`` name crosscheck's
code).  A record without the entry is of an unknown version: it is never judged stale.

`compare --resume` runs again a recorded run whose solver's code has changed since
(`stale_runs`): its old record stays in the file (nothing computed is lost) and the new one,
appended later, is the one every reader uses.  `mixed_versions` gives `report` a note for a
solver whose runs come from more than one version.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from crosscheck.harness.records import RunKey, RunRecord, command_source, plugin_source
from crosscheck.harness.wording import counted
from crosscheck.solvers.registry import registered

#: What a run records when its solver's version is not known.
UNKNOWN = "unknown"


def current_source(solver: str, externals: Mapping[str, str]) -> str | None:
    """The ``solver_source`` a run of `solver` would record now: the digest of its command's
    files for an external program (`externals`: name to command), of its code for a plugin
    registered in this process; None for a built-in or a solver not registered here."""
    if solver in externals:
        return command_source(externals[solver])
    found = registered(solver)
    return None if found is None else plugin_source(type(found))


@dataclass(frozen=True)
class StaleRuns:
    """Recorded runs whose solver's code differs from the code that would run now."""

    records: tuple[RunRecord, ...]
    now: dict[str, str | None]  # solver name to its current solver_source

    @property
    def keys(self) -> set[RunKey]:
        return {record.key for record in self.records}

    def warnings(self, out: Path) -> list[str]:
        """One line per solver: how many of its runs in `out` were made by which other version."""
        by_solver: dict[str, Counter[str]] = {}
        for record in self.records:
            by_solver.setdefault(record.solver, Counter())[str(record.environment["solver_source"])] += 1
        return [f"{out} holds {counted(sum(old.values()), 'run')} of {solver} made by another version of its code "
                f"(solver_source {_tally(old)}; now {self.now[solver] or UNKNOWN}): they run again, and the file "
                "keeps both records (the later one counts)" for solver, old in by_solver.items()]


def stale_runs(records: Iterable[RunRecord], externals: Mapping[str, str]) -> StaleRuns:
    """The `records` of a known version (``solver_source``) other than their solver's
    `current_source`.  A solver neither among `externals` nor registered in this process is
    not checked: it is not run either."""
    now: dict[str, str | None] = {}
    stale = []
    for record in records:
        recorded = record.environment.get("solver_source")
        if recorded is None or (record.solver not in externals and registered(record.solver) is None):
            continue
        if record.solver not in now:
            now[record.solver] = current_source(record.solver, externals)
        if recorded != now[record.solver]:
            stale.append(record)
    return StaleRuns(tuple(stale), now)


def mixed_versions(records: Iterable[RunRecord]) -> list[str]:
    """A note per solver whose runs carry more than one ``solver_source``, naming each
    version with its number of runs (and the runs of unknown version, if any)."""
    versions: dict[str, Counter[str]] = {}
    for record in records:
        source = record.environment.get("solver_source")
        versions.setdefault(record.solver, Counter())[UNKNOWN if source is None else str(source)] += 1
    return [f"{solver}: runs of {len(set(tally) - {UNKNOWN})} versions of its code mixed (solver_source "
            f"{_tally(tally)})" for solver, tally in versions.items() if len(set(tally) - {UNKNOWN}) > 1]


def _tally(counts: Counter[str]) -> str:
    """``abc: 3 runs, def: 1 run``, the most frequent first."""
    return ", ".join(f"{name}: {counted(count, 'run')}" for name, count in counts.most_common())
