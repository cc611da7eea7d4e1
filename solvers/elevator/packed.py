"""Packed labelled elevator states and their moves, computed on whole numpy arrays.

A state keeps element names: item ``2i`` is element i's generator, ``2i + 1`` its
microchip (the order of `Facility.elements`).  It is packed into one integer: item k's
floor in bits ``[k * width, (k + 1) * width)`` and the elevator's floor above all items,
with ``width`` the bits a floor number needs.  Carrying items from floor e to e + d then
adds ``d * (elevator unit + the moved items' units)``: successors are array arithmetic.
Codes are int64 when they fit in 63 bits, else Python integers in object arrays (the
same operations, slower), so any number of floors and elements works.

Safety is checked on whole arrays with masks: the items on floor f are the digits equal
to f; the floor is unsafe when it holds a generator and a microchip whose own generator
(the digit just below the chip's) is elsewhere.  Moving items changes only the floor
left and the floor reached, so a safe state's successor is safe when those two are.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from models.elevator import DOWN, UP, ElevatorMove, Facility, item_name

Codes = npt.NDArray[Any]  # one packed state per entry, int64 or object (Python int)
Indices = npt.NDArray[np.intp]
INT64_BITS = 63  # non-negative int64 codes


@dataclass(frozen=True)
class Packing:
    """How `facility`'s labelled states are packed (see the module docstring)."""

    floors: int
    items: int
    width: int

    @staticmethod
    def of(facility: Facility) -> Packing:
        return Packing(facility.floors, 2 * len(facility.elements), max(1, (facility.floors - 1).bit_length()))

    @property
    def elevator_shift(self) -> int:
        return self.width * self.items

    @property
    def dtype(self) -> type | np.dtype[Any]:
        return np.dtype(np.int64) if self.elevator_shift + self.width <= INT64_BITS else object

    def unit(self, item: int) -> int:
        """What adding 1 to item `item`'s floor adds to a code."""
        return 1 << (self.width * item)

    def low_bits(self, kind: int) -> int:
        """The lowest bit of every generator's (`kind` 0) or microchip's (`kind` 1) digit."""
        return sum(self.unit(item) for item in range(kind, self.items, 2))

    def replicated(self, floor: int) -> int:
        """`floor` written in every item digit."""
        return floor * (self.low_bits(0) | self.low_bits(1))

    def encode(self, elevator: int, item_floors: list[int]) -> int:
        code = elevator << self.elevator_shift
        for item, floor in enumerate(item_floors):
            code |= floor << (self.width * item)
        return code

    def decode(self, code: int) -> tuple[int, list[int]]:
        """(elevator floor, item floors) of one code."""
        digit = (1 << self.width) - 1
        return code >> self.elevator_shift, [(code >> (self.width * item)) & digit for item in range(self.items)]

    def array(self, codes: list[int]) -> Codes:
        return np.array(codes, dtype=self.dtype)


class Moves:
    """Every safe move of a packing's states, on arrays of codes."""

    def __init__(self, packing: Packing) -> None:
        self.packing = packing
        self.digit_mask = (1 << packing.width) - 1
        self.generator_low, self.chip_low = packing.low_bits(0), packing.low_bits(1)
        self.all_low = self.generator_low | self.chip_low
        self.items_mask = (1 << packing.elevator_shift) - 1
        self.patterns = packing.array([packing.replicated(floor) for floor in range(packing.floors)])
        self.units = packing.array([packing.unit(item) for item in range(packing.items)])

    def elevators(self, codes: Codes) -> Codes:
        return codes >> self.packing.elevator_shift

    def on_floor(self, codes: Codes, floors: Codes) -> Codes:
        """Per code, the low digit bit of every item on that code's floor in `floors`."""
        differ = (codes ^ self.patterns[floors.astype(np.intp)]) & self.items_mask
        spread = differ
        for shift in range(1, self.packing.width):
            spread = spread | (differ >> shift)
        return (spread & self.all_low) ^ self.all_low

    def safe_on(self, codes: Codes, floors: Codes) -> npt.NDArray[np.bool_]:
        """True where the floor in `floors` of each code has no exposed microchip near a generator."""
        here = self.on_floor(codes, floors)
        generators = here & self.generator_low
        chips = here & self.chip_low
        exposed = chips & ((generators << self.packing.width) ^ self.chip_low)
        return np.asarray((generators == 0) | (exposed == 0), dtype=bool)

    def loads(self, codes: Codes) -> tuple[Indices, Codes]:
        """Every load the elevator can carry: (index of its code, sum of the items' units).

        Loads are one item on the elevator's floor, or two (each unordered pair once).
        """
        here = self.on_floor(codes, self.elevators(codes))
        present = np.empty((len(codes), self.packing.items), dtype=bool)
        for item in range(self.packing.items):
            present[:, item] = (here & self.packing.unit(item)) != 0
        owner, item = np.nonzero(present)  # row-major: grouped by code, items ascending
        run_end = np.searchsorted(owner, owner, side="right")
        partners = run_end - np.arange(len(owner)) - 1
        first = np.repeat(np.arange(len(owner)), partners)
        offsets = np.arange(len(first)) - np.repeat(np.cumsum(partners) - partners, partners)
        second = first + 1 + offsets
        sources = np.concatenate([owner, owner[first]])
        units = np.concatenate([self.units[item], self.units[item[first]] + self.units[item[second]]])
        return sources, units

    def successors(self, codes: Codes) -> tuple[Indices, Codes]:
        """Every safe successor: (index of its code in `codes`, successor code).

        Each code must be a safe state; a successor is safe when the floor left and
        the floor reached are.
        """
        sources, units = self.loads(codes)
        elevators = self.elevators(codes)[sources]
        found_sources, found = [], []
        for step in (1, -1):
            target = elevators + step
            fits = (target >= 0) & (target < self.packing.floors)
            moved = codes[sources[fits]] + step * (units[fits] + (1 << self.packing.elevator_shift))
            safe = self.safe_on(moved, elevators[fits]) & self.safe_on(moved, target[fits])
            found_sources.append(sources[fits][safe])
            found.append(moved[safe])
        return np.concatenate(found_sources), np.concatenate(found)


def moved_items(packing: Packing, before: int, after: int) -> tuple[int, list[int]]:
    """(direction +1/-1, items moved) of the step between two adjacent codes."""
    from_elevator, from_floors = packing.decode(before)
    to_elevator, to_floors = packing.decode(after)
    items = [item for item in range(packing.items) if from_floors[item] != to_floors[item]]
    return to_elevator - from_elevator, items


def to_moves(facility: Facility, packing: Packing, path: list[int]) -> Iterator[ElevatorMove]:
    """The `ElevatorMove`s along a path of adjacent codes."""
    names = [item_name(element, kind) for element, kind in facility.items()]
    for before, after in zip(path, path[1:], strict=False):
        step, items = moved_items(packing, before, after)
        yield ElevatorMove(UP if step > 0 else DOWN, tuple(names[item] for item in items))
