"""The elevator's rules as CP-SAT constraints over counts of pair types, for times 0..T.

Elements are interchangeable: renaming them maps plans to plans and the goal to itself
(the argument ``elevator-quotient`` rests on, declared in ``ElevatorCpsat.shares``).  So
`Transitions` does not tell elements apart: per time 0..T it has the elevator's floor
(one-hot Booleans) and, per *type* (c, g), how many elements have their microchip on floor
c and their generator on floor g.  Per step 1..T it has the direction and, per type, how
many of its chips, of its generators and of its whole pairs ride (`Ride`): one or two
items in all, from the elevator's floor to its next floor; the counts change by what
rides.  After every step every floor is safe: no type with its generator on a floor is
present beside a type with its chip there and its generator elsewhere.

*Contract.* Every sequence of T safe steps of the puzzle, mapped to counts per type, is a
solution (with the rides of each step's items; completeness), and every solution's
consecutive states are related by a safe step of the puzzle on some labelling of the
elements (soundness: name elements of the riding types, any will do).  Nothing constrains
time 0 beyond one elevator floor and all elements placed: the models built on this
(`crosscheck.solvers.elevator.cpsat.HorizonModel`, `crosscheck.solvers.elevator.closure.ClosureModel`)
say where time 0 lies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from crosscheck.models.elevator.model import Facility
from crosscheck.solvers.elevator.common import PairType, Riding, pair_types
from crosscheck.solvers.engines.cpsat import cp_model

if TYPE_CHECKING:  # for annotations only: importing names from cp_model loads it (crosscheck.solvers.engines.cpsat)
    from ortools.sat.python.cp_model import IntVar, LinearExprT


class Ride(NamedTuple):
    """How many (`number`) chips, generators or whole pairs (`riding`) of type `source` ride
    at a step, from `floor` to the next (`step` +1 up, -1 down), becoming of type `target`."""

    number: IntVar
    riding: Riding
    source: PairType
    target: PairType
    floor: int
    step: int

    @property
    def riders(self) -> int:
        return 2 if self.riding is Riding.PAIR else 1


class Transitions:
    """`horizon` steps of the puzzle on `facility`'s floors and elements, from a free time 0."""

    def __init__(self, facility: Facility, horizon: int) -> None:
        self.facility, self.horizon = facility, horizon
        self.floors, self.top, self.pairs = facility.floors, facility.top, len(facility.elements)
        self.types = pair_types(self.floors)
        model = self.model = cp_model.CpModel()
        times = range(horizon + 1)
        # variables: elevator floor and elements per type at every time, direction per step
        self.elevator = [[model.new_bool_var(f"elevator_{t}_{f}") for f in range(self.floors)] for t in times]
        self.count = [{(c, g): model.new_int_var(0, self.pairs, f"count_{t}_{c}_{g}") for c, g in self.types}
                      for t in times]
        self.up = [model.new_bool_var(f"up_{t}") for t in times]  # up[0] and rides[0]: no step 0
        model.add(self.up[0] == 0)
        self.rides: list[list[Ride]] = [[]] + [self._rides(t) for t in range(1, horizon + 1)]
        self._states()
        for t in range(1, horizon + 1):
            self._step(t)

    def _rides(self, t: int) -> list[Ride]:
        """The ride variables of step t: every kind, type and direction that stays in the building."""
        rides = []
        for c, g in self.types:
            for step in (1, -1):
                moves = [(Riding.CHIP, c, (c + step, g)), (Riding.GENERATOR, g, (c, g + step))]
                if c == g:
                    moves.append((Riding.PAIR, c, (c + step, c + step)))
                for riding, floor, target in moves:
                    if 0 <= floor + step < self.floors:
                        most = 1 if riding is Riding.PAIR else 2
                        number = self.model.new_int_var(0, most, f"ride_{riding}_{t}_{c}_{g}_{step:+d}")
                        rides.append(Ride(number, riding, (c, g), target, floor, step))
        return rides

    def _states(self) -> None:
        """One elevator floor and all elements at every time; every floor safe after each step."""
        model = self.model
        for t in range(self.horizon + 1):
            model.add_exactly_one(self.elevator[t])
            model.add(sum(self.count[t].values()) == self.pairs)
            if t == 0:
                continue
            present = {}
            for c, g in self.types:
                present[c, g] = model.new_bool_var(f"present_{t}_{c}_{g}")
                model.add(self.count[t][c, g] >= 1).only_enforce_if(present[c, g])
                model.add(self.count[t][c, g] == 0).only_enforce_if(~present[c, g])
            # safety: a generator on floor f never meets a chip on f whose generator is elsewhere
            for f in range(self.floors):
                for holder in range(self.floors):
                    for elsewhere in range(self.floors):
                        if elsewhere != f:
                            model.add_bool_or([~present[holder, f], ~present[f, elsewhere]])

    def _step(self, t: int) -> None:
        """The elevator moves one floor; one or two items ride from its floor; counts flow."""
        model, before, after = self.model, self.elevator[t - 1], self.elevator[t]
        for f in range(self.floors):
            model.add_bool_or([~before[f], ~self.up[t], after[f + 1]] if f + 1 < self.floors else [~before[f], ~self.up[t]])
            model.add_bool_or([~before[f], self.up[t], after[f - 1]] if f > 0 else [~before[f], self.up[t]])
        for ride in self.rides[t]:
            model.add(ride.number == 0).only_enforce_if(~before[ride.floor])
            model.add(ride.number == 0).only_enforce_if(~self.up[t] if ride.step > 0 else self.up[t])
        model.add(self._riders(t) >= 1)
        model.add(self._riders(t) <= 2)
        for pair_type in self.types:
            leaving = sum(ride.number for ride in self.rides[t] if ride.source == pair_type)
            arriving = sum(ride.number for ride in self.rides[t] if ride.target == pair_type)
            model.add(leaving <= self.count[t - 1][pair_type])
            model.add(self.count[t][pair_type] == self.count[t - 1][pair_type] - leaving + arriving)

    def _riders(self, t: int) -> LinearExprT:
        """The number of items riding at step t."""
        return sum(ride.riders * ride.number for ride in self.rides[t])

    def floor(self, t: int) -> LinearExprT:
        """The elevator's floor at time t, as a linear expression."""
        return sum(f * self.elevator[t][f] for f in range(self.floors))
