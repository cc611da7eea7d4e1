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

from collections.abc import Iterator
from itertools import combinations

from crosscheck.models.elevator.model import Facility
from crosscheck.solvers.base import Answer, Deadline, Solver, Status
from crosscheck.solvers.certificate import BOUND, INVARIANT_KINDS, START
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
from crosscheck.solvers.engines.sat import Refuter

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
        return sat.refuting(deadline, lambda refuter: _answer(refuter, instance))


def _answer(refuter: Refuter, instance: Facility) -> Answer:
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


def _by_invariant(refuter: Refuter, instance: Facility, states: list[State]) -> Answer | None:
    """Infeasible by the invariant `states` when its three queries are refuted; a timeout when
    time runs out; None when a query is satisfiable (the proposal was not an invariant)."""
    refuter.save_data([list(state) for state in states])
    for kind in INVARIANT_KINDS:
        refuted = refuter.refute(encode_invariant(instance, kind, states), kind)
        if refuted is None:
            return refuter.timeout(0)
        if not refuted:
            refuter.forget()
            return None
    return refuter.infeasible(f"none of the {len(states)} labelled states reachable from the start is a goal")


def _horizons(refuter: Refuter, instance: Facility) -> Answer:
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
