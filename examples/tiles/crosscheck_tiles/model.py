"""The sliding-tile puzzle: slide tiles into the blank until the board reads 1, 2, 3, ...

Rules: an n x m board (2 <= n, m <= 5) holds the tiles 1 to n*m-1 and one blank; a move
slides a tile next to the blank (above, below, left or right) into it and costs 1; the
goal is the tiles in reading order with the blank last (`goal`).  The 8-puzzle is the 3x3
board, the 15-puzzle the 4x4 one.

Text format: a line per row, top first, its numbers separated by spaces, 0 the blank;
rows of equal length, each of 0 to n*m-1 once; blank lines after the board only::

    1 2 3
    4 0 5
    7 8 6

Move vocabulary: the direction in which the **blank** moves, one of ``"U"`` (up: the
tile above the blank slides down), ``"D"``, ``"L"``, ``"R"``.  A plan is a list of them.
"""

from __future__ import annotations

import random
import re
import reprlib
from collections.abc import Sequence
from dataclasses import dataclass

from crosscheck import (
    InvalidInstance,
    InvalidPlan,
    check_range,
    instance_name,
    plan_moves,
    refuse_leading_blank_lines,
)

BLANK = 0
#: The least and the most rows (and columns) of a board.
SMALLEST, LARGEST = 2, 5
#: The blank's move in each direction, as (row change, column change).
DIRECTIONS: dict[str, tuple[int, int]] = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
#: The longest random walk `generate` takes.
MOST_MOVES = 10_000
_NUMBER = re.compile(r"0|[1-9][0-9]*")
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


@dataclass(frozen=True)
class Board:
    """A parsed board: `tiles[r * columns + c]` is the tile on row r, column c (0-based),
    0 for the blank.  Construction raises `ValueError` unless the sizes are 2 to 5 and the
    tiles are 0 to rows*columns-1, each once."""

    name: str
    rows: int
    columns: int
    tiles: tuple[int, ...]

    def __post_init__(self) -> None:
        if not (SMALLEST <= self.rows <= LARGEST and SMALLEST <= self.columns <= LARGEST):
            raise ValueError(f"a board has 2 to 5 rows and columns, got {self.rows}x{self.columns}")
        if sorted(self.tiles) != list(range(self.rows * self.columns)):
            raise ValueError(f"a {self.rows}x{self.columns} board holds 0 to {self.rows * self.columns - 1} once each")

    @property
    def blank(self) -> int:
        """The blank's cell index (``row * columns + column``)."""
        return self.tiles.index(BLANK)

    def to_text(self) -> str:
        """The board in the text format, numbers right-aligned in columns."""
        width = len(str(self.rows * self.columns - 1))
        lines = (" ".join(f"{tile:>{width}}" for tile in self.tiles[r * self.columns:(r + 1) * self.columns])
                 for r in range(self.rows))
        return "\n".join(lines) + "\n"


def goal(rows: int, columns: int) -> tuple[int, ...]:
    """The goal's tiles: 1 to rows*columns-1 in reading order, the blank last."""
    return (*range(1, rows * columns), BLANK)


# --- parser ------------------------------------------------------------------------

def detect(text: str) -> bool:
    """A board's first non-blank line starts with a digit (a vault and a burrow start with
    '#', an elevator with 'The')."""
    first = text.lstrip()[:1]
    return first != "" and first in "0123456789"


def parse(text: str, source: str = "<string>") -> Board:
    """The board in `text`; `InvalidInstance` naming line, column and what was expected for
    a blank line inside the board, a token that is no number, a row of another length than
    the first, fewer than 2 or more than 5 rows or columns, a tile out of range or listed
    twice (each message naming a missing tile)."""
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise InvalidInstance("empty file", source=source, line=1, column=1, expected="a row of numbers")
    refuse_leading_blank_lines(lines, source, "a row of numbers")
    rows: list[list[tuple[str, int]]] = []
    for number, line in enumerate(lines, start=1):
        if number > LARGEST:
            raise InvalidInstance(f"a {_ORDINALS[LARGEST]} row", source=source, line=number, column=1,
                                  expected=f"{SMALLEST} to {LARGEST} rows")
        rows.append(_row(line, number, source, len(rows[0]) if rows else None))
    if len(rows) < SMALLEST:
        raise InvalidInstance("the board ends after its first row", source=source, line=2, column=1,
                              expected=f"{SMALLEST} to {LARGEST} rows")
    columns = len(rows[0])
    tiles = _tiles(rows, columns, source)
    return Board(instance_name(source), len(rows), columns, tiles)


