"""The elevator as CNF over labelled states: the encoding ``elevator-sat`` refutes and the harness
rebuilds to check its certificates.

Things: item ``2i`` is element i's generator, item ``2i + 1`` its microchip (elements in the
order of `Facility.elements`), and thing ``2n`` is the elevator.  For a horizon of H steps
(times 0 to H) the variables are

- ``place(thing, t, f)``: the thing is on floor f at time t (exactly one floor each);
- per step t (0 to H - 1): ``up(t)``, ``down(t)``, ``idle(t)`` (exactly one), and
  ``carry(item, t)``: the item rides in step t.

The rules, written here on their own (nothing is shared with the other formulations):
a step that is not idle moves the elevator one floor, up or down, within the building and
carries one or two items, each on the elevator's floor before the step and on its floor after;
every item that does not ride stays; an idle step changes nothing and is followed only by idle
steps; at every time, on every floor, a microchip that meets another element's generator has
its own generator there too.  Implied clauses (true of every plan, so they change no answer,
and the plan-as-assignment check tests them like the rest): after t steps with no idle one,
the elevator's floor has the parity of t.

Queries (`Encoding.cnf` kinds):

- ``bound`` B: the start at time 0, the goal (every item on the top floor) at time B: a model
  exists exactly when a plan of at most B steps does (its idle steps, all at the end, dropped);
- ``start``: the start at time 0 and the safety rule: unsatisfiable exactly when the start is
  unsafe, when no plan exists;
- ``invariant-start``, ``invariant-step``, ``invariant-goal`` with a set S of labelled states
  (``(floor of thing 0, ..., floor of thing 2n)``): the start outside S; a state of S and one
  safe step (not idle) to a state outside S; a state of S that is a goal.  All three
  unsatisfiable: every state a plan passes through is in S and none is a goal, so no plan exists.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import combinations
from typing import Any

from crosscheck.models.elevator.model import DOWN, GENERATOR, MICROCHIP, UP, ElevatorMove, Facility, item_name
from crosscheck.solvers.certificate import BOUND, INVARIANT_KINDS, START
from crosscheck.solvers.engines.sat import Cnf, exactly_one

#: A labelled state: the floor of each thing, the elevator last.
State = tuple[int, ...]


class Layout:
    """The variables of a horizon of `steps` steps: places first, then each step's."""

    def __init__(self, facility: Facility, steps: int) -> None:
        self.floors = facility.floors
        self.items = 2 * len(facility.elements)
        self.things = self.items + 1
        self.steps = steps
        self._places = (steps + 1) * self.things * self.floors
        self._per_step = 3 + self.items

    @property
    def elevator(self) -> int:
        return self.items

    @property
    def variables(self) -> int:
        return self._places + self.steps * self._per_step

    def place(self, thing: int, time: int, floor: int) -> int:
        return 1 + (time * self.things + thing) * self.floors + floor

    def _step(self, time: int) -> int:
        return self._places + 1 + time * self._per_step

    def up(self, time: int) -> int:
        return self._step(time)

    def down(self, time: int) -> int:
        return self._step(time) + 1

    def idle(self, time: int) -> int:
        return self._step(time) + 2

    def carry(self, item: int, time: int) -> int:
        return self._step(time) + 3 + item


def start_state(facility: Facility) -> State:
    """The start as a labelled state: each element's generator and microchip, the elevator on floor 0."""
    floors: list[int] = []
    for chip, generator in zip(facility.chips, facility.generators, strict=True):
        floors += [generator, chip]
    return (*floors, 0)


# --- clause families ----------------------------------------------------------------------

def one_floor(cnf: Cnf, layout: Layout, time: int) -> None:
    """Every thing is on exactly one floor at `time`."""
    for thing in range(layout.things):
        exactly_one(cnf, [layout.place(thing, time, floor) for floor in range(layout.floors)])


def safe(cnf: Cnf, layout: Layout, time: int) -> None:
    """No microchip meets a foreign generator without its own at `time`."""
    elements = layout.items // 2
    for floor in range(layout.floors):
        for chip_of in range(elements):
            chip, own = layout.place(2 * chip_of + 1, time, floor), layout.place(2 * chip_of, time, floor)
            for other in range(elements):
                if other != chip_of:
                    cnf.add(-chip, -layout.place(2 * other, time, floor), own)


def at(cnf: Cnf, layout: Layout, time: int, state: State) -> None:
    """Every thing at `time` where `state` has it."""
    for thing, floor in enumerate(state):
        cnf.add(layout.place(thing, time, floor))


