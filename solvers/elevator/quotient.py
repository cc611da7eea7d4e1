"""``elevator-quotient``: A* over states up to renaming of elements.

Elements are interchangeable: renaming them maps plans to plans and the goal to
itself.  So a state is the elevator's floor plus the multiset of (chip floor,
generator floor) pairs, each pair coded as ``chip * floors + generator`` (the exact
quotient; per-floor counts alone would merge states of different safety).  A* uses
the safety-free `crossing_bound`, which is admissible.  No move is pruned: every
successor is generated, and only successors equal up to renaming are merged.
Exhausting the quotient proves that no plan exists.

The Python search packs a state into one integer (`packed`): the count of pairs of each
code in `width` bits, code by code, then the elevator's floor; above it, each floor's
item count (the tallies, all the bound reads).  On four floors with seven pairs (3 bits
a count), two pairs with their chip on the second floor and generator on the first (code
4) are the value 2 in bits 12-14.  Equal multisets give equal integers, so a move is an
addition: one count down and one up per item carried, the elevator's floor
and two tallies changed.  A floor is unsafe when the state has a bit set both in the
fields of the codes with a generator there and in those with a chip there away from its
generator.  What a load adds depends only on the elevator's floor and the codes with an
item there (two copies each), so it is tabled once per such neighbourhood.

An action of the Python search names each item it carries by its code and copy
(`CodedAction`); `positioned` names it instead by its pair's position in the sorted codes,
as the compiled search does.  The plan is rebuilt on labelled states: before each action
the current labelled state's elements are sorted by (chip floor, generator floor), so
position p names a concrete element (ties are interchangeable elements).

A facility whose packed state fits 63 bits (four floors and up to seven elements do) is
searched by the same rules in compiled code (`crosscheck.solvers.elevator.quotient_compiled`)
once the kernel is loaded (`ElevatorQuotient.warm_up`, in the forkserver of ``compare`` and
``hunt``): loading it costs more than a lone ``solve`` of a real facility takes in Python, so
that one searches in Python (stats ``kernel``).

Options (`QuotientOptions`): search labelled states instead (``states=labelled``: the same
moves and bound, no renaming, so the quotient's worth shows as pairs grow), and the bound
off (``bound=none``: Dijkstra); both exact.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from itertools import combinations
from typing import ClassVar, Literal, cast

from crosscheck.models.elevator.model import ElevatorMove, Facility, parse
from crosscheck.solvers.base import Answer, Deadline, Solver, Status
from crosscheck.solvers.configuration import Options, option
from crosscheck.solvers.elevator.common import (
    Labelled,
    crossing_bound,
    item_names,
    labelled_bound,
    labelled_moves,
    start_is_safe,
    start_state,
    to_move,
)
from crosscheck.solvers.engines.search import SearchProblem, Strategy, best_first_search

Canonical = tuple[int, ...]  # (elevator, sorted pair codes...)
Load = tuple[tuple[int, int], ...]  # ((position in the sorted pairs, 0 generator / 1 chip), ...)
Action = tuple[int, Load]  # (direction +1/-1, load)
Packed = int  # a count per pair code, the elevator's floor above them, then each floor's items (module doc)
Item = tuple[int, int, int]  # (pair code, copy among the pairs of that code, 0 generator / 1 chip)
CodedAction = tuple[int, tuple[Item, ...]]  # (direction +1/-1, items), the Python search's actions
#: One direction's moves: the masks of the floor reached (generators, exposed chips) and each
#: load's action with what it adds to a state (`QuotientProblem._carries`).
Moves = tuple[int, int, list[tuple[CodedAction, int]]]

GENERATOR_KIND, CHIP_KIND = 0, 1
#: Bits of the counts above which an expansion's big-integer arithmetic is slow enough (a hundred
#: floors and more) that each one checks the deadline, not only every
#: `crosscheck.solvers.engines.search.CHECK_EVERY` expansions.
WIDE = 1 << 16
#: The module of the compiled search, loaded by `ElevatorQuotient.warm_up`.
COMPILED = "crosscheck.solvers.elevator.quotient_compiled"
#: A facility for `ElevatorQuotient.warm_up`: two elements, three floors.
WARM_UP = """\
The first floor contains a hydrogen-compatible microchip and a lithium-compatible microchip.
The second floor contains a hydrogen generator.
The third floor contains a lithium generator.
"""


class QuotientOptions(Options):
    """elevator-quotient's design choices (docs/puzzles/elevator.md); both keep it exact."""

    states: Literal["quotient", "labelled"] = option(
        "quotient", "search states up to renaming of elements, or labelled states (every element apart)")
    bound: Literal["crossing", "none"] = option("crossing", "A*'s bound: the safety-free crossing bound, or none "
                                                            "(0: Dijkstra)")


