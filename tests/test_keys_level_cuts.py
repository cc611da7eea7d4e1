"""keys-cpsat's level cuts: hand-counted cuts, and optimal plans of another formulation
cross every cut as often as the cuts claim.

The plans come from keys-grid (a search over grid cells that shares nothing with the
routes or the cuts), so a cut that cut off an optimal plan (a miscounted level, a
component without keys counted, crossings counted on the wrong side) fails here.
"""

from __future__ import annotations

import pytest

from crosscheck.models.keys import KeyMove, Vault, generate, parse
from crosscheck.solvers.keys.level_cuts import level_cuts
from crosscheck.solvers.keys.routes import contract
from crosscheck.solvers.registry import get_solver
from tests.known import read


def test_corridor_counts_the_spanning_subtree() -> None:
    corridor = parse("#########\n#b.A.@.a#\n#########\n", "corridor")
    (cuts,) = level_cuts(corridor, contract(corridor))
    assert cuts is not None
    # Key a (bit 0) is 2 steps east, b (bit 1) 4 steps west: one cut per edge towards each.
    assert cuts.groups == {0b01: 2, 0b10: 4}
    assert cuts.crossings((1, 5), "WWWW") == {0b10: 4}
    assert cuts.crossings((1, 5), "EEWWWW") == {0b01: 4, 0b10: 2}


def test_loop_counts_levels_not_edges() -> None:
    loop = parse(read("keys/loop-1.txt"), "loop-1")
    (cuts,) = level_cuts(loop, contract(loop))
    assert cuts is not None
    # Levels 1-4 hold key a (bit 0) on the west side and b (bit 1) on the east side; at
    # level 5 the two cells left ((1,1) and (3,1)) hold no key.
    assert cuts.groups == {0b01: 4, 0b10: 4}


def test_robots_sharing_a_component_get_no_cuts() -> None:
    shared = parse("#########\n#a.@.B.b#\n#.#####.#\n#c..@..A#\n#########\n", "shared")
    assert level_cuts(shared, contract(shared)) == [None, None]


def walks(vault: Vault, plan: list[KeyMove]) -> list[tuple[str, str | None]]:
    """Per robot, its directions and the last key it was first to collect."""
    cells, held = list(vault.robots), set()
    paths: list[str] = [""] * len(cells)
    last: list[str | None] = [None] * len(cells)
    steps = {"N": (-1, 0), "S": (1, 0), "E": (0, 1), "W": (0, -1)}
    for robot, direction in plan:
        (r, c), (dr, dc) = cells[robot], steps[direction]
        cells[robot] = (r + dr, c + dc)
        paths[robot] += direction
        char = vault.at(cells[robot])
        if char.islower() and char not in held:
            held.add(char)
            last[robot] = char
    return list(zip(paths, last, strict=True))


VAULTS = [
    *[dict(seed=seed, size=13, keys=8, loops=6, robots=1) for seed in range(6)],
    *[dict(seed=seed, size=9, keys=6, loops=3, robots=4) for seed in range(6, 10)],
]


@pytest.mark.parametrize("params", VAULTS, ids=lambda p: "-".join(f"{k}{v}" for k, v in p.items()))
def test_optimal_plans_cross_every_cut_enough(params: dict[str, int]) -> None:
    vault = generate(**params)
    result = get_solver("keys-grid").solve(vault, 30)
    assert result.plan is not None and result.status.value == "optimal"
    cv = contract(vault)
    bit = {letter: 1 << index for index, letter in enumerate(cv.letters)}
    for robot, (cuts, (path, last)) in enumerate(zip(level_cuts(vault, cv), walks(vault, result.plan), strict=True)):
        if cuts is None:
            continue
        crossed = cuts.crossings(vault.robots[robot], path)
        for mask, count in cuts.groups.items():
            inside = last is not None and bool(bit[last] & mask)
            assert crossed.get(mask, 0) >= count * (2 - inside), (robot, mask)