def _row(line: str, number: int, source: str, columns: int | None) -> list[tuple[str, int]]:
    """The numbers of line `number` as (text, 1-based column); `InvalidInstance` for a blank
    line, a token that is no number, or a row of other than `columns` numbers (the first
    row, `columns` None: of fewer than 2 or more than 5)."""
    if not line.strip():
        raise InvalidInstance("a blank line inside the board", source=source, line=number, column=1,
                              expected="a row of numbers (no blank line between rows)")
    tokens = [(match.group(), match.start() + 1) for match in re.finditer(r"\S+", line)]
    for token, column in tokens:
        if not _NUMBER.fullmatch(token):
            raise InvalidInstance(f"{reprlib.repr(token)} is not a tile number", source=source, line=number,
                                  column=column, expected="a number in decimal digits without leading zeros, 0 for "
                                                          "the blank")
    end = len(line.rstrip()) + 1  # where a missing number would start
    if columns is None and not SMALLEST <= len(tokens) <= LARGEST:
        raise InvalidInstance(f"the first row has {len(tokens)} number{'s' if len(tokens) > 1 else ''}",
                              source=source, line=number, column=tokens[LARGEST][1] if len(tokens) > LARGEST else end,
                              expected=f"{SMALLEST} to {LARGEST} numbers per row")
    if columns is not None and len(tokens) != columns:
        raise InvalidInstance(f"the row has {len(tokens)} number{'s' if len(tokens) > 1 else ''}", source=source,
                              line=number, column=tokens[columns][1] if len(tokens) > columns else end,
                              expected=f"{columns} numbers, as the first row has")
    return tokens


def _tiles(rows: list[list[tuple[str, int]]], columns: int, source: str) -> tuple[int, ...]:
    """The tiles in reading order; `InvalidInstance` at the first tile out of range or seen
    twice."""
    size = len(rows) * columns
    cells = [(token, line, column) for line, row in enumerate(rows, start=1) for token, column in row]
    values = [int(token) if len(token) <= 2 else size for token, _, _ in cells]  # a long one is out of range
    missing = sorted(set(range(size)) - set(values))
    lacking = f" (tile {missing[0]} is missing)" if missing else ""
    first: dict[int, tuple[int, int]] = {}
    for value, (token, line, column) in zip(values, cells, strict=True):
        if value >= size:
            raise InvalidInstance(f"tile {reprlib.repr(token)} out of range", source=source, line=line, column=column,
                                  expected=f"0 to {size - 1} on a {len(rows)}x{columns} board{lacking}")
        if value in first:
            at_line, at_column = first[value]
            raise InvalidInstance(f"tile {value} a second time (first at line {at_line}, column {at_column})",
                                  source=source, line=line, column=column, expected=f"each tile once{lacking}")
        first[value] = (line, column)
    return tuple(values)


# --- plan checker ------------------------------------------------------------------

def check_plan(board: Board, plan: Sequence[object]) -> int:
    """Replay `plan` (the blank's directions) from `board` and return its cost, the number
    of moves.  `InvalidPlan` naming the move (counted from 1) for a plan that is no list,
    a move that is no direction ``U``/``D``/``L``/``R``, a move taking the blank off the
    board, or a plan ending short of the goal."""
    moves = plan_moves(plan)
    tiles = list(board.tiles)
    blank = board.blank
    for step, move in enumerate(moves):
        if not isinstance(move, str) or move not in DIRECTIONS:
            raise InvalidPlan(step, f"malformed move {reprlib.repr(move)}, expected one of 'U', 'D', 'L', 'R' "
                                    "(the direction the blank moves)")
        row, column = divmod(blank, board.columns)
        drow, dcolumn = DIRECTIONS[move]
        if not (0 <= row + drow < board.rows and 0 <= column + dcolumn < board.columns):
            raise InvalidPlan(step, f"the blank is on row {row + 1}, column {column + 1} of a {board.rows}x"
                                    f"{board.columns} board and cannot move {move}")
        blank = slide(tiles, blank, move, board.columns)
    if tuple(tiles) != goal(board.rows, board.columns):
        out = [str(tile) for tile in _misplaced(board, tiles) if tile != BLANK]
        raise InvalidPlan.unfinished(moves, f"the plan ends short of the goal: tile{'s' if len(out) > 1 else ''} "
                                            f"{', '.join(out)} out of place")
    return len(moves)


def _misplaced(board: Board, tiles: Sequence[int]) -> list[int]:
    """The tiles (0 for the blank) not on their goal cell."""
    return [tile for tile, wanted in zip(tiles, goal(board.rows, board.columns), strict=True) if tile != wanted]


def slide(tiles: list[int], blank: int, direction: str, columns: int) -> int:
    """Move the blank of `tiles` (on cell `blank`, a move the board admits) in `direction`;
    its new cell."""
    target = blank + DIRECTIONS[direction][0] * columns + DIRECTIONS[direction][1]
    tiles[blank], tiles[target] = tiles[target], BLANK
    return target


# --- variant -----------------------------------------------------------------------

def transposed(board: Board) -> Board:
    """The board mirrored in its main diagonal (n x m becomes m x n), each tile renamed
    after the goal cell its goal cell mirrors to, so the goal maps onto the goal (see
    `crosscheck_tiles.relations.transpose` for why the optimum is kept)."""
    rows, columns = board.rows, board.columns
    # the tile whose goal is (r, c) is r*columns+c+1; on the m x n board (c, r) wants c*rows+r+1
    renamed = {BLANK: BLANK} | {r * columns + c + 1: c * rows + r + 1
                                for r in range(rows) for c in range(columns) if (r, c) != (rows - 1, columns - 1)}
    tiles = tuple(renamed[board.tiles[r * columns + c]] for c in range(columns) for r in range(rows))
    return Board(f"{board.name}+transposed", columns, rows, tiles)


