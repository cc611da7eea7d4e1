"""Runs paired by a metamorphic relation, as their records link them.

A related instance's runs (``morph``, ``compare --morph``) carry ``related_to``
(`crosscheck.harness.records.record.RelatedTo`): the original's name, the relation and the
expectation on the two answers.  `recorded_pairs` pairs each such run with the same
runner's run of the original, so a pair is judged from the records alone: by ``morph``
and ``compare`` as they finish, and by ``report`` later, alike
(`crosscheck.harness.judging.verdicts.pair_verdict`).

A pair is judged on exact answers only (`answer_of`): a proven optimum with a checked plan
or a proof of infeasibility, and an external program's claim too, since the relation
tests the program itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from crosscheck.harness.records.evidence import Evidence
from crosscheck.harness.records.record import RelatedTo, RunRecord
from crosscheck.models.answers import NO_SOLUTION, ExactAnswer, Optimum
from crosscheck.solvers.base import Status


def answer_of(record: RunRecord) -> ExactAnswer | None:
    """The runner's exact answer (an optimum, or no solution), None without one (a
    timeout, a crash, an invalid plan).

    An external program's claim counts (the relation tests the program itself), unless
    its plan was rejected; a formulation's answer counts when it is exact."""
    if record.plan_valid is False:
        return None
    if record.evidence is Evidence.CLAIM or record.exact_answer:
        if record.answer_status is Status.INFEASIBLE:
            return NO_SOLUTION
        cost = record.checked_cost if record.checked_cost is not None else record.cost
        if record.answer_status is Status.OPTIMAL and cost is not None:
            return Optimum(cost)
    return None


@dataclass(frozen=True)
class RecordedPair:
    """A runner's run of an original instance and its run of a related instance."""

    original: RunRecord
    related: RunRecord
    link: RelatedTo  # `related.related_to`


def recorded_pairs(records: Iterable[RunRecord]) -> list[RecordedPair]:
    """Each run of a related instance with the same runner's run of its original, in the
    order of the related runs (first repetitions of plain instances only, as compared; a
    related run whose original's run is missing, as in a shard, pairs with nothing)."""
    plain = [r for r in records if not r.variant and r.repeat == 0]
    runs = {(r.instance, r.solver): r for r in plain}
    pairs = []
    for record in plain:
        link = record.related_to
        original = runs.get((link.original, record.solver)) if link is not None else None
        if link is not None and original is not None:
            pairs.append(RecordedPair(original, record, link))
    return pairs
