"""The encoding kept honest: every checked plan, written as an assignment, must satisfy a
certified formulation's CNF at the plan's cost.

A certificate proves something about a CNF; that the CNF says what the puzzle says is the
encoding's lemma.  Half of it can be tested wherever a certified lower bound and another
formulation's checked plan meet: the plan exists, so the CNF of "a plan of cost at most C
exists" at the plan's cost C must have a model, and the encoder writes the plan as one
(`Encoding.assignment`).  A clause it falsifies is a move, a state or a plan the encoding
leaves out: its refutations may then be refuting the encoding rather than the puzzle, and the
instance's verdict is ``bad-certificate``.

`EncodingLedger` sees the records of one batch of runs as they come (`run_tasks`) and writes
each check on the record that completed the meeting: on the certified record, the plans already
in; on a plan's record, the certified encodings already in.  Checks are made in the harness's
process, from the instance file and the encoder.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from crosscheck.harness.records.evidence import Evidence
from crosscheck.harness.records.record import EncodingCheck, RunRecord, Task
from crosscheck.solvers.certificate import BOUND, Encoding


def plan_check(encoding: Encoding, encoding_of: str, instance: Any, record: RunRecord) -> EncodingCheck:
    """Whether `record`'s checked plan, as an assignment, satisfies the CNF `encoding` (the
    formulation `encoding_of`'s) builds at the plan's cost."""
    cost = record.checked_cost if record.checked_cost is not None else len(record.plan or [])
    cnf = encoding.cnf(instance, BOUND, cost, None)
    falsified = cnf.first_falsified(encoding.assignment(instance, record.plan or []))
    clause = "" if falsified is None else " ".join(map(str, cnf.clauses[falsified])) + " 0"
    return EncodingCheck(encoding=encoding_of, plan_of=record.solver, cost=cost, satisfied=falsified is None,
                         falsified=clause)


def certified_encoding(record: RunRecord) -> Encoding | None:
    """The encoding of `record`'s formulation when its record carries a certified lower bound."""
    if record.evidence is not Evidence.CERTIFIED or record.certificate is None:
        return None
    if record.certificate.claim != "lower-bound":
        return None
    from crosscheck.solvers.registry import get_solver

    try:
        encoding = get_solver(record.solver).encoding
    except KeyError:
        return None
    return encoding


@dataclass
class _Meeting:
    """What one instance (or its variant) has seen: certified encodings and checked plans."""

    instance: Any = None
    encodings: dict[str, Encoding] = field(default_factory=dict)
    plans: list[RunRecord] = field(default_factory=list)


class EncodingLedger:
    """The certified encodings and checked plans of a batch of runs, per instance (module doc).
    Safe to call from the threads that run the batch."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._meetings: dict[tuple[str, bool], _Meeting] = {}

    def seen(self, record: RunRecord, task: Task) -> RunRecord:
        """`record` with the plan-as-assignment checks its arrival completes."""
        encoding = certified_encoding(record)
        has_plan = record.plan_valid is True and record.plan is not None
        if encoding is None and not has_plan:
            return record
        with self._lock:
            meeting = self._meetings.setdefault((record.instance, record.variant), _Meeting())
            checks = []
            if encoding is not None:
                checks += [plan_check(encoding, record.solver, self._instance(meeting, task), plan)
                           for plan in meeting.plans if plan.solver != record.solver]
                meeting.encodings[record.solver] = encoding
            if has_plan:
                checks += [plan_check(other, solver, self._instance(meeting, task), record)
                           for solver, other in meeting.encodings.items() if solver != record.solver]
                meeting.plans.append(record)
        if not checks:
            return record
        return record.model_copy(update={"encoding_checks": [*record.encoding_checks, *checks]})

    @staticmethod
    def _instance(meeting: _Meeting, task: Task) -> Any:
        """The instance of `task` (its variant when asked), parsed once per meeting."""
        if meeting.instance is None:
            from crosscheck.models.registry import load_instance

            puzzle, instance = load_instance(task.path)
            meeting.instance = puzzle.variant(instance) if task.variant else instance
        return meeting.instance
