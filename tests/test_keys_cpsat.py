"""keys-cpsat: optimal on the published examples, agrees with a brute-force reference.

The reference below is a test-only breadth-first search over (robot cells, held keys):
it shares nothing with the solver (no contraction, no routes), so agreement on many
seeded vaults, including vaults with cycles and four robots, is real evidence.
"""

from __future__ import annotations

import json
from collections import deque

import pytest
from crosscheck.models.keys.model import Vault, check_plan, generate, parse
from crosscheck.solvers.base import Deadline, Result, Status
from crosscheck.solvers.engines.cpsat import configured_solver
from crosscheck.solvers.keys import FORMULATIONS, cpsat
from crosscheck.solvers.keys.cpsat import ArcRoute, KeysCpsat, VaultModel, usable_routes
from crosscheck.solvers.keys.routes import contract
from crosscheck.solvers.registry import get_solver
from ortools.sat.python import cp_model

from tests.fixtures.known import published_optima, read
from tests.test_keys_level_cuts import COMING_BACK, coming_back, first_collections

ANSWERS = published_optima("keys")


def reference_cost(vault: Vault) -> int | None:
    """Fewest moves to hold every key, by BFS over (robot cells, held keys); None if impossible."""
    letters = sorted(vault.keys)
    bit = {letter: 1 << index for index, letter in enumerate(letters)}
    goal = (1 << len(letters)) - 1
    start = (tuple(vault.robots), 0)
    if goal == 0:
        return 0
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        (cells, held), cost = queue.popleft()
        for robot, cell in enumerate(cells):
            for _, target in vault.open_neighbours(cell):
                char = vault.at(target)
                if char.isupper() and not held & bit.get(char.lower(), 0):
                    continue
                state = (cells[:robot] + (target,) + cells[robot + 1:], held | bit.get(char, 0))
                if state[1] == goal:
                    return cost + 1
                if state not in seen:
                    seen.add(state)
                    queue.append((state, cost + 1))
    return None


def solve(vault: Vault, seconds: float = 20.0) -> Result:
    result = KeysCpsat().solve(vault, seconds)
    if result.plan is not None:
        assert check_plan(vault, json.loads(json.dumps(result.plan))) == result.cost
    return result


def test_registered() -> None:
    assert FORMULATIONS["keys-cpsat"] == ("cpsat", "KeysCpsat")
    assert isinstance(get_solver("keys-cpsat"), KeysCpsat)


@pytest.mark.parametrize("name", sorted(name for name in ANSWERS if name != "keys/one-robot-4.txt"))
def test_examples_optimal(name: str) -> None:
    vault = parse(read(name), name)
    result = solve(vault)
    assert result.status is Status.OPTIMAL, result
    assert result.cost == result.bound == ANSWERS[name]
    assert result.stats["num_workers"] == 2
    assert {"conflicts", "branches", "wall_time", "num_booleans", "best_bound"} <= set(result.stats)


@pytest.mark.slow
def test_example_one_robot_4_optimal() -> None:
    name = "keys/one-robot-4.txt"
    result = solve(parse(read(name), name), 120.0)
    assert result.status is Status.OPTIMAL and result.cost == ANSWERS[name]


SMALL = [
    *[dict(seed=seed, size=13, keys=8, loops=6, robots=1) for seed in range(12)],
    *[dict(seed=seed, size=13, keys=6, doors=2, loops=3, robots=1) for seed in range(12, 16)],
    *[dict(seed=seed, size=9, keys=4, loops=2, robots=1) for seed in range(16, 20)],
    *[dict(seed=seed, size=9, keys=6, loops=3, robots=4) for seed in range(20, 30)],
    # Trees (every lone robot's level cuts are active on every vault, loops or not).
    *[dict(seed=seed, size=13, keys=8, loops=0, robots=1) for seed in range(30, 36)],
    *[dict(seed=seed, size=9, keys=6, loops=0, robots=4) for seed in range(36, 40)],
]


