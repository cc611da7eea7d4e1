"""keys-grid's pieces: memoised first-key walks and the cut-packing bound, against direct computation."""

from __future__ import annotations

import ast
import itertools
import random
from pathlib import Path

import pytest
from crosscheck.models.keys.model import Vault, generate, parse
from crosscheck.solvers.engines.search import Strategy, best_first_search
from crosscheck.solvers.keys import grid as grid_search
from crosscheck.solvers.keys import grid_cuts, grid_spans, grid_walks
from crosscheck.solvers.keys.grid import WalkProblem
from crosscheck.solvers.keys.grid_walks import CellGraph, FirstKeyWalks
from crosscheck.solvers.registry import get_solver


def door_free(vault: Vault) -> Vault:
    """The vault with every door whose key exists opened (replaced by floor)."""
    rows = tuple("".join("." if ch.isupper() and ch.lower() in vault.keys else ch for ch in row) for row in vault.rows)
    return Vault(name=vault.name, rows=rows)


@pytest.mark.parametrize("seed", range(3))
def test_memoised_walks_equal_fresh_searches(seed: int) -> None:
    """A stored answer is reused only for held keys that repeat the search exactly."""
    vault = generate(seed, size=41, keys=16, loops=6, robots=1)
    graph = CellGraph(vault)
    memo, rng = FirstKeyWalks(graph), random.Random(seed)
    sources = graph.key_cells + graph.starts
    for _ in range(300):
        source, held = rng.choice(sources), rng.getrandbits(16)
        assert memo.first_keys(source, held) == FirstKeyWalks(graph).first_keys(source, held)
    assert memo.searches < 300  # the memo did answer some queries


@pytest.mark.parametrize("seed", range(4))
def test_trimming_dead_ends_changes_no_walk(seed: int) -> None:
    """Walks over the trimmed grid equal walks over the whole grid, from every terminal under
    random keys held; and the trim did remove cells (else the test compares a grid with itself)."""
    vault = generate(seed, size=41, keys=16, loops=8, robots=(1, 4)[seed % 2])
    trimmed, whole = CellGraph(vault), CellGraph(vault)
    whole.trimmed = whole.neighbours
    assert sum(map(bool, trimmed.trimmed)) < sum(map(bool, whole.neighbours))
    rng = random.Random(seed)
    for _ in range(200):
        source, held = rng.choice(trimmed.key_cells + trimmed.starts), rng.getrandbits(16)
        assert sorted(FirstKeyWalks(trimmed).first_keys(source, held)) == sorted(FirstKeyWalks(whole).first_keys(source, held))


def test_walks_stop_at_the_first_new_key_and_at_closed_doors() -> None:
    #    the robot reaches a (1 move) and A's door blocks the rest; with a held, b (3 moves) behind A
    graph = CellGraph(Vault(name="line", rows=("#######", "#@aAb.#", "#######")))
    walks = FirstKeyWalks(graph)
    start = graph.starts[0]
    assert walks.first_keys(start, 0) == ((0b01, 1, graph.key_cells[0]),)
    assert walks.first_keys(start, 0b01) == ((0b10, 3, graph.key_cells[1]),)
    assert walks.path(start, graph.key_cells[1], 0b01) == ["E", "E", "E"]


