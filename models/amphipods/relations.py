"""The amphipod burrow's metamorphic relations (see `crosscheck.models.relations`)."""

from __future__ import annotations

import random

from crosscheck.models.amphipods import model as amphipods
from crosscheck.models.amphipods.model import EMPTY, ENERGY, KINDS, Burrow, parse_label, path
from crosscheck.models.relations import NotApplicable, Offset, Plan, Related, Relation, Same, related_name, reparsed


def _burrow(original: Burrow, relation: str, burrow: Burrow) -> Burrow:
    name = related_name(original, relation)
    parsed: Burrow = reparsed(amphipods.parse, burrow, name)
    return parsed


def settled_row(burrow: Burrow, rng: random.Random, plan: Plan | None = None) -> Related:
    """A bottom row of settled amphipods (A, B, C, D, each in its own room) added.  They
    never need to move and are never in anybody's way (nobody goes below them); every
    other cell keeps its slot counted from the top, so every plan keeps its cost: same
    optimum."""
    rooms = amphipods.four_rooms(room + kind for room, kind in zip(burrow.rooms, KINDS, strict=True))
    return Related(_burrow(burrow, "settled-row", Burrow(burrow.name, rooms, burrow.hallway)), Same(),
                   f"depth {burrow.depth} -> {burrow.depth + 1}")


def states_along(burrow: Burrow, plan: Plan) -> list[tuple[int, Burrow | None]]:
    """(energy so far, burrow) before the plan and after each of its moves (a checked
    plan); the burrow is None where the format cannot express the state (an empty cell
    below an amphipod in a room, left by a move up a column or a stop high in a room)."""
    hallway, rooms = list(burrow.hallway), [list(room) for room in burrow.rooms]

    def cell(label: str) -> tuple[list[str], int]:
        position = parse_label(label, burrow.depth)
        assert position is not None  # the plan is checked
        return (hallway, position[1]) if position[0] == "H" else (rooms[position[0]], position[1])

    energy = 0
    states: list[tuple[int, Burrow | None]] = [(0, burrow)]
    for source, target in plan:
        (from_cells, i), (to_cells, j) = cell(source), cell(target)
        kind = from_cells[i]
        a, b = parse_label(source, burrow.depth), parse_label(target, burrow.depth)
        assert a is not None and b is not None
        energy += len(path(a, b)) * ENERGY[kind]
        from_cells[i], to_cells[j] = EMPTY, kind
        expressible = all(EMPTY not in "".join(room).lstrip(EMPTY) for room in rooms)
        state = Burrow(burrow.name, amphipods.four_rooms("".join(room) for room in rooms), "".join(hallway))
        states.append((energy, state if expressible else None))
    return states


def suffix(burrow: Burrow, rng: random.Random, plan: Plan | None = None) -> Related:
    """The state after the first k moves of `plan` (k drawn by `rng` among the states
    the format expresses), as the puzzle statement draws it: amphipods in the hallway
    have stopped there, empty cells above a room's amphipods.  The rest of an optimal
    plan solves that state, and any cheaper solution would make the whole plan cheaper:
    the optimum is the original's minus the energy of those k moves.  Raises
    `NotApplicable` when no state after a move is expressible (or the plan is empty)."""
    if plan is None:
        raise NotApplicable("the suffix relation needs a plan")
    amphipods.check_plan(burrow, plan)
    states = [(k, energy, state) for k, (energy, state) in enumerate(states_along(burrow, plan))
              if k > 0 and state is not None]
    if not states:
        raise NotApplicable("no state after a move is expressible (each leaves a room cell empty below an amphipod)")
    k, energy, state = rng.choice(states)
    return Related(_burrow(burrow, "suffix", state), Offset(energy), f"after {k} of {len(plan)} moves")


RELATIONS = (
    Relation("settled-row", "amphipods", settled_row),
    Relation("suffix", "amphipods", suffix, needs_plan=True),
)
