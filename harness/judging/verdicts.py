"""Per-instance verdicts: do the formulations agree, and with the index?

Evidence is weighed by how strong it is (`crosscheck.harness.records.evidence`, the record's
``evidence`` field).  A plan the puzzle's checker accepted is a fact: the optimum is at
most its cost.  A built-in or plugin solver's lower bound, optimum and infeasibility are
proofs (of its formulation): they are tested against the facts and against each other.
An external program's answer (a number, "infeasible", even with a plan) is a claim only:
a checked plan or a proof may contradict it, but it never contradicts anything itself and
is never an exact answer (its plan, once checked, is a fact like any other).  A configuration
whose options give up optimality (evidence ``plan``) offers only its plan: its status, optimum,
bound and infeasibility are read as nothing (`as_evidence`), so it can neither make an answer
exact nor contradict one.  Only a proven optimum with a checked plan, or a proof of
infeasibility, counts as an exact answer.  Configurations of one formulation are one line of
evidence (`independent_count`).
A run that answered after its time limit is a timeout in every figure, but its answer is
weighed here as any other (`RunRecord.answer_status`, `crosscheck.harness.runs.limits`).

The verdicts, what each means and what follows from it are one table, `VERDICTS`, worst
first: an instance's verdict is the worst that applies.  `FAILURES` (a non-zero exit
status of ``solve`` and ``compare``), `HUNT_STOPS` (where ``hunt`` stops and shrinks) and
`SEVERITY` (the order reports count verdicts in) are read from it.  `morph-mismatch` is
the one verdict on a pair of instances rather than one (`pair_verdict`): a solver's answers
on an instance and a related instance break the relation's law.  `judged` gives it to the
related instance (its runs' records link it to the original: `crosscheck.harness.judging.pairs`),
so ``compare``, ``morph`` and ``report`` judge the same records alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from itertools import combinations
from typing import TYPE_CHECKING

from crosscheck.harness.judging.pairs import answer_of, recorded_pairs
from crosscheck.harness.records.evidence import Evidence
from crosscheck.harness.records.record import RunRecord, solver_runs
from crosscheck.harness.reports.wording import first_line
from crosscheck.models.answers import NO_SOLUTION, ExactAnswer, NoSolution, Optimum
from crosscheck.models.relations import Expectation, parse_expectation
from crosscheck.solvers.base import Status

if TYPE_CHECKING:  # pandas is optional (the analysis extra)
    import pandas


class Verdict(StrEnum):
    """The name of a verdict; what it means is in `VERDICTS`."""

    ERROR = "error"
    INVALID_PLAN = "invalid-plan"
    BAD_CERTIFICATE = "bad-certificate"
    FALSE_INFEASIBLE = "false-infeasible"
    FALSE_OPTIMAL = "false-optimal"
    DISAGREE = "disagree"
    MORPH_MISMATCH = "morph-mismatch"
    WRONG_EXPECTED = "wrong-expected"
    UNVERIFIED = "unverified"
    AGREE = "agree"


@dataclass(frozen=True)
class VerdictRule:
    """One row of `VERDICTS`: a verdict, what it means and what follows from it."""

    verdict: Verdict
    failure: bool  # some answer, or the index, is wrong: ``solve`` and ``compare`` exit 1
    stops_hunt: bool  # some answer is wrong whatever the true optimum is: ``hunt`` stops and shrinks
    meaning: str  # one line, as the README's table of verdicts gives it


#: Every verdict, worst first (its severity; an instance gets the worst that applies).
#: An unreadable file's ``error`` is no failure of an answer: its run's status makes the exit status 3.
VERDICTS: tuple[VerdictRule, ...] = (
    VerdictRule(Verdict.ERROR, failure=False, stops_hunt=False,
                meaning="the file could not be read or parsed (the message names line and column)"),
    VerdictRule(Verdict.INVALID_PLAN, failure=True, stops_hunt=True,
                meaning="a plan the checker rejects, or whose cost differs from the claim"),
    VerdictRule(Verdict.BAD_CERTIFICATE, failure=True, stops_hunt=True,
                meaning="a certificate fails its check: a proof the checker rejects, a CNF other than the encoder "
                        "rebuilds, or a checked plan the certified encoding leaves out"),
    VerdictRule(Verdict.FALSE_INFEASIBLE, failure=True, stops_hunt=True,
                meaning="an infeasibility claim is contradicted by a checked plan"),
    VerdictRule(Verdict.FALSE_OPTIMAL, failure=True, stops_hunt=True,
                meaning="a claimed optimum is beaten by another formulation's checked plan"),
    VerdictRule(Verdict.DISAGREE, failure=True, stops_hunt=True,
                meaning="a proof contradicts another answer: a lower bound above a checked plan, or a proven bound "
                        "or proof of infeasibility against an optimum (proven, or only claimed by an external program)"),
    VerdictRule(Verdict.MORPH_MISMATCH, failure=True, stops_hunt=True,
                meaning="a solver's answers on an instance and on a related one break the relation's law "
                        "(morph: both answers and both files named)"),
    VerdictRule(Verdict.WRONG_EXPECTED, failure=True, stops_hunt=False,
                meaning="the formulations agree, the index says otherwise; or, without an exact answer, a checked "
                        "plan, a proven bound or a claimed answer contradicts the index"),
    VerdictRule(Verdict.UNVERIFIED, failure=False, stops_hunt=False,
                meaning="no formulation found an exact answer within the limits"),
    VerdictRule(Verdict.AGREE, failure=False, stops_hunt=False,
                meaning="exact answers agree with each other and with the index"),
)
#: Each verdict's rank in `VERDICTS` (0: the worst).
SEVERITY: dict[Verdict, int] = {rule.verdict: rank for rank, rule in enumerate(VERDICTS)}
#: Verdicts that mean some answer is wrong (a non-zero exit status).
FAILURES = frozenset(rule.verdict for rule in VERDICTS if rule.failure)
#: The verdicts a hunt stops at.
HUNT_STOPS = frozenset(rule.verdict for rule in VERDICTS if rule.stops_hunt)


@dataclass(frozen=True)
class Judgement:
    """What the runs of one instance show: the verdict, the exact answer the provers agree
    on (on ``agree``, and on ``wrong-expected`` the one that contradicts the index; None
    otherwise) and why."""

    verdict: Verdict
    answer: ExactAnswer | None
    reason: str
    # The solvers whose exact answers agree: on `agree`, the answer; on `wrong-expected`, the
    # answer that contradicts the index (none when a checked plan, a bound or a claim does).
    provers: tuple[str, ...] = ()
    independent: int = 0  # how many of them share no answer-deciding component (`Solver.shares`)
    certified: tuple[str, ...] = ()  # the provers among them whose answer's certificate the harness checked


@dataclass(frozen=True, kw_only=True)
class InstanceVerdict(Judgement):
    """The verdict on one instance (or its variant), the agreed answer and why."""

    instance: str
    variant: bool


def judge(records: Iterable[RunRecord]) -> InstanceVerdict:
    """The verdict on the runs of one instance (all records share instance and variant)."""
    records = list(records)
    first = records[0]
    found = _judge(records, first.expected)
    return InstanceVerdict(found.verdict, found.answer, found.reason, found.provers, found.independent,
                           found.certified, instance=first.instance, variant=first.variant)


def as_evidence(record: RunRecord) -> RunRecord:
    """`record` as the verdicts read it: unchanged, but for a record whose evidence is a plan
    only (`Evidence.PLAN`), which keeps its plan and nothing it said about it (an optimum is
    a plan, ``feasible``; an infeasibility or a bound is nothing, ``timeout``)."""
    if record.evidence is not Evidence.PLAN:
        return record
    def plan(status: Status) -> Status:
        return Status.FEASIBLE if status is Status.OPTIMAL else (
            Status.TIMEOUT if status is Status.INFEASIBLE else status)

    late = None if record.late_status is None else plan(record.late_status)
    return record.model_copy(update={"status": plan(record.status), "late_status": late, "bound": None})


def _judge(records: list[RunRecord], expected: ExactAnswer | None) -> Judgement:
    records = [as_evidence(record) for record in records]
    if not solver_runs(records):  # only unreadable files
        return Judgement(Verdict.ERROR, None, first_line(records[0].message, blank="unreadable"))
    invalid = [r for r in records if r.plan_valid is False]
    if invalid:
        return Judgement(Verdict.INVALID_PLAN, None, _each(f"{r.solver}: {r.plan_error}" for r in invalid))
    bad_certificates = _bad_certificates(records)
    if bad_certificates:
        return Judgement(Verdict.BAD_CERTIFICATE, None, bad_certificates)
    checked = [r for r in records if r.plan_valid]
    best_plan = min((_checked_cost(r) for r in checked), default=None)
    infeasible = [r for r in records if r.answer_status is Status.INFEASIBLE]
    # Claimed optima: proven ones carry a checked plan; external programs only claim.
    optimal = [r for r in records if r.answer_status is Status.OPTIMAL]
    proofs = [r for r in records if r.evidence.proves]
    if best_plan is not None and infeasible:
        return Judgement(Verdict.FALSE_INFEASIBLE, None, (
            f"{', '.join(r.solver for r in infeasible)} claimed infeasible; "
            f"{_best(checked)} has a checked plan of cost {best_plan}"))
    beaten = [r for r in optimal if best_plan is not None and _claimed(r) > best_plan]
    if beaten:
        return Judgement(Verdict.FALSE_OPTIMAL, None, _each(
            f"{r.solver} claimed optimum {r.cost}, {_best(checked)} has a checked plan of cost {best_plan}"
            for r in beaten))
    too_high = [r for r in proofs if r.bound is not None and best_plan is not None and r.bound > best_plan]
    if too_high:
        return Judgement(Verdict.DISAGREE, None, _each(
            f"{r.solver} claimed lower bound {r.bound} above checked plan cost {best_plan}" for r in too_high))
    below = [(r, b) for r in optimal for b in proofs if b.bound is not None and _claimed(r) < b.bound]
    if below:
        return Judgement(Verdict.DISAGREE, None, _each(
            f"{r.solver} claimed optimum {r.cost} below {b.solver}'s lower bound {b.bound}" for r, b in below))
    proven_infeasible = [r for r in infeasible if r.exact_answer]
    if proven_infeasible and optimal:
        return Judgement(Verdict.DISAGREE, None, (
            f"{', '.join(r.solver for r in proven_infeasible)} proved infeasible, "
            f"{', '.join(r.solver for r in optimal)} claimed an optimum"))
    proven = [r for r in optimal if r.exact_answer]
    answer: ExactAnswer
    if proven and best_plan is not None:  # a proven optimum has a checked plan (`RunRecord.exact_answer`)
        answer, provers = Optimum(best_plan), proven
    elif proven_infeasible:
        answer, provers = NO_SOLUTION, proven_infeasible
    else:
        contradiction = _index_contradiction(proofs, best_plan, expected) or _claims_against_index(
            optimal + infeasible, expected)
        if contradiction:
            return Judgement(Verdict.WRONG_EXPECTED, None, contradiction)
        return Judgement(Verdict.UNVERIFIED, None, _unverified_reason(proofs, best_plan))
    by_solver = {r.solver: r for r in provers}  # a solver run twice proves once
    names, independent = tuple(by_solver), independent_count(list(by_solver.values()))
    certified = tuple(dict.fromkeys(r.solver for r in provers if r.evidence is Evidence.CERTIFIED))
    evidence = f"{len(names)} exact ({independent} independent): {', '.join(names)}" + (
        f"; certified by {', '.join(certified)}" if certified else "")
    if expected is not None and answer != expected:  # the provers stand against the index: how firmly matters
        return Judgement(Verdict.WRONG_EXPECTED, answer, f"solvers agree on {answer}, index says {expected}: {evidence}",
                         names, independent, certified)
    return Judgement(Verdict.AGREE, answer, evidence, names, independent, certified)


def _bad_certificates(records: list[RunRecord]) -> str:
    """Why certificates among `records` fail ('' when none does): a check that failed, or a
    checked plan that does not satisfy a certified formulation's CNF at its cost."""
    failed = [f"{r.solver}: certificate rejected: {r.certificate.error}" for r in records
              if r.certificate is not None and r.certificate.checked is False]
    left_out = [f"{check.plan_of}'s checked plan of cost {check.cost} falsifies {check.encoding}'s CNF at "
                f"{check.cost} (clause {check.falsified}): the encoding leaves plans out"
                for r in records for check in r.encoding_checks if not check.satisfied]
    return _each([*failed, *left_out])


