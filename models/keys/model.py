"""The key vault: robots collect every key on a grid of walls and doors.

Rules (see ``shared/specs/puzzles.md``, section 1): a move takes one robot one cell
north, south, east or west onto a non-wall cell and costs 1; entering a key's cell
picks the key up for all robots; a door opens only while its key is held (a door
whose key is not in the grid never opens); the goal is to hold every key.

Move vocabulary: `KeyMove(robot, direction)` with robots numbered from 0 in reading
order of their ``@`` cells and directions ``N``, ``S``, ``E``, ``W``.
"""

from __future__ import annotations

import random
import reprlib
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from crosscheck.models.base import (
    InvalidInstance,
    InvalidPlan,
    check_range,
    instance_name,
    move_fields,
    plan_moves,
    refuse_leading_blank_lines,
)

Cell = tuple[int, int]  # (row, column), 0-based

WALL, FLOOR, ROBOT = "#", ".", "@"
DIRECTIONS: dict[str, Cell] = {"N": (-1, 0), "S": (1, 0), "E": (0, 1), "W": (0, -1)}
ALPHABET = "one of '#', '.', '@', 'a'-'z', 'A'-'Z'"


def is_key(char: str) -> bool:
    """True for a key's cell (a lowercase letter)."""
    return "a" <= char <= "z"


def door_key(char: str) -> str | None:
    """The key letter that opens a door's cell `char` (uppercase), or None for any other cell."""
    return char.lower() if "A" <= char <= "Z" else None


class KeyMove(NamedTuple):
    """Robot `robot` (index into `Vault.robots`) steps one cell in `direction`."""

    robot: int
    direction: str


@dataclass(frozen=True)
class Vault:
    """A parsed vault.  `rows` are the grid lines; the rest is derived from them."""

    name: str
    rows: tuple[str, ...]
    robots: tuple[Cell, ...] = field(init=False)
    keys: dict[str, Cell] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        robots, keys = [], {}
        for r, row in enumerate(self.rows):
            for c, char in enumerate(row):
                if char == ROBOT:
                    robots.append((r, c))
                elif is_key(char):
                    keys[char] = (r, c)
        object.__setattr__(self, "robots", tuple(robots))
        object.__setattr__(self, "keys", keys)

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def letters(self) -> str:
        """The vault's key letters in alphabetical order: key ``i`` of every key mask."""
        return "".join(sorted(self.keys))

    def key_bits(self) -> dict[str, int]:
        """Each key letter's bit in a key mask (``1 << i`` for the i-th of `letters`)."""
        return {letter: 1 << index for index, letter in enumerate(self.letters)}

    def passable(self, char: str) -> bool:
        """Whether a robot may ever stand on a cell showing `char` with every key held:
        not a wall, and not a door whose key is missing from the grid (such a door never
        opens).  A door with its key in the grid opens once that key is held."""
        key = door_key(char)
        return char != WALL and (key is None or key in self.keys)

    def at(self, cell: Cell) -> str:
        """The character at `cell`; outside the grid counts as wall."""
        r, c = cell
        if 0 <= r < self.height and 0 <= c < self.width:
            return self.rows[r][c]
        return WALL

    def open_neighbours(self, cell: Cell) -> Iterable[tuple[str, Cell]]:
        """(direction, cell) for each non-wall neighbour of `cell`."""
        r, c = cell
        for direction, (dr, dc) in DIRECTIONS.items():
            target = (r + dr, c + dc)
            if self.at(target) != WALL:
                yield direction, target

    def to_text(self) -> str:
        return "\n".join(self.rows) + "\n"


def detect(text: str) -> bool:
    """A vault is a grid whose first line (after any blank lines, which `parse` refuses)
    starts with a wall and which holds a robot; or, without a robot, a grid whose first
    line is all wall and whose every line holds only walls, floor and letters.  A robot is
    not required, so that `parse` can say it is missing; prose (spaces) is not a vault
    without one.  A burrow looks like a robotless vault here: the registry asks the burrow
    first (`crosscheck.models.registry.detect_puzzle`)."""
    lines = text.lstrip().splitlines()
    if not lines or not lines[0].startswith(WALL):
        return False
    if ROBOT in text:
        return True
    grid_only = all(char in (WALL, FLOOR) or (char.isascii() and char.isalpha()) for line in lines for char in line)
    return set(lines[0]) == {WALL} and grid_only


