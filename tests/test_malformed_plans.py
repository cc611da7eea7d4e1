"""The plan checkers on malformed plans: every shape of value is a typed `InvalidPlan`.

A checker is the referee for every plan, an external program's JSON as much as a plugin's
Python values, so whatever it is handed it returns a cost or raises `InvalidPlan` naming
the move (counted from 1) and what was expected there; never `TypeError` or another
crash, which the harness would record as the checker's own failure (an ``error`` run)
instead of the plan's (``invalid-plan``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from crosscheck.models.amphipods import model as amphipods
from crosscheck.models.base import InvalidPlan
from crosscheck.models.elevator import model as elevator
from crosscheck.models.keys import model as keys
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fixtures import INSTANCES

Checker = Callable[[Any, Any], int]

# Each puzzle: its checker, an instance, and a legal first move (so that the malformed move
# is the plan's second, and its number tells 1-based counting from 0-based).
VAULT = keys.parse((INSTANCES / "keys/one-robot-1.txt").read_text(), "one-robot-1.txt")
FOUR_ROBOTS = keys.parse((INSTANCES / "keys/four-robots-1.txt").read_text(), "four-robots-1.txt")
FACILITY = elevator.parse((INSTANCES / "elevator/two-pairs-example.txt").read_text(), "two-pairs-example.txt")
BURROW = amphipods.parse((INSTANCES / "amphipods/depth2-example.txt").read_text(), "depth2-example.txt")
PUZZLES: dict[str, tuple[Checker, Any, list[Any]]] = {
    "keys": (keys.check_plan, VAULT, [0, "E"]),
    "elevator": (elevator.check_plan, FACILITY, ["up", ["hydrogen microchip"]]),
    "amphipods": (amphipods.check_plan, BURROW, ["C1", "H4"]),
}

#: Per puzzle, words of its vocabulary and near misses, so that drawn moves come near legal
#: ones and reach the checks past the first; and numbers a robot or a label may be mistaken for.
WORDS = {
    "keys": ["N", "S", "E", "W", "n", "NE"],
    "elevator": ["up", "down", "hydrogen microchip", "hydrogen generator", "lithium microchip", "lithium generator"],
    "amphipods": ["A1", "B1", "C1", "H2", "H4", "D2", "H²", "B٢", "B01", "H" + "1" * 5000],
}
NUMBERS = [0, 1, -1, 3, 2**70, True, False, 0.0, 1.5, float("nan")]


def plans(puzzle: str) -> st.SearchStrategy[Any]:
    """Any JSON-like value, mostly lists of moves of any shape built from `puzzle`'s words.

    A move is any value; or two values (words, lists of words, any value), as a move of
    every puzzle has; or one of the puzzle's words and a list of values, as an elevator's
    (a direction drawn among numbers seldom reaches the check of its items)."""
    words = st.sampled_from(WORDS[puzzle] + NUMBERS)
    atoms = words | st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4)
    json = st.recursive(atoms, lambda inner: st.lists(inner, max_size=3)
                        | st.dictionaries(st.text(max_size=3), inner, max_size=2), max_leaves=6)
    values = words | st.lists(words, max_size=2) | json
    moves = (json | st.lists(values, min_size=2, max_size=2)
             | st.tuples(st.sampled_from(WORDS[puzzle]), st.lists(values, min_size=1, max_size=3)))
    return st.lists(moves, max_size=4) | json


@pytest.mark.parametrize("puzzle", sorted(PUZZLES))
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_any_json_value_as_a_plan_gets_a_cost_or_invalid_plan(puzzle: str, data: st.DataObject) -> None:
    check_plan, instance, first = PUZZLES[puzzle]
    plan = data.draw(plans(puzzle), label="plan")
    for candidate in (plan, [first, *plan] if isinstance(plan, list) else plan):
        try:
            cost = check_plan(instance, candidate)
        except InvalidPlan as error:
            assert error.reason and str(error).endswith(error.reason)
        else:
            assert isinstance(cost, int) and not isinstance(cost, bool)


def rejected_second(puzzle: str, move: Any) -> InvalidPlan:
    """The error on a plan of a legal first move and `move`, which must name move 2."""
    check_plan, instance, first = PUZZLES[puzzle]
    with pytest.raises(InvalidPlan) as caught:
        check_plan(instance, [first, move])
    assert caught.value.step == 1, str(caught.value)
    assert str(caught.value).startswith("move 2: "), str(caught.value)
    assert "expected" in caught.value.reason, str(caught.value)
    return caught.value


NOT_A_PAIR = [None, 0, 1.5, True, [], ["x"], [1, 2, 3], {"a": 1, "b": 2}, {}]


@pytest.mark.parametrize("move", [*NOT_A_PAIR, "0E", {"0": "E", "1": "W"}])
def test_keys_refuses_a_move_that_is_not_a_pair(move: Any) -> None:
    assert "malformed move" in rejected_second("keys", move).reason


@pytest.mark.parametrize("robot", [[0], {"r": 0}, True, False, 0.0, 1.5, "0", None, -1, 1, 2**70])
def test_keys_refuses_what_is_no_robot_number(robot: Any) -> None:
    assert "no robot" in rejected_second("keys", [robot, "E"]).reason


def test_keys_robot_numbers_run_over_every_robot() -> None:
    plan = [[0, "N"], [0, "W"], [3, "S"], [3, "E"], [2, "S"], [2, "W"], [1, "N"], [1, "E"]]
    assert keys.check_plan(FOUR_ROBOTS, plan) == 8
    with pytest.raises(InvalidPlan, match=r"^move 1: no robot 4, expected a robot number from 0 to 3"):
        keys.check_plan(FOUR_ROBOTS, [[4, "E"]])


@pytest.mark.parametrize("direction", [["N"], {"d": 1}, None, 0, 1.5, True, "n", "NE", ""])
def test_keys_refuses_what_is_no_direction(direction: Any) -> None:
    assert "unknown direction" in rejected_second("keys", [0, direction]).reason


@pytest.mark.parametrize("move", [*NOT_A_PAIR, "up", {"direction": "up", "items": ["lithium microchip"]}])
def test_elevator_refuses_a_move_that_is_not_a_pair(move: Any) -> None:
    assert "malformed move" in rejected_second("elevator", move).reason


@pytest.mark.parametrize("direction", [["up"], {"up": 1}, None, 1, True, 1.5, "UP", "u"])
def test_elevator_refuses_what_is_no_direction(direction: Any) -> None:
    assert "unknown direction" in rejected_second("elevator", [direction, ["hydrogen microchip"]]).reason


@pytest.mark.parametrize("items", [{"hydrogen microchip": 1}, None, 1, True, "hydrogen microchip", [], ["a", "b", "c"]])
def test_elevator_refuses_what_is_no_list_of_one_or_two_items(items: Any) -> None:
    assert "one or two items" in rejected_second("elevator", ["down", items]).reason


@pytest.mark.parametrize("item", [["hydrogen microchip"], {"a": 1}, None, 1, 1.5, True])
def test_elevator_refuses_an_item_that_is_no_name(item: Any) -> None:
    assert "not an item name" in rejected_second("elevator", ["down", [item]]).reason
    assert "not an item name" in rejected_second("elevator", ["down", ["hydrogen microchip", item]]).reason


@pytest.mark.parametrize("move", [*NOT_A_PAIR, "B1", {"B1": 0, "H2": 1}])
def test_amphipods_refuses_a_move_that_is_not_a_pair(move: Any) -> None:
    assert "malformed move" in rejected_second("amphipods", move).reason


@pytest.mark.parametrize("label", [["B1"], {"B1": 0}, None, 1, 1.5, True, "H²", "B٢", "B01", "H" + "1" * 5000, "b1"])
def test_amphipods_refuses_what_is_no_position_label(label: Any) -> None:
    assert "no position" in rejected_second("amphipods", [label, "H2"]).reason
    assert "no position" in rejected_second("amphipods", ["B1", label]).reason


@pytest.mark.parametrize("puzzle", sorted(PUZZLES))
@pytest.mark.parametrize("plan", [None, 3, "NN", {"moves": []}])
def test_a_plan_that_is_no_list_is_refused(puzzle: str, plan: Any) -> None:
    check_plan, instance, _ = PUZZLES[puzzle]
    with pytest.raises(InvalidPlan, match=r"^the plan: .*expected a list of moves") as caught:
        check_plan(instance, plan)
    assert caught.value.step == 0


# --- how moves are numbered ---------------------------------------------------------

@pytest.mark.parametrize(("puzzle", "message"), [
    ("keys", "after the last move (move 1): the plan ends with keys not collected: ab"),
    ("elevator", "after the last move (move 1): the plan ends with items below the top floor: "),
    ("amphipods", "after the last move (move 1): the plan ends with room A not sorted at A1"),
])
def test_an_unfinished_plan_is_named_after_its_last_move(puzzle: str, message: str) -> None:
    check_plan, instance, first = PUZZLES[puzzle]
    with pytest.raises(InvalidPlan) as caught:
        check_plan(instance, [first])
    assert str(caught.value).startswith(message) and caught.value.step == 1
    with pytest.raises(InvalidPlan, match=r"^before any move \(the plan is empty\): the plan ends with ") as empty:
        check_plan(instance, [])
    assert empty.value.step == 0


def test_the_first_move_is_move_1_in_every_checker() -> None:
    with pytest.raises(InvalidPlan, match=r"^move 1: robot 0 walks N from line 2, column 6 into a wall at line 1, "):
        keys.check_plan(VAULT, [[0, "N"]])
    with pytest.raises(InvalidPlan, match=r"^move 1: the elevator is on floor 1, the bottom floor, and cannot go down"):
        elevator.check_plan(FACILITY, [["down", ["hydrogen microchip"]]])
    with pytest.raises(InvalidPlan, match=r"^move 1: no amphipod at H1"):
        amphipods.check_plan(BURROW, [["H1", "H2"]])


def test_the_elevator_cannot_go_up_from_the_top_floor() -> None:
    one_floor = elevator.Facility("one-floor", 1, ("a",), (0,), (0,))
    with pytest.raises(InvalidPlan, match=r"^move 1: the elevator is on floor 1, the top floor, and cannot go up"):
        elevator.check_plan(one_floor, [["up", ["a generator"]]])
