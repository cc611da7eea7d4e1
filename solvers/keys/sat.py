"""``keys-sat``: CNF over key-collection orders (`crosscheck.solvers.keys.sat_encoding`), solved
by CaDiCaL 1.9.5 with proof logging, the refutation below the optimum handed over as a certificate.

Order of the work: a first plan by a greedy walk over the candidate arcs (`greedy`); when it gets
stuck no plan exists, and the ``start`` query (a tour with no bound on its length) is refuted to
prove it.  Then downward: while the best plan costs C, the ``bound`` query at C - 1; a model
decodes to a cheaper plan, and the first refutation proves C optimal (no plan of at most C - 1
steps), its proof the one kept.  (Bisection from 0 refutes bounds far below the optimum, which
are no easier here.)  When time runs out, or the next bound query's CNF would be too large to
build (`SUM_CLAUSE_LIMIT`), the answer is the best plan (``feasible``), with no certified bound.
"""

from __future__ import annotations

from crosscheck.models.keys.model import KeyMove, Vault
from crosscheck.solvers.base import Answer, Deadline, Solver, Status
from crosscheck.solvers.certificate import BOUND, START
from crosscheck.solvers.engines import sat
from crosscheck.solvers.engines.sat import Refuter
from crosscheck.solvers.keys.sat_encoding import ENCODING, Points, candidate_arcs, decode, encode, sum_clauses

#: Solve no bound query whose running sum needs more clauses than this (`sum_clauses`): building it
#: in Python would take longer than the default time limit.
SUM_CLAUSE_LIMIT = 3_000_000


class KeysSat(Solver):
    name = "keys-sat"
    puzzle = "keys"
    summary = ("CNF over key-collection orders and candidate arcs, bounds downward, CaDiCaL with DRUP "
               "proofs the harness checks (optional extra 'certificates')")
    encoding = ENCODING
    #: Beyond these its queries do not end within the default time limit (docs/results.md, "Certified optima").
    reach = {"keys": 15}

    def unavailable(self) -> str | None:
        return sat.missing()

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        return sat.refuting(sat.Refuter(deadline), lambda refuter: _answer(instance, refuter))


def _answer(vault: Vault, refuter: Refuter) -> Answer:
    """The answer by the order of the module doc."""
    try:
        points = candidate_arcs(vault)
    except ValueError as error:  # too many candidate arcs to search
        return Answer(Status.UNSUPPORTED, message=str(error))
    plan = greedy(points)
    if plan is None:  # no plan exists (`greedy`); the start query's refutation proves it
        refuted = refuter.refute(encode(vault, None), START)
        if refuted is None:
            return Answer(Status.TIMEOUT, stats=refuter.stats(), message=refuter.deadline.limit_reached())
        if refuted:
            return refuter.infeasible("some key can never be collected")
        plan = decode(vault, None, refuter.model)
    return _descended(vault, plan, refuter)


def _descended(vault: Vault, plan: list[KeyMove], refuter: Refuter) -> Answer:
    """Bound queries one below the best plan's cost until one is refuted (module doc)."""
    while plan:
        bound = len(plan) - 1
        size = sum_clauses(vault, bound)
        if size > SUM_CLAUSE_LIMIT:
            return _found(plan, refuter, False, f"the bound query at {bound} needs {size} clauses for its sum alone")
        refuted = refuter.refute(encode(vault, bound), BOUND, bound, keep_one=True)
        if refuted is None:
            return _found(plan, refuter, False, refuter.deadline.limit_reached())
        if refuted:
            return _found(plan, refuter, True)
        plan = decode(vault, bound, refuter.model)
    return _found(plan, refuter, False)


def greedy(points: Points) -> list[KeyMove] | None:
    """A first plan: again and again, the shortest candidate arc any robot may walk from where it
    stands to a key not held, every key it needs held; None when no robot may walk one (then no
    plan exists: holding more keys opens more, and the arcs are complete)."""
    stands, held, plan = list(range(points.robots)), set[int](), []
    while len(held) < points.keys:
        walks = [(len(arc.steps), robot, arc) for robot in range(points.robots) for arc in points.arcs
                 if arc.source == stands[robot] and arc.target not in held and arc.needs <= held]
        if not walks:
            return None
        _, robot, arc = min(walks, key=lambda walk: walk[:2])
        plan += [KeyMove(robot, direction) for direction in arc.steps]
        held.add(arc.target)
        stands[robot] = points.key_point(arc.target)
    return plan


def _found(plan: list[KeyMove], refuter: Refuter, proven: bool, message: str = "") -> Answer:
    """The best plan: optimal when the bound query one below its cost was refuted (`proven`) or the
    plan is empty, else feasible."""
    if not proven and plan:
        return Answer(Status.FEASIBLE, cost=len(plan), plan=list(plan), stats=refuter.stats(), message=message)
    return Answer(Status.OPTIMAL, cost=len(plan), bound=len(plan), plan=list(plan), stats=refuter.stats(),
                  message=message, certificate=refuter.certificate("lower-bound", len(plan)))