def independent_count(provers: list[RunRecord]) -> int:
    """The most provers no two of which share an answer-deciding component.

    Formulations that share a contraction or a bound can be wrong together; their
    agreement is one piece of evidence, and so is that of two configurations of one
    formulation (they share all of it).  There are a handful of provers, so every
    subset is tried, largest first.
    """
    for size in range(len(provers), 0, -1):
        for group in combinations(provers, size):
            if all(apart(a, b) for a, b in combinations(group, 2)):
                return size
    return 0


def apart(first: RunRecord, second: RunRecord) -> bool:
    """Whether two runs' formulations share no answer-deciding component: other formulations
    (not two configurations of one) whose recorded `shares` do not meet."""
    return first.formulation != second.formulation and not set(first.shares) & set(second.shares)


def _each(reasons: Iterable[str]) -> str:
    """`reasons` joined by ``; ``, each once: repetitions of a run give the same reason."""
    return "; ".join(dict.fromkeys(reasons))


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


def _index_contradiction(records: list[RunRecord], best_plan: int | None, expected: ExactAnswer | None) -> str:
    """Why the index entry cannot be right, judged without any exact answer ('' if it may be)."""
    if expected is None:
        return ""
    if best_plan is not None and (isinstance(expected, NoSolution) or best_plan < expected.cost):
        return f"index says {expected}; a checked plan costs {best_plan}"
    if isinstance(expected, Optimum):
        above = [r for r in records if r.bound is not None and r.bound > expected.cost]
        if above:
            return f"index says {expected}; " + ", ".join(f"{r.solver} proved a lower bound {r.bound}" for r in above)
    return ""


