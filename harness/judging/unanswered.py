"""Runs that gave no answer, per formulation: `hunt`'s summary of them, and the note of
`compare` and `report` on a formulation (or external program) that answered none of the
instances it was given, every run ``unsupported``: it tested nothing, which must not pass
for a quiet success.  An unreadable file's record is no run (`solver_runs`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from crosscheck.harness.records.record import RunRecord, solver_runs
from crosscheck.harness.reports.wording import counted, first_line
from crosscheck.solvers.base import FAILED_STATUSES, Status

#: The statuses of a run that gave no answer at all, whatever the reason.
NO_ANSWER = (Status.TIMEOUT, Status.UNSUPPORTED, Status.ERROR, Status.MEMOUT)


@dataclass
class Unanswered:
    """A tally of runs per formulation, and of those that gave no answer (`NO_ANSWER`) per
    formulation and status; `add` counts more runs in."""

    runs: Counter[str] = field(default_factory=Counter)
    missing: Counter[tuple[str, Status]] = field(default_factory=Counter)
    given: dict[str, set[tuple[str, bool]]] = field(default_factory=dict)  # its (instance, variant) pairs
    why: dict[str, RunRecord] = field(default_factory=dict)  # its unsupported run first by instance name

    def add(self, records: Iterable[RunRecord]) -> Unanswered:
        """Count `records` (unreadable files left out) in; returns this tally."""
        for record in solver_runs(records):
            self.runs[record.solver] += 1
            self.given.setdefault(record.solver, set()).add((record.instance, record.variant))
            if record.status in NO_ANSWER:
                self.missing[record.solver, record.status] += 1
            if record.status is Status.UNSUPPORTED:
                # First by name, not by arrival: parallel runs finish in any order, and the
                # note must read the same for the same records.
                held = self.why.get(record.solver)
                if held is None or (record.instance, record.variant) < (held.instance, held.variant):
                    self.why[record.solver] = record
        return self

    @property
    def crashed(self) -> int:
        """Runs that ended in error or memout."""
        return sum(count for (_, status), count in self.missing.items() if status in FAILED_STATUSES)

    def parts(self) -> list[str]:
        """Per formulation with runs that gave no answer, how many of its runs and why,
        e.g. ``mine 10 of 110 (10 timeout)``, ``lift 3 of 110 (2 error, 1 memout)``."""
        parts = []
        for solver, runs in self.runs.items():
            statuses = [f"{self.missing[solver, status]} {status.value}" for status in NO_ANSWER
                        if self.missing[solver, status]]
            if statuses:
                missing = sum(self.missing[solver, status] for status in NO_ANSWER)
                parts.append(f"{solver} {missing} of {runs} ({', '.join(statuses)})")
        return parts

    def declined_everywhere(self) -> list[str]:
        """A note per formulation whose every run was ``unsupported``, with why its run on the
        first instance by name was: ``keys-grid: unsupported on all 12 instances it was given (it tested nothing);
        on a.txt: ...``."""
        notes = []
        for solver, runs in self.runs.items():
            if self.missing[solver, Status.UNSUPPORTED] == runs:
                count = len(self.given[solver])
                where = "on the one instance" if count == 1 else f"on all {counted(count, 'instance')}"
                first = self.why[solver]
                notes.append(f"{solver}: unsupported {where} it was given (it tested nothing); on {first.instance}: "
                             f"{first_line(first.message)}")
        return notes
