"""``amphipods-stops``: its stack bound, and agreement with the other formulations and the index."""

from __future__ import annotations

import json
import math

import pytest
from crosscheck.models.amphipods.model import Burrow, check_plan, generate, parse
from crosscheck.solvers.amphipods.search import AmphipodsSearch
from crosscheck.solvers.amphipods.stops import (
    CHECK_EVERY,
    AmphipodsStops,
    StopMoves,
    after,
    base_costs,
    label,
    reachable_stacks,
    stack_moves,
    stack_predecessors,
    stacks_of,
    start_and_goal,
)
from crosscheck.solvers.base import Deadline, Result, Status

from tests.fixtures.known import INDEX, read


def solved(result: Result, burrow: Burrow) -> int:
    """The optimum a result claims, after replaying its plan (JSON round trip included)."""
    assert result.status is Status.OPTIMAL, result
    plan = json.loads(json.dumps(result.plan))
    assert check_plan(burrow, plan) == result.cost == result.bound
    return result.cost


def same_answer(burrow: Burrow, limit: float) -> None:
    """amphipods-stops and amphipods-search prove the same answer on `burrow`."""
    stops, search = AmphipodsStops().solve(burrow, limit), AmphipodsSearch().solve(burrow, limit)
    if search.status is Status.INFEASIBLE:
        assert stops.status is Status.INFEASIBLE, stops
    else:
        assert solved(stops, burrow) == solved(search, burrow)


def problem(burrow: Burrow) -> StopMoves:
    depth = burrow.depth
    start, goal = (stacks_of(cells, depth) for cells in start_and_goal(burrow))
    reachable = reachable_stacks(start, depth, Deadline(None))
    return StopMoves(burrow, base_costs(reachable, goal, depth, Deadline(None)))


def every_configuration(burrow: Burrow) -> set[str]:
    """Every configuration reachable by the rules' moves, dead ends included."""
    moves = StopMoves(burrow, {})
    seen = {moves.start}
    todo = [moves.start]
    while todo:
        state = todo.pop()
        for move, _ in moves.moves(state):
            moved = after(state, move)
            if moved not in seen:
                seen.add(moved)
                todo.append(moved)
    return seen


@pytest.mark.parametrize("rooms", ["BACD", "DCBA", "CADB"])
def test_reachable_stacks_are_exactly_the_stacks_of_reachable_configurations(rooms: str) -> None:
    burrow = Burrow(rooms, tuple(rooms))  # type: ignore[arg-type]
    configurations = every_configuration(burrow)
    start = stacks_of(start_and_goal(burrow)[0], 1)
    assert {stacks_of(c, 1) for c in configurations} == reachable_stacks(start, 1, Deadline(None))


@pytest.mark.parametrize("rooms", [("B", "A", "D", "C"), pytest.param(("BA", "CD", "DC", "AB"), marks=pytest.mark.slow)])
def test_every_arrangement_of_reachable_stacks_is_reachable(rooms: tuple[str, str, str, str]) -> None:
    """The converse: a configuration is reachable exactly when its stacks are."""
    burrow = Burrow("burrow", rooms)
    depth = burrow.depth
    reachable = reachable_stacks(stacks_of(start_and_goal(burrow)[0], depth), depth, Deadline(None))
    arrangements = sum(math.prod(math.comb(depth, len(room)) for room in state.split("|")[1:]) for state in reachable)
    assert len(every_configuration(burrow)) == arrangements


@pytest.mark.parametrize("rooms", [("D", "C", "B", "A"), pytest.param(("BA", "CB", "DC", "AD"), marks=pytest.mark.slow)])
def test_stack_predecessors_undo_exactly_the_stack_moves(rooms: tuple[str, str, str, str]) -> None:
    burrow = Burrow("burrow", rooms)
    depth = burrow.depth
    start = stacks_of(start_and_goal(burrow)[0], depth)
    reachable = reachable_stacks(start, depth, Deadline(None))
    forward = {(a, b, c) for a in reachable for b, c in stack_moves(a, depth)}
    backward = {(a, b, c) for b in reachable for a, c in stack_predecessors(b, depth) if a in reachable}
    assert forward == backward
    assert len(forward) > 1000


@pytest.mark.parametrize("rooms", ["DCBA", "CADB", "BDAC"])
def test_heuristic_never_overestimates_along_an_optimal_plan(rooms: str) -> None:
    burrow = Burrow(rooms, tuple(rooms))  # type: ignore[arg-type]
    result = AmphipodsStops().solve(burrow, 60)
    remaining = solved(result, burrow)
    moves = problem(burrow)
    state = moves.start
    assert moves.heuristic(state) > 0
    for move in result.plan or []:
        assert moves.heuristic(state) <= remaining
        state, cost = next((after, cost) for (a, b), after, cost in moves.successors(state)
                           if (label(a, 1), label(b, 1)) == tuple(move))
        remaining -= cost
    assert remaining == 0 and moves.is_goal(state)


@pytest.mark.parametrize("seed", range(12))
def test_agrees_with_search_on_seeded_depth1_burrows(seed: int) -> None:
    same_answer(generate(seed, depth=1), 60)


@pytest.mark.parametrize("seed", range(4))
def test_agrees_with_search_when_some_amphipods_are_settled(seed: int) -> None:
    """One swap of a sorted depth-1 burrow leaves two amphipods home; they may still move."""
    same_answer(generate(seed, depth=1, swaps=1), 60)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(("depth", "swaps"), [(2, 2), (3, 3), (4, 3)])
def test_agrees_with_search_when_most_amphipods_are_settled(depth: int, swaps: int, seed: int) -> None:
    same_answer(generate(seed, depth=depth, swaps=swaps), 300)


@pytest.mark.parametrize("name", ["amphipods/generated/d4/burrow-d4-random-s3.txt",
                                  pytest.param("amphipods/generated/d4-real/burrow-d4-real-s1.txt",
                                               marks=pytest.mark.slow)])
def test_proves_the_depth4_burrows_without_solution(name: str) -> None:
    assert INDEX[name].get("infeasible") is True
    result = AmphipodsStops().solve(parse(read(name), name), 60)
    assert result.status is Status.INFEASIBLE, result
    stacks = result.stats["stacks"]
    assert isinstance(stacks, int) and stacks > 10_000 and result.stats["stacks_to_goal"] == 0


def test_timeout_is_honest() -> None:
    """Cut after 20,000 of the about 160,000 room stacks it enumerates first (on any machine)."""
    burrow = parse(read("amphipods/depth4-b.txt"), "depth4-b")
    result = AmphipodsStops().solve(burrow, work_limit=20_000)
    assert result.status is Status.TIMEOUT and result.cost is None and result.plan is None
    assert result.stats["work"] == 5 * CHECK_EVERY  # the first check past the limit


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(n for n in INDEX if n.startswith("amphipods/")))
def test_matches_the_index(name: str) -> None:
    burrow = parse(read(name), name)
    result = AmphipodsStops().solve(burrow, 120)
    if INDEX[name].get("infeasible"):
        assert result.status is Status.INFEASIBLE, result
    else:
        assert solved(result, burrow) == INDEX[name]["optimum"]


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("depth", [2, 3, 4, 5])
def test_agrees_with_search_on_seeded_deeper_burrows(depth: int, seed: int) -> None:
    same_answer(generate(seed, depth=depth), 300)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_agrees_with_search_on_seeded_real_depth4_burrows(seed: int) -> None:
    same_answer(generate(seed, depth=4, style="real"), 300)
