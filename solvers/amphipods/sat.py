"""``amphipods-sat``: CNF over ordered macro moves (`crosscheck.solvers.amphipods.sat_encoding`),
refuted by CaDiCaL 1.9.5 with proof logging, each refutation handed over as a certificate.

Order of the work: the ``start`` query first (the rules without an energy bound): unsatisfiable,
no plan of the lemma's shape exists and the answer is infeasible; satisfiable, its model is a plan
whose energy U is an upper bound.  Below the fixed energy F (`sat_encoding.Layout.fixed`) no plan
exists, refuted once (the bound query at F - 1, a two-clause contradiction).  Then bisection: the
bound query at the middle M of [L, U - 1]; a model gives a plan of energy at most M (the new U),
a refutation the lower bound M + 1 (the new L).  When L = U, U is the optimum and the last
refutation, at U - 1, is the only one kept: it proves the lower bound alone.  When time runs out,
the answer is ``feasible``, the best plan found with L as its (certified) lower bound, or
``timeout`` before the first plan.
"""

from __future__ import annotations

from crosscheck.models.amphipods.model import AmphipodMove, Burrow
from crosscheck.solvers.amphipods.sat_encoding import ENCODING, Layout, decode, encode, energy
from crosscheck.solvers.base import Answer, Deadline, Solver, Status
from crosscheck.solvers.certificate import BOUND, START
from crosscheck.solvers.engines import sat
from crosscheck.solvers.engines.sat import Refuter


class AmphipodsSat(Solver):
    name = "amphipods-sat"
    puzzle = "amphipods"
    summary = ("CNF over ordered macro moves, energy bisected, CaDiCaL with DRUP proofs the harness checks "
               "(optional extra 'certificates')")
    encoding = ENCODING
    reach = {"depth": 3}

    def unavailable(self) -> str | None:
        return sat.missing()

    def _solve(self, instance: Burrow, deadline: Deadline) -> Answer:
        return sat.refuting(sat.Refuter(deadline), lambda refuter: _answer(refuter, instance))


def _answer(refuter: Refuter, burrow: Burrow) -> Answer:
    """The answer by the order of the module doc: start, the fixed energy, bisection."""
    start = refuter.refute(encode(burrow, None), START)
    if start is None:
        return refuter.timeout(0)
    if start:
        return refuter.infeasible("no plan moves each amphipod at most twice (the lemma's shape)")
    best, upper = decode(burrow, refuter.model), energy(burrow, refuter.model)
    lower = Layout(burrow).fixed
    if lower and refuter.refute(encode(burrow, lower - 1), BOUND, lower - 1, keep_one=True) is None:
        return _best_so_far(refuter, best, upper, 0)
    while lower < upper:
        middle = (lower + upper - 1) // 2
        refuted = refuter.refute(encode(burrow, middle), BOUND, middle, keep_one=True)
        if refuted is None:
            return _best_so_far(refuter, best, upper, lower)
        if refuted:
            lower = middle + 1
        else:
            best, upper = decode(burrow, refuter.model), energy(burrow, refuter.model)
    return Answer(Status.OPTIMAL, cost=upper, bound=upper, plan=list(best), stats=refuter.stats(),
                  certificate=refuter.certificate("lower-bound", upper))


def _best_so_far(refuter: Refuter, plan: list[AmphipodMove], cost: int, lower: int) -> Answer:
    """The plan found when time ran out, with the bound `lower` refuted below it (0: none)."""
    return Answer(Status.FEASIBLE, cost=cost, bound=lower or None, plan=list(plan), stats=refuter.stats(),
                  message=refuter.deadline.limit_reached(),
                  certificate=refuter.certificate("lower-bound", lower) if lower else None)
