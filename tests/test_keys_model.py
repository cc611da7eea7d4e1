"""The key vault model: parser errors, four-robot transform, plan checker, generator."""

from __future__ import annotations

import json

import pytest

from models.base import InvalidInstance, InvalidPlan
from models.keys import (
    KeyMove,
    check_plan,
    collectable_keys,
    four_robots,
    generate,
    parse,
)

ONE_ROBOT_1 = "#########\n#b.A.@.a#\n#########\n"
# optimal: two steps east for a, then six west through door A for b
PLAN_1 = [KeyMove(0, "E")] * 2 + [KeyMove(0, "W")] * 6


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("#####\n#@.?#\n#####\n", 2, 4, "unknown character"),
        ("#####\n#@a.#\n#..a#\n#####\n", 3, 4, "second time"),
        ("#####\n#@.#\n#####\n", 2, 5, "row has 4"),
        ("#####\n#...#\n#####\n", 1, 1, "no robot"),
        ("\n\n", 1, 1, "empty"),
    ],
)
def test_parse_errors_name_line_and_column(text: str, line: int, column: int, words: str) -> None:
    with pytest.raises(InvalidInstance) as caught:
        parse(text, "vault.txt")
    error = caught.value
    assert (error.source, error.line, error.column) == ("vault.txt", line, column)
    assert words in error.reason and error.expected
    assert str(error).startswith(f"vault.txt:{line}:{column}: ")


def test_parse_round_trip_and_name() -> None:
    vault = parse(ONE_ROBOT_1, "dir/one-robot-1.txt")
    assert vault.name == "one-robot-1"
    assert vault.robots == ((1, 5),) and vault.keys == {"a": (1, 7), "b": (1, 1)}
    assert parse(vault.to_text()).rows == vault.rows


def test_four_robots_transform() -> None:
    vault = parse("#######\n#a...b#\n#.....#\n#..@..#\n#.....#\n#c...d#\n#######\n")
    four = four_robots(vault)
    assert four.rows[2:5] == ("#.@#@.#", "#.###.#", "#.@#@.#")
    assert four.robots == ((2, 2), (2, 4), (4, 2), (4, 4))
    assert four.keys == vault.keys


def test_four_robots_refuses_what_it_cannot_transform() -> None:
    with pytest.raises(InvalidInstance, match="exactly one robot"):
        four_robots(parse("#####\n#@.@#\n#####\n"))
    with pytest.raises(InvalidInstance, match="holds a key or door"):
        four_robots(parse("#####\n#a..#\n#.@.#\n#...#\n#####\n"))


def test_check_plan_accepts_the_optimum_and_json_lists() -> None:
    vault = parse(ONE_ROBOT_1)
    assert check_plan(vault, PLAN_1) == 8
    assert check_plan(vault, json.loads(json.dumps(PLAN_1))) == 8


@pytest.mark.parametrize(
    ("plan", "step", "words"),
    [
        ([KeyMove(0, "N")], 0, "wall"),
        ([KeyMove(0, "W"), KeyMove(0, "W")], 1, "without key a"),
        ([KeyMove(1, "E")], 0, "no robot 1"),
        ([KeyMove(0, "X")], 0, "unknown direction"),
        ([("E",)], 0, "malformed move"),
        ([KeyMove(0, "E")] * 2, 2, "keys not collected: b"),
    ],
)
def test_check_plan_rejects_each_broken_rule(plan: list, step: int, words: str) -> None:
    with pytest.raises(InvalidPlan) as caught:
        check_plan(parse(ONE_ROBOT_1), plan)
    assert caught.value.step == step and words in caught.value.reason


def test_door_without_key_in_grid_never_opens() -> None:
    vault = parse("######\n#@Ab.#\n######\n")
    assert collectable_keys(vault) == set()
    with pytest.raises(InvalidPlan, match="door A"):
        check_plan(vault, [KeyMove(0, "E"), KeyMove(0, "E")])


@pytest.mark.parametrize("robots", [1, 4])
def test_generator_is_deterministic_and_solvable(robots: int) -> None:
    for seed in range(5):
        vault = generate(seed, size=17, keys=8, loops=3, robots=robots)
        assert vault == generate(seed, size=17, keys=8, loops=3, robots=robots)
        assert len(vault.robots) == robots and len(vault.keys) == 8
        assert collectable_keys(vault) == set(vault.keys)
    assert generate(0, size=17, keys=8).rows != generate(1, size=17, keys=8).rows


@pytest.mark.parametrize("params", [{"size": 10}, {"keys": 0}, {"robots": 2}, {"keys": 3, "doors": 4}])
def test_generator_rejects_bad_parameters(params: dict) -> None:
    with pytest.raises(ValueError):
        generate(0, **params)