@pytest.mark.parametrize("seed", range(12))
def test_cut_bound_is_the_door_free_optimum_on_trees_and_below_every_optimum(seed: int) -> None:
    """Four-robot loop-free vaults are trees per quadrant, where the door-free bound is exact;
    with the doors, the bound only grows (keys needed first) and stays below the optimum."""
    robots, loops = (1, 4)[seed % 2], (0, 3)[seed // 2 % 2]
    vault = generate(seed, size=17, keys=7, loops=loops, robots=robots)
    relaxed, problem = WalkProblem(door_free(vault)), WalkProblem(vault)
    relaxed_bound, bound = relaxed.heuristic(relaxed.initial()), problem.heuristic(problem.initial())
    relaxed_exact = best_first_search(relaxed, Strategy.DIJKSTRA).cost
    assert relaxed_exact is not None
    assert relaxed_bound <= relaxed_exact and relaxed_bound <= bound
    assert bound <= (best_first_search(problem, Strategy.DIJKSTRA).cost or 0)
    if robots == 4 and loops == 0:
        assert relaxed_bound == relaxed_exact


def test_a_key_needed_on_the_near_side_makes_the_walk_come_back() -> None:
    """Key b lies behind door A, a on the far side of @: the walk goes to a and back past @.

    Door-free, the best walk is b (2 moves) then a (7): 9.  With the door: a (5), back to b (7): 12.
    """
    vault = Vault(name="back", rows=("##########", "#bA@....a#", "##########"))
    problem = WalkProblem(vault)
    assert problem.heuristic(problem.initial()) == 12 == best_first_search(problem, Strategy.DIJKSTRA).cost
    relaxed = WalkProblem(door_free(vault))
    assert relaxed.heuristic(relaxed.initial()) == 9


def test_a_walk_that_must_come_back_cannot_save_by_ending_far() -> None:
    """b (behind A, 2 to the west) needs a (3 east); c lies 6 east.  Door-free: b, then c: 10.
    With the door: c (passing a, 6), back to b (8): 14; ending at c would cost 16."""
    vault = Vault(name="out-and-back", rows=("###########", "#bA@..a..c#", "###########"))
    problem = WalkProblem(vault)
    assert problem.heuristic(problem.initial()) == 14 == best_first_search(problem, Strategy.DIJKSTRA).cost


def test_a_far_near_far_chain_crosses_four_times_before_a_near_end() -> None:
    """k (west, behind X) needs x (east); y (east, behind K) needs k; z lies far west.
    Best: x (1), k (3), y (5), z (13): 22, ending west; the cut east of @ is crossed three
    times before the walk turns west for good."""
    vault = Vault(name="chain", rows=("################", "#z.......kX@xKy#", "################"))
    problem = WalkProblem(vault)
    assert problem.heuristic(problem.initial()) == 22 == best_first_search(problem, Strategy.DIJKSTRA).cost


class StartingAt(WalkProblem):
    """The same search from another state."""

    def __init__(self, vault: Vault, start: int) -> None:
        super().__init__(vault)
        self.start = start

    def initial(self) -> int:
        return self.start


@pytest.mark.parametrize("seed", range(8))
def test_cut_bound_never_exceeds_the_exact_cost_to_go(seed: int) -> None:
    """State by state on small vaults: the bound against Dijkstra from that state."""
    vault = generate(seed, size=13, keys=5, loops=seed % 4, robots=(1, 4)[seed % 2])
    problem = WalkProblem(vault)
    frontier, seen = [problem.initial()], set[int]()
    while frontier and len(seen) < 40:
        state = frontier.pop()
        if state in seen:
            continue
        seen.add(state)
        exact = best_first_search(StartingAt(vault, state), Strategy.DIJKSTRA).cost
        assert exact is not None and problem.heuristic(state) <= exact
        frontier.extend(successor for _, successor, _ in problem.successors(state))


def door_free_path_optimum(spans: grid_spans.SpanBound, start: int, keys: list[int]) -> int:
    """The shortest door-free walk from terminal `start` through every key of `keys`, by trying every order."""
    return min(sum(spans.distance[a][b] for a, b in itertools.pairwise((start, *order)))
               for order in itertools.permutations(keys))


@pytest.mark.parametrize("seed", range(10))
def test_span_bound_stays_below_the_door_free_optimum_of_every_key_subset(seed: int) -> None:
    """Every subset of the keys, from every terminal: the penalised tree bound against all visiting orders."""
    vault = generate(seed, size=21, keys=6, loops=4 + seed % 3, robots=1)
    problem = WalkProblem(vault)
    spans = problem.span_bound
    assert any(spans.penalty), "the ascent moved no penalty: the test would only check the plain tree bound"
    for mask in range(1, 1 << 6):
        keys = [k for k in range(6) if mask >> k & 1]
        for terminal in [*range(6), 6]:
            if terminal not in keys:
                assert spans.bound(terminal, mask) <= door_free_path_optimum(spans, terminal, keys)


@pytest.mark.parametrize("seed", range(6))
def test_penalties_never_weaken_the_start_bound_below_the_plain_tree(seed: int) -> None:
    """The ascent keeps its best penalties, and it starts from none: the start state's bound is at
    least the plain one, nearest key plus a minimum spanning tree of all keys."""
    problem = WalkProblem(generate(seed, size=41, keys=12, loops=12, robots=1))
    spans, start = problem.span_bound, problem.keys
    plain, _ = grid_spans._spanning_tree(spans.distance, list(range(problem.keys)))
    nearest = min(spans.distance[start][:problem.keys])
    assert spans.bound(start, problem.goal) >= nearest + plain


def test_span_bound_is_exact_along_a_corridor() -> None:
    """Keys on one corridor: c (3 east) first, then b, a: 10.  The plain bound, b (1) plus the
    tree a-b-c (7), says 8; the penalties make the middle key b, a tree node of degree 2 that
    the nearest-key term picks, dearer and find 10."""
    vault = Vault(name="corridor", rows=("###########", "#a..b@..c.#", "###########"))
    problem = WalkProblem(vault)
    assert problem.span_bound.bound(problem.keys, problem.goal) == 10 == best_first_search(problem, Strategy.DIJKSTRA).cost


def test_grid_search_shares_nothing_with_the_other_formulations() -> None:
    """Its shares are disjoint from every other keys solver's, and it imports no other formulation's piece."""
    assert get_solver("keys-grid").shares == frozenset()
    for module in (grid_search, grid_walks, grid_cuts, grid_spans):
        tree = ast.parse(Path(module.__file__ or "").read_text())
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert imported.isdisjoint({"crosscheck.solvers.keys.bounds", "crosscheck.solvers.keys.routes", "crosscheck.solvers.keys.graph"})


@pytest.mark.parametrize("text", ["###\n#@#\n###\n", "#####\n#@.A#\n#####\n"], ids=["one-cell", "keyless-door"])
def test_a_vault_without_keys_costs_nothing(text: str) -> None:
    """No key to collect: optimum 0 with the empty plan (a robot alone on one cell has a
    spanning-forest component without any cut, which the cut bound once failed on)."""
    vault = parse(text, "no-keys.txt")
    for name in ("keys-grid", "keys-graph", "keys-cpsat"):
        result = get_solver(name).solve(vault, 10)
        assert (result.status.value, result.cost, result.plan) == ("optimal", 0, []), name