class QuotientProblem(SearchProblem[Packed, CodedAction]):
    """The elevator puzzle on packed states up to renaming of elements (module doc), its
    masks built within `deadline` (`crosscheck.solvers.base.LimitReached`)."""

    def __init__(self, facility: Facility, deadline: Deadline | None = None) -> None:
        deadline = deadline or Deadline(None)
        floors = self.floors = facility.floors
        bits = self.bits = width(facility)
        self.count = (1 << bits) - 1  # one pair code's field
        self.shift = floors * floors * bits  # the elevator's floor sits above every count
        self.counts = (1 << self.shift) - 1
        self.lift = (1 << max(1, (floors - 1).bit_length())) - 1  # the elevator's field, shifted down
        self.tally = max(1, (2 * len(facility.elements)).bit_length())  # bits per floor's item count
        # one unit per chip floor at the code (chip, first floor): the fields of generators there
        self.column = self.counts // ((1 << floors * bits) - 1) * self.count
        self.row = (1 << floors * bits) - 1  # the fields of chips on the first floor
        deadline.check("packing the masks")
        self.deadline = deadline if self.shift > WIDE else None
        codes = list(canonical(start_state(facility), floors)[1:])
        self.start = self._tallied(packed(facility, 0, codes), codes)
        self.goal = packed(facility, 0, [facility.top * (floors + 1)] * len(facility.elements))
        self.floor_masks: dict[int, tuple[int, int, int]] = {}  # by floor (`_floor_masks`)
        self.moves: dict[int, list[Moves]] = {}  # by `_moves`' key
        self.moves_of_items: dict[tuple[int | Item, ...], list[Moves]] = {}  # by the elevator's floor and `_items`
        self.bounds: dict[int, int] = {}  # by the elevator's field and the tallies above it

    def _tallied(self, state: Packed, codes: list[int]) -> Packed:
        """`state` with each floor's item count of pair codes `codes` above the elevator's floor."""
        above = self.shift + self.lift.bit_length()
        for code in codes:
            chip, generator = divmod(code, self.floors)
            state += (1 << above + chip * self.tally) + (1 << above + generator * self.tally)
        return state

    def initial(self) -> Packed:
        return self.start

    def is_goal(self, state: Packed) -> bool:
        return state & self.counts == self.goal

    def _floor_masks(self, floor: int) -> tuple[int, int, int]:
        """The fields of the pair codes with an item on `floor` and of the elevator's floor; of
        those with a generator there; of those with a chip there away from its generator."""
        masks = self.floor_masks.get(floor)
        if masks is None:
            bits = self.bits
            generators = self.column << floor * bits
            chips = self.row << floor * self.floors * bits
            exposed = chips ^ self.count << (floor * self.floors + floor) * bits
            masks = self.floor_masks[floor] = generators | chips | self.lift << self.shift, generators, exposed
        return masks

    def successors(self, state: Packed) -> Iterable[tuple[CodedAction, Packed, int]]:
        if self.deadline is not None:
            self.deadline.check("expanding a wide state")  # see `WIDE`
        elevator = state >> self.shift & self.lift
        here, generators_left, exposed_left = self._floor_masks(elevator)
        successors = []
        for generators_there, exposed_there, moves in self._moves(state & here, elevator):
            for action, delta in moves:
                moved = state + delta
                if not ((moved & generators_left and moved & exposed_left)
                        or (moved & generators_there and moved & exposed_there)):
                    successors.append((action, moved, 1))
        return successors

    def _moves(self, key: Packed, elevator: int) -> list[Moves]:
        """Per direction: the target floor's masks (`_floor_masks`) and `_carries`, for the
        states whose fields on the elevator's floor (and the elevator's own) are `key`."""
        moves = self.moves.get(key)
        if moves is None:
            items = self._items(key, elevator)
            moves = self.moves_of_items.get((elevator, *items))  # keys of more copies than two share them
            if moves is None:
                moves = self.moves_of_items[elevator, *items] = []
                for step in (1, -1):
                    if 0 <= elevator + step < self.floors:
                        _, generators, exposed = self._floor_masks(elevator + step)
                        moves.append((generators, exposed, self._carries(items, elevator, step)))
            self.moves[key] = moves
        return moves

    def _fields(self, state: Packed) -> list[tuple[int, int]]:
        """The (pair code, count) of each code present in `state`, by ascending code."""
        bits, count = self.bits, self.count
        fields = []
        rest = state & self.counts
        while rest:
            code = ((rest & -rest).bit_length() - 1) // bits
            copies = rest >> code * bits & count
            rest ^= copies << code * bits
            fields.append((code, copies))
        return fields

    def _items(self, key: Packed, elevator: int) -> list[Item]:
        """The items on the elevator's floor of the pair codes in `key`, by code, copy, then
        kind (the order of positions in the sorted pairs); pairs with equal codes are
        interchangeable: two copies of an item cover every load (the rest would only repeat
        successors)."""
        items = []
        for code, copies in self._fields(key):
            chip, generator = divmod(code, self.floors)
            for copy in range(min(copies, 2)):
                if generator == elevator:
                    items.append((code, copy, GENERATOR_KIND))
                if chip == elevator:
                    items.append((code, copy, CHIP_KIND))
        return items

    def _carries(self, items: list[Item], elevator: int, step: int) -> list[tuple[CodedAction, int]]:
        """Each load's action and what carrying it in direction `step` adds to a state (the
        codes, the elevator's floor and the two floors' tallies): each of `items` alone, then
        each two in the order of `itertools.combinations`.  A load that adds what an earlier
        one adds reaches the same state, so it is left out (equal up to renaming: one
        representative suffices)."""
        floors, bits, target = self.floors, self.bits, elevator + step
        above = self.shift + self.lift.bit_length()
        tallied = (1 << above + target * self.tally) - (1 << above + elevator * self.tally)
        lift = step << self.shift
        alone = [(1 << bits * moved_code(floors, code, kind, target)) - (1 << bits * code) + tallied
                 for code, _, kind in items]
        carries: dict[int, CodedAction] = {}
        for item, delta in zip(items, alone, strict=True):
            carries.setdefault(lift + delta, (step, (item,)))
        both = lift + 2 * tallied + (1 << bits * target * (floors + 1))  # an element's generator and chip ride together
        for (first, delta), (second, other) in combinations(zip(items, alone, strict=True), 2):
            total = lift + delta + other if first[:2] != second[:2] else both - (1 << bits * first[0])
            carries.setdefault(total, (step, (first, second)))
        return [(action, delta) for delta, action in carries.items()]

    def heuristic(self, state: Packed) -> int:
        key = state >> self.shift  # the elevator's floor and the tallies: all the bound reads
        bound = self.bounds.get(key)
        if bound is None:
            tallies, mask = key >> self.lift.bit_length(), (1 << self.tally) - 1
            counts = [tallies >> floor * self.tally & mask for floor in range(self.floors)]
            bound = self.bounds[key] = crossing_bound(self.floors, key & self.lift, counts)
        return bound