def parse(text: str, source: str = "<string>") -> Vault:
    """Parse a vault grid; raise `InvalidInstance` naming line and column on errors."""
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise InvalidInstance("empty file", source=source, line=1, column=1, expected="a grid of vault characters")
    refuse_leading_blank_lines(lines, source, "the grid's top wall row")
    width = len(lines[0])
    seen_keys: dict[str, tuple[int, int]] = {}
    robots = 0
    for number, line in enumerate(lines, start=1):
        for column, char in enumerate(line, start=1):
            if not (char in (WALL, FLOOR, ROBOT) or ("a" <= char <= "z") or ("A" <= char <= "Z")):
                raise InvalidInstance(f"unknown character {char!r}", source=source, line=number, column=column, expected=ALPHABET)
            if char == ROBOT:
                robots += 1
            elif "a" <= char <= "z":
                if char in seen_keys:
                    first = seen_keys[char]
                    raise InvalidInstance(
                        f"key {char!r} appears a second time (first at line {first[0]}, column {first[1]})",
                        source=source, line=number, column=column, expected="each key letter at most once",
                    )
                seen_keys[char] = (number, column)
        if len(line) != width:
            raise InvalidInstance(
                f"row has {len(line)} characters, the first row has {width}",
                source=source, line=number, column=min(len(line), width) + 1,
                expected=f"rows of equal width {width}",
            )
    if robots == 0:
        raise InvalidInstance("no robot in the grid", source=source, line=1, column=1, expected="at least one '@'")
    return Vault(name=instance_name(source), rows=tuple(lines))


FOUR_ROBOT_BLOCK = ("@#@", "###", "@#@")


def four_robots(vault: Vault) -> Vault:
    """Replace the 3x3 block centred on the vault's lone robot by ``@#@ / ### / @#@``.

    Raises `InvalidInstance` unless there is exactly one robot whose 3x3 block lies
    inside the grid and holds no key or door (the transform would destroy them).
    """
    if len(vault.robots) != 1:
        raise InvalidInstance(
            f"the four-robot transform needs exactly one robot, found {len(vault.robots)}",
            source=vault.name, expected="a vault with a lone '@'",
        )
    (r0, c0), = vault.robots
    rows = [list(row) for row in vault.rows]
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            r, c = r0 + dr, c0 + dc
            if not (0 <= r < vault.height and 0 <= c < vault.width) or rows[r][c].isalpha():
                raise InvalidInstance(
                    "the 3x3 block around the robot leaves the grid or holds a key or door",
                    source=vault.name, line=r0 + 1, column=c0 + 1, expected="open floor or wall around the robot",
                )
            rows[r][c] = FOUR_ROBOT_BLOCK[dr + 1][dc + 1]
    return Vault(name=f"{vault.name}+four", rows=tuple("".join(row) for row in rows))


def check_plan(vault: Vault, plan: Sequence[Sequence[object]]) -> int:
    """Replay `plan` cell by cell and return its cost (the number of moves).

    Raises `InvalidPlan` for a plan that is no list, a malformed move (not a list of two),
    a robot that is no robot number (an integer from 0, `True` is none), a direction that
    is none of ``N``, ``S``, ``E``, ``W``, a step into a wall or off the grid, a step
    onto a door whose key is not held, or a plan that ends with keys still in the grid.
    Cells are named by the instance's 1-based line and column.
    """
    moves = plan_moves(plan)
    positions = list(vault.robots)
    held: set[str] = set()
    for step, move in enumerate(moves):
        robot, direction = move_fields(step, move, "[robot, direction]")
        if not isinstance(robot, int) or isinstance(robot, bool) or not 0 <= robot < len(positions):
            raise InvalidPlan(step, f"no robot {reprlib.repr(robot)}, expected a robot number from 0 to "
                                    f"{len(positions) - 1} (robots are numbered from 0 in reading order of their '@')")
        if not isinstance(direction, str) or direction not in DIRECTIONS:
            raise InvalidPlan(step, f"unknown direction {reprlib.repr(direction)}, expected one of 'N', 'S', 'E', 'W'")
        dr, dc = DIRECTIONS[direction]
        r, c = positions[robot]
        target = (r + dr, c + dc)
        char = vault.at(target)
        if char == WALL:
            inside = 0 <= target[0] < vault.height and 0 <= target[1] < vault.width
            into = f"into a wall at {_cell_name(target)}" if inside else "off the grid"
            raise InvalidPlan(step, f"robot {robot} walks {direction} from {_cell_name(positions[robot])} {into}")
        if char.isupper() and char.lower() not in held:
            raise InvalidPlan(step, f"robot {robot} walks into door {char} at {_cell_name(target)} "
                                    f"without key {char.lower()}")
        if char.islower():
            held.add(char)
        positions[robot] = target
    missing = sorted(set(vault.keys) - held)
    if missing:
        raise InvalidPlan.unfinished(moves, f"the plan ends with keys not collected: {''.join(missing)}")
    return len(moves)


