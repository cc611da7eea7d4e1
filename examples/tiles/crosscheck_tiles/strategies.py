"""Hypothesis strategies that draw valid boards, shrinking toward small boards near the goal.

A board is drawn as its size, a walk of the blank from the goal and a flag: the walk is
a list of direction choices (each taken among the moves legal where the blank stands,
so every choice is a move), and the flag swaps the first two tiles afterwards, which
makes the board unsolvable.  The shrinker shortens the walk (toward the goal), lowers the
sizes (toward 2x2) and clears the flag, and every value it tries is a valid board.
"""

from __future__ import annotations

from collections.abc import Mapping

from hypothesis import strategies as st

from crosscheck_tiles.model import BLANK, DIRECTIONS, PUBLISHED_SIDES, Board, goal

Range = tuple[int, int]


def instances(ranges: Mapping[str, Range], published: bool = False) -> st.SearchStrategy[Board]:
    """Valid boards with sizes in `ranges` (``rows``, ``columns`` and ``moves``, each given,
    as `crosscheck.Puzzle.ranges` completes them); with `published`, only square 3x3 and 4x4
    boards with a plan.  `ValueError` when `ranges` leave no such board."""
    rows, columns, moves = ranges["rows"], ranges["columns"], ranges["moves"]
    if not published:
        return boards(rows, columns, moves)
    sides = [side for side in PUBLISHED_SIDES if rows[0] <= side <= rows[1] and columns[0] <= side <= columns[1]]
    if not sides:
        raise ValueError(f"rows={rows[0]}-{rows[1]} and columns={columns[0]}-{columns[1]} hold no published board "
                         "(3x3 or 4x4)")
    return st.sampled_from(sides).flatmap(lambda side: boards((side, side), (side, side), moves, solvable_only=True))


@st.composite
def boards(draw: st.DrawFn, rows: Range, columns: Range, moves: Range, solvable_only: bool = False) -> Board:
    """A board of `rows` x `columns` (each drawn in its range) reached from the goal by a
    walk of the blank whose length is drawn in `moves`; unless `solvable_only`, a flag
    drawn last swaps its first two tiles (no plan then exists)."""
    height, width = draw(st.integers(*rows)), draw(st.integers(*columns))
    choices = draw(st.lists(st.integers(0, 3), min_size=moves[0], max_size=moves[1]))
    tiles = walked(height, width, choices)
    if not solvable_only and draw(st.booleans()):
        first, second = [cell for cell, tile in enumerate(tiles) if tile != BLANK][:2]
        tiles[first], tiles[second] = tiles[second], tiles[first]
    return Board("hunted-board", height, width, tuple(tiles))


def walked(rows: int, columns: int, choices: list[int]) -> list[int]:
    """The goal after one move of the blank per choice: choice i takes the i-th (modulo their
    number) of the moves legal where the blank stands, in ``U, D, L, R`` order."""
    tiles, blank = list(goal(rows, columns)), rows * columns - 1
    for choice in choices:
        row, column = divmod(blank, columns)
        legal = [(dr, dc) for dr, dc in DIRECTIONS.values() if 0 <= row + dr < rows and 0 <= column + dc < columns]
        dr, dc = legal[choice % len(legal)]
        target = blank + dr * columns + dc
        tiles[blank], tiles[target] = tiles[target], BLANK
        blank = target
    return tiles
