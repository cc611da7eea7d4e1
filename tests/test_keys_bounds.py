"""The graph search's bound against exact costs-to-go, state by state.

The re-entry term (a bridge crossed twice more because a key behind it must be
fetched before a key on this side, which opens the way to another key behind it) is
exact on `REENTRY` and active in many states of the 41x41 vaults of `vaults`.

The bound lets a robot alone in its component end only on a key that no other
remaining key needs first, where "needs" means: every route to it needs that key.
Using only the shortest route's needs would be wrong; `FAR_KEY_LAST` shows it.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest
from crosscheck.models.keys.model import Vault, generate, parse
from crosscheck.solvers.base import Deadline
from crosscheck.solvers.engines.search import Ending, Strategy, best_first_search
from crosscheck.solvers.keys import graph_kernel
from crosscheck.solvers.keys.cycle_tours import biconnected_components, held_karp_tables
from crosscheck.solvers.keys.graph import ContractedProblem, remaining_keys_bound
from crosscheck.solvers.keys.graph_compiled import bound_tables, compiled_search, route_tables
from crosscheck.solvers.keys.routes import contract
from crosscheck.solvers.registry import get_solver

from tests.fixtures import INSTANCES

EXAMPLES = INSTANCES / "keys"

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

# Two rings of 8 moves, 7 moves left and right of @, each with its key opposite the way in.
# Best: 7 + 4 + 4 to one key and back round its ring, 14 to the other ring, 4 more: 33.
# Its tour around the first ring counts all 8 moves (a path through each ring only 4: 29).
TWO_RINGS = parse(
    "#####################\n"
    "#...#############...#\n"
    "#a#.......@.......#b#\n"
    "#...#############...#\n"
    "#####################\n",
    "two-rings",
)


def cost_to_go(problem: ContractedProblem, costs: dict[int, float]) -> Callable[[int], float]:
    """The exact cost from any state to the goal, memoised in `costs` (each action adds a
    key, so states form a DAG)."""

    def cost(state: int) -> float:
        if state not in costs:
            if problem.is_goal(state):
                costs[state] = 0
            else:
                costs[state] = min(
                    (step + cost(after) for _, after, step in problem.successors(state)), default=float("inf")
                )
        return costs[state]

    return cost


def exact_costs(problem: ContractedProblem) -> dict[int, float]:
    """Cost-to-go of every reachable state."""
    costs: dict[int, float] = {}
    cost_to_go(problem, costs)(problem.initial())
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
    # as dense in cycles as the 81x81 loops=71 family (its biconnected components carry the bound)
    dense = [generate(seed, size=(13, 17, 21)[seed % 3], keys=8, loops=(8, 16, 30)[seed % 3],
                      robots=1 + 3 * (seed % 4 == 1)) for seed in range(200, 212)]
    # 41x41 tree-like vaults with 16 keys where many states force a re-entry
    doors = [generate(seed, size=41, keys=16) for seed in (322, 325, 327)]
    return [FAR_KEY_LAST, REENTRY, TWO_RINGS, *loops, *generated, *loopy, *dense, *doors]


@pytest.mark.parametrize("vault", vaults(), ids=lambda vault: vault.name)
def test_bound_never_exceeds_the_cost_to_go(vault: Vault) -> None:
    problem = ContractedProblem(contract(vault))
    for state, cost in exact_costs(problem).items():
        assert problem.heuristic(state) <= cost, (state, cost)


# loopy vaults where some states are skipped (every state with one more key reached as cheaply)
SKIPPING = [generate(0, size=25, keys=10, loops=20), *(generate(seed, size=41, keys=14, loops=40) for seed in range(4))]


@pytest.mark.parametrize("vault", [*vaults()[3:20], SKIPPING[0]], ids=lambda vault: vault.name)
def test_dominators_never_cost_more_to_finish(vault: Vault) -> None:
    """The contract A* skips states on: a dominator (one more key held) costs no more to finish."""
    problem = ContractedProblem(contract(vault))
    costs = exact_costs(problem)
    cost = cost_to_go(problem, costs)
    for state in list(costs):
        for other in problem.dominators(state):
            assert other != state and other & state == state
            assert cost(other) <= costs[state], (state, other)


class WithoutDominance(ContractedProblem):
    """The same search with no state ever skipped."""

    def dominators(self, state: int) -> list[int]:
        return []


def test_skipping_dominated_states_keeps_the_optimum_and_saves_expansions() -> None:
    expanded = {True: 0, False: 0}
    for vault in SKIPPING:
        contracted = contract(vault)
        plain = best_first_search(WithoutDominance(contracted), Strategy.ASTAR)
        skipping = best_first_search(ContractedProblem(contracted), Strategy.ASTAR)
        assert skipping.cost == plain.cost
        expanded[True] += skipping.expanded
        expanded[False] += plain.expanded
    problem = ContractedProblem(contract(SKIPPING[0]))
    assert best_first_search(problem, Strategy.ASTAR).cost == exact_costs(problem)[problem.initial()]
    assert expanded[True] < expanded[False]


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


def test_tours_round_cycles_are_exact_on_two_rings() -> None:
    problem = ContractedProblem(contract(TWO_RINGS))
    start = problem.initial()
    assert exact_costs(problem)[start] == 33
    assert problem.heuristic(start) == 33


@pytest.mark.parametrize("size", range(1, 7))
def test_held_karp_tables_match_every_order(size: int) -> None:
    rng = random.Random(size)
    points = [(rng.randint(0, 9), rng.randint(0, 9)) for _ in range(size)]
    distances = [[abs(a[0] - b[0]) + abs(a[1] - b[1]) for b in points] for a in points]
    tours, opens = held_karp_tables(distances)
    for mask in range(1, 1 << size):
        chosen = [i for i in range(size) if mask >> i & 1]
        orders = list(itertools.permutations(chosen))
        length = [sum(distances[a][b] for a, b in itertools.pairwise(order)) for order in orders]
        closed = [n + distances[order[-1]][order[0]] for n, order in zip(length, orders, strict=True)]
        assert tours[mask] == (min(closed) if len(chosen) > 1 else 0)
        for first in chosen:
            assert opens[mask * size + first] == min(n for n, o in zip(length, orders, strict=True) if o[0] == first)


def _blocks_by_definition(vertices: int, edges: list[tuple[int, int]]) -> set[frozenset[int]]:
    """Biconnected components as the classes of: two edges at a vertex v whose other ends
    are equal or joined without v (the closure of that relation)."""
    group = list(range(len(edges)))

    def find(e: int) -> int:
        while group[e] != e:
            e = group[e]
        return e

    for v in range(vertices):
        at = [(e, b if a == v else a) for e, (a, b) in enumerate(edges) if v in (a, b) and a != b]
        for (e, x), (f, y) in itertools.combinations(at, 2):
            seen, frontier = {x}, [x]
            while frontier:
                u = frontier.pop()
                for a, b in edges:
                    for p, q in ((a, b), (b, a)):
                        if p == u and q != v and q not in seen:
                            seen.add(q)
                            frontier.append(q)
            if y in seen:
                group[find(e)] = find(f)
    classes: dict[int, set[int]] = {}
    for e in range(len(edges)):
        classes.setdefault(find(e), set()).add(e)
    return {frozenset(c) for c in classes.values()}


@pytest.mark.parametrize("seed", range(40))
def test_biconnected_components_match_the_definition(seed: int) -> None:
    """Random multigraphs (parallel edges, several connected parts) against the closure above."""
    rng = random.Random(seed)
    vertices = rng.randint(2, 9)
    edges = []
    for _ in range(rng.randint(1, 14)):
        a, b = rng.sample(range(vertices), 2)
        edges.append((a, b))
    around: list[list[tuple[int, int, int]]] = [[] for _ in range(vertices)]
    for e, (a, b) in enumerate(edges):
        around[a].append((b, e, 1))
        around[b].append((a, e, 1))
    found = biconnected_components(around)
    assert sorted(e for component in found for e in component) == list(range(len(edges)))
    assert {frozenset(component) for component in found} == _blocks_by_definition(vertices, edges)


def compiling(candidates: list[Vault]) -> list[Vault]:
    """The vaults of `candidates` that keys-graph searches in compiled code."""
    return [vault for vault in candidates if ContractedProblem(contract(vault)).compiles()]


@pytest.mark.parametrize("vault", compiling(vaults()), ids=lambda vault: vault.name)
def test_compiled_bound_is_the_python_bound(vault: Vault) -> None:
    """`graph_kernel.state_bound` equals `ContractedProblem.heuristic` on every reachable state
    (so the admissibility shown above carries over to the compiled search)."""
    problem = ContractedProblem(contract(vault))
    tables, (routes, _) = bound_tables(problem.bound), route_tables(problem)
    for state in exact_costs(problem):
        assert graph_kernel.state_bound(tables, routes, state) == problem.heuristic(state), state


@pytest.mark.parametrize("vault", compiling([*vaults(), *SKIPPING]), ids=lambda vault: vault.name)
def test_compiled_search_finds_the_engines_optimum(vault: Vault) -> None:
    """Same optimum as the engine's A* over the Python problem, by a chain of routes of that cost
    from the start; with arrays of room for 8 states, they grow (and the search resumes) often."""
    problem = ContractedProblem(contract(vault))
    engine = best_first_search(problem, Strategy.ASTAR)
    compiled = compiled_search(problem, capacity=8)
    cost, actions = compiled.solution()
    assert cost == engine.cost and compiled.expanded > 0
    state = problem.initial()
    for action in actions:
        state, step = next((after, step) for move, after, step in problem.successors(state) if move == action)
        cost -= step
    assert problem.is_goal(state) and cost == 0


def test_compiled_search_stops_at_the_work_limit_with_a_bound() -> None:
    problem = ContractedProblem(contract(SKIPPING[1]))
    optimum = compiled_search(problem).solution()[0]
    stopped = compiled_search(problem, Deadline(None, work=5))
    assert stopped.status is Ending.TIMEOUT and stopped.expanded == 5
    assert stopped.bound is not None and 0 < stopped.bound <= optimum  # the smallest open f


def test_a_state_too_wide_for_the_kernel_is_searched_in_python() -> None:
    """Twelve robots each alone with a key pack a state into 72 bits: the engine searches it."""
    rows = ["#######", "#@...#", "#.#.a#", "#....#", "#######"]
    for letter in "bcdefghijkl":
        rows += ["#@" + letter + "####", "#######"]
    vault = parse("\n".join(row.ljust(7, "#") for row in rows) + "\n", "many-robots")
    problem = ContractedProblem(contract(vault))
    assert problem.packing.shift(problem.packing.robots) > 63 and not problem.compiles()
    assert get_solver("keys-graph").solve(vault).cost == 15