def _claims_against_index(claims: list[RunRecord], expected: ExactAnswer | None) -> str:
    """The claimed answers (none proven in this run) that differ from the index's ('' if none).

    A claim never contradicts a fact, but the index holds an answer established before (a
    published optimum, or one `record-optima` took from agreeing exact answers): a lone
    program claiming otherwise is the conflict an audit of it is run to find."""
    if expected is None:
        return ""
    answers = [(r.solver, NO_SOLUTION if r.answer_status is Status.INFEASIBLE else Optimum(_claimed(r))) for r in claims]
    return _each(f"{solver} claims {answer}, index says {expected}"
                     for solver, answer in answers if answer != expected)


def _unverified_reason(records: list[RunRecord], best_plan: int | None) -> str:
    """What is known without an exact answer, in words ("no plan", "no bound" for what is missing)."""
    bound = max((r.bound for r in records if r.bound is not None), default=None)
    plan_words = "no plan" if best_plan is None else f"best plan {best_plan}"
    bound_words = "no bound" if bound is None else f"best bound {bound}"
    return f"no exact answer; {plan_words}, {bound_words}"


def judge_all(records: Iterable[RunRecord]) -> list[InstanceVerdict]:
    """One verdict per (instance, variant), in first-seen order."""
    groups: dict[tuple[str, bool], list[RunRecord]] = {}
    for record in records:
        groups.setdefault((record.instance, record.variant), []).append(record)
    return [judge(group) for group in groups.values()]


