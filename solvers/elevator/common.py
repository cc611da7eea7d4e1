"""What the elevator formulations share: labelled states, moves on them, and bounds.

A labelled state is a tuple ``(elevator, g_0, c_0, g_1, c_1, ...)``: the elevator's
floor, then the floors of each element's generator and microchip in the order of
`Facility.elements` (item ``2i`` is element i's generator, ``2i + 1`` its chip).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from enum import StrEnum
from itertools import combinations

from crosscheck.models.elevator.model import DOWN, UP, ElevatorMove, Facility, all_safe, is_safe, item_name

Labelled = tuple[int, ...]
#: The (microchip floor, generator floor) of an element: elements of one type are interchangeable.
PairType = tuple[int, int]


class Riding(StrEnum):
    """What of one element rides in a step: its microchip, its generator, or both."""

    CHIP = "chip"
    GENERATOR = "generator"
    PAIR = "pair"


def pair_types(floors: int) -> list[PairType]:
    """Every (microchip floor, generator floor) on `floors` floors, by chip floor then generator floor."""
    return [(chip, generator) for chip in range(floors) for generator in range(floors)]


def start_state(facility: Facility) -> Labelled:
    floors: list[int] = [0]
    for chip, generator in zip(facility.chips, facility.generators, strict=True):
        floors += [generator, chip]
    return tuple(floors)


def item_names(facility: Facility) -> list[str]:
    """Names of the items in labelled-state order."""
    return [item_name(element, kind) for element, kind in facility.items()]


def start_is_safe(facility: Facility) -> bool:
    """False when the start already destroys a chip: then no plan exists (proof enough)."""
    return all_safe(facility.chips, facility.generators)


def labelled_moves(state: Labelled, floors: int) -> Iterator[tuple[int, tuple[int, ...], Labelled]]:
    """Every safe (direction +1/-1, moved item indices, next state) from a labelled state."""
    elevator = state[0]
    here = [i for i in range(len(state) - 1) if state[i + 1] == elevator]
    loads = [(i,) for i in here] + list(combinations(here, 2))
    for step in (1, -1):
        target = elevator + step
        if not 0 <= target < floors:
            continue
        for load in loads:
            successor = list(state)
            successor[0] = target
            for i in load:
                successor[i + 1] = target
            chips, generators = successor[2::2], successor[1::2]
            if is_safe(chips, generators, elevator) and is_safe(chips, generators, target):
                yield step, load, tuple(successor)


def to_move(step: int, load: tuple[int, ...], names: Sequence[str]) -> ElevatorMove:
    """The move vocabulary's form of carrying items `load` in direction `step`."""
    return ElevatorMove(UP if step > 0 else DOWN, tuple(names[i] for i in load))


def crossing_bound(floors: int, elevator: int, counts: Sequence[int]) -> int:
    """A lower bound on the steps left, valid without the safety rule.

    `counts[f]` is the number of items on floor f.  Consider the boundary between
    floor b and b+1 with n items at or below b.  A plan with at least one step ends
    with the elevator on the top floor (its last step brings an item there).  Up
    crossings carry at most two items, down crossings at least one, and they
    alternate: if the elevator starts above the boundary, ups = downs = u and the net
    upward flow u must reach n, so 2n crossings; if it starts at or below, ups =
    downs + 1 = u, the net flow is at most u + 1, so u >= n - 1 (and u >= 1):
    max(1, 2n - 3) crossings.  Each step crosses one boundary; summing is valid.
    """
    total = below = 0
    for boundary in range(floors - 1):
        below += counts[boundary]
        if below:
            total += max(1, 2 * below - 3) if elevator <= boundary else 2 * below
    return total


def labelled_bound(state: Labelled, floors: int) -> int:
    counts = [0] * floors
    for floor in state[1:]:
        counts[floor] += 1
    return crossing_bound(floors, state[0], counts)
