"""The tests' own brute force: breadth-first search over arrangements, written apart from
every formulation and from the model (its own moves, its own goal)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

Tiles = tuple[int, ...]


def solved(rows: int, columns: int) -> Tiles:
    """1, 2, ..., rows*columns-1, then the blank."""
    return tuple(list(range(1, rows * columns)) + [0])


def neighbours(tiles: Tiles, rows: int, columns: int) -> Iterator[Tiles]:
    """Every arrangement one slide away."""
    hole = tiles.index(0)
    row, column = hole // columns, hole % columns
    for other_row, other_column in ((row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1)):
        if 0 <= other_row < rows and 0 <= other_column < columns:
            other = other_row * columns + other_column
            swapped = list(tiles)
            swapped[hole], swapped[other] = swapped[other], 0
            yield tuple(swapped)


@cache
def distances_to_goal(rows: int, columns: int) -> dict[Tiles, int]:
    """Moves from every arrangement that reaches the goal (moves are reversible, so a
    search from the goal finds them all); an arrangement missing has no plan."""
    start = solved(rows, columns)
    seen, layer, depth = {start: 0}, [start], 0
    while layer:
        depth += 1
        following = []
        for tiles in layer:
            for after in neighbours(tiles, rows, columns):
                if after not in seen:
                    seen[after] = depth
                    following.append(after)
        layer = following
    return seen


def optimum(tiles: Tiles, rows: int, columns: int) -> int | None:
    """The fewest moves from `tiles` to the goal, None when none reaches it: a table look-up
    on boards of at most 9 cells, a breadth-first search from both ends otherwise."""
    if rows * columns <= 9:
        return distances_to_goal(rows, columns).get(tiles)
    return meet_in_the_middle(tiles, solved(rows, columns), rows, columns)


def meet_in_the_middle(start: Tiles, end: Tiles, rows: int, columns: int) -> int | None:
    """The fewest moves from `start` to `end` by breadth-first search from both, a whole
    layer of the smaller side at a time; None once a side runs out of arrangements."""
    sides = [{start: 0}, {end: 0}]
    layers = [[start], [end]]
    if start == end:
        return 0
    while layers[0] and layers[1]:
        side = 0 if len(layers[0]) <= len(layers[1]) else 1
        mine, theirs = sides[side], sides[1 - side]
        best, following = None, []
        for tiles in layers[side]:
            for after in neighbours(tiles, rows, columns):
                if after in theirs:
                    length = mine[tiles] + 1 + theirs[after]
                    best = length if best is None else min(best, length)
                if after not in mine:
                    mine[after] = mine[tiles] + 1
                    following.append(after)
        if best is not None:
            return best
        layers[side] = following
    return None
