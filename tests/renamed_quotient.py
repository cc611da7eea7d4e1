"""elevator-quotient pasted into a plugin with every helper renamed (tests/test_copies.py):
`RenamedQuotient` runs the copy; `ChangedQuotient` runs it with one helper's body changed
(the crossing bound's constant), so that helper and the heuristic calling it are other code.
Helpers come from `crosscheck.solvers.elevator.quotient` and `.common`, renamed; the solvers
decide nothing of their own (what counts is the code they run)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from crosscheck.models.elevator.model import DOWN, UP, ElevatorMove, Facility, all_safe, item_name
from crosscheck.solvers.base import Answer, Deadline, Solver, Status
from crosscheck.solvers.engines.search import SearchProblem, Strategy, best_first_search

Canonical = tuple[int, ...]
Load = tuple[tuple[int, int], ...]
Action = tuple[int, Load]

GENERATOR_KIND, CHIP_KIND = 0, 1


def first_floors(facility: Facility) -> tuple[int, ...]:
    floors: list[int] = [0]
    for chip, generator in zip(facility.chips, facility.generators, strict=True):
        floors += [generator, chip]
    return tuple(floors)


def labels(facility: Facility) -> list[str]:
    return [item_name(element, kind) for element, kind in facility.items()]


def begins_safe(facility: Facility) -> bool:
    return all_safe(facility.chips, facility.generators)


def as_move(step: int, load: tuple[int, ...], names: Sequence[str]) -> ElevatorMove:
    return ElevatorMove(UP if step > 0 else DOWN, tuple(names[i] for i in load))


def floor_bound(floors: int, elevator: int, counts: Sequence[int]) -> int:
    total = below = 0
    for boundary in range(floors - 1):
        below += counts[boundary]
        if below:
            total += max(1, 2 * below - 3) if elevator <= boundary else 2 * below
    return total


def floor_bound_changed(floors: int, elevator: int, counts: Sequence[int]) -> int:
    total = below = 0
    for boundary in range(floors - 1):
        below += counts[boundary]
        if below:
            total += max(1, 2 * below - 2) if elevator <= boundary else 2 * below
    return total


def quotient_of(labelled: tuple[int, ...], floors: int) -> Canonical:
    generators, chips = labelled[1::2], labelled[2::2]
    return (labelled[0], *sorted(chip * floors + generator for chip, generator in zip(chips, generators, strict=True)))


class RenamedProblem(SearchProblem[Canonical, Action]):
    def __init__(self, facility: Facility, deadline: Deadline | None = None) -> None:
        deadline = deadline or Deadline(None)
        floors = self.floors = facility.floors
        self.top = facility.top
        codes = range(floors * floors)
        self.chip_of = [code // floors for code in codes]
        self.generator_of = [code % floors for code in codes]
        self.moved: tuple[list[list[int]], list[list[int]]] = ([], [])
        for code in codes:
            if code % floors == 0:
                deadline.check("tabling the moves")
            self.moved[GENERATOR_KIND].append([self.chip_of[code] * floors + floor for floor in range(floors)])
            self.moved[CHIP_KIND].append([floor * floors + self.generator_of[code] for floor in range(floors)])
        generators: list[list[int]] = [[] for _ in range(floors)]
        exposed: list[list[int]] = [[] for _ in range(floors)]
        for code in codes:
            generators[self.generator_of[code]].append(code)
            if self.chip_of[code] != self.generator_of[code]:
                exposed[self.chip_of[code]].append(code)
        self.generator_here = [frozenset(here) for here in generators]
        self.exposed_here = [frozenset(here) for here in exposed]
        self.goal = (self.top * floors + self.top,) * len(facility.elements)
        self.start = quotient_of(first_floors(facility), floors)

    def initial(self) -> Canonical:
        return self.start

    def is_goal(self, state: Canonical) -> bool:
        return state[1:] == self.goal

    def _ok(self, codes: list[int], floor: int) -> bool:
        return self.generator_here[floor].isdisjoint(codes) or self.exposed_here[floor].isdisjoint(codes)

    def successors(self, state: Canonical) -> Iterable[tuple[Action, Canonical, int]]:
        elevator, codes = state[0], state[1:]
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
                if not (self._ok(moved, elevator) and self._ok(moved, target)):
                    continue
                moved.sort()
                successor = (target, *moved)
                if successor not in seen:
                    seen.add(successor)
                    yield (step, load), successor, 1

    def heuristic(self, state: Canonical) -> int:
        counts = [0] * self.floors
        for code in state[1:]:
            counts[self.chip_of[code]] += 1
            counts[self.generator_of[code]] += 1
        return floor_bound(self.floors, state[0], counts)


class ChangedProblem(RenamedProblem):
    """`RenamedProblem` whose heuristic calls the changed bound."""

    def heuristic(self, state: Canonical) -> int:
        counts = [0] * self.floors
        for code in state[1:]:
            counts[self.chip_of[code]] += 1
            counts[self.generator_of[code]] += 1
        return floor_bound_changed(self.floors, state[0], counts)


def plan_with_names(facility: Facility, actions: list[Action]) -> list[ElevatorMove]:
    names = labels(facility)
    state = list(first_floors(facility))
    plan = []
    for step, load in actions:
        order = sorted(range(len(facility.elements)), key=lambda i: (state[2 * i + 2], state[2 * i + 1]))
        items = tuple(2 * order[position] + (1 if kind == CHIP_KIND else 0) for position, kind in load)
        state[0] += step
        for item in items:
            state[item + 1] = state[0]
        plan.append(as_move(step, items, names))
    return plan


class RenamedQuotient(Solver):
    name, puzzle, summary = "test-renamed-quotient", "elevator", "elevator-quotient pasted, helpers renamed"
    problem: type[RenamedProblem] = RenamedProblem

    def _solve(self, instance: Facility, deadline: Deadline) -> Answer:
        if not begins_safe(instance):
            return Answer(Status.INFEASIBLE, message="the start is unsafe")
        outcome = best_first_search(self.problem(instance), Strategy.ASTAR, deadline)
        return outcome.answer(lambda actions: plan_with_names(instance, actions),
                              infeasible="every reachable safe state explored up to renaming")


class ChangedQuotient(RenamedQuotient):
    name, summary = "test-changed-quotient", "elevator-quotient pasted, renamed, its bound changed"
    problem = ChangedProblem