class LabelledProblem(SearchProblem[Labelled, tuple[int, tuple[int, ...]]]):
    """The elevator puzzle on labelled states (no renaming): ``states=labelled``."""

    def __init__(self, facility: Facility) -> None:
        self.floors = facility.floors
        self.start = start_state(facility)
        self.goal = (facility.top,) * (len(self.start) - 1)

    def initial(self) -> Labelled:
        return self.start

    def is_goal(self, state: Labelled) -> bool:
        return state[1:] == self.goal

    def successors(self, state: Labelled) -> Iterable[tuple[tuple[int, tuple[int, ...]], Labelled, int]]:
        for step, load, successor in labelled_moves(state, self.floors):
            yield (step, load), successor, 1

    def heuristic(self, state: Labelled) -> int:
        return labelled_bound(state, self.floors)


def canonical(labelled: tuple[int, ...], floors: int) -> Canonical:
    """The quotient state of a labelled state ``(elevator, g_0, c_0, g_1, c_1, ...)``."""
    generators, chips = labelled[1::2], labelled[2::2]
    return (labelled[0], *sorted(chip * floors + generator for chip, generator in zip(chips, generators, strict=True)))


def moved_code(floors: int, code: int, kind: int, floor: int) -> int:
    """The pair code ``chip * floors + generator`` after its generator (`kind` 0) or chip (1) moves to `floor`."""
    return code - code % floors + floor if kind == GENERATOR_KIND else floor * floors + code % floors


