"""How a command's runs are made: one settings type for ``compare``, ``morph``, ``hunt`` and ``solve``.

`RunSettings` holds what every run of an invocation shares: which formulations and
external programs run, the limits each run is held to, how many run at a time and
how progress is shown.  What only one workflow needs (a hunt's budget, morph's
relations, compare's results file) is in that workflow's own settings type, which holds
a `RunSettings` (`crosscheck.harness.workflows`).

The defaults are named once, here; the command line's options show the same ones.
A hunt's runs get a shorter time limit (`HUNT_TIME_LIMIT`) on purpose: it judges many
small instances, and a run that needs more than a few seconds on one is itself a finding.

This module imports nothing heavy, so that the command line's options can read the
defaults before any command runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from crosscheck.harness.runs.measure import cores

if TYPE_CHECKING:
    from crosscheck.harness.records.versions import Pinned
    from crosscheck.harness.runs.external import External
    from crosscheck.solvers.base import Clock

#: Seconds per run of ``compare``, ``morph`` and ``solve``.
TIME_LIMIT = 60.0
#: Seconds per run of ``hunt`` (module docstring).
HUNT_TIME_LIMIT = 5.0
#: MB a run may use (address space beyond what it inherited, and memory all its processes hold).
MEMORY_LIMIT_MB = 8192
#: Seconds a hunt searches, and shrinks, when neither seconds nor a number of instances is given.
HUNT_SECONDS = 60.0
#: Related instances ``morph`` derives per instance (per named relation, when relations are named).
MORPH_COUNT = 3


def _pinned() -> Pinned:
    from crosscheck.harness.records.versions import Pinned

    return Pinned()


@dataclass(frozen=True)
class RunSettings:
    """What every run of one invocation shares.

    `solvers` are formulation names; empty means the puzzle's default formulations, or
    none when `externals` are given (then only the external programs run; ``hunt`` and
    ``solve`` add the puzzle's reference formulation, `crosscheck.harness.workflows.choosing.with_reference`).
    `externals` run on the instances of their puzzle (of every puzzle when they name
    none).  `time_limit` counts seconds of `clock` (`crosscheck.solvers.base.Deadline`;
    None: no limit); `memory_limit_mb` None: no limit; `jobs` runs at a time at most;
    `cpsat_workers` None means each run's share of the cores
    (`crosscheck.harness.runs.batch.core_share`); `progress` is how progress is shown on
    stderr (one of `crosscheck.harness.reports.formats.PROGRESS_MODES`); `versions` pins
    each solver's version as its first run is scheduled
    (`crosscheck.harness.records.versions.Pinned`); `certificates` is the folder checked
    certificates are kept in (None: not kept).  With `within_reach`, the puzzle's default
    formulations (none named) run only on the instances within the sizes each is known to
    solve (`crosscheck.solvers.base.Solver.reaches`; `crosscheck.harness.runs.schedule.beyond_reach`).
    """

    solvers: tuple[str, ...] = ()
    externals: tuple[External, ...] = ()
    time_limit: float | None = TIME_LIMIT
    clock: Clock = "wall"
    memory_limit_mb: int | None = MEMORY_LIMIT_MB
    jobs: int = field(default_factory=cores)
    cpsat_workers: int | None = None
    progress: str = "none"
    certificates: str | None = None
    within_reach: bool = False
    versions: Pinned = field(default_factory=_pinned, compare=False)