@pytest.mark.parametrize("params", SMALL, ids=lambda p: "-".join(f"{k}{v}" for k, v in p.items()))
def test_agrees_with_brute_force(params: dict[str, int]) -> None:
    vault = generate(**params)
    result = solve(vault)
    assert result.status is Status.OPTIMAL, result
    assert result.cost == reference_cost(vault)


SHARED = [
    # Two robots in one connected area: key arcs are shared between their circuits.
    "#########\n#a.@.B.b#\n#.#####.#\n#c..@..A#\n#########\n",
    # A cycle where the short way needs a door that the long way avoids.
    "#########\n#b.....a#\n#.#####.#\n#.A.@...#\n#########\n",
    # Three robots, one of which has nothing to do.
    "###########\n#@.a.#@.b.#\n#####B#####\n#.c.@.....#\n###########\n",
]


@pytest.mark.parametrize("text", SHARED)
def test_hand_made_agree_with_brute_force(text: str) -> None:
    vault = parse(text, "hand-made")
    result = solve(vault)
    assert result.status is Status.OPTIMAL, result
    assert result.cost == reference_cost(vault)


@pytest.mark.parametrize("text", [
    "#######\n#@.Aa.#\n#######\n",  # the key sits behind its own door
    "#######\n#@.Ba.#\n#######\n",  # door B has no key in the grid
    "#########\n#@.Ab.Ba#\n#########\n",  # two keys locking each other
])
def test_infeasible_is_proven(text: str) -> None:
    vault = parse(text, "locked")
    assert reference_cost(vault) is None
    assert solve(vault).status is Status.INFEASIBLE


def test_no_keys_costs_nothing() -> None:
    result = solve(parse("#####\n#.@.#\n#####\n", "empty"))
    assert result.status is Status.OPTIMAL and result.cost == 0 and result.plan == []


def test_short_limit_reports_an_honest_bound() -> None:
    """2,000 units of work (0.02 s of CP-SAT's deterministic time, on any machine) do not
    prove the optimum (about 35,000 do)."""
    vault = generate(3, robots=1, loops=0)
    result = KeysCpsat().solve(vault, work_limit=2_000)
    assert result.status in (Status.FEASIBLE, Status.TIMEOUT)
    work = result.stats["work"]
    assert isinstance(work, int) and 2_000 <= work < 4_000
    optimum = get_solver("keys-graph").solve(vault, 60).cost
    assert optimum is not None
    assert result.bound is not None or result.status is Status.TIMEOUT
    assert result.bound is None or result.bound <= optimum  # a lower bound, whatever the status
    if result.cost is not None:
        assert result.plan is not None and check_plan(vault, result.plan) == result.cost >= optimum


@pytest.mark.parametrize("name", COMING_BACK)
def test_an_optimal_order_survives_the_reentry_cuts(name: str) -> None:
    """keys-grid's optimal plan, its order of first collections fixed as the ranks, is a
    solution of the model with its re-entry cuts at the same cost."""
    vault = coming_back(name)
    reference = get_solver("keys-grid").solve(vault, 60)
    assert reference.plan is not None and reference.status is Status.OPTIMAL
    model = VaultModel(vault, contract(vault))
    assert model.reentries > 0
    for position, letter in enumerate(first_collections(vault, reference.plan)):
        model.model.add(model.rank[model.cv.letters.index(letter)] == position)
    solver = configured_solver(Deadline(60.0))
    assert solver.solve(model.model) == cp_model.OPTIMAL
    assert solver.objective_value == reference.cost


#: Door A guards a cycle holding b and c: each is reached from the other without A, so no
#: single route into b or c needs a, yet every solution collects a before both.
BEHIND_ONE_DOOR = "#########\n#@.a.A..#\n#####.#.#\n#####b.c#\n#########\n"
#: The same with a way around door A: nothing is forced any more.
AROUND_THE_DOOR = "#########\n#@.a.A..#\n#.###.#.#\n#....b.c#\n#########\n"


