"""The amphipod burrow model: parser errors, deep transform, plan checker rules, generator."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from crosscheck.models.amphipods.model import AmphipodMove as M
from crosscheck.models.amphipods.model import Burrow, check_plan, deep, detect, features, generate, parse, path
from crosscheck.models.base import InvalidInstance, InvalidPlan
from crosscheck.models.registry import detect_puzzle

from tests.fixtures.known import assert_parse_error, read

EXAMPLE = """#############
#...........#
###B#C#B#D###
  #A#D#C#A#
  #########
"""

#: The published solution of EXAMPLE (12521 energy), stop by stop.
EXAMPLE_PLAN = [
    M("C1", "H4"), M("B1", "C1"), M("B2", "H6"), M("H4", "B2"), M("A1", "B1"),
    M("D1", "H8"), M("D2", "H10"), M("H8", "D2"), M("H6", "D1"), M("H10", "A1"),
]


def one_deep(rooms: str) -> Burrow:
    return parse(f"#############\n#...........#\n###{'#'.join(rooms)}###\n  #########\n", "t.txt")


# --- parser --------------------------------------------------------------------------

def test_parses_the_example_and_round_trips() -> None:
    burrow = parse(EXAMPLE, "dir/example.txt")
    assert burrow.name == "example"
    assert burrow.rooms == ("BA", "CD", "BC", "DA")
    assert burrow.depth == 2
    assert burrow.to_text() == EXAMPLE
    assert parse(burrow.to_text(), "x") == parse(EXAMPLE, "x")


@pytest.mark.parametrize("depth", [1, 3, 6])
def test_any_depth_parses(depth: int) -> None:
    burrow = generate(5, depth=depth)
    assert parse(burrow.to_text(), "g.txt").rooms == burrow.rooms


#: The puzzle statement's diagram after the published plan's first two moves.
MIDWAY = """#############
#...B.......#
###B#.#C#D###
  #A#D#C#A#
  #########
