"""``elevator-sat``: CNF over labelled states (`crosscheck.solvers.elevator.sat_encoding`), refuted
by CaDiCaL 1.9.5 with proof logging, each refutation handed over as a certificate.

Order of the work: the ``start`` query first (unsatisfiable: the start is unsafe, no plan
exists); then, if the states reachable from the start run out below `INVARIANT_STATES`
without a goal among them, those states as an inductive invariant (its three queries); else
horizons B = 0, 1, 2, ... upward: the first satisfiable ``bound`` query is the optimum (each
shorter one was refuted, and a plan of at most B steps exists for every B at or above it), its
model decoded into the plan.  Only the last refutation is kept: the CNF at the optimum minus one
says no plan of fewer steps exists, which proves the lower bound alone.  When time runs out, the
answer is ``timeout`` with the first horizon not refuted as its (certified) lower bound.

The invariant is only proposed here (`reachable`, a breadth-first walk under this module's own
reading of the rules): the three refutations, checked by the harness, are what prove it.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from itertools import combinations

from crosscheck.models.elevator.model import Facility
from crosscheck.solvers.base import Answer, Deadline, Solver, Stats, Status
from crosscheck.solvers.certificate import BOUND, INVARIANT_KINDS, START, Certificate, Claim, UnsatQuery
from crosscheck.solvers.elevator.sat_encoding import (
    ENCODING,
    State,
    decode,
    encode,
    encode_invariant,
    encode_start,
    start_state,
)
from crosscheck.solvers.engines import sat
from crosscheck.solvers.engines.sat import Cnf

#: Propose the reachable states as an invariant only while there are at most this many.
INVARIANT_STATES = 20_000


class ElevatorSat(Solver):
    name = "elevator-sat"
    puzzle = "elevator"
    summary = ("CNF over labelled states, horizons upward, CaDiCaL with DRUP proofs the harness checks "
               "(optional extra 'certificates')")
    encoding = ENCODING

    def unavailable(self) -> str | None:
        return sat.missing()

    def _solve(self, instance: Facility, deadline: Deadline) -> Answer:
        missing = sat.missing()
        if missing is not None:
            return Answer(Status.UNSUPPORTED, message=missing)
        refuter = _Refuter(deadline)
        try:
            answer = _answer(refuter, instance)
        except BaseException:
            shutil.rmtree(refuter.folder, ignore_errors=True)
            raise
        if answer.certificate is None or not answer.certificate.queries:  # no proof handed over: none kept
            shutil.rmtree(refuter.folder, ignore_errors=True)
        return answer


def _answer(refuter: _Refuter, instance: Facility) -> Answer:
    """The answer by the order of the module doc: start, invariant, horizons."""
    start = refuter.refute(encode_start(instance), START)
    if start is None:
        return refuter.timeout(0)
    if start:
        return refuter.infeasible("the start is unsafe")
    states = reachable(instance, refuter.deadline)
    if states is not None:
        answer = _by_invariant(refuter, instance, states)
        if answer is not None:
            return answer
    return _horizons(refuter, instance)


def _by_invariant(refuter: _Refuter, instance: Facility, states: list[State]) -> Answer | None:
    """Infeasible by the invariant `states` when its three queries are refuted; a timeout when
    time runs out; None when a query is satisfiable (the proposal was not an invariant)."""
    refuter.save_states(states)
    for kind in INVARIANT_KINDS:
        refuted = refuter.refute(encode_invariant(instance, kind, states), kind)
        if refuted is None:
            return refuter.timeout(0)
        if not refuted:
            refuter.forget()
            return None
    return refuter.infeasible(f"none of the {len(states)} labelled states reachable from the start is a goal")


def _horizons(refuter: _Refuter, instance: Facility) -> Answer:
    """The optimum by horizons upward (module doc); a timeout at the first horizon not refuted."""
    bound = 0
    while True:
        cnf = encode(instance, bound)
        refuted = refuter.refute(cnf, BOUND, bound, keep_one=True)
        if refuted is None:
            return refuter.timeout(bound)
        if not refuted:
            plan = decode(instance, bound, refuter.model)
            return Answer(Status.OPTIMAL, cost=len(plan), bound=len(plan), plan=list(plan), stats=refuter.stats(),
                          certificate=refuter.certificate("lower-bound", len(plan)))
        bound += 1


class _Refuter:
    """Solves the queries of one run, keeping each refuted one's proof under a temporary folder."""

    def __init__(self, deadline: Deadline) -> None:
        self.deadline = deadline
        self.folder = sat.proof_folder()
        self.queries: list[UnsatQuery] = []
        self.model: list[int] = []
        self.conflicts = 0
        self.solved = 0
        self.data_file = ""

    def refute(self, cnf: Cnf, kind: str, bound: int | None = None, keep_one: bool = False) -> bool | None:
        """True when `cnf` (query `kind` at `bound`) is unsatisfiable, its proof kept (the only one
        with `keep_one`); False when satisfiable (its model kept); None when time ran out."""
        proof = self.folder / f"{kind}-{len(self.queries) if not keep_one else 'last'}.drup"
        outcome = sat.solve(cnf, self.deadline, proof)
        self.conflicts += outcome.conflicts
        self.solved += 1
        if outcome.satisfiable is None:
            return None
        if outcome.satisfiable:
            self.model = outcome.model
            return False
        query = UnsatQuery(kind=kind, bound=bound, data_file=self.data_file if kind in INVARIANT_KINDS else "",
                           digest=cnf.digest(), proof_file=str(proof), variables=cnf.variables,
                           clauses=len(cnf.clauses), proof_lines=outcome.proof_lines)
        self.queries = [query] if keep_one else [*self.queries, query]
        return True

    def save_states(self, states: list[State]) -> None:
        """Write the invariant's states as the data file of its queries."""
        path = self.folder / "invariant.json"
        path.write_text(json.dumps([list(state) for state in states]), encoding="ascii")
        self.data_file = str(path)

    def forget(self) -> None:
        """Drop the refutations so far (an invariant that was not one)."""
        self.queries, self.data_file = [], ""

    def certificate(self, claim: Claim, bound: int | None = None) -> Certificate:
        return Certificate(claim=claim, bound=bound, queries=self.queries if claim == "infeasible" or bound else [])

    def stats(self) -> Stats:
        return {"sat_solver": sat.SOLVER, "conflicts": self.conflicts, "cnf_solved": self.solved}

    def infeasible(self, why: str) -> Answer:
        return Answer(Status.INFEASIBLE, stats=self.stats(), message=why, certificate=self.certificate("infeasible"))

    def timeout(self, bound: int) -> Answer:
        return Answer(Status.TIMEOUT, bound=bound, stats=self.stats(), message=self.deadline.limit_reached(),
                      certificate=self.certificate("lower-bound", bound) if bound else None)