def _cell_name(cell: Cell) -> str:
    """A cell as the instance's text places it: ``line 2, column 6`` (both 1-based)."""
    return f"line {cell[0] + 1}, column {cell[1] + 1}"


def collectable_keys(vault: Vault) -> set[str]:
    """The keys some sequence of moves can collect (ignoring cost).

    Holding a key never closes anything, so repeatedly exploring everything reachable
    with the keys held so far reaches the exact fixpoint.
    """
    held: set[str] = set()
    while True:
        seen = set(vault.robots)
        queue = deque(vault.robots)
        found: set[str] = set()
        while queue:
            cell = queue.popleft()
            char = vault.at(cell)
            if is_key(char):
                found.add(char)
            for _, target in vault.open_neighbours(cell):
                key = door_key(vault.at(target))
                if target in seen or (key is not None and key not in held):
                    continue
                seen.add(target)
                queue.append(target)
        if found <= held:
            return held
        held |= found


# --- generator ---------------------------------------------------------------------

#: The largest grid side `generate` draws: 160,801 cells, as large as it carves at ease with the
#: most loops (its cells are Python lists; docs/puzzles/keys.md); the published vaults are 81x81.
MAX_SIZE = 401
#: The most keys a vault holds: one per letter a to z.
MAX_KEYS = 26

def generate(
    seed: int,
    size: int = 81,
    keys: int = 26,
    doors: int | None = None,
    loops: int = 0,
    robots: int = 1,
) -> Vault:
    """A seeded vault shaped like the real ones.

    Four perfect mazes (one per quadrant) meet at an open 3x3 centre holding the
    robot; `loops` extra wall openings create cycles; `keys` keys sit on random maze
    cells and `doors` of them (default: all but two) get a door on a random corridor
    cell.  With ``robots=4`` the four-robot transform is applied.  Door placements are
    redrawn until every key can be collected, so every generated vault is solvable.

    `size` must be 4k+1 with k >= 2 (9, 13, ..., `MAX_SIZE`); `loops` at most `max_loops(size)`.
    Each parameter out of its range is a `ValueError` naming it, its value and the range.
    """
    check_range("size", size, 9, MAX_SIZE, " (4k+1)")
    if size % 4 != 1:
        raise ValueError(f"size={size}: expected 4k+1 (9, 13, 17, ..., {MAX_SIZE})")
    check_range("keys", keys, 1, MAX_KEYS, " (the letters a to z)")
    if robots not in (1, 4):
        raise ValueError(f"robots={robots}: expected 1 or 4")
    check_range("loops", loops, 0, max_loops(size), f" for size {size} (the walls every maze of that size can open)")
    doors = max(0, keys - 2) if doors is None else doors
    check_range("doors", doors, 0, keys, f" (at most keys={keys})")
    rng = random.Random(seed)
    grid = _carve_mazes(size, rng)
    _open_loops(grid, loops, rng)
    centre = size // 2
    for r in range(centre - 1, centre + 2):
        for c in range(centre - 1, centre + 2):
            grid[r][c] = FLOOR
    grid[centre][centre] = ROBOT
    cells = [
        (r, c) for r in range(size) for c in range(size)
        if grid[r][c] == FLOOR and max(abs(r - centre), abs(c - centre)) > 1
    ]
    if len(cells) < keys + doors:
        raise ValueError(f"a {size}x{size} vault has room for fewer than {keys} keys and {doors} doors")
    letters = "abcdefghijklmnopqrstuvwxyz"[:keys]
    name = f"vault{size}-k{keys}-d{doors}-l{loops}-r{robots}-s{seed}"
    for _ in range(1000):
        trial = [row[:] for row in grid]
        chosen = rng.sample(cells, keys + doors)
        for letter, (r, c) in zip(letters, chosen, strict=False):  # keys first; the rest of `chosen` are doors
            trial[r][c] = letter
        for letter, (r, c) in zip(rng.sample(letters, doors), chosen[keys:], strict=True):
            trial[r][c] = letter.upper()
        vault = Vault(name=name, rows=tuple("".join(row) for row in trial))
        if robots == 4:
            vault = Vault(name=name, rows=four_robots(vault).rows)
        if collectable_keys(vault) == set(vault.keys):
            return vault
    raise ValueError(f"no solvable door placement found for seed {seed}")


