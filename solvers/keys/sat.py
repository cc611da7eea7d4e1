"""``keys-sat``: CNF over key-collection orders (`crosscheck.solvers.keys.sat_encoding`), solved
by CaDiCaL 1.9.5 with proof logging, the refutation below the optimum handed over as a certificate.

Order of the work: the ``start`` query first (a tour with no bound on its length): unsatisfiable
means some key can never be collected (no plan, certified by its proof); its model decodes to a
first plan.  Then downward: while the best plan so far costs C, the ``bound`` query at C - 1; a
model decodes to a cheaper plan, and the first refutation proves C optimal (no plan of at most
C - 1 steps), its proof the only one kept.  When time runs out, the answer is the best plan
found (``feasible``), with no certified bound; so is it when the next bound query's CNF
would be too large to build (`SUM_CLAUSE_LIMIT`).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from crosscheck.models.keys.model import KeyMove, Vault
from crosscheck.solvers.base import Answer, Deadline, Solver, Status
from crosscheck.solvers.certificate import BOUND, START, Certificate, UnsatQuery
from crosscheck.solvers.engines import sat
from crosscheck.solvers.engines.sat import Cnf, SatOutcome, SolveTally
from crosscheck.solvers.keys.sat_encoding import ENCODING, decode, encode, sum_clauses


#: Solve no bound query whose running sum needs more clauses than this (`sum_clauses`): building it
#: in Python would take longer than the default time limit.
SUM_CLAUSE_LIMIT = 3_000_000


class KeysSat(Solver):
    name = "keys-sat"
    puzzle = "keys"
    summary = ("CNF over key-collection orders and candidate arcs, bounds downward, CaDiCaL with DRUP "
               "proofs the harness checks (optional extra 'certificates')")
    encoding = ENCODING
    #: Beyond these the queries do not end within the default 60 s (docs/results.md, "Certified optima").
    reach = {"keys": 16}

    def unavailable(self) -> str | None:
        return sat.missing()

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        missing = sat.missing()
        if missing is not None:
            return Answer(Status.UNSUPPORTED, message=missing)
        folder = sat.proof_folder()
        try:
            answer = _answer(instance, deadline, folder)
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        if answer.certificate is None or not answer.certificate.queries:  # no proof handed over: none kept
            shutil.rmtree(folder, ignore_errors=True)
        return answer


def _answer(vault: Vault, deadline: Deadline, folder: Path) -> Answer:
    """The answer by the order of the module doc."""
    try:
        first = encode(vault, None)
    except ValueError as error:  # too many candidate arcs to search
        return Answer(Status.UNSUPPORTED, message=str(error))
    outcome = sat.solve(first, deadline, folder / "start.drup")
    stats = SolveTally()
    stats.add(outcome)
    if outcome.satisfiable is None:
        return Answer(Status.TIMEOUT, stats=stats.stats(), message=deadline.limit_reached())
    if not outcome.satisfiable:
        query = _refuted(first, START, None, folder / "start.drup", outcome)
        return Answer(Status.INFEASIBLE, stats=stats.stats(), message="some key can never be collected",
                      certificate=Certificate(claim="infeasible", queries=[query]))
    plan = decode(vault, None, outcome.model)
    while plan:
        size = sum_clauses(vault, len(plan) - 1)
        if size > SUM_CLAUSE_LIMIT:
            return _found(plan, stats, f"the bound query at {len(plan) - 1} needs {size} clauses for its sum alone")
        cnf = encode(vault, len(plan) - 1)
        outcome = sat.solve(cnf, deadline, folder / "bound.drup")
        stats.add(outcome)
        if outcome.satisfiable is None:
            return _found(plan, stats, deadline.limit_reached())
        if not outcome.satisfiable:
            query = _refuted(cnf, BOUND, len(plan) - 1, folder / "bound.drup", outcome)
            return _found(plan, stats, certificate=Certificate(claim="lower-bound", bound=len(plan), queries=[query]))
        plan = decode(vault, len(plan) - 1, outcome.model)
    return _found(plan, stats, certificate=Certificate(claim="lower-bound", bound=0))


def _refuted(cnf: Cnf, kind: str, bound: int | None, proof: Path, outcome: SatOutcome) -> UnsatQuery:
    return UnsatQuery(kind=kind, bound=bound, digest=cnf.digest(), proof_file=str(proof), variables=cnf.variables,
                      clauses=len(cnf.clauses), proof_lines=outcome.proof_lines)


def _found(plan: list[KeyMove], stats: SolveTally, message: str = "",
           certificate: Certificate | None = None) -> Answer:
    """The best plan: optimal under a certificate, else feasible."""
    status = Status.OPTIMAL if certificate is not None else Status.FEASIBLE
    return Answer(status, cost=len(plan), bound=len(plan) if certificate is not None else None, plan=list(plan),
                  stats=stats.stats(), message=message, certificate=certificate)
