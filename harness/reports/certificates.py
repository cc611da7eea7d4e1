"""What the reports say of certificates: the mark of a certified answer and the notes on them.

A run whose certificate the harness checked (`crosscheck.harness.runs.certify`, evidence
``certified``) shows ``, certified`` after its status in every table (terminal, Markdown, LaTeX,
HTML), so a reader tells a checked refutation from a formulation's own argument at a glance.
The notes say how many answers are certified, by which formulations and checkers, and which
certificates could not be checked (not certified, nothing wrong).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from crosscheck.harness.records.evidence import Evidence
from crosscheck.harness.records.record import RunRecord
from crosscheck.harness.reports.wording import counted

#: What follows the status of a certified run in a table.
MARK = ", certified"


def status_cell(record: RunRecord) -> str:
    """The run's status as the tables show it, `MARK`ed when its answer is certified."""
    return record.status.value + (MARK if record.evidence is Evidence.CERTIFIED else "")


def certificate_notes(records: Iterable[RunRecord]) -> list[str]:
    """A line counting the certified answers per formulation with the checkers that ran, and a
    line per certificate that was not checked, saying why ([] without certificates)."""
    records = [r for r in records if r.certificate is not None]
    certified = [r for r in records if r.evidence is Evidence.CERTIFIED]
    lines = []
    if certified:
        by_solver = Counter(r.solver for r in certified)
        checkers = sorted({name for r in certified if r.certificate for name in r.certificate.checker.split(", ")})
        lines.append("certified (proofs checked by " + ", ".join(checkers) + "): " + ", ".join(
            f"{solver} on {counted(count, 'instance')}" for solver, count in by_solver.items()))
    lines += [f"{r.instance}{' [variant]' if r.variant else ''}: {r.solver}'s certificate {r.certificate.error}"
              for r in records if r.certificate is not None and r.certificate.checked is None and r.certificate.error]
    return lines