def max_loops(size: int) -> int:
    """The most loops a vault of side `size` = 4k+1 can take whatever its seed: a perfect maze
    of k x k cells opens k*k - 1 of the 2k(k-1) walls between neighbouring cells, so each
    quadrant keeps (k-1)^2 walls between two corridor cells (more candidates may exist)."""
    return 4 * ((size - 1) // 4 - 1) ** 2


def _carve_mazes(size: int, rng: random.Random) -> list[list[str]]:
    """Walls everywhere, then a randomised depth-first maze in each quadrant.

    Maze cells have odd coordinates; the middle row and column stay walls, so the
    quadrants meet only through the centre block.
    """
    grid = [[WALL] * size for _ in range(size)]
    centre = size // 2
    for rows in (range(1, centre, 2), range(centre + 1, size - 1, 2)):
        for cols in (range(1, centre, 2), range(centre + 1, size - 1, 2)):
            cells = {(r, c) for r in rows for c in cols}
            start = rng.choice(sorted(cells))
            grid[start[0]][start[1]] = FLOOR
            stack, visited = [start], {start}
            while stack:
                r, c = stack[-1]
                options = [(r + 2 * dr, c + 2 * dc) for dr, dc in DIRECTIONS.values()]
                options = [cell for cell in options if cell in cells and cell not in visited]
                if not options:
                    stack.pop()
                    continue
                nr, nc = rng.choice(options)
                grid[(r + nr) // 2][(c + nc) // 2] = FLOOR
                grid[nr][nc] = FLOOR
                visited.add((nr, nc))
                stack.append((nr, nc))
    return grid


def _open_loops(grid: list[list[str]], loops: int, rng: random.Random) -> None:
    """Open `loops` walls that separate two corridor cells of the same quadrant (there are
    at least `max_loops` of them, which `generate` holds `loops` to)."""
    size = len(grid)
    centre = size // 2
    candidates = [
        (r, c) for r in range(1, size - 1) for c in range(1, size - 1)
        if grid[r][c] == WALL and r != centre and c != centre
        and ((grid[r - 1][c] == FLOOR == grid[r + 1][c] and grid[r][c - 1] == WALL == grid[r][c + 1])
             or (grid[r][c - 1] == FLOOR == grid[r][c + 1] and grid[r - 1][c] == WALL == grid[r + 1][c]))
    ]
    for r, c in rng.sample(candidates, loops):
        grid[r][c] = FLOOR


def features(vault: Vault) -> dict[str, int]:
    """Size measures of a vault: keys, robots, doors and open cells."""
    return {
        "keys": len(vault.keys),
        "robots": len(vault.robots),
        "doors": sum(door_key(char) is not None for row in vault.rows for char in row),
        "cells": sum(char != WALL for row in vault.rows for char in row),
    }


def outside_published_shape(vault: Vault) -> str:
    """Why `vault` is not of the published inputs' shape; '' when it is."""
    absent = sorted({c for row in vault.rows for c in row if door_key(c) and c.lower() not in vault.keys})
    return f"doors whose key is absent: {', '.join(absent)}" if absent else ""

def doors_with_keys(vault: Vault) -> Vault:
    """`vault` with every door whose key is absent turned into floor."""
    rows = tuple("".join(FLOOR if door_key(c) and c.lower() not in vault.keys else c for c in row)
                 for row in vault.rows)
    return Vault(name=vault.name, rows=rows)
