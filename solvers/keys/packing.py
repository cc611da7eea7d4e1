"""Key-vault search states packed into one int: the keys held, then each robot's position.

The low `keys` bits are the key mask (bit i for the i-th key letter, as in
`crosscheck.models.keys.model.Vault.key_bits`); above them every robot has `bits_per_robot` bits holding
its position index (a grid cell or a contracted node, whatever the search numbers).
Like the search engine itself, this is state-encoding infrastructure in the trusted base
(`crosscheck.harness.independence.trusted`), so using it does not count as sharing; its round trip is
tested on its own (tests/test_keys_model.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from crosscheck.solvers.engines.search import SearchProblem

A = TypeVar("A")


@dataclass(frozen=True)
class RobotPacking:
    """How one search packs (positions, keys held) into an int."""

    keys: int
    robots: int
    bits_per_robot: int

    @classmethod
    def for_positions(cls, keys: int, robots: int, positions: int) -> RobotPacking:
        """A packing for robots standing on position indices ``0 .. positions - 1``."""
        return cls(keys, robots, max(1, (positions - 1).bit_length()))

    @property
    def all_keys(self) -> int:
        """The key mask holding every key."""
        return (1 << self.keys) - 1

    def shift(self, robot: int) -> int:
        """Where `robot`'s position starts in a packed state."""
        return self.keys + robot * self.bits_per_robot

    def pack(self, positions: Sequence[int], held: int = 0) -> int:
        """The state with the robots at `positions`, holding the key mask `held`."""
        state = held
        for robot, position in enumerate(positions):
            state |= position << self.shift(robot)
        return state

    def positions(self, state: int) -> list[int]:
        """Every robot's position index in `state`."""
        mask = (1 << self.bits_per_robot) - 1
        return [(state >> self.shift(robot)) & mask for robot in range(self.robots)]

    def slots(self, state: int) -> Iterator[tuple[int, int, int, int]]:
        """Per robot: (robot, its position, `state` without its position, its shift).
        The robot moved to `target`, picking up the key mask `found`, is
        ``others | target << shift | found``."""
        mask = (1 << self.bits_per_robot) - 1
        for robot in range(self.robots):
            shift = self.shift(robot)
            position = (state >> shift) & mask
            yield robot, position, state ^ (position << shift), shift


class PackedKeysProblem(SearchProblem[int, A]):
    """A key-vault search over packed states: subclasses set `packing` and `starts` (each
    robot's start position) and write `successors`.  The goal is holding every key."""

    packing: RobotPacking
    starts: Sequence[int]

    def initial(self) -> int:
        return self.packing.pack(self.starts)

    def is_goal(self, state: int) -> bool:
        return state & self.packing.all_keys == self.packing.all_keys