@dataclass(frozen=True)
class JudgedRuns:
    """Run records with the verdict on each of their instances, judged once (`judged`) for
    every table, note and exit status made of them; `left_out` names the solvers whose runs
    were left out before judging (``report --solver/--exclude-solver``), for the data
    formats to say so."""

    records: list[RunRecord]
    verdicts: list[InstanceVerdict]  # `judge_all(records)`, in first-seen order
    left_out: tuple[str, ...] = ()

    def frame(self) -> pandas.DataFrame:
        """The runs as a pandas DataFrame, one tidy row per run with its instance's verdict
        (`crosscheck.harness.records.tidy.rows`; needs the analysis extra)."""
        from crosscheck.harness.records.tidy import frame

        return frame(self)

    def verdict_of(self, instance: str, variant: bool) -> InstanceVerdict:
        """The verdict on one instance (or its variant) of the records."""
        return self._by_key[instance, variant]

    @cached_property
    def _by_key(self) -> dict[tuple[str, bool], InstanceVerdict]:
        return {(v.instance, v.variant): v for v in self.verdicts}


def judged(records: Iterable[RunRecord], left_out: Sequence[str] = ()) -> JudgedRuns:
    """`records` and their verdicts: `judge_all`'s, where a related instance's (one whose
    runs carry ``related_to``) becomes `Verdict.MORPH_MISMATCH` when a runner's answers on
    it and on its original break the relation (`with_morph`); `left_out`, the solvers whose
    runs were taken out of `records` first, is kept to be named."""
    records = list(records)
    return JudgedRuns(records, with_morph(judge_all(records), records), tuple(left_out))


