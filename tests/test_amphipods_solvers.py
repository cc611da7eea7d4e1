"""Amphipod formulations: examples, agreement on seeded burrows, honest timeouts."""

from __future__ import annotations

import heapq
import itertools
import json
from collections.abc import Callable, Iterable
from typing import TypeVar

import pytest
from crosscheck.models.amphipods.model import ENERGY, KINDS, ROOM_DOORS, Burrow, check_plan, generate, parse
from crosscheck.solvers.amphipods.common import Layout
from crosscheck.solvers.amphipods.cpsat import AmphipodsCpsat
from crosscheck.solvers.amphipods.search import ONLY, AmphipodsSearch, MacroMoves, Memo, Unclean
from crosscheck.solvers.amphipods.steps import NO_MOVER, UNREACHABLE, AmphipodsSteps, Burrowing
from crosscheck.solvers.base import Result, Status
from crosscheck.solvers.engines.search import Strategy, best_first_search
from crosscheck.solvers.registry import solvers_for

from planted.instances import burrows
from tests.fixtures.known import published_optima, read

ANSWERS = published_optima("amphipods")
S = TypeVar("S")


def example(name: str) -> Burrow:
    return parse(read(name), name)


def solved(result: Result, burrow: Burrow) -> int:
    """The optimum a result claims, after replaying its plan (JSON round trip included)."""
    assert result.status is Status.OPTIMAL, result
    plan = json.loads(json.dumps(result.plan))
    assert check_plan(burrow, plan) == result.cost == result.bound
    return result.cost


def test_registered() -> None:
    assert [s.name for s in solvers_for("amphipods")] == [
        "amphipods-search", "amphipods-steps", "amphipods-stops", "amphipods-cpsat", "amphipods-fd", "amphipods-sat"]


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_search_solves_the_examples(name: str) -> None:
    burrow = example(name)
    assert solved(AmphipodsSearch().solve(burrow, 60), burrow) == ANSWERS[name]


@pytest.mark.parametrize("name", ["amphipods/depth2-example.txt", "amphipods/depth2-b.txt"])
def test_cpsat_solves_the_depth2_examples(name: str) -> None:
    burrow = example(name)
    assert solved(AmphipodsCpsat().solve(burrow, 60), burrow) == ANSWERS[name]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["amphipods/depth4-example.txt", "amphipods/depth4-b.txt"])
def test_cpsat_proves_the_depth4_examples(name: str) -> None:
    burrow = example(name)
    assert solved(AmphipodsCpsat().solve(burrow, 120), burrow) == ANSWERS[name]


@pytest.mark.parametrize("name", ["amphipods/depth2-example.txt", "amphipods/depth2-b.txt"])
def test_steps_solves_the_depth2_examples(name: str) -> None:
    burrow = example(name)
    assert solved(AmphipodsSteps().solve(burrow, 300), burrow) == ANSWERS[name]


def test_already_sorted_burrow_costs_nothing() -> None:
    burrow = Burrow("sorted", tuple(kind * 3 for kind in KINDS))  # type: ignore[arg-type]
    for solver in solvers_for("amphipods"):
        result = solver.solve(burrow, 30)
        assert (result.status, result.cost, result.plan) == (Status.OPTIMAL, 0, []), solver.name


ALL_DEPTH_ONE = ["".join(p) for p in itertools.permutations(KINDS)]


@pytest.mark.parametrize("rooms", ALL_DEPTH_ONE)
def test_all_formulations_agree_on_every_depth1_burrow(rooms: str) -> None:
    """All 24 burrows of depth 1: the literal formulation checks the contraction."""
    burrow = Burrow(f"d1-{rooms}", tuple(rooms))  # type: ignore[arg-type]
    costs = {solver.name: solved(solver.solve(burrow, 60), burrow) for solver in solvers_for("amphipods")}
    assert len(set(costs.values())) == 1, costs


