"""keys-cpsat's warm start: its sequences are real plans, and moving keys improves them.

The plan of a sequence is replayed by the puzzle's checker and compared with the
brute-force optimum of `tests.test_keys_cpsat.reference_cost` (which shares nothing
with the routes), so a sequence that needs an unheld key or miscounts would fail.
"""

from __future__ import annotations

import pytest
from crosscheck.models.keys.model import KeyMove, Vault, check_plan, generate, parse
from crosscheck.solvers.keys.cpsat import ArcRoute, regions, usable_routes
from crosscheck.solvers.keys.routes import contract
from crosscheck.solvers.keys.warm_start import Step, greedy_sequence, improved_sequence, kicked_sequence, walk

from tests.test_keys_cpsat import reference_cost


def moves(steps: list[Step[ArcRoute]]) -> list[KeyMove]:
    return [KeyMove(robot, direction) for robot, _, _, route in steps for direction in route.path]


def sequences(vault: Vault) -> tuple[list[Step[ArcRoute]], list[Step[ArcRoute]]]:
    cv = contract(vault)
    arcs, _ = usable_routes(cv)
    region = regions(cv, arcs)
    greedy = greedy_sequence(cv.robots, len(cv.letters), arcs, region)
    assert greedy is not None
    return greedy, improved_sequence(cv.robots, arcs, region, greedy)


VAULTS = [
    *[dict(seed=seed, size=13, keys=8, loops=6, robots=1) for seed in range(8)],
    *[dict(seed=seed, size=9, keys=6, loops=3, robots=4) for seed in range(8, 12)],
]


@pytest.mark.parametrize("params", VAULTS, ids=lambda p: "-".join(f"{k}{v}" for k, v in p.items()))
def test_sequences_are_checked_plans_no_better_than_optimal(params: dict[str, int]) -> None:
    vault = generate(**params)
    greedy, improved = sequences(vault)
    optimum = reference_cost(vault)
    assert optimum is not None
    greedy_cost, improved_cost = check_plan(vault, moves(greedy)), check_plan(vault, moves(improved))
    assert optimum <= improved_cost <= greedy_cost
    assert improved_cost == sum(route.length for _, _, _, route in improved)


def test_moving_keys_improves_some_greedy_plan() -> None:
    costs = [tuple(sum(route.length for *_, route in steps) for steps in sequences(generate(**params)))
             for params in VAULTS]
    assert any(improved < greedy for greedy, improved in costs)


def test_stuck_greedy_gives_no_sequence() -> None:
    vault = parse("#########\n#@.Ab.Ba#\n#########\n", "locked")
    cv = contract(vault)
    arcs, _ = usable_routes(cv)
    assert greedy_sequence(cv.robots, len(cv.letters), arcs, regions(cv, arcs)) is None


def kicked_and_local(vault: Vault, kicks: int) -> tuple[list[Step[ArcRoute]], list[Step[ArcRoute]]]:
    cv = contract(vault)
    arcs, _ = usable_routes(cv)
    region = regions(cv, arcs)
    greedy = greedy_sequence(cv.robots, len(cv.letters), arcs, region)
    assert greedy is not None
    kicked = kicked_sequence(cv.robots, arcs, region, greedy, kicks)
    assert kicked == kicked_sequence(cv.robots, arcs, region, greedy, kicks)  # seeded
    return kicked, improved_sequence(cv.robots, arcs, region, greedy)


@pytest.mark.parametrize("params", VAULTS[::3], ids=lambda p: "-".join(f"{k}{v}" for k, v in p.items()))
def test_kicks_never_worsen(params: dict[str, int]) -> None:
    vault = generate(**params)
    kicked, local = kicked_and_local(vault, 20)
    optimum = reference_cost(vault)
    assert optimum is not None
    assert optimum <= check_plan(vault, moves(kicked)) <= check_plan(vault, moves(local))


def test_kicks_escape_a_local_optimum() -> None:
    vault = generate(6, size=29, keys=14, loops=8, robots=1)
    kicked, local = kicked_and_local(vault, 20)
    assert check_plan(vault, moves(kicked)) < check_plan(vault, moves(local))


@pytest.mark.parametrize("params", VAULTS, ids=lambda p: "-".join(f"{k}{v}" for k, v in p.items()))
def test_improved_sequences_are_local_optima_of_whole_walks(params: dict[str, int]) -> None:
    """The local search costs a move only where the orders differ; walking every moved order
    whole finds no cheaper one either."""
    vault = generate(**params)
    cv = contract(vault)
    arcs, _ = usable_routes(cv)
    _, improved = sequences(vault)
    region = regions(cv, arcs)
    owners = {node: [robot for robot, keys in enumerate(region) if node in keys] for keys in region for node in keys}
    order, cost = [target for _, _, target, _ in improved], sum(route.length for *_, route in improved)
    for size in (1, 2, 3):
        for start in range(len(order) - size + 1):
            rest = order[:start] + order[start + size:]
            for place in range(len(rest) + 1):
                moved = walk(cv.robots, arcs, owners, rest[:place] + order[start:start + size] + rest[place:])
                assert moved is None or sum(route.length for *_, route in moved) >= cost
