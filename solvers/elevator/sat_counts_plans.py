"""Plans and models of elevator-sat's encoding over counts of pair types
(`crosscheck.solvers.elevator.sat_counts`): a model decoded to a labelled plan, a labelled plan
written as an assignment, and the encoding as the harness calls it (`COUNTS_ENCODING`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from crosscheck.models.elevator.model import DOWN, GENERATOR, MICROCHIP, UP, ElevatorMove, Facility, item_name
from crosscheck.solvers.certificate import BOUND, INVARIANT_KINDS, START
from crosscheck.solvers.elevator.sat_counts import CountLayout, CountState, encode, encode_invariant, encode_start
from crosscheck.solvers.engines.sat import Cnf


def decode(facility: Facility, bound: int, model: Sequence[int]) -> list[ElevatorMove]:
    """The plan a model of ``encode(facility, bound)`` holds: each transfer's item is one of an
    element of its source type (any: renaming maps plans to plans), steps until the first idle one."""
    layout, true = CountLayout(facility, bound), {literal for literal in model if literal > 0}
    floors = [list(facility.chips), list(facility.generators)]
    plan = []
    for time in range(bound):
        if layout.idle(time) in true:
            break
        riders = []
        for transfer in (0, 1):
            for number, edge in enumerate(layout.edges):
                if layout.edge(time, transfer, number) in true:
                    kinds = [chip * facility.floors + generator for chip, generator in zip(*floors, strict=True)]
                    element = kinds.index(edge.source)
                    floors[0 if edge.chip else 1][element] += edge.rise
                    riders.append(item_name(facility.elements[element], MICROCHIP if edge.chip else GENERATOR))
        plan.append(ElevatorMove(UP if layout.up(time) in true else DOWN, tuple(riders)))
    return plan


def assignment(facility: Facility, plan: Sequence[Any], bound: int | None = None) -> list[int]:
    """`plan` (checked: valid moves of this facility) as an assignment of ``encode(facility,
    bound)``, idle steps after its last move; `bound` defaults to the plan's length."""
    bound = len(plan) if bound is None else bound
    if bound < len(plan):
        raise ValueError(f"a plan of {len(plan)} steps has no assignment at bound {bound}")
    layout, walk = CountLayout(facility, bound), _Walk(facility)
    numbers = {(edge.chip, edge.source, edge.rise): number for number, edge in enumerate(layout.edges)}
    true, wasted = walk.counted(layout, 0) | {layout.elevator(0, 0)}, 0
    for time in range(bound):
        if time >= len(plan):
            true |= {layout.idle(time), layout.elevator(time + 1, walk.elevator)}
            true |= walk.counted(layout, 2 * time + 1) | walk.counted(layout, 2 * time + 2)
            true |= {layout.wasted(time, least) for least in range(1, min(wasted, layout.waste) + 1)}
            continue
        direction, names = plan[time]
        rise = 1 if direction == UP else -1
        true.add(layout.up(time) if rise > 0 else layout.down(time))
        riders = walk.in_rank_order(names)
        for transfer in (0, 1):
            if transfer < len(riders):
                number = numbers[walk.ride(riders[transfer], rise)]
                edge = layout.edges[number]
                true |= {layout.edge(time, transfer, number), layout.out(time, transfer, edge.source),
                         layout.into(time, transfer, edge.target)}
            true |= walk.counted(layout, 2 * time + transfer + 1)
        walk.elevator += rise
        true.add(layout.elevator(time + 1, walk.elevator))
        if len(riders) == 2:
            true.add(layout.two(time))
        if (len(riders) == 2) == (rise < 0):
            true.add(layout.wasteful(time))
            wasted += 1
        true |= {layout.wasted(time, least) for least in range(1, min(wasted, layout.waste) + 1)}
    return [variable if variable in true else -variable for variable in range(1, layout.variables + 1)]