# --- generator ---------------------------------------------------------------------

def generate(seed: int, rows: int = 3, columns: int = 3, moves: int | None = None, solvable: bool = True) -> Board:
    """A seeded board.  With `moves`, a random walk of that many moves of the blank from the
    goal, never undoing the move before; else a uniformly random arrangement among those
    whose permutation parity matches the blank's distance to its goal cell (the solvable
    ones).  ``solvable=False`` then swaps the first two tiles in reading order (not the
    blank), which flips the parity: no plan reaches the goal."""
    check_range("rows", rows, SMALLEST, LARGEST)
    check_range("columns", columns, SMALLEST, LARGEST)
    if moves is not None:
        check_range("moves", moves, 0, MOST_MOVES)
    rng = random.Random(seed)
    tiles = _walked(rows, columns, moves, rng) if moves is not None else _shuffled(rows, columns, rng)
    if not solvable:
        _swap_first_two(tiles)
    walk = "random" if moves is None else f"m{moves}"
    return Board(f"tiles-{rows}x{columns}-{walk}{'' if solvable else '-unsolvable'}-{seed}", rows, columns,
                 tuple(tiles))


def _walked(rows: int, columns: int, moves: int, rng: random.Random) -> list[int]:
    """The goal after `moves` random moves of the blank, none undoing the one before."""
    tiles, blank, last = list(goal(rows, columns)), rows * columns - 1, ""
    undo = {"U": "D", "D": "U", "L": "R", "R": "L"}
    for _ in range(moves):
        row, column = divmod(blank, columns)
        legal = [d for d, (dr, dc) in DIRECTIONS.items()
                 if 0 <= row + dr < rows and 0 <= column + dc < columns and d != undo.get(last)]
        last = rng.choice(legal)
        blank = slide(tiles, blank, last, columns)
    return tiles


def _shuffled(rows: int, columns: int, rng: random.Random) -> list[int]:
    """A uniform draw among the solvable arrangements: a uniform shuffle, with the first two
    tiles swapped when its parity is wrong (a one-to-one map between the two classes of
    arrangements with the blank on a given cell)."""
    tiles = list(range(rows * columns))
    rng.shuffle(tiles)
    if not parity_allows_plan(tiles, columns):
        _swap_first_two(tiles)
    return tiles


def parity_allows_plan(tiles: Sequence[int], columns: int) -> bool:
    """Whether the arrangement `tiles` (a board of `columns` columns) has the goal's parity:
    its inversions (pairs of tiles, the blank among them, in the opposite order to their goal
    cells) plus the blank's distance to its goal cell is even.  A move swaps the blank with
    a neighbour, which changes the inversions' parity and the distance by one, so an
    arrangement of the other parity has no plan; every arrangement of the goal's parity has
    one (Johnson and Story, 1879).  Counted here by inversions; ``tiles-cpsat`` counts the
    same parity by cycles, on its own."""
    rows = len(tiles) // columns
    order = [(tile - 1) % len(tiles) for tile in tiles]  # each tile's goal cell, the blank's last
    inversions = sum(a > b for i, a in enumerate(order) for b in order[i + 1:])
    row, column = divmod(list(tiles).index(BLANK), columns)
    return (inversions + rows - 1 - row + columns - 1 - column) % 2 == 0


#: The boards of the published puzzles: the 8-puzzle (3x3) and the 15-puzzle (4x4).
PUBLISHED_SIDES = (3, 4)


def outside_published_shape(board: Board) -> str:
    """Why `board` is not of the published puzzles' shape ('' when it is): the 8- and the
    15-puzzle are square boards of side 3 or 4, posed with a plan."""
    if not board.rows == board.columns in PUBLISHED_SIDES:
        return f"a {board.rows}x{board.columns} board (the published boards are 3x3 and 4x4)"
    return "" if parity_allows_plan(board.tiles, board.columns) else "no plan reaches the goal (the parity is odd)"


def _swap_first_two(tiles: list[int]) -> None:
    """Swap the first two tiles in reading order (not the blank): flips the parity."""
    first, second = [cell for cell, tile in enumerate(tiles) if tile != BLANK][:2]
    tiles[first], tiles[second] = tiles[second], tiles[first]


def features(board: Board) -> dict[str, int]:
    """Size measures: tiles, rows, columns, tiles out of place, and their summed Manhattan
    distances to their goal cells."""
    wanted = {tile: divmod(cell, board.columns) for cell, tile in enumerate(goal(board.rows, board.columns))}
    distance = 0
    for cell, tile in enumerate(board.tiles):
        if tile != BLANK:
            (row, column), (goal_row, goal_column) = divmod(cell, board.columns), wanted[tile]
            distance += abs(row - goal_row) + abs(column - goal_column)
    return {"tiles": board.rows * board.columns - 1, "rows": board.rows, "columns": board.columns,
            "misplaced": sum(tile != BLANK for tile in _misplaced(board, board.tiles)), "manhattan": distance}