@pytest.mark.parametrize("seed", range(50))
def test_search_and_cpsat_agree_on_seeded_depth2_burrows(seed: int) -> None:
    burrow = generate(seed, depth=2)
    search, cpsat = AmphipodsSearch().solve(burrow, 60), AmphipodsCpsat().solve(burrow, 60)
    if search.status is Status.INFEASIBLE:
        assert cpsat.status is Status.INFEASIBLE
    else:
        assert solved(search, burrow) == solved(cpsat, burrow)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(50))
def test_all_formulations_agree_on_seeded_depth2_burrows(seed: int) -> None:
    burrow = generate(seed, depth=2)
    results = [solver.solve(burrow, 600) for solver in solvers_for("amphipods")]
    statuses = {r.status for r in results}
    if statuses == {Status.INFEASIBLE}:
        return
    costs = {r.solver: solved(r, burrow) for r in results}
    assert len(set(costs.values())) == 1, costs


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10))
def test_search_and_cpsat_agree_on_seeded_depth3_and_depth4_burrows(seed: int) -> None:
    for burrow in (generate(seed, depth=3), generate(seed, depth=4, style="real")):
        search, cpsat = AmphipodsSearch().solve(burrow, 120), AmphipodsCpsat().solve(burrow, 120)
        if search.status is Status.INFEASIBLE:
            assert cpsat.status is Status.INFEASIBLE
        else:
            assert solved(search, burrow) == solved(cpsat, burrow)


def test_work_limits_give_honest_timeouts_with_valid_bounds() -> None:
    """20,000 expansions, or 0.2 s of CP-SAT's deterministic time, on any machine: neither
    formulation proves the optimum; CP-SAT may have a plan, with a bound below it."""
    burrow = example("amphipods/depth4-b.txt")
    for solver in (AmphipodsSteps(), AmphipodsCpsat()):
        result = solver.solve(burrow, work_limit=20_000)
        work = result.stats["work"]
        assert isinstance(work, int) and 20_000 <= work < 40_000, result  # stopped at the work limit
        assert result.status in (Status.TIMEOUT, Status.FEASIBLE), result
        assert result.bound is None or result.bound <= ANSWERS["amphipods/depth4-b.txt"]
        if result.status is Status.FEASIBLE:
            assert result.plan is not None and check_plan(burrow, result.plan) == result.cost


def test_steps_plan_folds_consecutive_steps_into_moves() -> None:
    burrow = Burrow("x", ("B", "A", "C", "D"))
    result = AmphipodsSteps().solve(burrow, 30)
    assert solved(result, burrow) == 46
    assert result.plan is not None and len(result.plan) == 4  # both out, both home: never one cell per move
    assert all(len(move) == 2 for move in result.plan)


def scratch_heuristic(layout: Layout, state: str) -> int:
    """The no-blocking energy of a macro state, recomputed from its definition."""
    hall, progress = state[:11], [ord(c) - 48 for c in state[11:]]
    total = 0
    for h, kind in enumerate(hall):
        if kind != ".":
            total += abs(h - ROOM_DOORS[KINDS.index(kind)]) * ENERGY[kind]
    for r in range(4):
        for p in range(min(progress[r], layout.leave[r]), layout.leave[r]):
            kind, slot = layout.leaver(r, p)
            home = KINDS.index(kind)
            walk = 2 if home == r else abs(ROOM_DOORS[r] - ROOM_DOORS[home])
            total += (slot + 1 + walk) * ENERGY[kind]
        entered = max(0, progress[r] - layout.leave[r])
        total += sum(layout.entry_slot(r, k) + 1 for k in range(entered, layout.enter[r])) * ENERGY[KINDS[r]]
    return total


@pytest.mark.parametrize("seed", range(3))
def test_incremental_heuristic_matches_its_definition(seed: int) -> None:
    layout = Layout.of(generate(seed, depth=3))
    problem = MacroMoves(layout)
    best_first_search(problem)
    assert len(problem.h) > 10
    for state, value in problem.h.items():
        assert value == scratch_heuristic(layout, state)


