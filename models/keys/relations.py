"""The key vault's metamorphic relations (see `crosscheck.models.relations`)."""

from __future__ import annotations

import random
import string
from collections.abc import Callable

from crosscheck.models.keys import model as keys
from crosscheck.models.keys.model import DIRECTIONS, FLOOR, ROBOT, WALL, Vault, door_key, is_key
from crosscheck.models.relations import (
    NotApplicable,
    NotLarger,
    Offset,
    Plan,
    Related,
    Relation,
    Same,
    related_name,
    reparsed,
)

Grid = tuple[str, ...]


def _transpose(rows: Grid) -> Grid:
    return tuple("".join(column) for column in zip(*rows, strict=True))


def _mirror(rows: Grid) -> Grid:
    return tuple(row[::-1] for row in rows)


def _flip(rows: Grid) -> Grid:
    return rows[::-1]


#: The seven symmetries of a rectangle's grid other than the identity (rectangles turn
#: into their transposes under a quarter turn; the moves are the same up to renaming
#: directions, so every optimum is kept).
SYMMETRIES: dict[str, Callable[[Grid], Grid]] = {
    "rotate 90": lambda rows: _mirror(_transpose(rows)),
    "rotate 180": lambda rows: _flip(_mirror(rows)),
    "rotate 270": lambda rows: _flip(_transpose(rows)),
    "mirror left-right": _mirror,
    "flip top-bottom": _flip,
    "transpose": _transpose,
    "anti-transpose": lambda rows: _flip(_mirror(_transpose(rows))),
}


def _vault(original: Vault, relation: str, rows: Grid) -> Vault:
    name = related_name(original, relation)
    parsed: Vault = reparsed(keys.parse, Vault(name=name, rows=rows), name)
    return parsed


def symmetry(vault: Vault, rng: random.Random, plan: Plan | None = None) -> Related:
    """A rotation, reflection or transposition of the grid (one of seven, drawn by `rng`).
    Moves map one to one onto moves of the image (directions renamed), walls, keys and
    doors with them, so plans and their costs correspond: same optimum."""
    name = rng.choice(sorted(SYMMETRIES))
    return Related(_vault(vault, "symmetry", SYMMETRIES[name](vault.rows)), Same(), name)


def _letter_images(present: list[str], rng: random.Random) -> list[str]:
    """A permutation of the 26 letters (``image[i]`` for the i-th letter, drawn by `rng`)
    under which the `present` letters (sorted) change their alphabetical order when there
    are two or more: where a draw keeps it, their images are handed out reversed."""
    image = list(string.ascii_lowercase)
    rng.shuffle(image)
    ranks = [string.ascii_lowercase.index(letter) for letter in present]
    images = [image[rank] for rank in ranks]
    if len(images) >= 2 and images == sorted(images):
        for rank, letter in zip(ranks, reversed(images), strict=True):
            image[rank] = letter
    return image


def letters(vault: Vault, rng: random.Random, plan: Plan | None = None) -> Related:
    """A permutation of all 26 letters applied to keys and doors alike (``a``/``A`` to
    ``x``/``X``), drawn by `rng` among those that change the alphabetical order of the
    letters the vault holds (two or more): a program that pairs doors with keys by rank,
    or keeps letters in order, reads another vault.  A door still opens with exactly the
    key it opened before, and a door whose key is absent still has none: same optimum."""
    present = sorted({char.lower() for row in vault.rows for char in row if char.isalpha()})
    image = _letter_images(present, rng)
    table = str.maketrans(string.ascii_lowercase + string.ascii_uppercase,
                          "".join(image) + "".join(image).upper())
    changed = "".join(f"{a}{b}" for a, b in zip(string.ascii_lowercase, image, strict=True)
                      if a != b and a in vault.keys)
    return Related(_vault(vault, "letters", tuple(row.translate(table) for row in vault.rows)), Same(),
                   f"keys renamed {changed or 'none'}")


def ring(vault: Vault, rng: random.Random, plan: Plan | None = None) -> Related:
    """A ring of wall around the grid.  Outside the grid already counts as wall, so no
    move is gained or lost: same optimum."""
    border = WALL * (vault.width + 2)
    rows = (border, *(WALL + row + WALL for row in vault.rows), border)
    return Related(_vault(vault, "ring", rows), Same(), "wall ring added")


def open_door(vault: Vault, rng: random.Random, plan: Plan | None = None) -> Related:
    """One door (drawn by `rng`) becomes open floor.  Every plan of the vault stays legal
    (a floor cell admits every step a door admits) with the same keys to collect, and a
    door whose key is absent may open new ways: the optimum is never larger, and a
    vault with a solution keeps one."""
    doors = [(r, c) for r, row in enumerate(vault.rows) for c, char in enumerate(row) if door_key(char)]
    if not doors:
        raise NotApplicable("the vault has no door")
    r, c = rng.choice(doors)
    rows = list(vault.rows)
    rows[r] = rows[r][:c] + FLOOR + rows[r][c + 1:]
    return Related(_vault(vault, "open-door", tuple(rows)), NotLarger(), f"door {vault.rows[r][c]} at row {r + 1}, "
                                                                         f"column {c + 1} opened")


def suffix(vault: Vault, rng: random.Random, plan: Plan | None = None) -> Related:
    """The state after the first k moves of `plan` (k drawn by `rng` among the states the
    format expresses: robots on distinct cells): robots where they stand, every key held
    and its door open floor.  The rest of an optimal plan solves that state, and any
    cheaper solution would make the whole plan cheaper: the optimum is the original's
    minus k (each move costs 1).  Raises `NotApplicable` for an empty plan."""
    if plan is None:
        raise NotApplicable("the suffix relation needs a plan")
    keys.check_plan(vault, plan)
    states = [(k, state) for k, state in enumerate(_states(vault, plan)) if k > 0 and len(set(state[0])) == len(state[0])]
    if not states:
        raise NotApplicable("no state after a move has every robot on its own cell")
    k, (robots, held) = rng.choice(states)
    rows = [[FLOOR if char == ROBOT or (char.lower() in held and char.isalpha()) else char for char in row]
            for row in vault.rows]
    for r, c in robots:
        rows[r][c] = ROBOT
    return Related(_vault(vault, "suffix", tuple("".join(row) for row in rows)), Offset(k),
                   f"after {k} of {len(plan)} moves")


def _states(vault: Vault, plan: Plan) -> list[tuple[tuple[keys.Cell, ...], frozenset[str]]]:
    """(robot cells, keys held) before the plan and after each of its moves (a checked plan)."""
    robots, held = list(vault.robots), set[str]()
    states = [(tuple(robots), frozenset(held))]
    for robot, direction in plan:
        (r, c), (dr, dc) = robots[robot], DIRECTIONS[direction]
        robots[robot] = (r + dr, c + dc)
        if is_key(vault.at(robots[robot])):
            held.add(vault.at(robots[robot]))
        states.append((tuple(robots), frozenset(held)))
    return states


RELATIONS = tuple(Relation(name, "keys", derive) for name, derive in (
    ("symmetry", symmetry), ("letters", letters), ("ring", ring), ("open-door", open_door),
)) + (Relation("suffix", "keys", suffix, needs_plan=True),)
