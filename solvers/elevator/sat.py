"""``elevator-sat``: the elevator as CNF, refuted by CaDiCaL 1.9.5 with proof logging, each
refutation handed over as a certificate the harness checks.

One option, ``states``: the CNF's states are counts of pair types (``counts``, the default:
`crosscheck.solvers.elevator.sat_counts`), or labelled items (``labelled``:
`crosscheck.solvers.elevator.sat_encoding`).  Counts rest on two lemmas besides the checked proofs:
renaming elements maps plans to plans, and a plan of T >= 1 steps makes exactly (T - potential) / 2
wasteful steps (`crosscheck.solvers.elevator.sat_counts`); labelled states on neither.

Order of the work, labelled: the ``start`` query first (unsatisfiable: the start is unsafe, no plan
exists); then, if the states reachable from the start run out below `INVARIANT_STATES` without a
goal among them, those states as an inductive invariant (its three queries); else horizons B = 0,
1, 2, ... upward: the first satisfiable ``bound`` query gives a plan, its model decoded; the plan's
length less one is then refuted too when it was not yet, until a plan one step longer than the
last refuted horizon is found: the optimum (only that last refutation is kept: it proves the lower
bound alone).  When time runs out, the answer is ``timeout`` (or ``feasible`` with a plan) with
the last refuted horizon plus one as its (certified) lower bound.

Over counts: the ``start`` query; then a walk over states up to renaming by their fewest wasteful
steps (`crosscheck.solvers.elevator.sat_counts_reach`).  States that run out without a goal are
the invariant of infeasibility.  A goal met at w* wasteful steps makes potential + 2 w* the
optimum it proposes: the bound query there is solved for the plan, and the bound one below it
refuted by the three invariant queries over the states met with fewer than w* wasteful steps (by
the bound query itself when w* is 0: it then has no model by the potential lemma's clause alone).
A walk that meets too many states, or a proposal the CNF does not bear out, leaves the horizons,
over B of the parity that the potential lemma leaves possible for B + 1.

Every invariant is only proposed here (`reachable`, `crosscheck.solvers.elevator.sat_counts_reach`):
the three refutations, checked by the harness, are what prove it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations
from typing import Literal, Protocol, cast

from crosscheck.models.elevator.model import ElevatorMove, Facility
from crosscheck.solvers.base import Answer, Deadline, Solver, Status
from crosscheck.solvers.certificate import BOUND, INVARIANT_KINDS, START, Encoding
from crosscheck.solvers.configuration import Options, option
from crosscheck.solvers.elevator.sat_counts import potential
from crosscheck.solvers.elevator.sat_counts_plans import COUNTS_ENCODING
from crosscheck.solvers.elevator.sat_counts_reach import reach
from crosscheck.solvers.elevator.sat_encoding import ENCODING, State, start_state
from crosscheck.solvers.engines import sat
from crosscheck.solvers.engines.sat import Cnf

#: Propose the reachable labelled states as an invariant only while there are at most this many.
INVARIANT_STATES = 20_000


class SatOptions(Options):
    """elevator-sat's design choice: the states its CNF is over."""

    states: Literal["counts", "labelled"] = option(
        "counts", "the CNF's states: counts of pair types (resting on the renaming and potential lemmas), or "
                  "labelled items (no lemma)")


class StatesEncoding(Encoding, Protocol):
    """An encoding of elevator-sat: the harness's `Encoding`, and the model of a bound query decoded."""

    def decode(self, instance: Facility, bound: int, model: Sequence[int]) -> list[ElevatorMove]: ...


class ElevatorSat(Solver):
    name = "elevator-sat"
    puzzle = "elevator"
    summary = ("CNF over counts of pair types (or labelled states), CaDiCaL with DRUP proofs the harness checks "
               "(optional extra 'certificates')")
    Options = SatOptions
    # past 5 pairs a run ends in time, but checking its certificate takes longer than the harness's
    # check limit (docs/results.md, "Certified optima"): reach counts the check too
    reach = {"pairs": 5}

    @property
    def encoding(self) -> StatesEncoding:  # type: ignore[override]  # the configured option's, not one per class
        return COUNTS_ENCODING if self._counts else ENCODING

    @property
    def _counts(self) -> bool:
        return cast(SatOptions, self.options).states == "counts"

    def unavailable(self) -> str | None:
        return sat.missing()

    def _solve(self, instance: Facility, deadline: Deadline) -> Answer:
        answer = _by_counts if self._counts else _labelled
        return sat.refuting(_Refuter(deadline, self.encoding, instance), answer)


def _labelled(refuter: _Refuter) -> Answer:
    """The answer over labelled states by the order of the module doc: start, invariant, horizons."""
    instance = refuter.instance
    start = refuter.query(START)
    if start is None:
        return refuter.ran_out()
    if start:
        return refuter.infeasible("the start is unsafe")
    states = reachable(instance, refuter.deadline)
    if states is not None:
        proven = _by_invariant(refuter, [list(state) for state in states], None)
        if proven is None:
            return refuter.ran_out()
        if proven:
            return refuter.infeasible(f"none of the {len(states)} labelled states reachable from the start is a goal")
    return _horizons(refuter, range(0, 1 << 30))


