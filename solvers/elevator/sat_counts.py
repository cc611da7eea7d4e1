"""The elevator as CNF over counts of pair types: the encoding ``elevator-sat`` refutes by default
(``states=counts``) and the harness rebuilds to check its certificates.

A pair type is a (chip floor, generator floor) combination; a state is the elevator's floor and,
for each type, how many elements have their chip and generator there.  That is the facility up
to renaming of elements, so a certificate over counts rests on the lemma "plans map to plans
under renaming of elements" (`crosscheck.models.elevator.LEMMAS`): a plan renamed is a plan, so
counting pairs of a type loses no plan and adds none.

For a horizon of H steps the variables are

- ``count(stage, type, k)``: at least k elements are of the type (order encoding, k = 1 to n);
  stage 2t is time t, stage 2t + 1 the middle of step t (below);
- ``elevator(time, floor)``: exactly one floor per time;
- per step: ``up``, ``down``, ``idle`` (exactly one), and for each of its two *transfers* one
  ``edge`` variable per way one item can ride: a chip or a generator of a type, up or down, which
  turns one element of its type into the type with that item one floor further;
- per transfer and type: ``out`` and ``into``, one element leaves or enters the type.

A step that is not idle is one transfer or two, in a row: the first to the middle stage, the
second (or none) on to the next time.  Each moves an item from the elevator's floor before the
step to its floor after it, so two transfers carry two distinct items (the first rider is already
gone), a chip and then its own generator among them (the generator's type is then the one the
chip's transfer made).  Transfers are ordered (chips by their generator's floor, then generators
by their chip's floor), so each load is written one way.  The rules, written here on their own
(nothing is shared with the other formulations): the elevator moves one floor within the
building; an idle step changes nothing and is followed only by idle steps; at every time, on
every floor, no element's chip lies away from its generator where some generator is.  Implied
clauses, true of every plan: after t steps with no idle one, the elevator's floor has the parity
of t.  Counts never exceed n and never drop below 0 (a transfer out of an empty type is refused).

Queries (`Encoding.cnf` kinds) as over labelled states (`crosscheck.solvers.elevator.sat_encoding`),
with states up to renaming: ``(elevator floor, count of type 0, ..., count of type F*F - 1)``,
type ``chip floor * F + generator floor``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import NamedTuple

from crosscheck.models.elevator.model import Facility
from crosscheck.solvers.certificate import INVARIANT_KINDS
from crosscheck.solvers.elevator.sat_encoding import idle_last, parity, ride
from crosscheck.solvers.engines.sat import Cnf, exactly_one

#: A state up to renaming: the elevator's floor, then the count of each pair type.
CountState = tuple[int, ...]
#: A literal, or a constant: True (the clause holds) or False (the literal is left out).
Literal = int | bool


class Edge(NamedTuple):
    """One item riding one floor: a `chip` (else a generator) of pair type `source` going `rise`
    (+1 up, -1 down) from floor `floor` (the elevator's), turning the pair into type `target`."""

    chip: bool
    source: int
    target: int
    rise: int
    floor: int
    rank: int  # the transfer order within a floor and direction: chips by generator floor, then generators


def _group(edge: Edge) -> tuple[int, int]:
    """The direction and the floor an edge rides from: edges of one transfer in different groups
    exclude each other (one elevator floor, one direction)."""
    return edge.rise, edge.floor


def edges(floors: int) -> list[Edge]:
    """Every way one item rides one floor, in a fixed order."""
    found = []
    for chip_floor in range(floors):
        for generator_floor in range(floors):
            source = chip_floor * floors + generator_floor
            for rise in (1, -1):
                if 0 <= chip_floor + rise < floors:
                    found.append(Edge(True, source, source + rise * floors, rise, chip_floor, generator_floor))
                if 0 <= generator_floor + rise < floors:
                    found.append(Edge(False, source, source + rise, rise, generator_floor, floors + chip_floor))
    return found


class CountLayout:
    """The variables of a horizon of `steps` steps: counts of every stage, then elevators, then steps."""

    def __init__(self, facility: Facility, steps: int) -> None:
        self.floors, self.pairs, self.steps = facility.floors, len(facility.elements), steps
        self.types = self.floors * self.floors
        self.edges = edges(self.floors)
        self._counts = (2 * steps + 1) * self.types * self.pairs
        self._elevators = (steps + 1) * self.floors
        self._transfer = len(self.edges) + 2 * self.types
        self._per_step = 5 + 2 * self._transfer
        self.waste = min(wasteful_at_most(facility, steps), steps)

    @property
    def variables(self) -> int:
        return self._counts + self._elevators + self.steps * self._per_step + self.steps * max(self.waste, 0)

    @property
    def top_type(self) -> int:
        return self.types - 1

    def count(self, stage: int, kind: int, least: int) -> Literal:
        """At least `least` elements of type `kind` at `stage`: a variable, or a constant outside 1..n."""
        if least <= 0:
            return True
        if least > self.pairs:
            return False
        return 1 + (stage * self.types + kind) * self.pairs + least - 1

    def elevator(self, time: int, floor: int) -> int:
        return 1 + self._counts + time * self.floors + floor

    def _step(self, time: int) -> int:
        return 1 + self._counts + self._elevators + time * self._per_step

    def up(self, time: int) -> int:
        return self._step(time)

    def down(self, time: int) -> int:
        return self._step(time) + 1

    def idle(self, time: int) -> int:
        return self._step(time) + 2

    def two(self, time: int) -> int:
        """Two items ride in step `time`."""
        return self._step(time) + 3

    def wasteful(self, time: int) -> int:
        """Step `time` is wasteful: up with one rider or down with two."""
        return self._step(time) + 4

    def edge(self, time: int, transfer: int, number: int) -> int:
        return self._step(time) + 5 + transfer * self._transfer + number

    def wasted(self, time: int, least: int) -> int:
        """At least `least` (1 to `waste`) of steps 0 to `time` are wasteful."""
        return 1 + self._counts + self._elevators + self.steps * self._per_step + time * self.waste + least - 1

    def out(self, time: int, transfer: int, kind: int) -> int:
        return self.edge(time, transfer, len(self.edges)) + kind

    def into(self, time: int, transfer: int, kind: int) -> int:
        return self.edge(time, transfer, len(self.edges)) + self.types + kind


def clause(cnf: Cnf, *literals: Literal) -> None:
    """Add the clause of `literals`, constants resolved: none when one is True, False ones left out."""
    if any(literal is True for literal in literals):
        return
    cnf.add(*(literal for literal in literals if literal is not False))


def negated(literal: Literal) -> Literal:
    return not literal if isinstance(literal, bool) else -literal


def potential(facility: Facility) -> int:
    """The start's potential: twice the items' floors below the top, less three times the elevator's."""
    top = facility.floors - 1
    return 2 * sum(2 * top - chip - generator for chip, generator in zip(facility.chips, facility.generators,
                                                                         strict=True)) - 3 * top


def wasteful_at_most(facility: Facility, steps: int) -> int:
    """How many wasteful steps a plan of at most `steps` steps makes at most: (steps - potential) / 2
    rounded down, by the potential lemma (module doc); negative when no plan of 1 to `steps` steps exists."""
    return (steps - potential(facility)) // 2


def start_counts(facility: Facility) -> CountState:
    """The start up to renaming: the elevator on floor 0 and each type's count."""
    counts = [0] * (facility.floors * facility.floors)
    for chip, generator in zip(facility.chips, facility.generators, strict=True):
        counts[chip * facility.floors + generator] += 1
    return (0, *counts)


# --- clause families ----------------------------------------------------------------------

def ordered(cnf: Cnf, layout: CountLayout, stage: int) -> None:
    """Counts in order encoding at `stage`: at least k + 1 implies at least k."""
    for kind in range(layout.types):
        for least in range(2, layout.pairs + 1):
            clause(cnf, negated(layout.count(stage, kind, least)), layout.count(stage, kind, least - 1))


def one_floor(cnf: Cnf, layout: CountLayout, time: int) -> None:
    """The elevator is on exactly one floor at `time`."""
    exactly_one(cnf, [layout.elevator(time, floor) for floor in range(layout.floors)])


def safe(cnf: Cnf, layout: CountLayout, time: int) -> None:
    """No chip lies away from its generator on a floor where a generator is, at `time`."""
    floors = layout.floors
    for floor in range(floors):
        for away in range(floors):
            if away != floor:
                lonely = layout.count(2 * time, floor * floors + away, 1)
                for chip_floor in range(floors):
                    clause(cnf, negated(lonely), negated(layout.count(2 * time, chip_floor * floors + floor, 1)))


def at(cnf: Cnf, layout: CountLayout, time: int, state: CountState) -> None:
    """The elevator and every count at `time` as `state` has them."""
    cnf.add(layout.elevator(time, state[0]))
    for kind, count in enumerate(state[1:]):
        clause(cnf, layout.count(2 * time, kind, count))
        clause(cnf, negated(layout.count(2 * time, kind, count + 1)))


def goal(cnf: Cnf, layout: CountLayout, time: int) -> None:
    """Every element of the type with chip and generator on the top floor at `time`."""
    clause(cnf, layout.count(2 * time, layout.top_type, layout.pairs))


def step(cnf: Cnf, layout: CountLayout, time: int) -> None:
    """Step `time` is an idle one or a move by the rules (module doc)."""
    idle = layout.idle(time)
    ride(cnf, layout.floors, time, (layout.up(time), layout.down(time), idle), layout.elevator)
    cnf.add(idle, *(layout.edge(time, 0, number) for number in range(len(layout.edges))))
    for transfer in (0, 1):
        _riders(cnf, layout, time, transfer)
        _flows(cnf, layout, time, transfer)
        _counted(cnf, layout, time, transfer)
    _in_order(cnf, layout, time)
    wasteful(cnf, layout, time)


def _riders(cnf: Cnf, layout: CountLayout, time: int, transfer: int) -> None:
    """A transfer's item rides from the elevator's floor in the step's direction; one item at most."""
    for number, edge in enumerate(layout.edges):
        variable = layout.edge(time, transfer, number)
        cnf.add(-variable, layout.up(time) if edge.rise > 0 else layout.down(time))
        cnf.add(-variable, layout.elevator(time, edge.floor))
    for first, second in combinations(range(len(layout.edges)), 2):
        if _group(layout.edges[first]) == _group(layout.edges[second]):  # else excluded by the lines above
            cnf.add(-layout.edge(time, transfer, first), -layout.edge(time, transfer, second))


def _flows(cnf: Cnf, layout: CountLayout, time: int, transfer: int) -> None:
    """``out`` and ``into`` of a type: exactly whether the transfer's edge leaves or enters it."""
    for kind in range(layout.types):
        for flow, leaving in ((layout.out(time, transfer, kind), True), (layout.into(time, transfer, kind), False)):
            ways = [layout.edge(time, transfer, number) for number, edge in enumerate(layout.edges)
                    if (edge.source if leaving else edge.target) == kind]
            cnf.add(-flow, *ways)
            for way in ways:
                cnf.add(-way, flow)


def _counted(cnf: Cnf, layout: CountLayout, time: int, transfer: int) -> None:
    """The counts after the transfer: one less where it leaves (never below 0), one more where it
    enters (never above n), else the same; at most one of the two per type, so each count moves by
    one at most."""
    before, after = 2 * time + transfer, 2 * time + transfer + 1
    ordered(cnf, layout, after)
    for kind in range(layout.types):
        out, into = layout.out(time, transfer, kind), layout.into(time, transfer, kind)
        for least in range(layout.pairs + 2):
            was, less, more = (layout.count(before, kind, least + shift) for shift in (0, -1, 1))
            now = layout.count(after, kind, least)
            clause(cnf, negated(was), out, now)
            clause(cnf, negated(less), -into, now)
            clause(cnf, negated(more), now)
            clause(cnf, was, into, negated(now))
            clause(cnf, more, -out, negated(now))
            clause(cnf, less, negated(now))


def _in_order(cnf: Cnf, layout: CountLayout, time: int) -> None:
    """The second transfer's edge ranks no lower than the first's (within a floor and direction)."""
    for first, early in enumerate(layout.edges):
        for second, late in enumerate(layout.edges):
            if _group(early) == _group(late) and late.rank < early.rank:
                cnf.add(-layout.edge(time, 0, first), -layout.edge(time, 1, second))


def wasteful(cnf: Cnf, layout: CountLayout, time: int) -> None:
    """``two`` exactly when the second transfer moves an item; ``wasteful`` exactly for an up step
    without it or a down step with it."""
    seconds = [layout.edge(time, 1, number) for number in range(len(layout.edges))]
    cnf.add(-layout.two(time), *seconds)
    for second in seconds:
        cnf.add(-second, layout.two(time))
    waste = layout.wasteful(time)
    cnf.add(-layout.up(time), layout.two(time), waste)
    cnf.add(-layout.down(time), -layout.two(time), waste)
    cnf.add(-waste, layout.up(time), layout.down(time))
    cnf.add(-waste, layout.up(time), layout.two(time))
    cnf.add(-waste, -layout.two(time), layout.down(time))


def few_wasteful(cnf: Cnf, layout: CountLayout) -> None:
    """At most `CountLayout.waste` wasteful steps (a sequential counter); when that is negative, no
    step at all (the potential lemma: a plan of T >= 1 steps makes (T - potential) / 2 of them)."""
    cap = layout.waste
    if cap < 0:
        if layout.steps:
            cnf.add(layout.idle(0))
        return
    if cap == layout.steps:
        return
    for time in range(layout.steps):
        step_is = layout.wasteful(time)
        if not cap:
            cnf.add(-step_is)
            continue
        cnf.add(-step_is, layout.wasted(time, 1))
        for least in range(1, cap + 1):
            if time:
                cnf.add(-layout.wasted(time - 1, least), layout.wasted(time, least))
            if time and least > 1:
                cnf.add(-step_is, -layout.wasted(time - 1, least - 1), layout.wasted(time, least))
        if time:
            cnf.add(-step_is, -layout.wasted(time - 1, cap))


class Budget:
    """The wasteful steps made so far, at time 0 and 1 of an invariant query at a bound: at least
    k of them (order encoding, k = 1 to `most` at time 0, to `most` + 1 at time 1)."""

    def __init__(self, cnf: Cnf, most: int) -> None:
        self.most = most
        self._first = cnf.variables + 1
        for _ in range(2 * most + 1):
            cnf.new_variable()

    def wasted(self, time: int, least: int) -> Literal:
        if least <= 0:
            return True
        if least > self.most + time:
            return False
        return self._first + time * self.most + least - 1

    def ordered(self, cnf: Cnf) -> None:
        for time in (0, 1):
            for least in range(2, self.most + time + 1):
                clause(cnf, negated(self.wasted(time, least)), self.wasted(time, least - 1))

    def counted(self, cnf: Cnf, layout: CountLayout) -> None:
        """Time 1's count is time 0's plus one for a wasteful step 0, and at most `most`."""
        waste = layout.wasteful(0)
        for least in range(1, self.most + 2):
            before, after, fewer = self.wasted(0, least), self.wasted(1, least), self.wasted(0, least - 1)
            clause(cnf, negated(before), after)
            clause(cnf, negated(fewer), -waste, after)
            clause(cnf, negated(after), before, waste)
            clause(cnf, negated(after), fewer)
        clause(cnf, negated(self.wasted(1, self.most + 1)))


def _is_not(layout: CountLayout, time: int, state: CountState, budget: Budget | None) -> list[Literal]:
    """The literals of which one holds exactly when the state at `time` is not `state`; with a
    `budget`, `state` starts with the fewest wasteful steps it is reached by, and the literals hold
    too when fewer have been made."""
    literals: list[Literal] = []
    if budget is not None:
        literals.append(negated(budget.wasted(time, state[0])))
        state = state[1:]
    literals.append(-layout.elevator(time, state[0]))
    for kind, count in enumerate(state[1:]):
        literals += [negated(layout.count(2 * time, kind, count)), layout.count(2 * time, kind, count + 1)]
    return literals


def inside(cnf: Cnf, layout: CountLayout, time: int, states: Sequence[CountState], budget: Budget | None) -> None:
    """The state at `time` is one of `states` (one new variable per state chooses it)."""
    chosen = [cnf.new_variable() for _ in states]
    cnf.add(*chosen)
    for choice, state in zip(chosen, states, strict=True):
        for literal in _is_not(layout, time, state, budget):
            clause(cnf, -choice, negated(literal))


def outside(cnf: Cnf, layout: CountLayout, time: int, states: Iterable[CountState], budget: Budget | None) -> None:
    """The state at `time` is none of `states`."""
    for state in states:
        clause(cnf, *_is_not(layout, time, state, budget))


# --- queries ------------------------------------------------------------------------------

def encode(facility: Facility, bound: int) -> Cnf:
    """"A plan of at most `bound` steps exists" as CNF over counts (query ``bound``)."""
    layout = CountLayout(facility, bound)
    cnf = Cnf(layout.variables)
    ordered(cnf, layout, 0)
    for time in range(bound + 1):
        one_floor(cnf, layout, time)
        safe(cnf, layout, time)
    at(cnf, layout, 0, start_counts(facility))
    for time in range(bound):
        step(cnf, layout, time)
    idle_last(cnf, layout.steps, layout.idle)
    parity(cnf, layout.steps, layout.floors, layout.elevator, layout.idle)
    few_wasteful(cnf, layout)
    goal(cnf, layout, bound)
    return cnf


def encode_start(facility: Facility) -> Cnf:
    """"The start is safe" as CNF over counts (query ``start``)."""
    layout = CountLayout(facility, 0)
    cnf = Cnf(layout.variables)
    one_floor(cnf, layout, 0)
    safe(cnf, layout, 0)
    at(cnf, layout, 0, start_counts(facility))
    return cnf


def encode_invariant(facility: Facility, kind: str, states: Sequence[CountState], bound: int | None = None) -> Cnf:
    """One of the three invariant queries over the states up to renaming `states`: the start
    outside them; one of them and one safe step (not idle) to a state outside them; one of them a
    goal.  At a `bound`, each state starts with the fewest wasteful steps it is reached by (w), the
    set is of (state, wasteful steps so far) with w up to `wasteful_at_most` at the bound, and steps
    past that budget lead nowhere: refuted, no plan of at most `bound` steps exists."""
    most = None if bound is None else wasteful_at_most(facility, bound)
    if most is not None and most < 0:
        raise ValueError(f"no plan of 1 to {bound} steps makes a negative number of wasteful steps: no invariant needed")
    layout = CountLayout(facility, 1 if kind == "invariant-step" else 0)
    cnf = Cnf(layout.variables)
    budget = None if most is None else Budget(cnf, most)
    if budget is not None:
        budget.ordered(cnf)
    ordered(cnf, layout, 0)
    for time in range(layout.steps + 1):
        one_floor(cnf, layout, time)
    if kind == "invariant-start":
        at(cnf, layout, 0, start_counts(facility))
        if budget is not None:
            clause(cnf, negated(budget.wasted(0, 1)))
        outside(cnf, layout, 0, states, budget)
    elif kind == "invariant-step":
        safe(cnf, layout, 0)
        safe(cnf, layout, 1)
        inside(cnf, layout, 0, states, budget)
        step(cnf, layout, 0)
        cnf.add(-layout.idle(0))
        if budget is not None:
            budget.counted(cnf, layout)
        outside(cnf, layout, 1, states, budget)
    elif kind == "invariant-goal":
        inside(cnf, layout, 0, states, budget)
        goal(cnf, layout, 0)
    else:
        raise ValueError(f"unknown invariant query {kind!r}, expected one of {', '.join(INVARIANT_KINDS)}")
    return cnf
