"""Each relation's law, on drawn boards, against the tests' breadth-first search."""

from __future__ import annotations

import random

import pytest
from crosscheck import InvalidPlan, NotApplicable, Offset, Optimum, Related, Same
from hypothesis import given, settings
from hypothesis import strategies as st

from crosscheck_tiles.model import Board, check_plan, parse
from crosscheck_tiles.relations import RELATIONS, inverse, suffix, transpose
from crosscheck_tiles.strategies import boards
from tiles_bfs import neighbours, optimum

SMALL = boards((2, 3), (2, 3), (0, 30))


def board_of(related: Related) -> Board:
    """The related instance, a board."""
    assert isinstance(related.instance, Board)
    return related.instance


def shortest_plan(board: Board) -> list[str]:
    """An optimal plan read off the breadth-first distances: each move to a neighbour one
    move closer (the tests' own, not a formulation's)."""
    names = {-board.columns: "U", board.columns: "D", -1: "L", 1: "R"}
    tiles, plan = board.tiles, []
    left = optimum(tiles, board.rows, board.columns)
    assert left is not None
    while left:
        after = next(n for n in neighbours(tiles, board.rows, board.columns)
                     if optimum(n, board.rows, board.columns) == left - 1)
        plan.append(names[after.index(0) - tiles.index(0)])
        tiles, left = after, left - 1
    return plan


@settings(max_examples=80, deadline=None)
@given(SMALL, st.randoms(use_true_random=False))
def test_transpose_keeps_the_answer(board: Board, rng: random.Random) -> None:
    related = transpose(board, rng)
    image = board_of(related)
    assert related.expectation == Same()
    assert optimum(image.tiles, image.rows, image.columns) == optimum(board.tiles, board.rows, board.columns)


@settings(max_examples=80, deadline=None)
@given(SMALL, st.randoms(use_true_random=False))
def test_inverse_keeps_the_answer_and_is_an_involution(board: Board, rng: random.Random) -> None:
    if board.tiles[-1] != 0:
        with pytest.raises(NotApplicable):
            inverse(board, rng)
        return
    image = board_of(inverse(board, rng))
    assert optimum(image.tiles, image.rows, image.columns) == optimum(board.tiles, board.rows, board.columns)
    assert board_of(inverse(image, rng)).tiles == board.tiles


@settings(max_examples=60, deadline=None)
@given(SMALL, st.randoms(use_true_random=False))
def test_suffix_is_offset_by_the_moves_taken(board: Board, rng: random.Random) -> None:
    if optimum(board.tiles, board.rows, board.columns) is None:
        return
    plan = shortest_plan(board)
    check_plan(board, plan)
    if not plan:
        with pytest.raises(NotApplicable):
            suffix(board, rng, plan)
        return
    related = suffix(board, rng, plan)
    assert isinstance(related.expectation, Offset)
    image = board_of(related)
    assert optimum(image.tiles, image.rows, image.columns) == len(plan) - related.expectation.amount
    assert related.expectation.broken(Optimum(len(plan)), Optimum(len(plan) - related.expectation.amount)) is None


def test_suffix_refuses_a_plan_the_checker_refuses_and_a_missing_plan() -> None:
    board = parse("1 2\n0 3\n", "b")
    with pytest.raises(InvalidPlan):
        suffix(board, random.Random(0), ["U", "U"])
    with pytest.raises(NotApplicable):
        suffix(board, random.Random(0), None)


def test_related_boards_are_named_and_reparse() -> None:
    board = parse("4 1 3\n2 5 0\n", "b")
    for relation in RELATIONS:
        plan = shortest_plan(board) if relation.needs_plan else None
        for seed in range(3):
            related = relation.derive(board, random.Random(seed), plan)
            assert related.instance.name == f"b~{relation.name}"
            assert parse(related.text, related.instance.name) == related.instance
            assert relation.why


def test_relation_names_and_puzzle() -> None:
    assert [(r.name, r.puzzle, r.needs_plan) for r in RELATIONS] == [
        ("transpose", "tiles", False), ("inverse", "tiles", False), ("suffix", "tiles", True)]
