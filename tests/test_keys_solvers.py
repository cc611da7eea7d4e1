"""Key vault solvers: published optima, replayed plans, and agreement on generated vaults.

Every registered keys solver takes part (`solvers_for("keys")`), so a new formulation
joins these tests by being registered.
"""

from __future__ import annotations

import json
from typing import TypeVar

import pytest
from crosscheck.models.keys.model import Vault, check_plan, generate, max_loops, parse
from crosscheck.solvers.base import Solver, Status
from crosscheck.solvers.engines.search import CHECK_EVERY, SearchProblem, Strategy, best_first_search
from crosscheck.solvers.keys.graph import ContractedProblem
from crosscheck.solvers.keys.grid import WalkProblem
from crosscheck.solvers.keys.routes import contract
from crosscheck.solvers.registry import solvers_for

from tests.fixtures import INSTANCES
from tests.fixtures.known import INDEX, published_optima

EXAMPLES = sorted(published_optima("keys"))
#: Generated vaults up to 81x81; one-robot vaults with loops take keys-graph several seconds.
GENERATED = [pytest.param(name, marks=[pytest.mark.slow] if "-l20-r1-" in name else [])
             for name in sorted(INDEX) if name.startswith("keys/generated/")]
SOLVERS = [solver.name for solver in solvers_for("keys")]
LIMIT = 60.0

A = TypeVar("A")


def solver(name: str) -> Solver:
    return next(s for s in solvers_for("keys") if s.name == name)


def assert_verified_optimum(name: str, vault: Vault, expected: int | None = None) -> int:
    result = solver(name).solve(vault, LIMIT)
    assert result.status is Status.OPTIMAL, result.message
    assert result.bound == result.cost
    assert check_plan(vault, json.loads(json.dumps(result.plan))) == result.cost
    if expected is not None:
        assert result.cost == expected
    return result.cost


def test_both_search_formulations_are_registered() -> None:
    assert {"keys-grid", "keys-graph"} <= set(SOLVERS)


#: (solver, example) pairs that take over ten seconds even on an idle machine.
SLOW_PAIRS = {("keys-cpsat", "keys/one-robot-4.txt"), ("keys-fd", "keys/one-robot-4.txt")}
#: Pairs beyond the formulation's stated reach (`Solver.reach`): keys-sat proves no optimum of 16 keys
#: within the limit (docs/results.md, "Certified optima").
BEYOND_REACH = {("keys-sat", "keys/one-robot-4.txt")}


@pytest.mark.parametrize(("name", "example"), [
    pytest.param(name, example, marks=[pytest.mark.slow] if (name, example) in SLOW_PAIRS else [])
    for example in EXAMPLES for name in SOLVERS if (name, example) not in BEYOND_REACH
])
def test_published_examples(name: str, example: str) -> None:
    vault = parse((INSTANCES / example).read_text(), example)
    assert_verified_optimum(name, vault, INDEX[example]["optimum"])


@pytest.mark.parametrize("example", GENERATED)
def test_graph_search_reproduces_the_recorded_optima_of_generated_vaults(example: str) -> None:
    """Regression guard: the optima that formulations agreed on when they were recorded."""
    vault = parse((INSTANCES / example).read_text(), example)
    assert_verified_optimum("keys-graph", vault, INDEX[example]["optimum"])


@pytest.mark.parametrize("name", SOLVERS)
def test_unreachable_key_is_infeasible(name: str) -> None:
    result = solver(name).solve(parse("######\n#@Ab.#\n######\n"), LIMIT)
    assert result.status is Status.INFEASIBLE and result.plan is None


