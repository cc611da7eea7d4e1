"""Per-instance verdicts: do the formulations agree, and with the index?

Evidence is weighed by how strong it is.  A plan the puzzle's checker accepted is a
fact: the optimum is at most its cost.  A built-in solver's lower bound, optimum and
infeasibility are proofs (of its formulation): they are tested against the facts and
against each other.  An external program's answer (a number, "infeasible", even with
a plan) is a claim only: a checked plan or a proof may contradict it, but it never
contradicts anything itself and is never an exact answer (its plan, once checked, is
a fact like any other).  Only a proven optimum with a checked plan, or a proof of
infeasibility, counts as an exact answer.

Verdicts, worst first:

- ``error``: the instance could not be read or parsed (nothing to compare).
- ``invalid-plan``: some solver returned a plan the checker rejected, or whose
  recomputed cost differs from the cost the solver reported.
- ``false-infeasible``: a solver claimed infeasibility but another returned a
  checked plan.
- ``false-optimal``: a claimed optimum is beaten by another solver's checked plan.
- ``disagree``: proofs contradict claims otherwise (a proven lower bound above a
  checked plan, a claimed optimum below a proven lower bound, a proof of
  infeasibility against a claimed optimum).
- ``wrong-expected``: all exact answers agree but differ from the index; or, with no
  exact answer, a checked plan beats the index's optimum (or its "infeasible"), or a
  proven lower bound exceeds it.
- ``unverified``: no solver produced an exact answer within the limits.
- ``agree``: exact answers agree with each other and with the index (if it knows).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from crosscheck.harness.evidence import Evidence
from crosscheck.harness.index import INFEASIBLE
from crosscheck.harness.records import UNREADABLE, RunRecord
from crosscheck.solvers.base import Status


class Verdict(StrEnum):
    ERROR = "error"
    INVALID_PLAN = "invalid-plan"
    FALSE_INFEASIBLE = "false-infeasible"
    FALSE_OPTIMAL = "false-optimal"
    DISAGREE = "disagree"
    WRONG_EXPECTED = "wrong-expected"
    UNVERIFIED = "unverified"
    AGREE = "agree"


#: Verdicts that mean some answer is wrong (a non-zero exit status).
FAILURES = frozenset({
    Verdict.INVALID_PLAN, Verdict.FALSE_INFEASIBLE, Verdict.FALSE_OPTIMAL,
    Verdict.DISAGREE, Verdict.WRONG_EXPECTED,
})


@dataclass(frozen=True)
class InstanceVerdict:
    """The verdict on one instance (or its variant), the agreed answer and why."""

    instance: str
    variant: bool
    verdict: Verdict
    answer: int | str | None  # the agreed optimum, INFEASIBLE, or None
    reason: str
    provers: tuple[str, ...] = ()  # the solvers whose exact answers agree (for `agree`)
    independent: int = 0  # how many of them share no answer-deciding component (`Solver.shares`)


def judge(records: Iterable[RunRecord]) -> InstanceVerdict:
    """The verdict on the runs of one instance (all records share instance and variant)."""
    records = list(records)
    first = records[0]
    expected = first.expected
    verdict = _judge(records, expected)
    return InstanceVerdict(first.instance, first.variant, *verdict)


#: What `_judge` finds: verdict, answer, reason and, for `agree`, the provers.
_Judgement = (tuple[Verdict, int | str | None, str]
              | tuple[Verdict, int | str | None, str, tuple[str, ...], int])


def _judge(records: list[RunRecord], expected: int | str | None) -> _Judgement:
    if all(r.solver == UNREADABLE for r in records):
        return Verdict.ERROR, None, records[0].message.splitlines()[0] if records[0].message else "unreadable"
    invalid = [r for r in records if r.plan_valid is False]
    if invalid:
        return Verdict.INVALID_PLAN, None, "; ".join(f"{r.solver}: {r.plan_error}" for r in invalid)
    checked = [r for r in records if r.plan_valid]
    best_plan = min((_checked_cost(r) for r in checked), default=None)
    infeasible = [r for r in records if r.status is Status.INFEASIBLE]
    # Claimed optima: proven ones carry a checked plan; external programs only claim.
    optimal = [r for r in records if r.status is Status.OPTIMAL]
    proofs = [r for r in records if r.evidence is Evidence.PROOF]
    if best_plan is not None and infeasible:
        return Verdict.FALSE_INFEASIBLE, best_plan, (
            f"{', '.join(r.solver for r in infeasible)} claimed infeasible; "
            f"{_best(checked)} has a checked plan of cost {best_plan}")
    beaten = [r for r in optimal if best_plan is not None and _claimed(r) > best_plan]
    if beaten:
        return Verdict.FALSE_OPTIMAL, best_plan, "; ".join(
            f"{r.solver} claimed optimum {r.cost}, {_best(checked)} has a checked plan of cost {best_plan}"
            for r in beaten)
    too_high = [r for r in proofs if r.bound is not None and best_plan is not None and r.bound > best_plan]
    if too_high:
        return Verdict.DISAGREE, best_plan, "; ".join(
            f"{r.solver} claimed lower bound {r.bound} above checked plan cost {best_plan}" for r in too_high)
    below = [(r, b) for r in optimal for b in proofs if b.bound is not None and _claimed(r) < b.bound]
    if below:
        return Verdict.DISAGREE, best_plan, "; ".join(
            f"{r.solver} claimed optimum {r.cost} below {b.solver}'s lower bound {b.bound}" for r, b in below)
    proven_infeasible = [r for r in infeasible if r.exact]
    if proven_infeasible and optimal:
        return Verdict.DISAGREE, None, (
            f"{', '.join(r.solver for r in proven_infeasible)} proved infeasible, "
            f"{', '.join(r.solver for r in optimal)} claimed an optimum")
    proven = [r for r in optimal if r.exact]
    answer: int | str | None
    if proven:
        answer, provers = best_plan, proven
    elif proven_infeasible:
        answer, provers = INFEASIBLE, proven_infeasible
    else:
        contradiction = _index_contradiction(proofs, best_plan, expected)
        if contradiction:
            return Verdict.WRONG_EXPECTED, None, contradiction
        return Verdict.UNVERIFIED, None, _unverified_reason(proofs, best_plan)
    if expected is not None and answer != expected:
        return Verdict.WRONG_EXPECTED, answer, f"solvers agree on {answer}, index says {expected}"
    by_solver = {r.solver: r for r in provers}  # a solver run twice proves once
    names, independent = tuple(by_solver), independent_count(list(by_solver.values()))
    return (Verdict.AGREE, answer, f"{len(names)} exact ({independent} independent): {', '.join(names)}",
            names, independent)


def independent_count(provers: list[RunRecord]) -> int:
    """The most provers no two of which share an answer-deciding component.

    Formulations that share a contraction or a bound can be wrong together; their
    agreement is one piece of evidence.  There are a handful of provers, so every
    subset is tried, largest first.
    """
    for size in range(len(provers), 0, -1):
        for group in combinations(provers, size):
            if all(not set(a.shares) & set(b.shares) for a, b in combinations(group, 2)):
                return size
    return 0


def _best(checked: list[RunRecord]) -> str:
    return min(checked, key=_checked_cost).solver


def _checked_cost(record: RunRecord) -> int:
    """The checker's cost of a record whose plan it accepted (the run loop always sets it)."""
    if record.checked_cost is None:
        raise ValueError(f"{record.solver} on {record.instance}: a valid plan without a checked cost")
    return record.checked_cost