def positioned(facility: Facility, actions: list[CodedAction]) -> list[Action]:
    """The Python search's `actions` with each item named by its pair's position in the sorted
    pair codes, as `labelled_plan` reads them (the copy-th pair of its code)."""
    floors = facility.floors
    codes = list(canonical(start_state(facility), floors)[1:])
    elevator, named = 0, []
    for step, items in actions:
        elevator += step
        load = tuple((codes.index(code) + copy, kind) for code, copy, kind in items)
        for position, kind in load:
            codes[position] = moved_code(floors, codes[position], kind, elevator)
        codes.sort()
        named.append((step, load))
    return named


def labelled_plan(facility: Facility, actions: list[Action]) -> list[ElevatorMove]:
    """Rebuild a plan with element names from quotient actions (see the module docstring)."""
    names = item_names(facility)
    state = list(start_state(facility))
    plan = []
    for step, load in actions:
        order = sorted(range(len(facility.elements)), key=lambda i: (state[2 * i + 2], state[2 * i + 1]))
        items = tuple(2 * order[position] + (1 if kind == CHIP_KIND else 0) for position, kind in load)
        state[0] += step
        for item in items:
            state[item + 1] = state[0]
        plan.append(to_move(step, items, names))
    return plan


class ElevatorQuotient(Solver):
    """A* over states up to renaming of elements.

    Answers ``optimal`` with a labelled plan, ``infeasible`` when the start is unsafe or
    every reachable safe state (up to renaming) was explored, else ``timeout`` with the
    smallest open f-value as the bound.
    """

    name = "elevator-quotient"
    puzzle = "elevator"
    summary = "A* over states up to renaming of elements, safety-free crossing bound"
    Options: ClassVar[type[Options]] = QuotientOptions
    warm_up_pays_alone = False  # loading numba costs more than a real facility's search in Python

    @classmethod
    def warm_up(cls) -> None:
        """Compile (or load from numba's cache) the kernel, by solving a small facility (in arrays
        too small for it, so that growing them is compiled too)."""
        from crosscheck.solvers.elevator.quotient_compiled import compiled_search

        facility = parse(WARM_UP, "warm-up")
        compiled_search(facility, list(canonical(start_state(facility), facility.floors)[1:]), capacity=16).solution()

    def _solve(self, instance: Facility, deadline: Deadline) -> Answer:
        if not start_is_safe(instance):
            return Answer(Status.INFEASIBLE, message="the start is unsafe")
        options: QuotientOptions = cast(QuotientOptions, self.options)  # as `configured` checks
        strategy = Strategy.ASTAR if options.bound == "crossing" else Strategy.DIJKSTRA
        if options.states == "labelled":
            names = item_names(instance)
            labelled = best_first_search(LabelledProblem(instance), strategy, deadline)
            return labelled.answer(lambda actions: [to_move(step, load, names) for step, load in actions],
                                   infeasible="every reachable safe labelled state explored")
        infeasible = "every reachable safe state explored up to renaming"
        if COMPILED in sys.modules and fits(instance):  # loaded by `warm_up`: see the module doc
            from crosscheck.solvers.elevator.quotient_compiled import compiled_search

            start = list(canonical(start_state(instance), instance.floors)[1:])
            outcome = compiled_search(instance, start, options.bound == "crossing", deadline)
            return outcome.answer(lambda actions: labelled_plan(instance, actions), infeasible=infeasible,
                                  stats={"kernel": "compiled"})
        coded = best_first_search(QuotientProblem(instance, deadline), strategy, deadline)
        return coded.answer(lambda actions: labelled_plan(instance, positioned(instance, actions)),
                            infeasible=infeasible, stats={"kernel": "python"})


def width(facility: Facility) -> int:
    """Bits per pair code's count: enough for every element."""
    return max(1, len(facility.elements).bit_length())


def fits(facility: Facility) -> bool:
    """Whether `facility`'s packed states fit 63 bits, as the compiled search needs."""
    floors = facility.floors
    return floors * floors * width(facility) + max(1, (floors - 1).bit_length()) <= 63


def packed(facility: Facility, elevator: int, codes: list[int]) -> Packed:
    """The packed state of the elevator's floor and the pair codes ``chip * floors + generator``:
    code c's count in bits ``[c * width, (c + 1) * width)``, the elevator's floor above every count."""
    bits, state = width(facility), 0
    for code in codes:
        state += 1 << (code * bits)
    return state | elevator << (facility.floors * facility.floors * bits)
