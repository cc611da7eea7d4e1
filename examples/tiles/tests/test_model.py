"""The model: text round trip, each parse error, detection, the plan checker's rules, the
generator, features and the transposed variant."""

from __future__ import annotations

import json
import random
from itertools import permutations
from typing import get_type_hints

import pytest
from crosscheck import InvalidInstance, InvalidPlan
from hypothesis import given, settings
from hypothesis import strategies as st

from crosscheck_tiles.model import (
    Board,
    check_plan,
    detect,
    features,
    generate,
    goal,
    outside_published_shape,
    parity_allows_plan,
    parse,
    transposed,
)
from crosscheck_tiles.strategies import boards
from tiles_bfs import distances_to_goal, optimum

EIGHT = "1 2 3\n4 0 5\n7 8 6\n"


def test_parse_reads_rows_top_first_and_names_the_board() -> None:
    board = parse(EIGHT, "some/folder/eight.txt")
    assert board == Board("eight", 3, 3, (1, 2, 3, 4, 0, 5, 7, 8, 6))
    assert board.blank == 4
    assert board.to_text() == EIGHT


def test_parse_accepts_aligned_columns_tabs_and_trailing_blank_lines() -> None:
    board = parse(" 1  2\n\t3 0 \n\n\n", "x")
    assert (board.rows, board.columns, board.tiles) == (2, 2, (1, 2, 3, 0))


@settings(max_examples=60, deadline=None)
@given(boards((2, 5), (2, 5), (0, 60)))
def test_text_round_trip(board: Board) -> None:
    assert parse(board.to_text(), board.name) == board
    assert detect(board.to_text())


@pytest.mark.parametrize(("text", "line", "column", "fragment"), [
    ("", 1, 1, "empty file"),
    ("\n\n", 1, 1, "empty file"),
    ("\n1 2\n3 0\n", 1, 1, "starts with a blank line"),
    ("1 2\n\n3 0\n", 2, 1, "blank line inside the board"),
    ("1 2\n3 x\n", 2, 3, "'x' is not a tile number"),
    ("1 2\n3 -0\n", 2, 3, "'-0' is not a tile number"),
    ("1 02\n3 0\n", 1, 3, "'02' is not a tile number"),
    ("1 2.0\n3 0\n", 1, 3, "is not a tile number"),
    ("1\n2\n", 1, 2, "the first row has 1 number"),
    ("1 2 3 4 5 6\n", 1, 11, "the first row has 6 numbers"),
    ("1 2 3\n4 5\n", 2, 4, "the row has 2 numbers"),
    ("1 2\n3 0 4\n", 2, 5, "the row has 3 numbers"),
    ("1 2\n", 2, 1, "ends after its first row"),
    ("1 2\n3 4\n5 6\n7 8\n9 10\n11 0\n", 6, 1, "a sixth row"),
    ("1 2\n3 4\n", 2, 3, "tile '4' out of range"),
    ("1 2\n3 999999\n", 2, 3, "out of range"),
    ("1 2\n2 0\n", 2, 1, "tile 2 a second time (first at line 1, column 3)"),
    ("1 2 3\n4 5 6\n7 8 8\n", 3, 5, "tile 0 is missing"),
])
def test_parse_errors_name_line_and_column(text: str, line: int, column: int, fragment: str) -> None:
    with pytest.raises(InvalidInstance) as caught:
        parse(text, "board.txt")
    error = caught.value
    assert (error.line, error.column) == (line, column), str(error)
    assert fragment in str(error)
    assert str(error).startswith(f"board.txt:{line}:{column}: ")
    assert error.expected


def test_an_out_of_range_tile_names_the_missing_one() -> None:
    with pytest.raises(InvalidInstance, match=r"expected 0 to 3 on a 2x2 board \(tile 0 is missing\)"):
        parse("1 2\n3 4\n", "b")


@pytest.mark.parametrize("text", [
    "#########\n#b.A.@.a#\n#########\n",  # a vault
    "#############\n#...........#\n###B#C#B#D###\n  #A#D#C#A#\n  #########\n",  # a burrow
    "The first floor contains a hydrogen-compatible microchip.\nThe second floor contains nothing relevant.\n",
    "", "x 1\n2 0\n", "²\n",
])
def test_detect_claims_no_other_format(text: str) -> None:
    assert not detect(text)


def test_detect_claims_boards_even_malformed_ones() -> None:
    assert detect(EIGHT) and detect("  1 2\n3 x\n") and detect("\n\n1 2 3\n")


# --- plan checker ----------------------------------------------------------------------

def test_check_plan_accepts_a_plan_after_a_json_round_trip() -> None:
    board = parse(EIGHT, "b")
    assert check_plan(board, json.loads(json.dumps(["R", "D"]))) == 2
    assert check_plan(board, ("R", "D")) == 2


def test_a_solved_board_takes_the_empty_plan_and_a_move_and_its_undo() -> None:
    board = parse("1 2\n3 0\n", "b")
    assert check_plan(board, []) == 0
    assert check_plan(board, ["U", "D"]) == 2