def _by_counts(refuter: _Refuter) -> Answer:
    """The answer over counts by the order of the module doc: start, the walk's proposals, horizons."""
    instance = refuter.instance
    start = refuter.query(START)
    if start is None:
        return refuter.ran_out()
    if start:
        return refuter.infeasible("the start is unsafe")
    walk = reach(instance, refuter.deadline)
    if walk is not None and walk.goal is None:
        proven = _by_invariant(refuter, [list(state) for state in walk.settled], None)
        if proven is None:
            return refuter.ran_out()
        if proven:
            return refuter.infeasible(f"none of the {len(walk.settled)} states up to renaming reachable from the "
                                      "start is a goal")
    if walk is not None and walk.goal is not None:
        answer = _proposed(refuter, max(0, potential(instance) + 2 * walk.goal), walk.below_goal())  # 0: the start
        if answer is not None:
            return answer
    odd = (potential(instance) + 1) % 2
    return _horizons(refuter, (bound for bound in range(0, 1 << 30) if bound == 0 or bound % 2 == odd))


def _proposed(refuter: _Refuter, optimum: int, below: list[tuple[int, ...]]) -> Answer | None:
    """The optimum the walk proposes, proven (module doc); a timeout when time runs out; None when
    the CNF does not bear it out."""
    found = refuter.query(BOUND, optimum, keep_one=True)
    if found is None:
        return refuter.ran_out()
    if found:
        return None
    plan = refuter.decode(optimum)
    if len(plan) != optimum:
        return None
    if optimum and below:
        proven = _by_invariant(refuter, [list(state) for state in below], optimum - 1)
        if not proven:
            return refuter.ran_out(plan) if proven is None else None
    elif optimum:
        refuted = refuter.query(BOUND, optimum - 1, keep_one=True)
        if not refuted:
            return refuter.ran_out(plan) if refuted is None else None
    refuter.lower = optimum
    return refuter.optimal(plan)


def _by_invariant(refuter: _Refuter, states: list[list[int]], bound: int | None) -> bool | None:
    """Whether the invariant `states` (at `bound`: no plan of at most `bound` steps; at None: no
    plan) has its three queries refuted; None when time runs out.  A proposal that is not one
    leaves no refutation behind."""
    refuter.save_states(states)
    for kind in INVARIANT_KINDS:
        refuted = refuter.query(kind, bound)
        if not refuted:
            if refuted is not None:
                refuter.forget()
            return refuted
    return True


def _horizons(refuter: _Refuter, bounds: Iterable[int]) -> Answer:
    """The optimum by the horizons `bounds` upward, then down from the first plan (module doc); a
    timeout (or a feasible plan) at the last refuted horizon plus one when time runs out."""
    for bound in bounds:
        refuted = refuter.query(BOUND, bound, keep_one=True)
        if refuted is None:
            return refuter.ran_out()
        if refuted:
            refuter.lower = bound + 1
            continue
        plan = refuter.decode(bound)
        while len(plan) > refuter.lower:
            refuted = refuter.query(BOUND, len(plan) - 1, keep_one=True)
            if refuted is None:
                return refuter.ran_out(plan)
            if refuted:
                refuter.lower = len(plan)
            else:
                plan = refuter.decode(len(plan) - 1)
        return refuter.optimal(plan)
    raise AssertionError("the horizons are endless")


class _Refuter(sat.Refuter):
    """The engine's refuter for one run on `instance`, each query built by `encoding`; `lower` is
    the lower bound the kept refutations prove."""

    def __init__(self, deadline: Deadline, encoding: StatesEncoding, instance: Facility) -> None:
        super().__init__(deadline)
        self.encoding, self.instance = encoding, instance
        self.lower = 0
        self.states: list[list[int]] = []

    def query(self, kind: str, bound: int | None = None, keep_one: bool = False) -> bool | None:
        """`refute` of query `kind` at `bound` (an invariant's over the saved states).  Invariant
        queries, refuted by search alone, are solved without inprocessing
        (`crosscheck.solvers.engines.sat.LEAN_PROOFS`): shorter proofs to check."""
        invariant = kind in INVARIANT_KINDS
        cnf: Cnf = self.encoding.cnf(self.instance, kind, bound, self.states if invariant else None)
        return self.refute(cnf, kind, bound, keep_one, sat.LEAN_PROOFS if invariant else None)

    def decode(self, bound: int) -> list[ElevatorMove]:
        """The plan of the last model, of the bound query at `bound`."""
        return self.encoding.decode(self.instance, bound, self.model)

    def save_states(self, states: list[list[int]]) -> None:
        """Write the invariant's states as the data file of its queries."""
        self.save_data(states)
        self.states = states

    def forget(self) -> None:
        super().forget()
        self.states = []

    def _rests_on(self, message: str) -> str:
        """`message`, with the lemmas the certificate rests on besides its proofs when it has any."""
        lemmas = "over counts of pair types, resting on the renaming and potential lemmas"
        return f"{message} ({lemmas})" if self.encoding is COUNTS_ENCODING and self.queries else message

    def infeasible(self, why: str) -> Answer:
        return super().infeasible(self._rests_on(why))

    def optimal(self, plan: list[ElevatorMove]) -> Answer:
        return Answer(Status.OPTIMAL, cost=len(plan), bound=len(plan), plan=list(plan), stats=self.stats(),
                      message=self._rests_on(f"no plan of fewer than {len(plan)} steps"),
                      certificate=self.certificate("lower-bound", len(plan)))

    def ran_out(self, plan: list[ElevatorMove] | None = None) -> Answer:
        """Time ran out: the lower bound so far, and the plan when one was found."""
        status = Status.TIMEOUT if plan is None else Status.FEASIBLE
        return Answer(status, cost=None if plan is None else len(plan), bound=self.lower, plan=plan,
                      stats=self.stats(), message=self.deadline.limit_reached(),
                      certificate=self.certificate("lower-bound", self.lower) if self.lower else None)


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
