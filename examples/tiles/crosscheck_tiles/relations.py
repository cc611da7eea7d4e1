"""The sliding-tile puzzle's metamorphic relations (see `crosscheck.Relation`).

Two facts carry every proof here.  (1) Renaming tiles commutes with moves: a move looks
only at where the blank is, so a plan takes tiles A to tiles B exactly when it takes
pi(A) to pi(B), for any renaming pi of the tiles that keeps the blank.  (2) Every move
has an inverse (the blank moving back), so a plan from A to B, reversed with each
direction turned round, is a plan of the same length from B to A.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from crosscheck import NotApplicable, Offset, Related, Relation, Same, related_name, reparsed

from crosscheck_tiles import model
from crosscheck_tiles.model import BLANK, Board, goal, slide


def _board(original: Board, relation: str, tiles: tuple[int, ...], rows: int, columns: int) -> Board:
    name = related_name(original, relation)
    parsed: Board = reparsed(model.parse, Board(name, rows, columns, tiles), name)
    return parsed


def transpose(board: Board, rng: random.Random, plan: Sequence[str] | None = None) -> Related:
    """The board mirrored in its main diagonal (n x m to m x n: the tile on row r, column c
    goes to row c, column r), each tile renamed (`crosscheck_tiles.model.transposed`): the
    tile whose goal cell is (r, c), number ``r*m+c+1``, becomes the number whose goal cell
    on the m x n board is (c, r), ``c*n+r+1``; the blank stays the blank.

    Why the optimum is the same: call the map phi.  The mirror sends the bottom-right
    corner (n-1, m-1) to the bottom-right corner (m-1, n-1), so the goal's blank lands on
    the goal's blank cell, and each tile of the goal lands on (c, r) carrying the name
    that (c, r) wants: phi(goal) is the m x n goal.  The mirror sends neighbouring cells to
    neighbouring cells, the blank's moves U, D, L, R to L, R, U, D, and the renaming
    commutes with moves (fact 1), so a move from A to B is a move from phi(A) to phi(B)
    and back.  phi is one to one, so plans of the board and of its image correspond move
    for move, goal to goal: same optimum, and no plan on either side when none on the
    other."""
    image = model.transposed(board)
    return Related(_board(board, "transpose", image.tiles, image.rows, image.columns), Same(),
                   f"transposed to {image.rows}x{image.columns}, tiles renamed")


def inverse(board: Board, rng: random.Random, plan: Sequence[str] | None = None) -> Related:
    """For a board S with the blank on its goal cell (bottom right): the renaming pi with
    pi(S[c]) = G[c] on every cell c (G the goal; pi keeps the blank, which S and G have on
    one cell), applied to the goal: the board X = pi(G).

    Why the optimum is the same: a plan P from S to G, reversed (fact 2), takes G to S, so
    (fact 1) it takes pi(G) = X to pi(S) = G: X is solved in as many moves as S, or fewer.
    The construction applied to X gives S back (its renaming is pi's inverse, and pi's
    inverse of G is S), so S is solved in as many moves as X, or fewer: same optimum, and
    no plan on either side when none on the other.  Raises `NotApplicable` when the blank is
    elsewhere (pi would rename the blank)."""
    wanted = goal(board.rows, board.columns)
    if board.tiles[-1] != BLANK:
        raise NotApplicable("the blank is not on its goal cell (bottom right)")
    renaming = dict(zip(board.tiles, wanted, strict=True))
    tiles = tuple(renaming[tile] for tile in wanted)
    return Related(_board(board, "inverse", tiles, board.rows, board.columns), Same(), "inverse arrangement")


def suffix(board: Board, rng: random.Random, plan: Sequence[str] | None = None) -> Related:
    """The board after the first k moves of `plan` (k drawn by `rng`, 1 to the plan's length;
    every arrangement is a board the format writes).  The rest of an optimal plan solves
    that board, and any cheaper solution would make the whole plan cheaper: the optimum is
    the original's minus k (each move costs 1).  Raises `InvalidPlan` for a plan the
    checker refuses, `NotApplicable` for an empty plan."""
    if plan is None:
        raise NotApplicable("the suffix relation needs a plan")
    model.check_plan(board, plan)
    if not plan:
        raise NotApplicable("the plan has no move: the board is solved")
    k = rng.randint(1, len(plan))
    tiles, blank = list(board.tiles), board.blank
    for move in plan[:k]:
        blank = slide(tiles, blank, move, board.columns)
    return Related(_board(board, "suffix", tuple(tiles), board.rows, board.columns), Offset(k),
                   f"after {k} of {len(plan)} moves")


RELATIONS = (
    Relation("transpose", "tiles", transpose),
    Relation("inverse", "tiles", inverse),
    Relation("suffix", "tiles", suffix, needs_plan=True),
)
