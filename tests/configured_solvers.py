"""Planted formulations with options, registered through CROSSCHECK_SOLVERS in the tests of
configurations (tests/test_configuration.py, tests/test_ablation.py).

``test-detour`` walks a one-robot vault greedily (the nearest key it may reach next, breadth
first) and always claims its plan optimal.  Its option ``detour=on`` first walks one step out
and back, so its plan is never optimal: the option is declared to give up optimality, and the
harness must read its answers as plans only, whatever the formulation claims.  None of this
is a formulation of the puzzle; it exercises the harness.
"""

from __future__ import annotations

from collections import deque
from typing import ClassVar, Literal, cast

from crosscheck.models.keys.model import Cell, KeyMove, Vault
from crosscheck.solvers.base import Answer, Deadline, Solver, Status
from crosscheck.solvers.configuration import Options, option

OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


class DetourOptions(Options):
    """test-detour's one choice."""

    detour: Literal["off", "on"] = option("off", "walk one step out and back before anything else",
                                          inexact=("on",))


class Detour(Solver):
    """Greedy nearest key, optionally after a detour; claims every plan optimal (see the module doc)."""

    name, puzzle, summary = "test-detour", "keys", "greedy nearest key, claimed optimal (planted)"
    Options: ClassVar[type[Options]] = DetourOptions

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        here, held = instance.robots[0], set[str]()
        plan: list[KeyMove] = []
        if cast(DetourOptions, self.options).detour == "on":
            direction, _ = next(iter(instance.open_neighbours(here)))
            plan += [KeyMove(0, direction), KeyMove(0, OPPOSITE[direction])]
        while len(held) < len(instance.keys):
            walk = _to_nearest_key(instance, here, held)
            if walk is None:
                return Answer(Status.INFEASIBLE, message="no key within reach")
            here, key, steps = walk
            held.add(key)
            plan += [KeyMove(0, direction) for direction in steps]
        return Answer(Status.OPTIMAL, cost=len(plan), bound=len(plan), plan=plan)


def _to_nearest_key(vault: Vault, start: Cell, held: set[str]) -> tuple[Cell, str, list[str]] | None:
    """The nearest cell holding a key not in `held`, walking through doors whose key is
    held: (cell, key, directions), or None."""
    came: dict[Cell, tuple[Cell, str] | None] = {start: None}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        char = vault.at(cell)
        if char.islower() and char not in held:
            steps: list[str] = []
            back = cell
            while (link := came[back]) is not None:
                back = link[0]
                steps.append(link[1])
            return cell, char, steps[::-1]
        for direction, target in vault.open_neighbours(cell):
            door = vault.at(target)
            if target not in came and not (door.isupper() and door.lower() not in held):
                came[target] = (cell, direction)
                queue.append(target)
    return None


SOLVERS = [Detour]
