"""Both formulations against the tests' breadth-first search and against each other."""

from __future__ import annotations

from itertools import permutations

import pytest
from crosscheck import Deadline, Result, Solver, Status, cpsat
from hypothesis import given, settings

from crosscheck_tiles import SOLVERS, corpus
from crosscheck_tiles.cpsat import HorizonModel, TilesCpsat, first_horizon, permutation_is_odd
from crosscheck_tiles.model import Board, check_plan, generate, goal, parse
from crosscheck_tiles.search import SlidingProblem, TilesSearch, _longest_increasing
from crosscheck_tiles.strategies import boards
from tiles_bfs import distances_to_goal, optimum


def judged(solver: Solver, board: Board, expected: int | None) -> Result:
    """`solver`'s exact answer on `board`, its plan replayed by the checker, equal to `expected`."""
    result = solver.solve(board, time_limit=60)
    assert result.status in (Status.OPTIMAL, Status.INFEASIBLE), (board, result)
    if expected is None:
        assert result.status is Status.INFEASIBLE, (board, result)
    else:
        assert result.status is Status.OPTIMAL and result.cost == expected, (board, result)
        assert result.plan is not None and check_plan(board, result.plan) == expected
    return result


SEEDED = [generate(seed, rows, columns, solvable=solvable)
          for rows, columns in ((2, 2), (2, 3), (3, 2)) for seed in range(6) for solvable in (True, False)]
SEEDED += [generate(seed, 3, 3) for seed in range(4)] + [generate(seed, 3, 3, moves=m) for seed, m in
                                                         ((1, 9), (2, 14), (3, 17), (4, 20))]


@pytest.mark.parametrize(("board", "solver_class"), [
    pytest.param(board, solver_class, id=f"{board.name}-{solver_class.name}",
                 # the CP-SAT model takes seconds on a uniformly drawn 8-puzzle: 20 moves and more
                 marks=[pytest.mark.slow] if "3x3-random" in board.name and solver_class is TilesCpsat else [])
    for board in SEEDED for solver_class in SOLVERS])
def test_seeded_boards_against_breadth_first_search(board: Board, solver_class: type[Solver]) -> None:
    judged(solver_class(), board, optimum(board.tiles, board.rows, board.columns))


@pytest.mark.slow  # the search expands all 181,440 arrangements reachable from the board
def test_an_unsolvable_8_puzzle_is_refuted_by_both() -> None:
    board = generate(11, 3, 3, solvable=False)
    assert optimum(board.tiles, 3, 3) is None
    for solver_class in SOLVERS:
        judged(solver_class(), board, None)


@pytest.mark.parametrize("board", corpus(), ids=lambda board: board.name)
def test_the_corpus(board: Board) -> None:
    expected = optimum(board.tiles, board.rows, board.columns)
    for solver_class in SOLVERS:
        judged(solver_class(), board, expected)


@settings(max_examples=40, deadline=None)
@given(boards((2, 3), (2, 2), (0, 40)))
def test_the_formulations_agree_on_small_boards(board: Board) -> None:
    search = judged(TilesSearch(), board, optimum(board.tiles, board.rows, board.columns))
    assert judged(TilesCpsat(), board, search.cost).cost == search.cost


@settings(max_examples=10, deadline=None)
@given(boards((3, 3), (3, 3), (0, 16), solvable_only=True))
def test_the_formulations_agree_on_8_puzzles(board: Board) -> None:
    search = judged(TilesSearch(), board, optimum(board.tiles, 3, 3))
    assert judged(TilesCpsat(), board, search.cost).cost == search.cost


def test_the_search_bound_is_admissible_on_every_2x3_and_3x3_arrangement() -> None:
    for rows, columns in ((2, 3), (3, 2), (3, 3)):
        problem = SlidingProblem(Board("b", rows, columns, goal(rows, columns)))
        for tiles, distance in distances_to_goal(rows, columns).items():
            assert problem.heuristic(tiles) <= distance, tiles


def test_longest_increasing() -> None:
    assert [_longest_increasing(v) for v in ([], [3], [2, 1], [1, 3, 2, 4], [4, 3, 2, 1], [1, 2, 2])] == [0, 1, 1, 3, 1, 2]


def test_the_cpsat_bounds_hold_on_every_3x3_arrangement() -> None:
    target = goal(3, 3)
    for tiles, distance in distances_to_goal(3, 3).items():
        board = Board("b", 3, 3, tiles)
        assert first_horizon(board) <= distance and (distance - first_horizon(board)) % 2 == 0
        row, column = divmod(tiles.index(0), 3)
        assert permutation_is_odd(tiles, target) == ((row + column) % 2 == 1)  # the parity lemma, on reachable ones


def test_the_parity_lemma_tells_every_2x3_arrangement_that_reaches_the_goal() -> None:
    reachable = distances_to_goal(2, 3)
    for tiles in permutations(range(6)):
        row, column = divmod(tiles.index(0), 3)
        blank_odd = (1 - row + 2 - column) % 2 == 1
        assert (permutation_is_odd(tiles, goal(2, 3)) == blank_odd) == (tiles in reachable), tiles


def test_a_horizon_below_the_optimum_is_infeasible_and_the_optimum_feasible() -> None:
    board = generate(2, 3, 3, moves=14)
    best = optimum(board.tiles, 3, 3)
    assert best is not None and best >= 4
    for horizon, feasible in ((best - 2, False), (best, True)):
        model = HorizonModel(board, horizon)
        solver = cpsat.configured_solver(Deadline(10))
        assert cpsat.has_solution(cpsat.solve(solver, model.model, Deadline(10)), model.model) is feasible
        if feasible:
            assert check_plan(board, model.plan(solver)) == best


@pytest.mark.parametrize("solver_class", SOLVERS)
def test_a_work_limit_ends_in_a_timeout_with_a_sound_bound(solver_class: type[Solver]) -> None:
    board = parse("8 6 7\n2 5 4\n3 0 1\n", "b")
    result = solver_class().solve(board, work_limit=1)
    assert result.status is Status.TIMEOUT
    assert result.bound is None or result.bound <= 31


def test_names_and_puzzle() -> None:
    assert [(s.name, s.puzzle) for s in SOLVERS] == [("tiles-search", "tiles"), ("tiles-cpsat", "tiles")]
    assert TilesCpsat.runs_cpsat and not TilesSearch.runs_cpsat