class UnprunedMoves(MacroMoves):
    """The macro-move graph without the dead-state pruning (stranded rooms, jammed hallways): the
    successors ask these two tests through their memos, which answer no."""

    @staticmethod
    def _stranded(kind: str, crossing: tuple[int, ...], cells: int) -> bool:
        return False

    @staticmethod
    def _no_room_first(windows: dict[int, Memo[tuple[int, int, int]]], rooms: tuple[Unclean, ...], cells: int) -> bool:
        return False


def reverse_graph(start: S, successors: Callable[[S], Iterable[tuple[object, S, int]]]) -> dict[S, list[tuple[S, int]]]:
    """Every state reachable from `start`, with the (parent, step cost) pairs of its incoming steps."""
    before: dict[S, list[tuple[S, int]]] = {start: []}
    frontier = [start]
    while frontier:
        state = frontier.pop()
        for _, child, cost in successors(state):
            if child not in before:
                before[child] = []
                frontier.append(child)
            before[child].append((state, cost))
    return before


def goal_reaching_states(problem: MacroMoves) -> set[str]:
    """Every reachable state of `problem` from which its goal can be reached."""
    parents = reverse_graph(problem.start, problem.successors)
    alive = {problem.goal} if problem.goal in parents else set()
    stack = list(alive)
    while stack:
        for parent, _ in parents[stack.pop()]:
            if parent not in alive:
                alive.add(parent)
                stack.append(parent)
    return alive


DEAD_STATE_CASES = [(seed, 2, "random") for seed in range(4)] + [(0, 4, "real")] + [
    pytest.param(seed, depth, style, marks=pytest.mark.slow) for seed, depth, style in
    [*((s, 2, "random") for s in range(4, 20)), *((s, 3, "random") for s in range(3)), *((s, 4, "real") for s in range(1, 6))]]


@pytest.mark.parametrize(("seed", "depth", "style"), DEAD_STATE_CASES)
def test_dead_state_rules_never_flag_states_that_reach_the_goal(seed: int, depth: int, style: str) -> None:
    """The dead-state rules of amphipods-search (stranded rooms, jammed hallways), against
    the full unpruned macro graph; real-kind seed 1 of depth 4 has no solution at all."""
    layout = Layout.of(generate(seed, depth=depth, style=style))
    problem, rules = UnprunedMoves(layout), MacroMoves(layout)
    alive = goal_reaching_states(problem)
    stranded, jammed = set(), set()
    for state in problem.h:  # every reached state
        hall, progress = state[:11], [ord(c) - 48 for c in state[11:]]
        for kind in set(hall) - {"."}:
            t = KINDS.index(kind)
            crossing = rules.crossing[t][progress[t]] if progress[t] < layout.leave[t] else None
            if crossing is not None and rules._stranded(kind, crossing, int(hall.encode().translate(ONLY[kind]), 2)):
                stranded.add(state)
        if rules._jammed(hall, state[11:]):
            jammed.add(state)
    assert stranded & alive == set()
    assert jammed & alive == set()
    assert len(alive) > 1 or problem.goal not in alive
    if depth == 4:
        assert len(jammed) > len(problem.h) / 2  # most of the space is jammed


def steps_optimum(burrow: Burrow) -> int | None:
    """The literal formulation's optimum (None: infeasible): the compiled A* with the bound."""
    outcome = Burrowing(burrow).search()
    assert outcome.status in ("solved", "exhausted")
    return outcome.cost


def plain_optima(burrow: Burrow) -> tuple[int | None, int | None]:
    """The optimum of the literal graph without the bound's dead-state test: by compiled
    Dijkstra (no bound), and by the generic engine's A* with the bound (its own heap and
    table, dead states kept: nothing of the compiled search loop or the packing)."""
    plain = Burrowing(burrow)
    dijkstra, generic = plain.search(use_bound=False), best_first_search(plain, Strategy.ASTAR)
    assert {dijkstra.status, generic.status} <= {"solved", "exhausted"}
    return dijkstra.cost, generic.cost


