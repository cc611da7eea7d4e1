"""The best-first engine against brute force on seeded random graphs."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest
from crosscheck.solvers.base import Deadline, Status
from crosscheck.solvers.engines.search import CHECK_EVERY, Ending, SearchProblem, Strategy, best_first_search


class Graph(SearchProblem[int, tuple[int, int]]):
    """A weighted digraph; goal is node `goal`; heuristic given per node."""

    def __init__(self, edges: dict[int, list[tuple[int, int]]], goal: int, h: dict[int, int] | None = None) -> None:
        self.edges, self.goal, self.h = edges, goal, h or {}

    def initial(self) -> int:
        return 0

    def is_goal(self, state: int) -> bool:
        return state == self.goal

    def successors(self, state: int) -> Iterator[tuple[tuple[int, int], int, int]]:
        for target, cost in self.edges.get(state, []):
            yield (state, target), target, cost

    def heuristic(self, state: int) -> int:
        return self.h.get(state, 0)


def random_graph(seed: int, nodes: int = 9, unit: bool = False) -> Graph:
    """A seeded graph whose heuristic is a random fraction of each node's true distance
    to the goal (admissible, often inconsistent; any value where the goal is unreachable)."""
    rng = random.Random(seed)
    edges = {
        u: [(v, 1 if unit else rng.randint(0, 9)) for v in rng.sample(range(nodes), rng.randint(0, 3))]
        for u in range(nodes)
    }
    graph = Graph(edges, goal=nodes - 1)
    to_goal = {u: brute_force(Graph(edges, graph.goal), nodes, start=u) for u in range(nodes)}
    graph.h = {u: rng.randint(0, 99) if d is None else int(d * rng.random()) for u, d in to_goal.items()}
    return graph


def brute_force(graph: Graph, nodes: int, start: int = 0) -> int | None:
    """Bellman-Ford style relaxation: the independent reference."""
    dist = {start: 0}
    for _ in range(nodes):
        for u, outs in graph.edges.items():
            if u in dist:
                for v, c in outs:
                    if dist[u] + c < dist.get(v, 10**9):
                        dist[v] = dist[u] + c
    return dist.get(graph.goal)


def path_cost(graph: Graph, actions: list[tuple[int, int]]) -> int:
    node, total = 0, 0
    for u, v in actions:
        assert u == node
        total += min(c for t, c in graph.edges[u] if t == v)
        node = v
    assert node == graph.goal
    return total


def test_random_heuristics_are_informative() -> None:
    """The graphs below give A* real guidance (not a zero heuristic) in most cases."""
    assert sum(any(random_graph(seed).h.values()) for seed in range(60)) > 30


@pytest.mark.parametrize("seed", range(60))
def test_dijkstra_and_astar_match_brute_force(seed: int) -> None:
    graph = random_graph(seed)
    expected = brute_force(graph, 9)
    deep = Graph(graph.edges, graph.goal, graph.h)
    deep.deeper_ties = True
    for strategy, problem in ((Strategy.DIJKSTRA, graph), (Strategy.ASTAR, graph), (Strategy.ASTAR, deep)):
        outcome = best_first_search(problem, strategy)
        if expected is None:
            assert outcome.status == "exhausted" and outcome.cost is None
        else:
            assert outcome.status == "solved" and outcome.cost == expected
            assert outcome.actions is not None
            assert path_cost(graph, outcome.actions) == expected
        assert outcome.expanded <= outcome.generated + 1


class Dominated(Graph):
    """A graph whose node u names as dominators the later nodes (a strict order) no farther
    from the goal; `lying` names every later node, true or not."""

    def __init__(self, graph: Graph, nodes: int, lying: bool = False) -> None:
        super().__init__(graph.edges, graph.goal, graph.h)
        far = 10**9
        distances = (brute_force(Graph(graph.edges, graph.goal), nodes, start=u) for u in range(nodes))
        to_goal = [far if distance is None else distance for distance in distances]
        self.better = {
            u: [v for v in range(u + 1, nodes) if lying or to_goal[v] <= to_goal[u]]
            for u in range(nodes)
        }

    def dominators(self, state: int) -> list[int]:
        return self.better[state]


@pytest.mark.parametrize("seed", range(60))
def test_astar_skipping_dominated_states_matches_brute_force(seed: int) -> None:
    graph = random_graph(seed)
    outcome = best_first_search(Dominated(graph, 9), Strategy.ASTAR)
    assert outcome.cost == brute_force(graph, 9)
    if outcome.actions is not None:
        assert path_cost(graph, outcome.actions) == outcome.cost


def test_lying_dominators_do_break_astar() -> None:
    """The check above can fail: dominators that cost more to finish lose the optimum somewhere."""
    wrong = [seed for seed in range(60) if best_first_search(Dominated(random_graph(seed), 9, lying=True),
                                                            Strategy.ASTAR).cost != brute_force(random_graph(seed), 9)]
    assert wrong


@pytest.mark.parametrize("seed", range(30))
def test_bfs_matches_brute_force_on_unit_graphs(seed: int) -> None:
    graph = random_graph(seed, unit=True)
    expected = brute_force(graph, 9)
    outcome = best_first_search(graph, Strategy.BFS)
    assert outcome.cost == expected
    if expected is not None:
        assert outcome.actions is not None and len(outcome.actions) == expected


def test_inconsistent_admissible_heuristic_still_optimal() -> None:
    # 0 -> 1 (1), 0 -> 2 (4), 1 -> 2 (1), 2 -> 3 (5).  h(1) = 6 is admissible (true 6) but
    # inconsistent with h(0) = 0; the engine must reopen 2 when reached more cheaply.
    edges = {0: [(1, 1), (2, 4)], 1: [(2, 1)], 2: [(3, 5)]}
    outcome = best_first_search(Graph(edges, 3, {1: 6, 2: 0}), Strategy.ASTAR)
    assert outcome.cost == 7 and outcome.actions == [(0, 1), (1, 2), (2, 3)]


def test_deeper_ties_expand_the_deeper_of_equal_f_first() -> None:
    # 0 -> 1 -> 3 (goal) and 0 -> 2 -> 4, every edge 1; f is 2 everywhere.  In order of
    # arrival 2 is expanded before 3 is popped; deeper first, 3 (g = 2) goes before 2 (g = 1).
    edges = {0: [(1, 1), (2, 1)], 1: [(3, 1)], 2: [(4, 1)]}
    h = {0: 2, 1: 1, 2: 1, 4: 0}
    plain, deep = Graph(edges, 3, h), Graph(edges, 3, h)
    deep.deeper_ties = True
    assert best_first_search(plain, Strategy.ASTAR).expanded == 3
    outcome = best_first_search(deep, Strategy.ASTAR)
    assert outcome.expanded == 2 and outcome.cost == 2


def test_bfs_refuses_weighted_actions() -> None:
    with pytest.raises(ValueError):
        best_first_search(Graph({0: [(1, 2)]}, 1), Strategy.BFS)


class Endless(SearchProblem[int, int]):
    def initial(self) -> int:
        return 0

    def is_goal(self, state: int) -> bool:
        return False

    def successors(self, state: int) -> Iterator[tuple[int, int, int]]:
        yield 1, state + 1, 1


@pytest.mark.parametrize("strategy", list(Strategy))
def test_timeout_reports_a_lower_bound(strategy: Strategy) -> None:
    outcome = best_first_search(Endless(), strategy, Deadline(0.05))
    assert outcome.status == "timeout"
    assert outcome.bound is not None and outcome.bound > 0
    assert outcome.expanded > 0


@pytest.mark.parametrize("strategy", list(Strategy))
def test_a_work_limit_stops_the_search_at_the_first_check_past_it(strategy: Strategy) -> None:
    """A chain whose goal lies 20,000 steps away, cut after 2,000 expansions: the search
    stops at its first deadline check past them, on any machine, with the depth as bound."""
    chain = Graph({i: [(i + 1, 1)] for i in range(20_000)}, 20_000)
    assert best_first_search(chain, strategy).cost == 20_000  # without a limit it gets there
    deadline = Deadline(None, work=2_000)
    outcome = best_first_search(chain, strategy, deadline)
    checks = -(-2_000 // CHECK_EVERY)  # rounded up
    assert (outcome.status, outcome.expanded, deadline.spent) == (Ending.TIMEOUT, checks * CHECK_EVERY,
                                                                 checks * CHECK_EVERY)
    assert outcome.bound == checks * CHECK_EVERY - 1  # the depth of the last state expanded
    assert deadline.limit_reached() == "work limit"


def test_a_deadline_counts_work_until_its_limit() -> None:
    deadline = Deadline(None, work=10)
    assert not deadline.expired(4) and not deadline.expired() and deadline.work_left() == 6
    assert not deadline.expired(5) and deadline.limit_reached() == "time limit"
    assert deadline.expired(1) and deadline.work_left() == 0 and deadline.limit_reached() == "work limit"
    unlimited = Deadline(None)
    assert not unlimited.expired(10**9) and unlimited.work_left() is None and unlimited.spent == 10**9


def test_counters_count_expansions() -> None:
    chain = Graph({i: [(i + 1, 1)] for i in range(5)}, 5)
    outcome = best_first_search(chain, Strategy.DIJKSTRA)
    assert (outcome.cost, outcome.expanded, outcome.generated) == (5, 5, 6)
    assert list(itertools.chain(outcome.stats())) == ["expanded", "generated"]


def test_each_ending_becomes_its_answer() -> None:
    edges = {0: [(1, 2)], 1: [(2, 3)]}
    solved = best_first_search(Graph(edges, 2), Strategy.DIJKSTRA).answer(lambda actions: [v for _, v in actions])
    assert (solved.status, solved.cost, solved.bound, solved.plan) == (Status.OPTIMAL, 5, 5, [1, 2])
    assert solved.stats == {"expanded": 2, "generated": 3}
    exhausted = best_first_search(Graph(edges, 7), Strategy.DIJKSTRA).answer(infeasible="why", stats={"extra": 1})
    assert (exhausted.status, exhausted.plan, exhausted.message, exhausted.stats["extra"]) == (
        Status.INFEASIBLE, None, "why", 1)
    timeout = best_first_search(Endless(), Strategy.BFS, Deadline(0.01))
    assert timeout.status is Ending.TIMEOUT
    answer = timeout.answer()
    assert (answer.status, answer.bound, answer.plan) == (Status.TIMEOUT, timeout.bound, None)
