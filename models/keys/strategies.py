"""Hypothesis strategies that draw valid vaults, and the published inputs' shape.

Every value a strategy draws maps to a well-formed vault (it parses back from its own text),
so Hypothesis's shrinker only ever visits valid vaults, and shrinking moves toward simpler
ones: fewer rows and columns, open floor instead of walls, keys and doors.  The vaults cover
the whole rule space, not only the shapes of the published inputs: one robot or four
(around a ``@#@ / ### / @#@`` block, the quadrants split by walls or not, and when split,
quadrants that wait for each other's keys), doors whose key is absent, keys behind their own
door, loops, keys no robot can reach (no solution).

The published inputs' shape, which the fastest public solutions assume: every door's key is
in the vault (`outside_published_shape`; `hunt --published-shape` draws only such vaults).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping

from crosscheck.models.keys import model as keys
from crosscheck.models.puzzle import Range
from hypothesis import strategies as st

Cell = tuple[int, int]


#: The key letters, in the order a vault's keys use them.
_LETTERS = "abcdefghijklmnopqrstuvwxyz"

#: Interior cell kinds of a vault (floor, wall, key, door), drawn as small integers so
#: that shrinking (toward 0) turns walls, keys and doors into open floor.
_CELL_KINDS = st.sampled_from((0, 0, 1, 2, 3))


def instances(ranges: Mapping[str, Range], published: bool) -> st.SearchStrategy[keys.Vault]:
    """Vaults within `ranges` (every `SIZES` parameter given); with `published`, each door
    whose key is absent turned into floor.  `ValueError` when no robot count fits (`_check_vault_room`)."""
    _check_vault_room(ranges)
    drawn = vaults(ranges)
    return drawn.map(keys.doors_with_keys) if published else drawn


def _check_vault_room(ranges: Mapping[str, Range]) -> None:
    """`ValueError` unless some robot count the ranges allow fits in the largest vault they
    allow with the fewest keys they ask for (`robot_counts`), saying why not."""
    if robot_counts(ranges):
        return
    low, high = ranges["robots"]
    (height, width), least = (ranges["height"][1], ranges["width"][1]), ranges["keys"][0]
    if not {1, 4} & set(range(low, high + 1)):
        raise ValueError("robots must allow 1 or 4")
    if low == high == 4 and min(height, width) < FOUR_ROBOT_SIDE:
        raise ValueError(f"robots=4: four robots need a vault of at least {FOUR_ROBOT_SIDE}x{FOUR_ROBOT_SIDE} inside "
                         f"the wall, and height and width allow at most {height}x{width}")
    room = max(_room(height, width, n) for n in (1, 4) if low <= n <= high)
    keys_asked = f"{least}-{ranges['keys'][1]}" if least != ranges["keys"][1] else str(least)
    raise ValueError(f"keys={keys_asked}: a vault of at most {height}x{width} inside the wall has room for "
                     f"{room} key{'' if room == 1 else 's'} beside its robots; widen height or width, or ask fewer keys")


#: A side of the four-robot block (``@#@ / ### / @#@``).
FOUR_ROBOT_SIDE = 3


def _room(height: int, width: int, robots: int) -> int:
    """Cells of a `height` x `width` interior that can hold a key: all but the robot's, or
    the four-robot block's (negative when the block does not fit)."""
    if robots == 4 and min(height, width) < FOUR_ROBOT_SIDE:
        return -1
    return height * width - (FOUR_ROBOT_SIDE ** 2 if robots == 4 else 1)


def robot_counts(ranges: Mapping[str, Range]) -> list[int]:
    """The robot counts (1, 4) a vault within `ranges` can have: within the robots range,
    and with room in the largest interior the ranges allow for the fewest keys asked."""
    low, high = ranges["robots"]
    return [n for n in (1, 4) if low <= n <= high
            and _room(ranges["height"][1], ranges["width"][1], n) >= ranges["keys"][0]]


