"""Packed labelled elevator states and their moves, computed on whole numpy arrays.

A state keeps element names: item ``2i`` is element i's generator, ``2i + 1`` its
microchip (the order of `Facility.elements`).  It is packed into one integer: item k's
floor in bits ``[k * width, (k + 1) * width)`` and the elevator's floor above all items,
with ``width`` the bits a floor number needs.  Carrying items from floor e to e + d then
adds ``d * (elevator unit + the moved items' units)``: successors are array arithmetic.
Codes are uint32 or uint64 when they fit, else Python integers in object arrays (the
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
from crosscheck.models.elevator.model import DOWN, UP, ElevatorMove, Facility, item_name

Codes = npt.NDArray[Any]  # one packed state per entry: uint32, uint64 or object (Python int)
Indices = npt.NDArray[np.intp]


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
        bits = self.elevator_shift + self.width
        return np.dtype(np.uint32) if bits <= 32 else np.dtype(np.uint64) if bits <= 64 else object

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


#: Up to this many items, loads come from a table of every item set (2**16 sets, 2.5 M loads).
TABLE_ITEMS = 16


def loads_of(present: npt.NDArray[np.bool_], units: Codes) -> tuple[Indices, Codes]:
    """Every load of item sets given as rows of `present`: (row, sum of the items' `units`).

    A load is one item of the row, or two (each unordered pair once).
    """
    owner, item = np.nonzero(present)  # row-major: grouped by row, items ascending
    counts = present.sum(axis=1)
    partners = np.repeat(np.cumsum(counts), counts) - np.arange(len(owner)) - 1  # later items, same row
    first = np.repeat(np.arange(len(owner)), partners)
    second = first + 1 + np.arange(len(first)) - np.repeat(np.cumsum(partners) - partners, partners)
    sources = np.concatenate([owner, owner[first]])
    return sources, np.concatenate([units[item], units[item[first]] + units[item[second]]])


class SetTables:
    """For up to `TABLE_ITEMS` items, tables over every set of items (bit k: item k): its
    loads (a run of unit sums and of the loads' own sets) and whether a floor holding it
    is safe."""

    def __init__(self, units: Codes, safe: npt.NDArray[np.bool_]) -> None:
        sets = np.arange(1 << len(units))
        present = ((sets[:, None] >> np.arange(len(units))) & 1).astype(bool)
        owner, sums = loads_of(present, units)
        _, load_sets = loads_of(present, 1 << np.arange(len(units)))
        order = np.argsort(owner, kind="stable")
        self.units, self.load_sets = sums[order], load_sets[order]
        self.counts = np.bincount(owner, minlength=len(sets))
        self.starts = np.cumsum(self.counts) - self.counts
        self.safe = safe

    def loads(self, sets: Indices) -> tuple[Indices, Codes, Indices]:
        """(index into `sets`, unit sum, set of the load) of every load of each set."""
        counts = self.counts[sets]
        sources = np.repeat(np.arange(len(sets)), counts)
        runs = np.arange(len(sources)) + np.repeat(self.starts[sets] - (np.cumsum(counts) - counts), counts)
        return sources, self.units[runs], self.load_sets[runs]


class Moves:
    """Every safe move of a packing's states, on arrays of codes."""

    def __init__(self, packing: Packing) -> None:
        self.packing = packing
        self.generator_low, self.chip_low = packing.low_bits(0), packing.low_bits(1)
        self.all_low = self.generator_low | self.chip_low
        self.items_mask = (1 << packing.elevator_shift) - 1
        self.elevator_unit = 1 << packing.elevator_shift
        self.units = packing.array([packing.unit(item) for item in range(packing.items)])
        self.table: SetTables | None = None
        if packing.items <= TABLE_ITEMS:
            every = np.arange(1 << packing.items)
            spread = packing.array([0] * len(every))
            for item in range(packing.items):  # set bit k -> the lowest bit of item k's digit
                spread |= ((every >> item) & 1).astype(spread.dtype) << (item * packing.width)
            self.table = SetTables(self.units, self.safe(spread))

    def on_floor(self, codes: Codes, floor: int) -> Codes:
        """Per code, the items on `floor`: the lowest bit of each such item's digit."""
        differ = (codes ^ self.packing.replicated(floor)) & self.items_mask
        spread = differ
        for shift in range(1, self.packing.width):
            spread = spread | (differ >> shift)
        return (spread & self.all_low) ^ self.all_low

    def safe(self, present: Codes) -> npt.NDArray[np.bool_]:
        """True where a floor holding the items `present` (as from `on_floor`) is safe."""
        generators = present & self.generator_low
        chips = present & self.chip_low
        exposed = chips & ((generators << self.packing.width) ^ self.chip_low)  # own generator elsewhere
        return np.asarray((generators == 0) | (exposed == 0), dtype=bool)

    def sets(self, here: Codes) -> Codes:
        """Item sets from `on_floor` as the tables index them (bit k: item k), or as they are."""
        if self.table is None:
            return here
        sets = np.zeros(len(here), dtype=np.intp)
        for item in range(self.packing.items):
            sets |= ((here >> (item * (self.packing.width - 1))) & (1 << item)).astype(np.intp)
        return sets

    def safe_sets(self, sets: Codes) -> npt.NDArray[np.bool_]:
        """True where a floor holding the item set (from `sets`) is safe."""
        return self.safe(sets) if self.table is None else self.table.safe[sets]

    def loads(self, sets: Codes) -> tuple[Indices, Codes, Codes]:
        """Every load from item `sets`: (index of its set, sum of the items' units, the
        load's own item set).  A load is one item of the set, or two (each pair once)."""
        if self.table is not None:
            return self.table.loads(sets)
        present = np.empty((len(sets), self.packing.items), dtype=bool)
        for column in range(self.packing.items):
            present[:, column] = (sets & self.packing.unit(column)) != 0
        sources, units = loads_of(present, self.units)
        return sources, units, units  # a sum of units is the set of `on_floor`'s form

    def from_floor(self, codes: Codes, floor: int) -> list[Codes]:
        """The safe successors of safe states `codes` whose elevator is on `floor`.

        Only the floor left and the floor reached change, so only they are checked.
        """
        here = self.sets(self.on_floor(codes, floor))
        sources, units, load_sets = self.loads(here)
        left_safe = self.safe_sets(here[sources] ^ load_sets)
        found = []
        for target in (floor + 1, floor - 1):
            if not 0 <= target < self.packing.floors:
                continue
            keep = left_safe & self.safe_sets(self.sets(self.on_floor(codes, target))[sources] | load_sets)
            moved = units[keep] + self.elevator_unit
            base = codes[sources[keep]]
            found.append(base + moved if target > floor else base - moved)
        return found

    def successors(self, codes: Codes) -> Codes:
        """Every safe successor of the safe states `codes` (sorted ascending), with repeats."""
        shift = self.packing.elevator_shift
        bounds = np.searchsorted(codes, self.packing.array([floor << shift for floor in range(self.packing.floors + 1)]))
        found = [self.packing.array([])]
        for floor in range(self.packing.floors):
            if bounds[floor] < bounds[floor + 1]:
                found += self.from_floor(codes[bounds[floor]:bounds[floor + 1]], floor)
        return np.concatenate(found)


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
