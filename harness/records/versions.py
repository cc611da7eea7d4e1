"""Which version of a formulation's code made a run (``environment.solver_source``), and
the runs of one formulation that come from more than one version.

A plugin's ``solver_source`` digests its own code (`crosscheck.harness.records.record.plugin_source`),
an external program's the files its command names and those given as its sources
(`crosscheck.harness.records.record.command_source`); each is computed once per invocation, before
any run (`Pinned`), so that every record of one invocation names the same version;
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
from typing import TYPE_CHECKING

from crosscheck.harness.records.record import RunKey, RunRecord, Task, command_source, plugin_source
from crosscheck.harness.reports.wording import counted
from crosscheck.solvers.registry import BUILT_IN, ORIGINS, origin, registered

if TYPE_CHECKING:
    from crosscheck.harness.runs.external import External

#: What a run records when its solver's version is not known.
UNKNOWN = "unknown"

#: Each plugin's `identity` as this process imported it, by name (`note_imported`).
_IMPORTED: dict[str, dict[str, str]] = {}


def identity(solver: str, command: str | None = None, sources: Iterable[str] = ()) -> dict[str, str]:
    """Which version of `solver`'s code would run now: ``solver_source``, the digest of the
    files of an external program's `command` and of its `sources` (files or folders), or of
    a plugin's module and its helpers, and ``solver_distribution`` and ``solver_version`` of
    one from an entry point; nothing for a built-in (the record's ``source`` covers it).

    A solver not registered in this process (a built-in not imported yet) is not imported
    for it: only plugins have an identity, and they are registered wherever runs are made."""
    if command is not None:
        digest = command_source(command, tuple(sources))
        return {} if digest is None else {"solver_source": digest}
    found = registered(solver)
    if found is None:
        return {}
    digest, source = plugin_source(type(found)), origin(solver)
    pinned = {} if digest is None else {"solver_source": digest}
    if source.distribution is not None and source.version is not None:
        pinned.update(solver_distribution=source.distribution, solver_version=source.version)
    return pinned


class Pinned:
    """The `identity` of each solver of one invocation, computed the first time it is asked
    for (as the runs are scheduled, before any starts) and then kept: every record of the
    invocation names the code as it was when the invocation started, not as it was when
    the record was written.  `changed` says which solvers' code differs by the end."""

    def __init__(self) -> None:
        self._known: dict[str, tuple[External | None, dict[str, str]]] = {}

    def __call__(self, solver: str, external: External | None = None) -> dict[str, str]:
        """`solver`'s identity as pinned (`external`: its program, when it is one)."""
        if solver not in self._known:
            self._known[solver] = (external, self._now(solver, external))
        return dict(self._known[solver][1])

    @staticmethod
    def _now(solver: str, external: External | None) -> dict[str, str]:
        return identity(solver) if external is None else identity(solver, external.command, external.sources)

    def changed(self) -> list[str]:
        """A warning per solver whose ``solver_source`` now differs from the pinned one: its
        files were edited during the invocation, so runs after the edit may have run other
        code than their records name."""
        warnings = []
        for solver, (external, pinned) in self._known.items():
            before, now = pinned.get("solver_source"), self._now(solver, external).get("solver_source")
            if before != now:
                warnings.append(f"the code of {solver} changed during this run (solver_source {before or UNKNOWN} "
                                f"as it started, {now or UNKNOWN} now): its records name the first, but runs that "
                                "started after the edit may have run the new code, so its results mix versions; "
                                "run them again (compare --resume runs again the runs of another version)")
        return warnings


def note_imported() -> None:
    """Keep the `identity` of every plugin registered in this process, read now, right after
    their import (the forkserver's preload does): `as_run_here` in a run forked from this
    process later names that version, not its files as edited since."""
    for name, source in list(ORIGINS.items()):
        if source != BUILT_IN:
            _IMPORTED[name] = identity(name)


def as_run_here(record: RunRecord, task: Task) -> RunRecord:
    """`record` naming the plugin version this process ran, where that is not the pinned one.

    For a run in an interpreter of its own (`crosscheck.harness.runs.isolated`, as on a Dask
    worker) or forked from a forkserver (the worker's own, too), the plugin's code is what
    that process imported, which may be another copy (a worker's own installation) or an
    edit made after the invocation pinned its version: the record then names the version
    found here (as the forkserver imported it, `note_imported`, else read after the run from
    the files this process imported), so `report` notes the mix (`mixed_versions`) instead
    of misattributing the results.  An external program's version stays pinned: it runs
    from its files anew each time, which the run itself may have edited since."""
    if task.external is not None:
        return record
    here = _IMPORTED[task.solver] if task.solver in _IMPORTED else identity(task.solver)
    if not here or {key: record.environment.get(key) for key in here} == here:
        return record
    return record.model_copy(update={"environment": {**record.environment, **here}})


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


def stale_runs(records: Iterable[RunRecord], externals: Mapping[str, External], pinned: Pinned) -> StaleRuns:
    """The `records` of a known version (``solver_source``) other than the one their solver
    has now (`pinned`, `externals` by name).  A solver neither among `externals` nor
    registered in this process is not checked: it is not run either."""
    now: dict[str, str | None] = {}
    stale = []
    for record in records:
        recorded = record.environment.get("solver_source")
        if recorded is None or (record.solver not in externals and registered(record.solver) is None):
            continue
        if record.solver not in now:
            now[record.solver] = pinned(record.solver, externals.get(record.solver)).get("solver_source")
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