def goal(cnf: Cnf, layout: Layout, time: int) -> None:
    """Every item on the top floor at `time` (the elevator anywhere)."""
    for item in range(layout.items):
        cnf.add(layout.place(item, time, layout.floors - 1))


def step(cnf: Cnf, layout: Layout, time: int) -> None:
    """Step `time` (from time `time` to `time + 1`) is an idle one or a move by the rules."""
    ride(cnf, layout.floors, time, (layout.up(time), layout.down(time), layout.idle(time)),
         lambda when, floor: layout.place(layout.elevator, when, floor))
    _loads(cnf, layout, time)


def ride(cnf: Cnf, floors: int, time: int, moves: tuple[int, int, int], elevator: Callable[[int, int], int]) -> None:
    """Step `time` is exactly one of `moves` (up, down, idle), each taking the elevator (``elevator(time,
    floor)``: it is on the floor at the time) one floor up, down, or nowhere, within the building."""
    up, down, idle = moves
    top = floors - 1
    exactly_one(cnf, moves)
    cnf.add(-up, -elevator(time, top))
    cnf.add(-down, -elevator(time, 0))
    for floor in range(floors):
        here = elevator(time, floor)
        if floor < top:
            cnf.add(-up, -here, elevator(time + 1, floor + 1))
        if floor > 0:
            cnf.add(-down, -here, elevator(time + 1, floor - 1))
        cnf.add(-idle, -here, elevator(time + 1, floor))


def _loads(cnf: Cnf, layout: Layout, time: int) -> None:
    """A move carries one or two items, each with the elevator before and after; the rest stay."""
    idle = layout.idle(time)
    carries = [layout.carry(item, time) for item in range(layout.items)]
    cnf.add(idle, *carries)
    for carry in carries:
        cnf.add(-carry, -idle)
    for three in combinations(carries, 3):
        cnf.add(*(-carry for carry in three))
    elevator = layout.elevator
    for item, carry in enumerate(carries):
        for floor in range(layout.floors):
            for when in (time, time + 1):
                cnf.add(-carry, -layout.place(elevator, when, floor), layout.place(item, when, floor))
            cnf.add(carry, -layout.place(item, time, floor), layout.place(item, time + 1, floor))


def idle_last(cnf: Cnf, steps: int, idle: Callable[[int], int]) -> None:
    """Idle steps come last: an idle step (``idle(time)``) is followed by idle steps only."""
    for time in range(steps - 1):
        cnf.add(-idle(time), idle(time + 1))


def parity(cnf: Cnf, steps: int, floors: int, elevator: Callable[[int, int], int], idle: Callable[[int], int]) -> None:
    """Implied: after t steps none of which idled, the elevator (from floor 0) is on a floor of t's parity."""
    for time in range(1, steps + 1):
        for floor in range(floors):
            if (floor - time) % 2:
                cnf.add(-elevator(time, floor), idle(time - 1))


def inside(cnf: Cnf, layout: Layout, time: int, states: Sequence[State]) -> None:
    """The labelled state at `time` is one of `states` (one new variable per state chooses it)."""
    chosen = [cnf.new_variable() for _ in states]
    cnf.add(*chosen)
    for choice, state in zip(chosen, states, strict=True):
        for thing, floor in enumerate(state):
            cnf.add(-choice, layout.place(thing, time, floor))


def outside(cnf: Cnf, layout: Layout, time: int, states: Iterable[State]) -> None:
    """The labelled state at `time` is none of `states`."""
    for state in states:
        cnf.add(*(-layout.place(thing, time, floor) for thing, floor in enumerate(state)))


# --- queries ------------------------------------------------------------------------------

def encode(facility: Facility, bound: int) -> Cnf:
    """"A plan of at most `bound` steps exists" as CNF (query ``bound``)."""
    layout = Layout(facility, bound)
    cnf = Cnf(layout.variables)
    for time in range(bound + 1):
        one_floor(cnf, layout, time)
        safe(cnf, layout, time)
    at(cnf, layout, 0, start_state(facility))
    for time in range(bound):
        step(cnf, layout, time)
    idle_last(cnf, layout.steps, layout.idle)
    parity(cnf, layout.steps, layout.floors, lambda time, floor: layout.place(layout.elevator, time, floor),
           layout.idle)
    goal(cnf, layout, bound)
    return cnf


def encode_start(facility: Facility) -> Cnf:
    """"The start is safe" as CNF (query ``start``)."""
    layout = Layout(facility, 0)
    cnf = Cnf(layout.variables)
    one_floor(cnf, layout, 0)
    safe(cnf, layout, 0)
    at(cnf, layout, 0, start_state(facility))
    return cnf