SMALL_BURROWS = [Burrow(f"d1-{rooms}", tuple(rooms)) for rooms in ALL_DEPTH_ONE] + [  # type: ignore[arg-type]
    generate(seed, depth=2, swaps=2) for seed in range(6)] + [
    pytest.param(generate(seed, depth=2, swaps=swaps), marks=pytest.mark.slow)
    for seed in range(6, 12) for swaps in (2, 3)] + [
    burrow for burrow in burrows(12, seed=3) if not burrow.at_rest]  # intermediate diagrams as starts


@pytest.mark.parametrize("burrow", SMALL_BURROWS, ids=lambda b: getattr(b, "name", str(b)))
def test_steps_bound_and_pruning_keep_the_optimum(burrow: Burrow) -> None:
    """The bound and dropping dead states change no answer: against the plain literal graph."""
    optimum = steps_optimum(burrow)
    assert plain_optima(burrow) == (optimum, optimum)


BOUND_BURROWS = [generate(seed, depth=1) for seed in range(4)] + [generate(seed, depth=2, swaps=2) for seed in range(2)]


@pytest.mark.parametrize("burrow", BOUND_BURROWS, ids=lambda b: b.name)
def test_steps_bound_never_exceeds_the_remaining_cost_along_optimal_plans(burrow: Burrow) -> None:
    """At every state of an optimal plan the bound is at most the true remaining cost,
    found by plain compiled Dijkstra (no bound, no pruning) from that state."""
    problem = Burrowing(burrow)
    outcome = problem.search()
    if outcome.status == "exhausted":
        return
    cost, steps = outcome.solution()
    exact = Burrowing(burrow)
    state, spent, checked = problem.initial(), 0, 0
    for here, there, _ in steps:
        remaining = exact.search(use_bound=False, start=state).cost
        assert remaining == cost - spent  # the plan is optimal from each of its states
        assert problem.heuristic(state) <= remaining, (state, spent)
        step = {(a, b): (child, energy) for (a, b, _), child, energy in problem.successors(state)}
        state, energy = step[here, there]
        spent, checked = spent + energy, checked + 1
    assert problem.is_goal(state) and spent == cost and checked == len(steps)


def exact_remaining(problem: Burrowing) -> dict[bytes, int]:
    """Every literal state reachable from the start with its least energy to a goal (states
    that reach none are left out): the whole graph, then a backward Dijkstra in plain Python."""
    before = reverse_graph(problem.initial(), problem.successors)
    remaining: dict[bytes, int] = {}
    queue = [(0, goal) for goal in before if problem.is_goal(goal)]
    while queue:
        cost, state = heapq.heappop(queue)
        if state not in remaining:
            remaining[state] = cost
            queue.extend((cost + energy, parent) for parent, energy in before[state] if parent not in remaining)
            heapq.heapify(queue)
    return {state: remaining.get(state, UNREACHABLE) for state in before}


@pytest.mark.parametrize("burrow", [Burrow(f"d1-{''.join(rooms)}", rooms) for rooms in (
    ("D", "C", "B", "A"), ("B", "A", "D", "C"), ("C", "D", "A", "B"))] + [
    burrow for burrow in burrows(8, seed=5) if burrow.depth == 1], ids=lambda b: b.name)
def test_steps_bound_is_admissible_at_every_reachable_state(burrow: Burrow) -> None:
    """The stack projection's bound never exceeds the true remaining energy, and it calls
    a state dead (`UNREACHABLE`) only if no goal is reachable from it: every state of
    small burrows, against the exact costs of the whole literal graph."""
    problem = Burrowing(burrow)
    exact = exact_remaining(problem)
    bounds = {state: problem.heuristic(state) for state in exact}
    assert all(bounds[state] <= cost for state, cost in exact.items())
    dead = [state for state, bound in bounds.items() if bound == UNREACHABLE]
    assert dead and all(exact[state] == UNREACHABLE for state in dead)
    assert problem.heuristic(problem.initial()) == exact[problem.initial()] or len(exact) > 1