def pair_verdict(expectation: Expectation, first: ExactAnswer | None, second: ExactAnswer | None
                 ) -> tuple[Verdict, str]:
    """The verdict on a runner's exact answers `first` (on an instance) and `second` (on a
    related one), by the relation's `expectation`, and why: `Verdict.UNVERIFIED` without
    both answers, `Verdict.MORPH_MISMATCH` when they break it, else `Verdict.AGREE`."""
    if first is None or second is None:
        return Verdict.UNVERIFIED, "no exact answer on " + (
            "either" if first is None and second is None else "the original" if first is None
            else "the related instance")
    broken = expectation.broken(first, second)
    return (Verdict.MORPH_MISMATCH, broken) if broken else (Verdict.AGREE, f"{first} and {second}")


def with_morph(verdicts: list[InstanceVerdict], records: list[RunRecord]) -> list[InstanceVerdict]:
    """`verdicts` with each related instance whose recorded pairs (`recorded_pairs`) hold a
    morph-mismatch judged `Verdict.MORPH_MISMATCH` (unless its own runs' verdict is worse),
    the reason naming each runner, relation and original."""
    broken: dict[str, list[str]] = {}
    for pair in recorded_pairs(records):
        verdict, reason = pair_verdict(parse_expectation(pair.link.expectation), answer_of(pair.original),
                                       answer_of(pair.related))
        if verdict is Verdict.MORPH_MISMATCH:
            broken.setdefault(pair.related.instance, []).append(
                f"{pair.related.solver}: ~{pair.link.relation} of {pair.link.original}: {reason}")
    return [InstanceVerdict(Verdict.MORPH_MISMATCH, v.answer, "; ".join(broken[v.instance]),
                            instance=v.instance, variant=v.variant)
            if not v.variant and v.instance in broken and SEVERITY[v.verdict] > SEVERITY[Verdict.MORPH_MISMATCH]
            else v for v in verdicts]