@st.composite
def vaults(draw: st.DrawFn, ranges: Mapping[str, Range]) -> keys.Vault:
    """A vault: a random interior inside an outer wall, with one robot or four, and as many
    keys as drawn from the keys range, its interior within the height and width ranges
    (`ranges_for` has checked that the largest one has room for them).

    Rows are drawn as a list of lists of cells, so the shrinker can delete any row; the
    first row sets the width (deleting one of its cells removes a column: the other rows
    are cut to its length, or padded with floor); an interior too small for the keys grows
    by columns of floor, then rows, within the ranges; the robot's cell is drawn last, as
    an index that wraps around the grid.  Keys the cells drawn (or the robots) left out are
    put on cells drawn last (`_every_key`).
    """
    four = draw(st.sampled_from(robot_counts(ranges))) == 4
    least = FOUR_ROBOT_SIDE if four else 1  # room for the four-robot block
    robots = 4 if four else 1
    room = _room(ranges["height"][1], ranges["width"][1], robots)  # at least the fewest keys (`robot_counts`)
    letters = _LETTERS[:draw(st.integers(ranges["keys"][0], min(ranges["keys"][1], room)))]
    row = st.lists(_cells(letters), min_size=max(ranges["width"][0], least), max_size=max(ranges["width"][1], least))
    drawn = draw(st.lists(row, min_size=max(ranges["height"][0], least), max_size=max(ranges["height"][1], least)))
    width = len(drawn[0])
    grid = [(cells + [keys.FLOOR] * width)[:width] for cells in drawn]
    _grow(grid, len(letters), robots, ranges["width"][1])
    width = len(grid[0])
    _one_key_each(grid)
    if four:
        split = draw(st.booleans())
        _four_robot_block(grid, split)
        if split and draw(st.booleans()):
            _corridors(grid)
        if split and draw(st.booleans()):
            _foreign_doors(grid)
        if split and draw(st.booleans()):
            _crossed_doors(grid, letters)
    else:
        spot = draw(st.integers(0, max(ranges["height"][1], 1) * max(ranges["width"][1], 1) - 1)) % (len(grid) * width)
        grid[spot // width][spot % width] = keys.ROBOT
    _every_key(grid, letters, four, draw)
    rows = ["#" * (width + 2)] + ["#" + "".join(row) + "#" for row in grid] + ["#" * (width + 2)]
    return keys.Vault(name="hunted-vault", rows=tuple(rows))


def _grow(grid: list[list[str]], keys_wanted: int, robots: int, widest: int) -> None:
    """Add columns of floor to `grid` (up to `widest`), then rows, until it has room for
    `keys_wanted` keys beside its `robots` (`_room`; the caller drew no more keys than
    the largest interior allowed has room for)."""
    while _room(len(grid), len(grid[0]), robots) < keys_wanted:
        if len(grid[0]) < widest:
            for row in grid:
                row.append(keys.FLOOR)
        else:
            grid.append([keys.FLOOR] * len(grid[0]))


def _every_key(grid: list[list[str]], letters: str, four: bool, draw: st.DrawFn) -> None:
    """Put each key of `letters` that `grid` lacks on a cell drawn among those that hold
    no robot, key or part of the four-robot block: floor if any is left, else a door, else
    a wall."""
    centre_row, centre_column = len(grid) // 2, len(grid[0]) // 2
    missing = [letter for letter in letters if all(letter not in row for row in grid)]
    if not missing:
        return
    free: dict[int, list[tuple[int, int]]] = {}  # by `_rank`, in reading order; a cell used is taken out
    for r, cells in enumerate(grid):
        for c, char in enumerate(cells):
            if char not in (keys.ROBOT, *letters) and not (four and abs(r - centre_row) <= 1
                                                           and abs(c - centre_column) <= 1):
                free.setdefault(_rank(char), []).append((r, c))
    for letter in missing:
        spots = free[min(rank for rank, cells in free.items() if cells)]
        row, column = spots.pop(draw(st.integers(0, len(spots) - 1)))
        grid[row][column] = letter


def _rank(char: str) -> int:
    """Where a missing key goes first (lowest): floor, then a door, then a wall."""
    return 0 if char == keys.FLOOR else 2 if char == keys.WALL else 1


def _cells(letters: str) -> st.SearchStrategy[str]:
    """One interior cell: mostly floor, else a wall, a key of `letters` or a door (shrinks
    to floor).  A door may also be of the letter after them (if any), whose key is never
    drawn: every key of `letters` ends up in the vault (`_every_key`), and that letter
    keeps doors whose key is absent among the draws."""
    def cell(kind: int, letter: str, door: str) -> str:
        return (keys.FLOOR, keys.WALL, letter, door.upper())[kind]

    doors = _LETTERS[:len(letters) + 1]
    return st.builds(cell, _CELL_KINDS, st.sampled_from(letters), st.sampled_from(doors))


def _one_key_each(grid: list[list[str]]) -> None:
    """Keep the first copy of each key (in reading order); later copies become floor."""
    seen: set[str] = set()
    for row in grid:
        for column, char in enumerate(row):
            if char.islower():
                if char in seen:
                    row[column] = keys.FLOOR
                seen.add(char)


def _four_robot_block(grid: list[list[str]], split: bool) -> None:
    """Put the four-robot block at the centre; with `split`, wall off the middle row and
    column so the four quadrants do not connect (like the real four-robot vaults)."""
    centre_row, centre_column = len(grid) // 2, len(grid[0]) // 2
    if split:
        for row in grid:
            row[centre_column] = keys.WALL
        grid[centre_row] = [keys.WALL] * len(grid[0])
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            grid[centre_row + dr][centre_column + dc] = keys.FOUR_ROBOT_BLOCK[dr + 1][dc + 1]


def _quadrant(grid: list[list[str]], row: int, column: int) -> tuple[bool, bool]:
    """Which quadrant around the centre of `grid` a cell lies in (above?, left of?)."""
    return row < len(grid) // 2, column < len(grid[0]) // 2


def _corridors(grid: list[list[str]]) -> None:
    """Wall off every quadrant cell off its robot's row and column: each robot then has
    two arms (along its row and its column; walls on them become floor), so keys on both sides of it make the order
    of a quadrant's visits matter.  Call after `_four_robot_block(grid, split=True)`."""
    centre_row, centre_column = len(grid) // 2, len(grid[0]) // 2
    for r, row in enumerate(grid):
        for c in range(len(row)):
            above, left = _quadrant(grid, r, c)
            on_arm = r == (centre_row - 1 if above else centre_row + 1) or c == (
                centre_column - 1 if left else centre_column + 1)
            if r != centre_row and c != centre_column and (row[c] == keys.WALL or not on_arm):
                row[c] = keys.FLOOR if on_arm else keys.WALL


def _foreign_doors(grid: list[list[str]]) -> None:
    """Relabel each door whose key is absent or in its own quadrant to the next letter
    (cyclically) of a key in another quadrant, so that quadrants wait for each other's
    keys (the cross-quadrant dependencies that make four-robot vaults hard)."""
    quadrant_of = {char: _quadrant(grid, r, c) for r, row in enumerate(grid) for c, char in enumerate(row)
                   if char.islower()}
    for r, row in enumerate(grid):
        for c, char in enumerate(row):
            here = _quadrant(grid, r, c)
            if char.isupper() and quadrant_of.get(char.lower(), here) == here:
                foreign = [key for key, quadrant in quadrant_of.items() if quadrant != here]
                if foreign:
                    row[c] = min(foreign, key=lambda key: (ord(key) - ord(char.lower())) % 26).upper()


def _crossed_doors(grid: list[list[str]], letters: str) -> None:
    """Make the quadrants wait for each other in a cycle.  In each quadrant, take the
    farthest key its robot reaches (doors open) two or more steps away, or else the
    farthest such cell made a key of a letter not yet used.  A door whose key is the
    next such quadrant's goes on the cell of a shortest path to it nearest the key that
    leaves a longer way round, or else on every cell next to the key one step nearer
    the robot.  Where no quadrant has a way round its door, no robot can ever reach its
    key (no solution); where one has (and needs that key before its others), its robot
    must take the detour: a formulation that solves each quadrant alone with the other
    quadrants' doors open is wrong either way.  Call after
    `_four_robot_block(grid, split=True)`."""
    centre_row, centre_column = len(grid) // 2, len(grid[0]) // 2
    unused = [letter for letter in letters if all(letter not in row for row in grid)]
    chosen: list[tuple[list[Cell], str]] = []
    for robot in [(centre_row + dr, centre_column + dc) for dr in (-1, 1) for dc in (-1, 1)]:
        steps = _steps(grid, robot)
        path = _path_to_farthest(grid, robot, steps)
        if not path or not (grid[path[-1][0]][path[-1][1]].islower() or unused):
            continue
        (row, column), distance = path[-1], len(path)
        if not grid[row][column].islower():
            grid[row][column] = unused.pop(0)
        around = [cell for cell in path[-2::-1] if _steps(grid, robot, cell).get(path[-1], 0) > distance]
        last = [cell for cell in _neighbours(path[-1]) if steps.get(cell) == distance - 1]
        chosen.append((around[:1] or last, grid[row][column]))
    if len(chosen) >= 2:
        for index, (doors, _) in enumerate(chosen):
            for row, column in doors:
                grid[row][column] = chosen[(index + 1) % len(chosen)][1].upper()


def _neighbours(cell: Cell) -> list[Cell]:
    row, column = cell
    return [(row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1)]


def _steps(grid: list[list[str]], start: Cell, blocked: Cell | None = None) -> dict[Cell, int]:
    """Steps from `start` to each cell it reaches through non-wall cells other than `blocked`."""
    steps, queue = {start: 0}, deque([start])
    while queue:
        cell = queue.popleft()
        for row, column in _neighbours(cell):
            if ((row, column) not in steps and (row, column) != blocked and 0 <= row < len(grid)
                    and 0 <= column < len(grid[0]) and grid[row][column] != keys.WALL):
                steps[row, column] = steps[cell] + 1
                queue.append((row, column))
    return steps


def _path_to_farthest(grid: list[list[str]], start: Cell, steps: dict[Cell, int]) -> list[Cell]:
    """A shortest path (without `start`; `steps` from it) to the farthest key at least two
    steps away (the last in breadth-first order of equally far ones), else to the farthest
    cell; empty when nothing is two steps away."""
    reached = list(steps)  # in breadth-first order
    keys_far = [cell for cell in reached if grid[cell[0]][cell[1]].islower() and steps[cell] >= 2]
    path = [keys_far[-1] if keys_far else reached[-1]]
    while steps[path[-1]] > 1:
        path.append(next(cell for cell in _neighbours(path[-1]) if steps.get(cell) == steps[path[-1]] - 1))
    return path[::-1] if len(path) >= 2 else []
