"""``tiles-search``: A* over arrangements, bounded by Manhattan distance plus linear conflicts.

A state is the tuple of tiles by cell (0 the blank); an action is the blank's direction.
The bound is admissible: each move shifts one tile by one cell, so the tiles' summed
Manhattan distances to their goal cells is a lower bound; on top of it, in a row, two
tiles that both belong to that row can only pass each other if one leaves the row (a
tile moves horizontally only along its row, into the blank), so of the tiles in their
goal row, all but a largest set already in goal order must step out and back in: two
vertical moves each that the Manhattan distance does not count (it counts none for a
tile in its goal row).  Columns alike, with horizontal moves.  The extra moves of rows
are vertical and those of columns horizontal, and each is counted for one tile, so the
sum stays a lower bound (Hansson, Mayer and Yung's linear conflicts).

No move is pruned and no invariant is used: a board whose reachable arrangements hold
no goal is proven so by expanding every one of them (a 3x3 board has 181,440); on
larger boards such a proof runs out of time.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence

from crosscheck import Answer, Deadline, SearchProblem, Solver, Strategy, best_first_search

from crosscheck_tiles.model import Board, goal

Tiles = tuple[int, ...]
#: The blank's directions as (name, row change, column change).
_MOVES = (("U", -1, 0), ("D", 1, 0), ("L", 0, -1), ("R", 0, 1))


class SlidingProblem(SearchProblem[Tiles, str]):
    """The puzzle on one board's arrangements, with the linear-conflict bound."""

    deeper_ties = True  # the bound is often exact near the goal: walk down a plateau, do not widen it

    def __init__(self, board: Board) -> None:
        self.start = board.tiles
        self.rows, self.columns = board.rows, board.columns
        self.goal = goal(board.rows, board.columns)
        cells = range(board.rows * board.columns)
        # per cell, every (direction, cell the blank moves to) that stays on the board
        self.neighbours = [[(name, cell + dr * self.columns + dc) for name, dr, dc in _MOVES
                            if 0 <= cell // self.columns + dr < self.rows and 0 <= cell % self.columns + dc < self.columns]
                           for cell in cells]
        home = {tile: cell for cell, tile in enumerate(self.goal)}
        self.home_row = [home[tile] // self.columns for tile in range(len(self.goal))]
        self.home_column = [home[tile] % self.columns for tile in range(len(self.goal))]
        self.distance = [[abs(cell // self.columns - self.home_row[tile]) + abs(cell % self.columns - self.home_column[tile])
                          for cell in cells] if tile else [0] * len(cells) for tile in range(len(self.goal))]

    def initial(self) -> Tiles:
        return self.start

    def is_goal(self, state: Tiles) -> bool:
        return state == self.goal

    def successors(self, state: Tiles) -> Iterable[tuple[str, Tiles, int]]:
        blank = state.index(0)
        for name, target in self.neighbours[blank]:
            after = list(state)
            after[blank], after[target] = state[target], 0
            yield name, tuple(after), 1

    def heuristic(self, state: Tiles) -> int:
        """Manhattan distance plus two per tile that must leave its line (module docstring)."""
        bound = sum(self.distance[tile][cell] for cell, tile in enumerate(state))
        columns = self.columns
        for row in range(self.rows):
            line = [self.home_column[tile] for tile in state[row * columns:(row + 1) * columns]
                    if tile and self.home_row[tile] == row]
            bound += 2 * (len(line) - _longest_increasing(line))
        for column in range(columns):
            line = [self.home_row[tile] for tile in state[column::columns] if tile and self.home_column[tile] == column]
            bound += 2 * (len(line) - _longest_increasing(line))
        return bound


def _longest_increasing(values: Sequence[int]) -> int:
    """The length of a longest strictly increasing subsequence of `values`."""
    tails: list[int] = []
    for value in values:
        at = bisect_left(tails, value)
        tails[at:at + 1] = [value]
    return len(tails)


class TilesSearch(Solver):
    """A* with Manhattan distance plus linear conflicts: ``optimal`` with the blank's
    directions as the plan, ``infeasible`` once every reachable arrangement is expanded
    without reaching the goal, else ``timeout`` with the smallest open f-value as bound."""

    name = "tiles-search"
    puzzle = "tiles"
    summary = "A* over arrangements, Manhattan distance plus linear conflicts; exhausts the space to refute"

    def _solve(self, instance: Board, deadline: Deadline) -> Answer:
        outcome = best_first_search(SlidingProblem(instance), Strategy.ASTAR, deadline)
        return outcome.answer(infeasible="every arrangement reachable from the start expanded without the goal")
