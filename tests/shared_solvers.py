"""Plugin formulations of the key vault that share their own module's code (tests/test_plugin_sharing.py).

Registered through CROSSCHECK_SOLVERS.  They run no untrusted code of the ``crosscheck``
package, so what they share can only be found in this module:

- `Walker` searches with `_Walks`; `Echo` subclasses it and delegates through ``super()._solve``;
- `Strider` and `Pacer` are unrelated classes that both call the module-level helper `shortest`
  (which searches with `_Walks` too).

All four prove the same optima, so a comparison of them agrees on one line of evidence.
"""

from __future__ import annotations

from collections.abc import Iterator

from crosscheck.models.keys.model import DIRECTIONS, Cell, KeyMove, Vault
from crosscheck.solvers.base import Answer, Deadline, Solver
from crosscheck.solvers.engines.search import SearchProblem, Strategy, best_first_search

#: A `_Walks` state: (robot cells, keys held).
_WalkState = tuple[tuple[Cell, ...], frozenset[str]]


class _Walks(SearchProblem[_WalkState, KeyMove]):
    """Breadth-first states over the grid read cell by cell (`Vault.at`, trusted)."""

    def __init__(self, vault: Vault) -> None:
        self.vault = vault

    def initial(self) -> _WalkState:
        return (self.vault.robots, frozenset())

    def is_goal(self, state: _WalkState) -> bool:
        return len(state[1]) == len(self.vault.keys)

    def successors(self, state: _WalkState) -> Iterator[tuple[KeyMove, _WalkState, int]]:
        cells, held = state
        for robot, (row, column) in enumerate(cells):
            for direction, (d_row, d_column) in DIRECTIONS.items():
                target = (row + d_row, column + d_column)
                char = self.vault.at(target)
                if char == "#" or (char.isupper() and char.lower() not in held):
                    continue
                moved = cells[:robot] + (target,) + cells[robot + 1:]
                yield KeyMove(robot, direction), (moved, held | {char} if char.islower() else held), 1


def shortest(vault: Vault, deadline: Deadline) -> Answer:
    """The shortest walk collecting every key (the helper `Strider` and `Pacer` share)."""
    return best_first_search(_Walks(vault), Strategy.BFS, deadline).answer()


class Walker(Solver):
    """Breadth-first search over (cells, keys held)."""

    name, puzzle, summary = "test-walker", "keys", "breadth-first over cells (tests only)"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        return best_first_search(_Walks(instance), Strategy.BFS, deadline).answer()


class Echo(Walker):
    """`Walker` again through ``super()``: the same search under another name."""

    name, summary = "test-echo", "Walker's search through super() (tests only)"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        return super()._solve(instance, deadline)


class Strider(Solver):
    """Calls the module's `shortest`."""

    name, puzzle, summary = "test-strider", "keys", "the module's shortest walk (tests only)"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        return shortest(instance, deadline)


class Pacer(Solver):
    """Calls the module's `shortest` too."""

    name, puzzle, summary = "test-pacer", "keys", "the module's shortest walk again (tests only)"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        return shortest(instance, deadline)


SOLVERS: list[type[Solver]] = [Walker, Echo, Strider, Pacer]
