"""The tests' breadth-first search from both ends against the full table of distances."""

from __future__ import annotations

import random

from tiles_bfs import distances_to_goal, meet_in_the_middle, solved


def test_meet_in_the_middle_agrees_with_the_table() -> None:
    rng = random.Random(0)
    for rows, columns in ((2, 2), (2, 3), (3, 2), (3, 3)):
        table = distances_to_goal(rows, columns)
        drawn = rng.sample(sorted(table), min(40, len(table)))  # with a plan
        if rows * columns < 9:  # without one: a side runs out only after every reachable arrangement
            drawn += [tuple(rng.sample(range(rows * columns), rows * columns)) for _ in range(20)]
        for tiles in drawn:
            assert meet_in_the_middle(tiles, solved(rows, columns), rows, columns) == table.get(tiles), tiles


def test_the_table_sizes_are_half_the_arrangements() -> None:
    assert len(distances_to_goal(2, 2)) == 12
    assert len(distances_to_goal(2, 3)) == 360
    assert len(distances_to_goal(3, 3)) == 181_440
    assert max(distances_to_goal(3, 3).values()) == 31  # the 8-puzzle's known diameter
