"""The elevator model: parser errors, text round trip, variant, plan checker, generator."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest
from crosscheck.models.base import InvalidInstance, InvalidPlan
from crosscheck.models.elevator.model import (
    ElevatorMove,
    Facility,
    all_safe,
    check_plan,
    detect,
    extended,
    generate,
    ordinal,
    parse,
)
from crosscheck.models.registry import detect_puzzle, get_puzzle

from tests.fixtures import INSTANCES
from tests.fixtures.known import assert_parse_error

EXAMPLE = INSTANCES / "elevator" / "two-pairs-example.txt"

# The published example's optimal plan (11 steps), written by hand.
EXAMPLE_PLAN = [
    ("up", ["hydrogen microchip"]),
    ("up", ["hydrogen generator", "hydrogen microchip"]),
    ("down", ["hydrogen microchip"]),
    ("down", ["hydrogen microchip"]),
    ("up", ["hydrogen microchip", "lithium microchip"]),
    ("up", ["hydrogen microchip", "lithium microchip"]),
    ("up", ["hydrogen microchip", "lithium microchip"]),
    ("down", ["hydrogen microchip"]),
    ("up", ["hydrogen generator", "lithium generator"]),
    ("down", ["lithium microchip"]),
    ("up", ["hydrogen microchip", "lithium microchip"]),
]


def example() -> Facility:
    return parse(EXAMPLE.read_text(), str(EXAMPLE))


def test_parse_example() -> None:
    facility = example()
    assert facility.name == "two-pairs-example"
    assert facility.floors == 4
    assert facility.elements == ("hydrogen", "lithium")
    assert facility.chips == (0, 0)
    assert facility.generators == (1, 2)
    assert detect(EXAMPLE.read_text())
    assert detect_puzzle(EXAMPLE.read_text(), "x").name == "elevator"
    assert get_puzzle("elevator").parse(EXAMPLE.read_text(), str(EXAMPLE)) == facility


def test_parse_accepts_commas_an_and_many_floors() -> None:
    text = (
        "The first floor contains an iron generator, a tin generator, an iron-compatible microchip and a tin-compatible microchip.\n"
        "The second floor contains a gold generator, and a gold-compatible microchip.\n"
        "The third floor contains nothing relevant.\n"
        "The fourth floor contains nothing relevant.\n"
        "The fifth floor contains nothing relevant.\n"
    )
    facility = parse(text, "five.txt")
    assert facility.floors == 5
    assert facility.elements == ("gold", "iron", "tin")
    assert facility.chips == facility.generators == (1, 0, 0)


def test_ordinals_and_a_twelve_floor_facility() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 5, 8, 9, 12, 20, 21, 42, 100, 112)] == [
        "first", "second", "third", "fifth", "eighth", "ninth", "twelfth", "twentieth", "twenty-first",
        "forty-second", "one hundredth", "one hundred twelfth",
    ]
    tall = Facility("tall", 12, ("neon",), (3,), (11,))
    assert parse(tall.to_text(), "tall.txt") == tall
    assert "The twelfth floor contains a neon generator." in tall.to_text()


@pytest.mark.parametrize("seed", range(20))
def test_generated_text_round_trip(seed: int) -> None:
    facility = generate(seed, pairs=1 + seed % 7, floors=2 + seed % 4, safe=seed % 2 == 0)
    assert parse(facility.to_text(), f"{facility.name}.txt") == facility


@pytest.mark.parametrize(("text", "line", "column", "fragment"), [
    ("", 1, 1, "empty file"),
    ("The first floor has nothing relevant.\n", 1, 1, "not a floor line"),
    ("The first floor contains nothing relevant.\nThe thrid floor contains nothing relevant.\n", 2, 5,
     "unknown floor word 'thrid'"),
    ("The first floor contains nothing relevant.\nThe third floor contains nothing relevant.\n", 2, 5,
     "third floor is out of order"),
    ("The second floor contains nothing relevant.\n", 1, 5, "out of order"),
    ("The first floor contains a hydrogen generator.\n"
     "The second floor contains a hydrogen-compatible microchip and a lithium generator.\n", 2, 63,
     "lithium has a generator but no microchip"),
    ("The first floor contains a boron-compatible microchip.\n", 1, 26, "boron has a microchip but no generator"),
    ("The first floor contains a tin generator and a tin-compatible microchip.\n"
     "The second floor contains a tin generator.\n", 2, 27, "tin generator listed a second time (first at line 1, column 26)"),
    ("The first floor contains a tin gadget.\n", 1, 31, "unknown item kind after 'tin'"),
    ("The first floor contains a tin generator and tin-compatible microchip.\n", 1, 46, "expected an item"),
    ("The first floor contains a tin generator, a tin-compatible microchip\n", 1, 69, "does not end with '.'"),
    ("The first floor contains a tin generator; a tin-compatible microchip.\n", 1, 41, "unexpected text"),
    ("\nThe first floor contains nothing relevant.\n", 1, 1, "the file starts with a blank line"),
])
def test_parse_errors_name_file_line_and_column(text: str, line: int, column: int, fragment: str) -> None:
    assert_parse_error(parse, text, line, column, fragment)


def test_extended_variant_adds_two_pairs_on_the_first_floor() -> None:
    big = extended(example())
    assert big.name == "two-pairs-example+extended"
    assert big.elements == ("dilithium", "elerium", "hydrogen", "lithium")
    assert big.chips == (0, 0, 0, 0)
    assert big.generators == (0, 0, 1, 2)
    with pytest.raises(InvalidInstance, match="already has dilithium, elerium"):
        extended(big)


def test_check_plan_accepts_the_example_plan_after_a_json_round_trip() -> None:
    plan = json.loads(json.dumps(EXAMPLE_PLAN))
    assert check_plan(example(), plan) == 11
    assert check_plan(example(), [ElevatorMove(d, tuple(items)) for d, items in EXAMPLE_PLAN]) == 11


@pytest.mark.parametrize(("plan", "step", "fragment"), [
    ([("up", ["hydrogen microchip"])], 1, "items below the top floor"),
    ([("down", ["hydrogen microchip"])], 0, "on floor 1, the bottom floor, and cannot go down"),
    ([("up", [])], 0, "one or two items"),
    ([("up", ["hydrogen microchip", "lithium microchip", "hydrogen generator"])], 0, "one or two items"),
    ([("up", "hydrogen microchip")], 0, "one or two items"),
    ([("up", ["hydrogen microchip", "hydrogen microchip"])], 0, "named twice"),
    ([("up", ["helium microchip"])], 0, "unknown item"),
    ([("sideways", ["hydrogen microchip"])], 0, "unknown direction"),
    ([("up",)], 0, "malformed move"),
    ([("up", ["hydrogen generator"])], 0, "is on floor 2, not with the elevator on floor 1"),
    # the lithium chip meets the hydrogen generator on the second floor
    ([("up", ["lithium microchip"])], 0, "floor 2 is unsafe"),
    # the hydrogen generator goes down and leaves its chip with the lithium generator
    ([("up", ["hydrogen microchip"]), ("up", ["hydrogen generator", "hydrogen microchip"]),
      ("down", ["hydrogen generator"])], 2, "floor 3 is unsafe"),
])
def test_check_plan_rejects(plan: Sequence[Sequence[object]], step: int, fragment: str) -> None:
    with pytest.raises(InvalidPlan) as caught:
        check_plan(example(), plan)
    assert caught.value.step == step
    assert fragment in str(caught.value)


def test_an_unknown_item_of_any_length_is_echoed_shortened() -> None:
    """An unknown item name was echoed whole (``{name!r}``), however long."""
    with pytest.raises(InvalidPlan) as caught:
        check_plan(example(), [("up", ["x" * 100_000])])
    assert str(caught.value) == ("move 1: unknown item 'xxxxxxxxxxxx...xxxxxxxxxxxxx', expected an item of this "
                                 "facility ('<element> generator' or '<element> microchip')")


def test_check_plan_rejects_every_plan_from_an_unsafe_start() -> None:
    unsafe = Facility("unsafe", 2, ("a", "b"), (0, 1), (1, 0))
    assert not all_safe(unsafe.chips, unsafe.generators)
    with pytest.raises(InvalidPlan, match="start is unsafe"):
        check_plan(unsafe, [])


def test_empty_plan_is_accepted_when_everything_starts_on_top() -> None:
    assert check_plan(Facility("done", 3, ("a",), (2,), (2,)), []) == 0
    assert check_plan(Facility("nothing", 1, (), (), ()), []) == 0


def test_generator_is_seeded_and_respects_its_parameters() -> None:
    assert generate(5, pairs=4, floors=5) == generate(5, pairs=4, floors=5)
    assert generate(5, pairs=4) != generate(6, pairs=4)
    facility = generate(11, pairs=6, floors=5, spread=2)
    assert len(facility.elements) == 6 and facility.floors == 5
    assert max(facility.chips + facility.generators) <= 1
    for seed in range(30):
        safe = generate(seed, pairs=4)
        assert all_safe(safe.chips, safe.generators)
    assert any(not all_safe(f.chips, f.generators) for f in (generate(s, pairs=4, safe=False) for s in range(30)))
    with pytest.raises(ValueError):
        generate(0, pairs=0)