def test_steps_bounded_search_reaches_the_published_optimum() -> None:
    """The bound steers the literal search straight to the optimum: a few hundred states
    expanded where plain Dijkstra expands hundreds of thousands (deterministic counts)."""
    name = "amphipods/depth2-b.txt"
    bounded = Burrowing(example(name)).search()
    assert bounded.cost == ANSWERS[name]
    assert bounded.expanded < 1_000


def one_hallway_state(problem: Burrowing, hall: dict[int, str], mover: int, homing: bool) -> bytes:
    """A state with the rooms empty but for the given amphipods placed in the hallway."""
    cells = bytearray(problem.start)
    for cell in range(problem.size):
        cells[cell] = 0
    for cell, kind in hall.items():
        cells[cell] = KINDS.index(kind) + 1
    cells[problem.size], cells[problem.size + 1] = mover, homing
    return bytes(cells)


def test_steps_hallway_stopped_amphipod_only_moves_home() -> None:
    """An amphipod that stopped in the hallway starts a homing move and may stop only in its own room."""
    problem = Burrowing(Burrow("x", ("A", "B", "C", "D")))
    stopped = one_hallway_state(problem, {5: "A"}, NO_MOVER, False)  # A stopped at H6; its room A1 is free
    children = {action: child for action, child, _ in problem.successors(stopped)}
    assert {(a, b) for a, b, _ in children} == {(5, 4), (5, 6)}
    for child in children.values():
        assert child[problem.size + 1] == 1  # homing
        assert not problem.may_stop(child)  # still in the hallway: it may not stop there
    step_back = one_hallway_state(problem, {3: "A"}, 3, True)  # homing at H4, room A blocked by nobody
    assert not problem.may_stop(step_back)
    assert not problem.may_stop(one_hallway_state(problem, {2: "A"}, 2, False))  # above a room
    assert problem.may_stop(one_hallway_state(problem, {1: "A"}, 1, False))  # left a room, may stop


def test_steps_start_reads_hallway_amphipods_as_stopped() -> None:
    """A start with an amphipod in the hallway and a partly empty room: the hallway one's
    first move is homing (it may stop only in its own room), the room's gap is empty."""
    start = "#############\n#.A.........#\n###.#B#D#C###\n  #A#B#C#D#\n  #########\n"
    problem = Burrowing(parse(start, "midway"))
    assert problem.start[1] == KINDS.index("A") + 1 and problem.start[problem.cell(0, 0)] == 0
    homing = [child for (here, _, _), child, _ in problem.successors(problem.start) if here == 1]
    assert len(homing) == 2
    for child in homing:
        assert child[problem.size + 1] == 1 and not problem.may_stop(child)


def test_steps_never_enter_a_foreign_or_dirty_room() -> None:
    problem = Burrowing(Burrow("x", ("A", "B", "C", "D")))
    room_a, room_b = problem.cell(0, 0), problem.cell(1, 0)
    over_b = one_hallway_state(problem, {4: "A"}, 4, True)  # A homing at H5, above the empty room B
    over_dirty_a = one_hallway_state(problem, {2: "A", room_a: "B"}, 2, True)  # above room A, which holds a B
    over_clean_a = one_hallway_state(problem, {2: "A"}, 2, True)
    assert room_b not in {there for (_, there, _), _, _ in problem.successors(over_b)}
    assert room_a not in {there for (_, there, _), _, _ in problem.successors(over_dirty_a)}
    assert room_a in {there for (_, there, _), _, _ in problem.successors(over_clean_a)}


def test_steps_stuck_states_are_hallway_deadlocks() -> None:
    problem = Burrowing(Burrow("x", ("AA", "BB", "CC", "DD")))
    crossing = one_hallway_state(problem, {3: "D", 7: "A"}, NO_MOVER, False)  # each must pass the other
    assert problem.stuck(crossing)
    assert not problem.stuck(one_hallway_state(problem, {3: "A", 7: "D"}, NO_MOVER, False))
    walking = one_hallway_state(problem, {3: "D", 7: "A"}, 7, False)  # A still leaving a room: may go on
    assert not problem.stuck(walking)