def agreement_vault(seed: int) -> Vault:
    """Small vaults: sizes 9/13/17, with and without loops (as many as a 9x9 maze takes at
    most), one or four robots."""
    size = (9, 13, 17)[seed % 3]
    robots = 4 if seed % 4 == 3 and size < 17 else 1
    loops = min((0, 2, 5)[seed // 3 % 3], max_loops(size))
    return generate(seed, size=size, keys=5 if robots == 4 else 7, loops=loops, robots=robots)


@pytest.mark.parametrize("seed", range(54))
def test_solvers_agree_on_generated_vaults(seed: int) -> None:
    vault = agreement_vault(seed)
    costs = {name: assert_verified_optimum(name, vault) for name in SOLVERS}
    assert len(set(costs.values())) == 1, costs


@pytest.mark.parametrize("seed", range(0, 54, 5))
def test_heuristics_are_admissible(seed: int) -> None:
    """A* with each bound finds the cost that Dijkstra (no heuristic) finds."""
    vault = agreement_vault(seed)
    assert_admissible(WalkProblem(vault))
    assert_admissible(ContractedProblem(contract(vault)))


def assert_admissible(problem: SearchProblem[int, A]) -> None:
    """A* finds the optimum Dijkstra finds, and the heuristic at the start is at most it."""
    exact = best_first_search(problem, Strategy.DIJKSTRA).cost
    assert exact is not None
    assert problem.heuristic(problem.initial()) <= exact
    assert best_first_search(problem, Strategy.ASTAR).cost == exact


def test_grid_search_times_out_honestly_on_a_large_vault() -> None:
    """About 1,550 states to expand, cut after 500 (on any machine): a timeout whose bound
    is proven, so at most the optimum, after the one check past the limit."""
    example = "keys/generated/s81-k26-loops20/vault81-k26-d24-l20-r1-s1.txt"
    vault = parse((INSTANCES / example).read_text(), example)
    result = solver("keys-grid").solve(vault, work_limit=500)
    assert result.status is Status.TIMEOUT and result.plan is None
    assert result.stats["expanded"] == result.stats["work"] == CHECK_EVERY
    assert result.bound is not None and 0 < result.bound <= INDEX[example]["optimum"]


@pytest.mark.parametrize("example", GENERATED)
def test_grid_search_reproduces_the_recorded_optima_of_generated_vaults(example: str) -> None:
    """Real-size vaults (81x81, 26 keys, one and four robots, with and without loops)."""
    vault = parse((INSTANCES / example).read_text(), example)
    assert_verified_optimum("keys-grid", vault, INDEX[example]["optimum"])


@pytest.mark.parametrize("seed", range(6))
def test_grid_and_graph_search_agree_on_larger_generated_vaults(seed: int) -> None:
    """41x41 vaults with 16 keys, with and without loops, one and four robots."""
    vault = generate(seed, size=41, keys=16, loops=(0, 8)[seed % 2], robots=(1, 4)[seed // 2 % 2])
    assert assert_verified_optimum("keys-grid", vault) == assert_verified_optimum("keys-graph", vault)


@pytest.mark.parametrize("seed", range(8))
def test_grid_and_graph_search_agree_on_vaults_dense_in_cycles(seed: int) -> None:
    """21x21 vaults with 10 keys and 30 loops (as dense in cycles as the 81x81 loops=71
    family), one and four robots: keys-graph's bound rests on their biconnected components."""
    vault = generate(seed, size=21, keys=10, loops=30, robots=(1, 4)[seed % 2])
    assert assert_verified_optimum("keys-grid", vault) == assert_verified_optimum("keys-graph", vault)


# A door whose key is absent (Z) never opens: the short way to b is closed, 2 + 10 moves.
ABSENT_KEY_DOOR = "#########\n#b.Z.@.a#\n#.#####.#\n#.......#\n#########\n"
# Key a lies behind its own door A; the way round the loop reaches it in 9 moves.
OWN_DOOR_LOOP = "#######\n#@.Aa.#\n#.###.#\n#.....#\n#######\n"


@pytest.mark.parametrize("name", SOLVERS)
@pytest.mark.parametrize(("text", "optimum"), [(ABSENT_KEY_DOOR, 12), (OWN_DOOR_LOOP, 9)])
def test_doors_without_their_key_stay_closed(name: str, text: str, optimum: int) -> None:
    assert_verified_optimum(name, parse(text), optimum)


@pytest.mark.parametrize("name", SOLVERS)
def test_key_only_behind_its_own_door_is_infeasible(name: str) -> None:
    result = solver(name).solve(parse("#######\n#@.Aa.#\n#######\n"), LIMIT)
    assert result.status is Status.INFEASIBLE and result.plan is None