@pytest.mark.parametrize(("plan", "step", "fragment"), [
    ({"R": 1}, 0, "is no plan"),
    ("RD", 0, "is no plan"),
    (None, 0, "is no plan"),
    ([1], 0, "malformed move 1"),
    (["r", "D"], 0, "malformed move 'r'"),
    (["R", ["D"]], 1, "malformed move ['D']"),
    (["R", None], 1, "malformed move None"),
    (["R", "UP"], 1, "malformed move 'UP'"),
    (["R", "R"], 1, "cannot move R"),
    (["D", "D"], 1, "cannot move D"),
    (["L", "L"], 1, "cannot move L"),
    (["R", "U", "U", "U"], 2, "row 1, column 3 of a 3x3 board and cannot move U"),
    (["R"], 1, "after the last move (move 1)"),
    ([], 0, "before any move (the plan is empty): the plan ends short of the goal: tiles 5, 6 out of place"),
])
def test_check_plan_rejects(plan: object, step: int, fragment: str) -> None:
    board = parse(EIGHT, "b")
    with pytest.raises(InvalidPlan) as caught:
        check_plan(board, plan)  # type: ignore[arg-type]
    assert caught.value.step == step
    assert fragment in str(caught.value)
    if fragment.startswith(("malformed", "cannot", "row")):
        assert str(caught.value).startswith(f"move {step + 1}: ")


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=3)
                     | st.sampled_from("UDLR"), lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.text(max_size=2), inner, max_size=2), max_leaves=8)


@settings(max_examples=200, deadline=None)
@given(_JSON)
def test_the_checker_raises_nothing_but_invalid_plan(plan: object) -> None:
    board = parse("1 2\n0 3\n", "b")
    try:
        assert check_plan(board, plan) >= 1  # type: ignore[arg-type]
    except InvalidPlan:
        pass


# --- generator, features, variant --------------------------------------------------

def test_generator_is_seeded_and_checks_its_ranges() -> None:
    assert generate(3) == generate(3)
    assert generate(3) != generate(4)
    for name, value in (("rows", 1), ("rows", 6), ("columns", 0), ("moves", -1), ("moves", 10_001)):
        with pytest.raises(ValueError, match=f"{name}="):
            generate(0, **{name: value})  # type: ignore[arg-type]
    # what `crosscheck generate -p NAME=VALUE` reads each option as
    assert get_type_hints(generate) == {"seed": int, "rows": int, "columns": int, "moves": int | None,
                                        "solvable": bool, "return": Board}


@pytest.mark.parametrize(("rows", "columns"), [(2, 2), (2, 3), (3, 2), (3, 3)])
def test_generated_boards_are_solvable_exactly_when_asked(rows: int, columns: int) -> None:
    for seed in range(10):
        assert optimum(generate(seed, rows, columns).tiles, rows, columns) is not None
        assert optimum(generate(seed, rows, columns, solvable=False).tiles, rows, columns) is None
        walked = generate(seed, rows, columns, moves=7)
        found = optimum(walked.tiles, rows, columns)
        assert found is not None and found <= 7 and found % 2 == 1  # each move flips the blank's colour


def test_a_uniform_draw_reaches_every_solvable_2x2_board() -> None:
    drawn = {generate(seed, 2, 2).tiles for seed in range(300)}
    assert len(drawn) == 12  # the 2x2 board's solvable arrangements: 4 blank cells x 3 rotations


@pytest.mark.parametrize(("rows", "columns"), [(2, 2), (2, 3), (3, 2)])
def test_the_parity_tells_every_arrangement_that_reaches_the_goal(rows: int, columns: int) -> None:
    reachable = distances_to_goal(rows, columns)
    for tiles in permutations(range(rows * columns)):
        assert parity_allows_plan(tiles, columns) == (tiles in reachable), tiles


def test_the_published_shape_is_a_3x3_or_4x4_board_with_a_plan() -> None:
    assert outside_published_shape(generate(0)) == outside_published_shape(generate(0, 4, 4)) == ""
    assert "2x3 board" in outside_published_shape(generate(0, 2, 3))
    assert "parity" in outside_published_shape(generate(0, solvable=False))


def test_features() -> None:
    assert features(parse(EIGHT, "b")) == {"tiles": 8, "rows": 3, "columns": 3, "misplaced": 2, "manhattan": 2}
    assert features(parse("1 2\n3 0\n", "b"))["manhattan"] == 0


@settings(max_examples=40, deadline=None)
@given(boards((2, 5), (2, 5), (0, 30)))
def test_transposing_maps_goal_to_goal_and_twice_gives_the_board_back(board: Board) -> None:
    image = transposed(board)
    assert (image.rows, image.columns) == (board.columns, board.rows)
    assert transposed(Board("g", board.rows, board.columns, goal(board.rows, board.columns))).tiles == \
        goal(board.columns, board.rows)
    assert transposed(image).tiles == board.tiles
    assert parse(image.to_text(), image.name) == image


def test_transposed_2x3_by_hand() -> None:
    image = transposed(parse("4 1 3\n2 0 5\n", "b"))
    # the mirror puts (r, c) on (c, r); tiles 1..5 of the 2x3 goal rename to 1, 3, 5, 2, 4
    assert image.to_text() == "2 3\n1 0\n5 4\n"


def test_board_refuses_what_is_no_board() -> None:
    with pytest.raises(ValueError):
        Board("b", 2, 2, (1, 2, 3, 3))
    with pytest.raises(ValueError):
        Board("b", 1, 4, (1, 2, 3, 0))


def test_random_walk_has_the_length_asked() -> None:
    rng = random.Random(0)
    for _ in range(20):
        moves = rng.randint(0, 12)
        board = generate(rng.randint(0, 999), 3, 3, moves=moves)
        assert optimum(board.tiles, 3, 3) <= moves  # type: ignore[operator]
