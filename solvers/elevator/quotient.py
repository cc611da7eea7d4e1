"""``elevator-quotient``: A* over states up to renaming of elements.

Elements are interchangeable: renaming them maps plans to plans and the goal to
itself.  So a state is the elevator's floor plus the sorted multiset of
(chip floor, generator floor) pairs, each pair coded as ``chip * floors + generator``
(the exact quotient; per-floor counts alone would merge states of different safety).
A* uses the safety-free `crossing_bound`, which is admissible.  No move is pruned:
every successor is generated, and only successors equal up to renaming are merged.
Exhausting the quotient proves that no plan exists.

An action names the pairs it moves by their position in the sorted state.  The plan
is rebuilt on labelled states: before each action the current labelled state's
elements are sorted by (chip floor, generator floor) like the canonical state, so
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

GENERATOR_KIND, CHIP_KIND = 0, 1
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


class QuotientProblem(SearchProblem[Canonical, Action]):
    """The elevator puzzle on states up to renaming of elements, its tables built within
    `deadline` (`crosscheck.solvers.base.LimitReached`: they grow with the cube of the floors)."""

    def __init__(self, facility: Facility, deadline: Deadline | None = None) -> None:
        deadline = deadline or Deadline(None)
        floors = self.floors = facility.floors
        self.top = facility.top
        codes = range(floors * floors)
        self.chip_of = [code // floors for code in codes]
        self.generator_of = [code % floors for code in codes]
        # moved[kind][code][floor]: the code after moving that item of the pair to floor
        self.moved: tuple[list[list[int]], list[list[int]]] = ([], [])
        for code in codes:
            if code % floors == 0:
                deadline.check("tabling the moves")
            self.moved[GENERATOR_KIND].append([self.chip_of[code] * floors + floor for floor in range(floors)])
            self.moved[CHIP_KIND].append([floor * floors + self.generator_of[code] for floor in range(floors)])
        # per floor: codes with a generator there, codes with a chip there away from its generator
        generators: list[list[int]] = [[] for _ in range(floors)]
        exposed: list[list[int]] = [[] for _ in range(floors)]
        for code in codes:
            generators[self.generator_of[code]].append(code)
            if self.chip_of[code] != self.generator_of[code]:
                exposed[self.chip_of[code]].append(code)
        self.generator_here = [frozenset(here) for here in generators]
        self.exposed_here = [frozenset(here) for here in exposed]
        self.goal = (self.top * floors + self.top,) * len(facility.elements)
        self.start = canonical(start_state(facility), floors)

    def initial(self) -> Canonical:
        return self.start

    def is_goal(self, state: Canonical) -> bool:
        return state[1:] == self.goal

    def _safe(self, codes: list[int], floor: int) -> bool:
        return self.generator_here[floor].isdisjoint(codes) or self.exposed_here[floor].isdisjoint(codes)

    def successors(self, state: Canonical) -> Iterable[tuple[Action, Canonical, int]]:
        elevator, codes = state[0], state[1:]
        # pairs with equal codes are interchangeable: two copies of an item cover
        # every load (the rest would only repeat successors)
        items: list[tuple[int, int]] = []
        copies: dict[tuple[int, int], int] = {}
        for position, code in enumerate(codes):
            for kind, floor in ((GENERATOR_KIND, self.generator_of[code]), (CHIP_KIND, self.chip_of[code])):
                if floor == elevator and copies.get((code, kind), 0) < 2:
                    copies[code, kind] = copies.get((code, kind), 0) + 1
                    items.append((position, kind))
        loads: list[Load] = [(item,) for item in items] + list(combinations(items, 2))
        for step in (1, -1):
            target = elevator + step
            if not 0 <= target < self.floors:
                continue
            seen: set[Canonical] = set()
            for load in loads:
                moved = list(codes)
                for position, kind in load:
                    moved[position] = self.moved[kind][moved[position]][target]
                if not (self._safe(moved, elevator) and self._safe(moved, target)):
                    continue
                moved.sort()
                successor = (target, *moved)
                if successor not in seen:  # equal up to renaming: one representative suffices
                    seen.add(successor)
                    yield (step, load), successor, 1

    def heuristic(self, state: Canonical) -> int:
        counts = [0] * self.floors
        for code in state[1:]:
            counts[self.chip_of[code]] += 1
            counts[self.generator_of[code]] += 1
        return crossing_bound(self.floors, state[0], counts)


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
        compiled = COMPILED in sys.modules and fits(instance)  # loaded by `warm_up`: see the module doc
        if compiled:
            from crosscheck.solvers.elevator.quotient_compiled import compiled_search

            start = list(canonical(start_state(instance), instance.floors)[1:])
            outcome = compiled_search(instance, start, options.bound == "crossing", deadline)
        else:
            outcome = best_first_search(QuotientProblem(instance, deadline), strategy, deadline)
        return outcome.answer(lambda actions: labelled_plan(instance, actions),
                              infeasible="every reachable safe state explored up to renaming",
                              stats={"kernel": "compiled" if compiled else "python"})


def fits(facility: Facility) -> bool:
    """Whether the compiled search takes `facility`: a count per pair code and the elevator's
    floor in 63 bits (as `crosscheck.solvers.elevator.quotient_compiled.fits`, which imports numba)."""
    floors = facility.floors
    return floors * floors * max(1, len(facility.elements).bit_length()) + max(1, (floors - 1).bit_length()) <= 63