def encode_invariant(facility: Facility, kind: str, states: Sequence[State]) -> Cnf:
    """One of the three invariant queries (module doc) over the labelled `states`."""
    layout = Layout(facility, 1 if kind == "invariant-step" else 0)
    cnf = Cnf(layout.variables)
    for time in range(layout.steps + 1):
        one_floor(cnf, layout, time)
    if kind == "invariant-start":
        at(cnf, layout, 0, start_state(facility))
        outside(cnf, layout, 0, states)
    elif kind == "invariant-step":
        safe(cnf, layout, 0)
        safe(cnf, layout, 1)
        inside(cnf, layout, 0, states)
        step(cnf, layout, 0)
        cnf.add(-layout.idle(0))
        outside(cnf, layout, 1, states)
    elif kind == "invariant-goal":
        inside(cnf, layout, 0, states)
        goal(cnf, layout, 0)
    else:
        raise ValueError(f"unknown invariant query {kind!r}, expected one of {', '.join(INVARIANT_KINDS)}")
    return cnf


# --- plans and models ---------------------------------------------------------------------

def _items(facility: Facility) -> list[str]:
    """Item names in thing order (generator, then microchip, element by element)."""
    return [item_name(element, kind) for element in facility.elements for kind in (GENERATOR, MICROCHIP)]


def decode(facility: Facility, bound: int, model: Sequence[int]) -> list[ElevatorMove]:
    """The plan a model of ``encode(facility, bound)`` holds: its steps that are not idle."""
    layout, true = Layout(facility, bound), {literal for literal in model if literal > 0}
    names = _items(facility)
    plan = []
    for time in range(bound):
        if layout.idle(time) in true:
            break
        riders = tuple(names[item] for item in range(layout.items) if layout.carry(item, time) in true)
        plan.append(ElevatorMove(UP if layout.up(time) in true else DOWN, riders))
    return plan


def assignment(facility: Facility, plan: Sequence[Any], bound: int | None = None) -> list[int]:
    """`plan` (checked: valid moves of this facility) as an assignment of ``encode(facility,
    bound)``, idle steps after its last move; `bound` defaults to the plan's length."""
    bound = len(plan) if bound is None else bound
    if bound < len(plan):
        raise ValueError(f"a plan of {len(plan)} steps has no assignment at bound {bound}")
    layout, index = Layout(facility, bound), {name: item for item, name in enumerate(_items(facility))}
    state, true = list(start_state(facility)), set()
    for time in range(bound + 1):
        true |= {layout.place(thing, time, floor) for thing, floor in enumerate(state)}
        if time == bound:
            break
        if time >= len(plan):
            true.add(layout.idle(time))
            continue
        direction, riders = plan[time]
        true.add(layout.up(time) if direction == UP else layout.down(time))
        state[layout.elevator] += 1 if direction == UP else -1
        for name in riders:
            true.add(layout.carry(index[name], time))
            state[index[name]] = state[layout.elevator]
    return [variable if variable in true else -variable for variable in range(1, layout.variables + 1)]


class ElevatorEncoding:
    """`crosscheck.solvers.certificate.Encoding` of the elevator over labelled states."""

    lemma = ("elevator-sat[states=labelled]: a model of the CNF at bound B exists exactly when a plan of at most B steps does; "
             "the start query is unsatisfiable exactly when the start is unsafe; the invariant queries say start, "
             "closure under safe steps and no goal (labelled states, rules written in the encoding itself)")

    def cnf(self, instance: Facility, kind: str, bound: int | None, data: Any) -> Cnf:
        if kind == BOUND:
            if bound is None or bound < 0:
                raise ValueError(f"a bound query needs a bound of 0 or more, got {bound}")
            return encode(instance, bound)
        if kind == START:
            return encode_start(instance)
        if kind in INVARIANT_KINDS:
            if bound is not None:  # its invariant is over states alone: it proves no plan at all
                raise ValueError(f"the labelled encoding's invariant queries take no bound, got {bound}")
            return encode_invariant(instance, kind, [tuple(state) for state in data or []])
        raise ValueError(f"unknown query {kind!r}, expected bound, start or {', '.join(INVARIANT_KINDS)}")

    def assignment(self, instance: Facility, plan: Sequence[Any]) -> list[int]:
        return assignment(instance, plan)

    def decode(self, instance: Facility, bound: int, model: Sequence[int]) -> list[ElevatorMove]:
        return decode(instance, bound, model)


ENCODING = ElevatorEncoding()
