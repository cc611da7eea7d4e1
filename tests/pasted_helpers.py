"""Helpers pasted from built-ins under new names, for the formulations of
tests/copied_helpers.py that import them inside a function's body (tests/test_copies.py)."""

from __future__ import annotations

from crosscheck.models.keys.model import Cell, Vault


def adjacent(vault: Vault, cell: Cell) -> list[Cell]:
    """`crosscheck.solvers.keys.level_cuts._neighbours`, renamed."""
    return [target for _, target in vault.open_neighbours(cell) if vault.passable(vault.at(target))]


def adjacent_without_doors(vault: Vault, cell: Cell) -> list[Cell]:
    """Not a copy: a wall test of its own, not the model's `Vault.passable`."""
    return [target for _, target in vault.open_neighbours(cell) if vault.at(target) != "#"]