@pytest.mark.parametrize(("text", "forced"), [(BEHIND_ONE_DOOR, [0, 0b1, 0b1]), (AROUND_THE_DOOR, [0, 0, 0])])
def test_forced_precedences_are_the_greatest_fixpoint(text: str, forced: list[int]) -> None:
    vault = parse(text, "hand-made")
    assert usable_routes(contract(vault))[1] == forced
    result = solve(vault)
    assert result.status is Status.OPTIMAL and result.cost == reference_cost(vault)


def one_pass_before(vault: Vault) -> list[int]:
    """The forced precedences of one intersection over the final routes, closed
    transitively afterwards (what keys-cpsat computed before the fixpoint)."""
    cv = contract(vault)
    arcs, _ = usable_routes(cv)
    keys = len(cv.letters)
    before = [(1 << keys) - 1] * keys
    for (source, target), routes in arcs.items():
        for route in routes:
            before[target - cv.robots] &= route.needs | (1 << (source - cv.robots) if source >= cv.robots else 0)
    for _ in range(keys):  # `keys` rounds close any chain of precedences
        before = [mask | _union(before, mask) for mask in before]
    return before


def _union(before: list[int], mask: int) -> int:
    """The union of `before[k]` over the keys k of `mask`."""
    result = 0
    for k, other in enumerate(before):
        if mask >> k & 1:
            result |= other
    return result


#: SMALL vaults where the fixpoint forces more than one pass (they are compared with the
#: brute force in `test_agrees_with_brute_force`).
FIXPOINT_BINDS = [SMALL[0], SMALL[2], SMALL[4], SMALL[5], SMALL[11], SMALL[21]]


@pytest.mark.parametrize("params", FIXPOINT_BINDS, ids=lambda p: "-".join(f"{k}{v}" for k, v in p.items()))
def test_the_fixpoint_binds_on_small_vaults(params: dict[str, int]) -> None:
    vault = generate(**params)
    forced = usable_routes(contract(vault))[1]
    weaker = one_pass_before(vault)
    assert all(mask & old == old for mask, old in zip(forced, weaker, strict=True))
    assert forced != weaker


def plain_pareto(routes: list[ArcRoute], source: int, target_before: int, before: list[int]) -> list[ArcRoute]:
    """Dominance by the routes' own needs only (keys-cpsat before the closure rule)."""
    kept: list[ArcRoute] = []
    for route in routes:
        if not any(k.length <= route.length and k.needs & route.needs == k.needs for k in kept):
            kept.append(route)
    return kept


#: SMALL vaults where dominance under the held keys drops routes plain Pareto keeps (they are
#: compared with the brute force in `test_agrees_with_brute_force`).
DOMINANCE_BINDS = [SMALL[0], SMALL[2], SMALL[4], SMALL[5], SMALL[29]]


@pytest.mark.parametrize("params", DOMINANCE_BINDS, ids=lambda p: "-".join(f"{k}{v}" for k, v in p.items()))
def test_dominance_binds_on_small_vaults(params: dict[str, int], monkeypatch: pytest.MonkeyPatch) -> None:
    cv = contract(generate(**params))
    kept = sum(len(routes) for routes in usable_routes(cv)[0].values())
    monkeypatch.setattr(cpsat, "_undominated", plain_pareto)
    assert sum(len(routes) for routes in usable_routes(cv)[0].values()) > kept


#: SMALL one-robot vaults where the next-key rule drops routes (compared with the brute force
#: in `test_agrees_with_brute_force`).
NEXT_KEY_BINDS = [SMALL[0], SMALL[3], SMALL[12], SMALL[17], SMALL[30]]


@pytest.mark.parametrize("params", NEXT_KEY_BINDS, ids=lambda p: "-".join(f"{k}{v}" for k, v in p.items()))
def test_the_next_key_rule_binds_on_small_vaults(params: dict[str, int], monkeypatch: pytest.MonkeyPatch) -> None:
    cv = contract(generate(**params))
    kept = sum(len(routes) for routes in usable_routes(cv)[0].values())
    monkeypatch.setattr(cpsat, "_next_only_after", lambda cv, source, after: 0)
    assert sum(len(routes) for routes in usable_routes(cv)[0].values()) > kept