"""


def test_intermediate_diagrams_parse_round_trip_and_replay() -> None:
    burrow = parse(MIDWAY, "midway.txt")
    assert burrow.hallway == "...B......." and burrow.rooms == ("BA", ".D", "CC", "DA")
    assert not burrow.at_rest and parse(EXAMPLE, "x").at_rest
    assert burrow.to_text() == MIDWAY and parse(burrow.to_text(), "midway") == burrow
    # the published plan's remaining moves cost all but its first two (40 + 400)
    assert check_plan(parse(EXAMPLE, "x"), EXAMPLE_PLAN) - check_plan(burrow, EXAMPLE_PLAN[2:]) == 440


def test_a_hallway_amphipod_of_the_start_may_only_go_home() -> None:
    burrow = parse(MIDWAY, "midway.txt")
    rejected(burrow, [("H4", "H2")], 0, "may only move straight into room B")
    rejected(burrow, [("B2", "H6"), ("H4", "A1")], 1, "runs into B at A1")


def test_the_deep_transform_refuses_an_intermediate_diagram() -> None:
    with pytest.raises(InvalidInstance, match="at rest"):
        deep(parse(MIDWAY, "x"))


def test_trailing_spaces_and_blank_lines_are_ignored() -> None:
    text = EXAMPLE.replace("  #A#D#C#A#", "  #A#D#C#A#  ") + "\n\n"
    assert parse(text, "x").rooms == ("BA", "CD", "BC", "DA")


@pytest.mark.parametrize(
    "text, line, column, words",
    [
        (EXAMPLE.replace("#A#D#C#A#", "#A#E#C#A#"), 4, 6, "unknown amphipod 'E'"),
        (EXAMPLE.replace("#A#D#C#A#", "#A#D#C#B#"), 4, 10, "more than 2 amphipods of kind B"),
        (EXAMPLE.replace("#A#D#C#A#", "#A#D#C#A"), 4, 11, "ragged wall"),
        (EXAMPLE.replace("###B#C#B#D###", "###B#C#B#D##"), 3, 13, "ragged wall"),
        (EXAMPLE.replace("  #########", "  ########"), 5, 11, "ragged wall"),
        (EXAMPLE.replace("#...........#", "#.....A.....#"), 4, 10, "more than 2 amphipods of kind A"),
        (EXAMPLE.replace("#...........#", "#....A......#"), 2, 6, "amphipod A directly above room B"),
        (EXAMPLE.replace("#...........#", "#.E.........#"), 2, 3, "unknown hallway cell 'E'"),
        (EXAMPLE.replace("#...........#", ".....A......#"), 2, 1, "unexpected '.' in the hallway's wall"),
        (EXAMPLE.replace("#...........#", "#..........#"), 2, 13, "ragged wall"),
        (EXAMPLE.replace("#A#D#C#A#", "#.#D#C#A#").replace("#...........#", "#A..........#"), 4, 4,
         "'.' below an amphipod in room A"),
        (EXAMPLE.replace("###B#C", "###.#C"), 3, 4, "too few amphipods: 1 of kind B"),
        (EXAMPLE.replace("###B#C", "##.B#C"), 3, 3, "unexpected '.'"),
        (EXAMPLE.replace("#A#D#C#A#", "#A.D#C#A#"), 4, 5, "unexpected '.'"),
        ("#############\n#...........#\n", 3, 1, "no room lines"),
        ("\n \n" + EXAMPLE, 1, 1, "the file starts with 2 blank lines (expected the top wall '#############' on line 1)"),
        (EXAMPLE.replace("  #########\n", ""), 5, 1, "missing bottom wall after line 4, the last line"),
        ("#############\n#...........#\n###B#C#B#D###\n", 4, 1, "missing bottom wall after line 3"),
        (EXAMPLE + "  #A#D#C#A#\n", 6, 3, "a line after the bottom wall (line 5)"),
        (EXAMPLE.replace("  #########", "  #########\n  #########"), 6, 3, "a line after the bottom wall (line 5)"),
    ],
)
def test_parse_errors_name_file_line_and_column(text: str, line: int, column: int, words: str) -> None:
    assert_parse_error(parse, text, line, column, words)


def test_detect_recognises_burrows_only() -> None:
    assert detect(EXAMPLE)
    assert detect_puzzle(EXAMPLE, "x").name == "amphipods"
    assert detect(EXAMPLE.replace("#...........#", "#..A........#"))  # then the parser says where
    assert not detect("#########\n#b.A.@.a#\n#########\n")
    assert not detect("#############\n#b.A.@.a....#\n#############\n")
    assert detect_puzzle("\n" + EXAMPLE, "x").name == "amphipods"  # so that parse names the blank line
    # a burrow missing its bottom wall is still a burrow, though it also looks like a vault without a robot
    assert detect_puzzle("#############\n#...........#\n###B#C#B#D###\n", "x").name == "amphipods"


# --- deep transform ------------------------------------------------------------------

def test_deep_transform_inserts_the_two_lines() -> None:
    deeper = deep(parse(EXAMPLE, "example.txt"))
    assert deeper.to_text() == (
        "#############\n#...........#\n###B#C#B#D###\n  #D#C#B#A#\n  #D#B#A#C#\n  #A#D#C#A#\n  #########\n"
    )
    assert deeper.name == "example+deep"
    assert deeper.rooms == parse(read("amphipods/depth4-example.txt"), "x").rooms


def test_deep_transform_needs_a_second_room_line() -> None:
    with pytest.raises(InvalidInstance, match="depth 1"):
        deep(one_deep("ABCD"))


# --- plan checker ------------------------------------------------------------------

def test_the_published_plan_costs_12521_and_json_lists_are_accepted() -> None:
    burrow = parse(EXAMPLE, "x")
    assert check_plan(burrow, EXAMPLE_PLAN) == 12521
    assert check_plan(burrow, [list(move) for move in EXAMPLE_PLAN]) == 12521


def test_path_is_the_unique_simple_path() -> None:
    assert path((0, 1), (1, 0)) == [(0, 0), ("H", 2), ("H", 3), ("H", 4), (1, 0)]
    assert path(("H", 0), ("H", 3)) == [("H", 1), ("H", 2), ("H", 3)]
    assert path((2, 0), (2, 1)) == [(2, 1)]


def rejected(burrow: Burrow, plan: Sequence[Sequence[object]], step: int, words: str) -> None:
    with pytest.raises(InvalidPlan) as error:
        check_plan(burrow, plan)
    assert error.value.step == step
    assert words in error.value.reason


def test_rejects_malformed_moves_and_unknown_positions() -> None:
    burrow = parse(EXAMPLE, "x")
    rejected(burrow, [("A1",)], 0, "malformed")
    rejected(burrow, [("A3", "H1")], 0, "no position 'A3'")
    rejected(burrow, [("H1", "H2")], 0, "no amphipod at H1")
    rejected(burrow, [("A1", "A1")], 0, "moves nowhere")


def test_rejects_stopping_above_a_room() -> None:
    rejected(parse(EXAMPLE, "x"), [("A1", "H3")], 0, "directly above a room")
    rejected(parse(EXAMPLE, "x"), [("A1", "H5")], 0, "directly above a room")


def test_rejects_passing_through_others() -> None:
    burrow = parse(EXAMPLE, "x")
    rejected(burrow, [("A2", "H1")], 0, "runs into B at A1")
    rejected(burrow, [("A1", "H6"), ("B1", "H8")], 1, "runs into B at H6")


def test_rejects_target_occupied() -> None:
    rejected(parse(EXAMPLE, "x"), [("A1", "H4"), ("B1", "H4")], 1, "runs into B at H4")


def test_rejects_entering_a_foreign_room() -> None:
    burrow = parse(EXAMPLE, "x")
    rejected(burrow, [("A1", "H2"), ("B1", "A1")], 1, "enters room A, which is not its own")
    rejected(burrow, [("A1", "H2"), ("B1", "H6"), ("H6", "A1")], 2, "may only move straight into room C")


def test_rejects_entering_own_room_while_a_stranger_is_inside() -> None:
    burrow = parse(EXAMPLE, "x")
    # the B from C1 goes to H4; room B still holds C (B1) and D (B2)
    rejected(burrow, [("C1", "H4"), ("H4", "B1")], 1, "runs into C at B1")
    rejected(burrow, [("B1", "H8"), ("C1", "B1")], 1, "still holds D")


def test_rejects_a_hallway_amphipod_moving_anywhere_but_home() -> None:
    burrow = parse(EXAMPLE, "x")
    rejected(burrow, [("A1", "H2"), ("H2", "H1")], 1, "may only move straight into room B")
    rejected(burrow, [("B1", "H4"), ("A1", "H1"), ("H4", "H10")], 2, "may only move straight into room C")


def test_allows_what_the_rules_do_not_forbid() -> None:
    # a direct room-to-room move
    burrow = one_deep("ABDC")
    plan = [M("C1", "H6"), M("D1", "C1"), M("H6", "D1")]
    assert check_plan(burrow, plan) == 2 * 1000 + 4 * 100 + 4 * 1000
    # stopping high in one's own room, moving down later, leaving a sorted room
    two = parse("#############\n#...........#\n###B#A#C#D###\n  #A#B#C#D#\n  #########\n", "x")
    plan = [M("A1", "H6"), M("A2", "H2"), M("B1", "A1"), M("A1", "A2"), M("H2", "A1"), M("H6", "B1"),
            M("C1", "H8"), M("H8", "C1")]
    assert check_plan(two, plan) == 4 * 10 + 3 + 4 + 1 + 2 + 2 * 10 + 2 * 100 + 2 * 100


def test_rejects_a_plan_that_leaves_rooms_unsorted() -> None:
    rejected(parse(EXAMPLE, "x"), [], 0, "room A not sorted")
    rejected(parse(EXAMPLE, "x"), EXAMPLE_PLAN[:-1], 9, "room A not sorted at A1")


# --- generator ---------------------------------------------------------------------

@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_generator_is_seeded_and_has_depth_copies_of_each_kind(depth: int) -> None:
    burrow = generate(7, depth=depth)
    assert burrow == generate(7, depth=depth)
    assert sorted("".join(burrow.rooms)) == sorted("ABCD" * depth)
    assert parse(burrow.to_text(), "x").rooms == burrow.rooms


def test_generator_varies_with_the_seed_and_offers_real_and_swap_styles() -> None:
    assert len({generate(seed, depth=3).rooms for seed in range(20)}) > 15
    real = generate(3, depth=4, style="real")
    assert real.depth == 4 and [room[1:3] for room in real.rooms] == ["DD", "CB", "BA", "AC"]
    assert all(room[-1] != kind for room, kind in zip(generate(3, depth=2, style="real").rooms, "ABCD", strict=True))
    def misplaced(burrow: Burrow) -> int:
        return sum(a != b for a, b in zip("".join(burrow.rooms), "AAABBBCCCDDD", strict=True))

    # one swap exchanges two cells: two misplaced amphipods, none when both were of one kind
    one_swap = [misplaced(generate(seed, depth=3, swaps=1)) for seed in range(20)]
    assert set(one_swap) <= {0, 2} and one_swap.count(2) >= 10
    assert all(misplaced(generate(seed, depth=3, swaps=3)) <= 6 for seed in range(20))
    with pytest.raises(ValueError):
        generate(1, depth=3, style="real")
    with pytest.raises(ValueError):
        generate(1, depth=0)


def test_features_count_the_movers() -> None:
    assert features(parse(EXAMPLE, "x")) == {"movers": 6, "depth": 2, "heavy_movers": 3}