class _Walk:
    """A labelled plan replayed item by item, as pair types (for `assignment`)."""

    def __init__(self, facility: Facility) -> None:
        self.facility, self.elevator = facility, 0
        self.floors = {item_name(element, MICROCHIP): chip for element, chip in zip(facility.elements, facility.chips,
                                                                                   strict=True)}
        self.floors |= {item_name(element, GENERATOR): generator
                        for element, generator in zip(facility.elements, facility.generators, strict=True)}

    def _kind(self, element: str) -> int:
        return (self.floors[item_name(element, MICROCHIP)] * self.facility.floors
                + self.floors[item_name(element, GENERATOR)])

    def counted(self, layout: CountLayout, stage: int) -> set[int]:
        """The count variables true at `stage`."""
        counts = [0] * layout.types
        for element in self.facility.elements:
            counts[self._kind(element)] += 1
        return {int(layout.count(stage, kind, least)) for kind, count in enumerate(counts)
                for least in range(1, count + 1)}

    def in_rank_order(self, names: Sequence[str]) -> list[tuple[str, str]]:
        """The riders (element, kind) in transfer order: chips by their generator's floor, then generators."""
        riders = [self._rider(name) for name in names]
        partner = {MICROCHIP: GENERATOR, GENERATOR: MICROCHIP}
        return sorted(riders, key=lambda rider: (rider[1] != MICROCHIP,
                                                 self.floors[item_name(rider[0], partner[rider[1]])]))

    def _rider(self, name: str) -> tuple[str, str]:
        return next((element, kind) for element in self.facility.elements for kind in (MICROCHIP, GENERATOR)
                    if item_name(element, kind) == name)

    def ride(self, rider: tuple[str, str], rise: int) -> tuple[bool, int, int]:
        """Move `rider` one floor by `rise`: the edge's (chip, source type, rise)."""
        element, kind = rider
        source = self._kind(element)
        self.floors[item_name(element, kind)] += rise
        return kind == MICROCHIP, source, rise


def counted(facility: Facility, labelled: Sequence[int]) -> CountState:
    """A labelled state of `crosscheck.solvers.elevator.sat_encoding` (each element's generator
    and chip floor, the elevator last) up to renaming."""
    counts = [0] * (facility.floors * facility.floors)
    for element in range(len(facility.elements)):
        counts[labelled[2 * element + 1] * facility.floors + labelled[2 * element]] += 1
    return (labelled[-1], *counts)


class CountsEncoding:
    """`crosscheck.solvers.certificate.Encoding` of the elevator over counts of pair types."""

    lemma = ("elevator-sat[states=counts]: plans map to plans under renaming of elements (the states are counts "
             "of pair types); a model of the CNF at bound B exists exactly when a plan of at most B steps does; the "
             "start query is unsatisfiable exactly when the start is unsafe; the invariant queries say start, closure "
             "under safe steps and no goal (rules written in the encoding itself)")

    def cnf(self, instance: Facility, kind: str, bound: int | None, data: Any) -> Cnf:
        if kind == BOUND:
            if bound is None or bound < 0:
                raise ValueError(f"a bound query needs a bound of 0 or more, got {bound}")
            return encode(instance, bound)
        if kind == START:
            return encode_start(instance)
        if kind in INVARIANT_KINDS:
            return encode_invariant(instance, kind, [tuple(state) for state in data or []], bound)
        raise ValueError(f"unknown query {kind!r}, expected bound, start or {', '.join(INVARIANT_KINDS)}")

    def assignment(self, instance: Facility, plan: Sequence[Any]) -> list[int]:
        return assignment(instance, plan)

    def decode(self, instance: Facility, bound: int, model: Sequence[int]) -> list[ElevatorMove]:
        return decode(instance, bound, model)

    def states(self, instance: Facility, labelled: Sequence[Sequence[int]]) -> list[CountState]:
        """Labelled states up to renaming, each once, in the order first met."""
        return list(dict.fromkeys(counted(instance, state) for state in labelled))


COUNTS_ENCODING = CountsEncoding()