def _claimed(record: RunRecord) -> int:
    """The cost an `optimal` record claims (solvers and external programs always give one)."""
    if record.cost is None:
        raise ValueError(f"{record.solver} on {record.instance}: an optimal record without a cost")
    return record.cost


def _index_contradiction(records: list[RunRecord], best_plan: int | None, expected: int | str | None) -> str:
    """Why the index entry cannot be right, judged without any exact answer ('' if it may be)."""
    if expected is None:
        return ""
    if best_plan is not None and (expected == INFEASIBLE or best_plan < int(expected)):
        return f"index says {expected}; a checked plan costs {best_plan}"
    if isinstance(expected, int):
        above = [r for r in records if r.bound is not None and r.bound > expected]
        if above:
            return f"index says {expected}; " + ", ".join(f"{r.solver} proved a lower bound {r.bound}" for r in above)
    return ""


def _unverified_reason(records: list[RunRecord], best_plan: int | None) -> str:
    bound = max((r.bound for r in records if r.bound is not None), default=None)
    return f"no exact answer; best plan {best_plan}, best bound {bound}"


def judge_all(records: Iterable[RunRecord]) -> list[InstanceVerdict]:
    """One verdict per (instance, variant), in first-seen order."""
    groups: dict[tuple[str, bool], list[RunRecord]] = {}
    for record in records:
        groups.setdefault((record.instance, record.variant), []).append(record)
    return [judge(group) for group in groups.values()]
