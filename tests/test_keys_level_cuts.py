"""keys-cpsat's level cuts: hand-counted cuts, and optimal plans of another formulation
cross every cut as often as the cuts claim.

The plans come from keys-grid (a search over grid cells that shares nothing with the
routes or the cuts), so a cut that cut off an optimal plan (a miscounted level, a
component without keys counted, crossings counted on the wrong side) fails here.
"""

from __future__ import annotations

import pytest
from crosscheck.models.keys.model import KeyMove, Vault, generate, parse
from crosscheck.solvers.keys.level_cuts import level_cuts
from crosscheck.solvers.keys.routes import contract
from crosscheck.solvers.registry import get_solver

from tests.fixtures.known import read


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


def first_collections(vault: Vault, plan: list[KeyMove]) -> list[str]:
    """The keys in the order they are first collected."""
    cells, order = list(vault.robots), []
    steps = {"N": (-1, 0), "S": (1, 0), "E": (0, 1), "W": (0, -1)}
    for robot, direction in plan:
        (r, c), (dr, dc) = cells[robot], steps[direction]
        cells[robot] = (r + dr, c + dc)
        char = vault.at(cells[robot])
        if char.islower() and char not in order:
            order.append(char)
    return order


#: Vaults whose optimal plans (keys-grid's) leave a level cut and come back to it.
COMING_BACK = ["keys/one-robot-2.txt", "keys/one-robot-3.txt", "keys/one-robot-4.txt", "keys/four-robots-4.txt",
               "generated seed=0 size=13 keys=8 doors=6 loops=0"]


def coming_back(name: str) -> Vault:
    return generate(0, size=13, keys=8, doors=6, loops=0) if name.startswith("generated") else parse(read(name), name)


@pytest.mark.parametrize("name", COMING_BACK)
def test_optimal_plans_cross_twice_more_when_they_come_back(name: str) -> None:
    """keys-cpsat's re-entry cut: a lone robot inside a level cut, then at a key outside it,
    then inside again crosses each of its boundaries at least 4 - [last key inside] times."""
    vault = coming_back(name)
    result = get_solver("keys-grid").solve(vault, 30)
    assert result.plan is not None and result.status.value == "optimal"
    cv = contract(vault)
    bit = {letter: 1 << index for index, letter in enumerate(cv.letters)}
    position = {key: index for index, key in enumerate(first_collections(vault, result.plan))}
    came_back = 0
    for robot, (cuts, (path, last)) in enumerate(zip(level_cuts(vault, cv), walks(vault, result.plan), strict=True)):
        if cuts is None:
            continue
        crossed = cuts.crossings(vault.robots[robot], path)
        mine = [key for key in cv.letters if vault.keys[key] in cuts.distance]
        for mask, count in cuts.groups.items():
            inside = sorted(position[key] for key in mine if bit[key] & mask)
            outside = [position[key] for key in mine if not bit[key] & mask]
            if any(inside[0] < y < inside[-1] for y in outside):
                came_back += 1
                ends_inside = last is not None and bool(bit[last] & mask)
                assert crossed.get(mask, 0) >= count * (4 - ends_inside), (robot, mask)
    assert came_back > 0