def reachable(facility: Facility, deadline: Deadline) -> list[State] | None:
    """The labelled states reachable from the start by safe steps, in breadth-first order, when
    there are at most `INVARIANT_STATES` and no goal among them; None otherwise (or when time
    runs out).  A proposal only: its three refutations prove it an invariant."""
    start = start_state(facility)
    seen, frontier = {start: None}, [start]
    while frontier:
        if deadline.expired(len(frontier)):
            return None
        following = []
        for state in frontier:
            for successor in _successors(state, facility.floors):
                if successor not in seen:
                    if all(floor == facility.floors - 1 for floor in successor[:-1]):
                        return None
                    seen[successor] = None
                    following.append(successor)
        if len(seen) > INVARIANT_STATES:
            return None
        frontier = following
    return list(seen)


def _successors(state: State, floors: int) -> Iterator[State]:
    """The states one safe step leads to from `state` (this module's own reading of the rules)."""
    elevator = state[-1]
    here = [item for item, floor in enumerate(state[:-1]) if floor == elevator]
    for target in (elevator - 1, elevator + 1):
        if 0 <= target < floors:
            for load in [*((item,) for item in here), *combinations(here, 2)]:
                successor = list(state)
                for item in (*load, len(state) - 1):
                    successor[item] = target
                if _harmless(successor):
                    yield tuple(successor)


def _harmless(state: list[int]) -> bool:
    """No microchip (odd items) shares a floor with a generator (even items) without its own."""
    generators = {state[item] for item in range(0, len(state) - 1, 2)}
    return all(floor not in generators or state[item - 1] == floor
               for item, floor in enumerate(state[:-1]) if item % 2)
