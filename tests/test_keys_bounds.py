"""The graph search's bound against exact costs-to-go, state by state.

The re-entry term (a bridge crossed twice more because a key behind it must be
fetched before a key on this side, which opens the way to another key behind it) is
exact on `REENTRY` and active in many states of the 41x41 vaults of `vaults`.

The bound lets a robot alone in its component end only on a key that no other
remaining key needs first, where "needs" means: every route to it needs that key.
Using only the shortest route's needs would be wrong; `FAR_KEY_LAST` shows it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from crosscheck.models.keys import Vault, generate, parse
from crosscheck.solvers.keys.graph_search import ContractedProblem, remaining_keys_bound
from crosscheck.solvers.keys.routes import contract

EXAMPLES = Path(__file__).resolve().parent.parent / "instances" / "keys"

# The short way from @ to k crosses door E (5 moves), the long way does not (9).
# Best: k the long way, then back to e, 20 beyond @: 9 + 9 + 20 = 38, ending at e.
FAR_KEY_LAST = parse(
    "############################\n"
    "#e...................@..E.k#\n"
    "#####################.####.#\n"
    "#####################......#\n"
    "############################\n",
    "far-key-last",
)

# @ at 5: a (7) opens A on the way to b (1), b opens B on the way to c (11).  The
# tree walk gives 20 - 6 = 14 (c is the only possible last key); the bridge right of
# @ up to a is crossed in, out (for b) and in again (for c): 2 * 2 more, 18 in all.
REENTRY = parse("#############\n#b.A.@.a.B.c#\n#############\n", "reentry")


def exact_costs(problem: ContractedProblem) -> dict[int, float]:
    """Cost-to-go of every reachable state (each action adds a key, so states form a DAG)."""
    costs: dict[int, float] = {}

    def cost(state: int) -> float:
        if state not in costs:
            if problem.is_goal(state):
                costs[state] = 0
            else:
                costs[state] = min(
                    (step + cost(after) for _, after, step in problem.successors(state)), default=float("inf")
                )
        return costs[state]

    cost(problem.initial())
    return costs


def vaults() -> list[Vault]:
    loops = [parse((EXAMPLES / name).read_text(), name) for name in ("loop-1.txt", "four-robots-2.txt")]
    generated = [
        generate(seed, size=(9, 13, 17)[seed % 3], keys=6, loops=(2, 5, 8)[seed % 3], robots=1 + 3 * (seed % 4 == 3))
        for seed in range(12)
    ]
    # loopy vaults, where the block walks (steps inside cycles) carry most of the bound
    loopy = [generate(seed, size=(17, 21, 25)[seed % 3], keys=8, loops=(6, 12, 20)[seed % 3],
                      robots=1 + 3 * (seed % 4 == 3)) for seed in range(100, 108)]
    # 41x41 tree-like vaults with 16 keys where many states force a re-entry
    doors = [generate(seed, size=41, keys=16) for seed in (322, 325, 327)]
    return [FAR_KEY_LAST, REENTRY, *loops, *generated, *loopy, *doors]


@pytest.mark.parametrize("vault", vaults(), ids=lambda vault: vault.name)
def test_bound_never_exceeds_the_cost_to_go(vault: Vault) -> None:
    problem = ContractedProblem(contract(vault))
    for state, cost in exact_costs(problem).items():
        assert problem.heuristic(state) <= cost, (state, cost)


def test_a_key_needed_only_by_the_shortest_route_can_still_be_last() -> None:
    vault = contract(FAR_KEY_LAST)
    problem = ContractedProblem(vault)
    start = problem.initial()
    assert exact_costs(problem)[start] == 38
    e, k = 0, 1  # key bits, alphabetical
    node = problem.packing.positions(start)[0]
    to_k = [route for route in vault.routes[node] if route.target == problem.packing.robots + k]
    shortest = min(to_k, key=lambda route: route.length)
    assert shortest.needs == 1 << e
    assert problem.heuristic(start) <= 38
    # the naive rule (shortest route to k needs e, so e is never last) overshoots
    needers = [[0, 0] for _ in vault.cells]
    needers[node][e] = 1 << k
    naive = remaining_keys_bound(vault, problem.distances, needers)
    assert naive.bound([node], 0b11) > 38


def test_reentry_term_is_exact_on_a_line() -> None:
    problem = ContractedProblem(contract(REENTRY))
    start = problem.initial()
    assert exact_costs(problem)[start] == 18
    assert problem.heuristic(start) == 18
