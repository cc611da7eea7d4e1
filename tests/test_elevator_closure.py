"""elevator-cpsat's closure proof: a set of states up to renaming, closed under safe steps by
CP-SAT's proof, holding the start and not the goal.  It claims "no plan" exactly when
elevator-bfs (labelled states, no renaming) finds none, and CP-SAT rejects sets that are
not closed, so a broken proposer cannot make it claim anything."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from crosscheck.models.elevator.model import Facility, extended, generate
from crosscheck.solvers.base import Deadline, Status
from crosscheck.solvers.elevator import closure
from crosscheck.solvers.elevator.bfs import ElevatorBfs
from crosscheck.solvers.elevator.closure import ClosureModel, closed_without_goal, exact_game
from crosscheck.solvers.elevator.common import Labelled, labelled_moves, start_is_safe, start_state
from crosscheck.solvers.elevator.cpsat import ElevatorCpsat
from crosscheck.solvers.elevator.top_floors import GameState, TopFloors
from crosscheck.solvers.engines.cpsat import configured_solver
from ortools.sat.python import cp_model

from tests.test_elevator_solvers import load


def seeded(seed: int) -> Facility:
    """1 to 4 pairs on 2 to 5 floors (at most 3 pairs on 5), a safe start."""
    rng = random.Random(seed)
    floors = rng.randint(2, 5)
    pairs = rng.randint(1, 4 if floors <= 4 else 3)
    return generate(seed, pairs=pairs, floors=floors, spread=rng.randint(1, floors))


def step_is_feasible(facility: Facility, states: frozenset[GameState]) -> bool:
    """Whether CP-SAT finds a safe step from a state in `states` to one outside it."""
    status = configured_solver(Deadline(60.0)).solve(ClosureModel(facility, states).model)
    assert status in (cp_model.FEASIBLE, cp_model.OPTIMAL, cp_model.INFEASIBLE)
    return status != cp_model.INFEASIBLE


def reachable_labelled(facility: Facility) -> Iterator[Labelled]:
    start = start_state(facility)
    seen, stack = {start}, [start]
    while stack:
        state = stack.pop()
        yield state
        for _, _, successor in labelled_moves(state, facility.floors):
            if successor not in seen:
                seen.add(successor)
                stack.append(successor)


def test_claims_no_plan_exactly_when_elevator_bfs_finds_none() -> None:
    seen = {Status.OPTIMAL: 0, Status.INFEASIBLE: 0}
    for seed in range(80):
        facility = seeded(seed)
        truth = ElevatorBfs().solve(facility, 60).status
        assert truth in seen, facility.to_text()
        seen[truth] += 1
        proved = closed_without_goal(facility, Deadline(None))
        assert (proved is not None) == (truth is Status.INFEASIBLE), facility.to_text()
    assert min(seen.values()) >= 10, seen


def without_a_plan() -> list[Facility]:
    """The indexed five-pair facility without a plan, and seven-pair ones of the speed benchmark
    (none of them refuted by the cheaper arguments: no safe step, the top floors relaxation)."""
    return [load("generated/p5-no-solution/elevator-p5-f4-s3-6.txt"),
            extended(generate(1, pairs=5)), extended(generate(8, pairs=5))]


@pytest.mark.parametrize("facility", without_a_plan(), ids=lambda facility: facility.name)
def test_proves_facilities_without_a_plan(facility: Facility) -> None:
    answer = ElevatorCpsat().solve(facility, 60)
    assert answer.status is Status.INFEASIBLE
    closed = answer.stats.get("closed_states", 0)
    assert isinstance(closed, int) and closed > 1, answer.message


@pytest.mark.parametrize("floors", [3, 4])
def test_the_exact_game_is_the_puzzle_up_to_renaming(floors: int) -> None:
    """The game keeping every floor reaches the renamed labelled states that labelled moves reach."""
    for seed in range(6):
        facility = generate(seed, pairs=3, floors=floors)
        game = exact_game(facility)
        start = game.state(0, facility.chips, facility.generators)
        expected = {game.state(s[0], s[2::2], s[1::2]) for s in reachable_labelled(facility)}
        if game.goal in expected:  # the proposer gives up at the goal: compare the whole game instead
            reached = game.from_state(start, Deadline(None))
            assert reached is not None and reached.keys() == expected
        else:
            assert game.reachable(start, 10**6, Deadline(None)) == frozenset(expected)


def test_a_set_missing_a_reachable_state_is_not_closed() -> None:
    """Dropping any reachable state but the start leaves a set that a safe step leaves."""
    facility = load("generated/p5-no-solution/elevator-p5-f4-s3-6.txt")
    game = exact_game(facility)
    start = game.state(0, facility.chips, facility.generators)
    states = game.reachable(start, 10**6, Deadline(None))
    assert states is not None and step_is_feasible(facility, states) is False
    for dropped in random.Random(7).sample(sorted(states - {start}), 5):
        assert step_is_feasible(facility, states - {dropped})


def test_the_reachable_set_of_a_solvable_facility_without_its_goal_is_not_closed() -> None:
    facility = load("generated/p3/elevator-p3-f4-s3-1.txt")  # optimum 19
    game = exact_game(facility)
    states = game.from_state(game.state(0, facility.chips, facility.generators), Deadline(None))
    assert states is not None and game.goal in states
    assert step_is_feasible(facility, frozenset(states) - {game.goal})


def test_a_proposer_that_misses_moves_claims_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search that never carries two items up proposes sets without the goal: CP-SAT finds
    the step out of them on solvable facilities, so no claim is made."""
    honest = TopFloors.moves

    def without_pairs_up(self: TopFloors, state: GameState) -> Iterator[tuple[GameState, bool]]:
        return (move for move in honest(self, state) if move[0][0] < state[0] or move[1])

    monkeypatch.setattr(TopFloors, "moves", without_pairs_up)
    tried = 0
    for seed in range(10):
        facility = generate(seed, pairs=3)
        if not start_is_safe(facility) or ElevatorBfs().solve(facility, 60).status is not Status.OPTIMAL:
            continue
        game = exact_game(facility)
        states = game.reachable(game.state(0, facility.chips, facility.generators), 10**6, Deadline(None))
        tried += states is not None  # the broken search did not meet the goal
        assert closure.closed_without_goal(facility, Deadline(None)) is None, facility.to_text()
    assert tried >= 3
