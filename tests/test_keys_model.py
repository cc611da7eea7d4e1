"""The key vault model: parser errors, four-robot transform, plan checker, generator."""

from __future__ import annotations

import json
import string
from collections.abc import Sequence

import pytest
from crosscheck.models.base import InvalidInstance, InvalidPlan
from crosscheck.models.keys.model import (
    DIRECTIONS,
    KeyMove,
    check_plan,
    collectable_keys,
    detect,
    door_key,
    four_robots,
    generate,
    is_key,
    parse,
)
from crosscheck.models.registry import detect_puzzle
from crosscheck.solvers.keys.packing import RobotPacking
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fixtures.known import assert_parse_error

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
        ("\n" + ONE_ROBOT_1, 1, 1, "the file starts with a blank line (expected the grid's top wall row on line 1)"),
    ],
)
def test_parse_errors_name_line_and_column(text: str, line: int, column: int, words: str) -> None:
    assert assert_parse_error(parse, text, line, column, words).expected


@pytest.mark.parametrize("text", ["\n" + ONE_ROBOT_1, "#########\n#b.A...a#\n#########\n", "#...#\n#@..#\n"])
def test_detect_claims_every_vault_parse_has_words_for(text: str) -> None:
    """A vault with blank lines above it or without a robot is still a vault: the parser,
    not "no known puzzle", says what is wrong with it."""
    assert detect(text) and detect_puzzle(text, "x").name == "keys"


@pytest.mark.parametrize("text", [
    "#############\n#...........#\n###B#C#B#D###\n  #A#D#C#A#\n  #########\n",
    "# Notes\nabout vaults\n", "",
    # malformed burrows (a typo in the hallway, indented) and prose under a wall line: no robot, not vaults
    "#############\n#.....x.....#\n###B#C#B#D###\n  #A#D#C#A#\n  #########\n",
    "  #############\n  #...........#\n  ###B#C#B#D###\n    #A#D#C#A#\n    #########\n",
    "####\nnotes here\n", "########\n# Title #\n########\n",
])
def test_detect_leaves_burrows_and_prose_alone(text: str) -> None:
    assert not detect(text)


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
def test_check_plan_rejects_each_broken_rule(plan: Sequence[Sequence[object]], step: int, words: str) -> None:
    with pytest.raises(InvalidPlan) as caught:
        check_plan(parse(ONE_ROBOT_1), plan)
    assert caught.value.step == step and words in caught.value.reason


@pytest.mark.parametrize("door", string.ascii_uppercase)
def test_check_plan_refuses_every_door_without_its_key(door: str) -> None:
    """Each letter by itself: the random walks above rarely reach a given door keyless."""
    vault = parse(f"######\n#@{door}{door.lower()}.#\n######\n")
    with pytest.raises(InvalidPlan, match=f"without key {door.lower()}") as caught:
        check_plan(vault, [KeyMove(0, "E"), KeyMove(0, "E")])
    assert caught.value.step == 0
    assert check_plan(parse(f"######\n#@{door.lower()}{door}.#\n######\n"), [KeyMove(0, "E")]) == 1


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
def test_generator_rejects_bad_parameters(params: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        generate(0, **params)


# --- the vault vocabulary (key letters, key bits, doors' keys, passable cells) ------------

# A vault with a door whose key is missing (Z), doors with keys, and a robot next to both.
VOCABULARY_VAULT = "#########\n#b.A@Zc.#\n#.#B#C#a#\n#########\n"


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), loops=st.integers(0, 3), robots=st.sampled_from([1, 4]),
       walk=st.lists(st.tuples(st.integers(0, 3), st.sampled_from("NSEW")), max_size=60))
def test_vocabulary_agrees_with_the_checker_step_by_step(seed: int, loops: int, robots: int,
                                                         walk: list[tuple[int, str]]) -> None:
    """Walking at random, a step is legal for the checker exactly when the vocabulary
    says the target is passable and its door's key bit is held; key bits follow the
    keys collected.  (The checker reads the rules itself, so this can fail.)"""
    vault = parse(VOCABULARY_VAULT) if seed % 4 == 0 else generate(seed, size=9, keys=4, loops=loops, robots=robots)
    bits, positions, held = vault.key_bits(), list(vault.robots), 0
    plan: list[KeyMove] = []
    assert list(bits) == sorted(vault.keys) == list(vault.letters)
    for robot, direction in walk:
        robot %= len(positions)
        (r, c), (dr, dc) = positions[robot], DIRECTIONS[direction]
        char = vault.at((r + dr, c + dc))
        key = door_key(char)
        legal = vault.passable(char) and (key is None or held & bits[key] != 0)
        move = KeyMove(robot, direction)
        try:
            check_plan(vault, [*plan, move])
            accepted = True
        except InvalidPlan as error:
            accepted = error.step == len(plan) + 1  # only "keys left at the end": the step itself was fine
        assert accepted == legal, (vault.rows, plan, move)
        if legal:
            plan.append(move)
            positions[robot] = (r + dr, c + dc)
            held |= bits[char] if is_key(char) else 0


def test_vocabulary_of_doors_and_keys() -> None:
    vault = parse(VOCABULARY_VAULT)
    assert vault.letters == "abc" and vault.key_bits() == {"a": 1, "b": 2, "c": 4}
    assert [door_key(char) for char in "A#.aZ@"] == ["a", None, None, None, "z", None]
    assert [is_key(char) for char in "aA.#"] == [True, False, False, False]
    assert [vault.passable(char) for char in "#.@aABCZ"] == [False, True, True, True, True, True, True, False]


def test_robot_packing_round_trips() -> None:
    packing = RobotPacking.for_positions(keys=3, robots=4, positions=81)
    assert packing.bits_per_robot == 7 and packing.all_keys == 0b111
    state = packing.pack([80, 0, 5, 17], held=0b101)
    assert packing.positions(state) == [80, 0, 5, 17] and state & packing.all_keys == 0b101
    robot, position, others, shift = list(packing.slots(state))[2]
    assert (robot, position) == (2, 5)
    assert packing.positions(others | 9 << shift | 0b010) == [80, 0, 9, 17]
    assert (others | 9 << shift | 0b010) & packing.all_keys == 0b111
    assert RobotPacking.for_positions(keys=0, robots=1, positions=1).bits_per_robot == 1
