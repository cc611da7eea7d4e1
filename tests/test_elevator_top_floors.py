"""The top floors relaxation: its tables never overestimate the wasteful steps of a plan."""

from __future__ import annotations

from collections import deque

import pytest
from crosscheck.models.elevator.model import Facility, generate
from crosscheck.solvers.base import Deadline
from crosscheck.solvers.elevator.common import Labelled, labelled_moves, start_state
from crosscheck.solvers.elevator.cpsat import WasteTables, potential
from crosscheck.solvers.elevator.top_floors import GameState, TopFloors


def game_state(game: TopFloors, state: Labelled) -> GameState:
    return game.state(state[0], state[2::2], state[1::2])


def wasteful(step: int, load: tuple[int, ...]) -> int:
    return int((step, len(load)) not in ((1, 2), (-1, 1)))


def distances_to_goal(floors: int, pairs: int) -> dict[Labelled, int]:
    """Exact steps to the goal of every labelled state that reaches it (moves are reversible:
    a breadth-first search from the goal)."""
    goal = (floors - 1,) * (2 * pairs + 1)
    distance = {goal: 0}
    queue = deque([goal])
    while queue:
        state = queue.popleft()
        for _, _, successor in labelled_moves(state, floors):
            if successor not in distance:
                distance[successor] = distance[state] + 1
                queue.append(successor)
    return distance


def wasteful_from(start: Labelled, floors: int) -> dict[Labelled, int]:
    """The fewest wasteful steps from `start` to every labelled state it reaches (0/1 costs)."""
    best = {start: 0}
    queue = deque([(0, start)])
    while queue:
        cost, state = queue.popleft()
        if cost > best[state]:
            continue
        for step, load, successor in labelled_moves(state, floors):
            extra = wasteful(step, load)
            if cost + extra < best.get(successor, cost + extra + 1):
                best[successor] = cost + extra
                (queue.appendleft if extra == 0 else queue.append)((cost + extra, successor))
    return best


@pytest.mark.parametrize(("floors", "pairs"), [(2, 3), (3, 3), (4, 3), (5, 2)])
def test_to_goal_never_exceeds_the_wasteful_steps_left(floors: int, pairs: int) -> None:
    """Every labelled state that reaches the goal: its game state is in the table, with at most
    the wasteful steps of a shortest plan from it, ``(steps - potential) / 2``."""
    game = TopFloors(floors, pairs)
    table = game.to_goal(Deadline(None))
    assert table is not None
    for state, steps in distances_to_goal(floors, pairs).items():
        needed = (steps - potential(floors, state)) // 2
        assert table[game_state(game, state)] <= needed, state


def test_to_goal_sees_the_safety_rule_on_the_top_floors() -> None:
    """On four floors with three pairs the table accounts for 44% of the wasteful steps that
    the states reaching the goal need (a safety-free bound for none of them): without the
    safety rule on the kept floors it would account for 6%."""
    game = TopFloors(4, 3)
    table = game.to_goal(Deadline(None))
    assert table is not None
    bound = needed = 0
    for state, steps in distances_to_goal(4, 3).items():
        bound += table[game_state(game, state)]
        needed += (steps - potential(4, state)) // 2
    assert needed > 0 and bound >= 0.4 * needed, (bound, needed)


@pytest.mark.parametrize("seed", range(1, 7))
def test_from_start_never_exceeds_the_wasteful_steps_so_far(seed: int) -> None:
    """Every labelled state reached from a generated start (3,304 of them): its game state is
    in the table, with at most the fewest wasteful steps of a path to it."""
    facility = generate(seed, pairs=3, floors=4)
    tables = WasteTables.of(facility, Deadline(None))
    assert tables is not None
    start = start_state(facility)
    reached = wasteful_from(start, facility.floors)
    assert len(reached) > 1000
    for state, cost in reached.items():
        assert tables.from_start[game_state(tables.game, state)] <= cost, state


def value(floors: int, elevator: int, chips: list[int], generators: list[int]) -> int | None:
    game = TopFloors(floors, len(chips))
    table = game.to_goal(Deadline(None))
    assert table is not None
    return table.get(game.state(elevator, chips, generators))


def test_hand_counted_values() -> None:
    """Four floors: the game keeps floors 3 and 4, floors 1 and 2 are its pool."""
    # a chip on the top floor, its generator on the first: the generator rides alone from
    # the pool to floor 3 and on to floor 4, two wasteful moves (the plan makes a third
    # between floors 1 and 2, inside the pool)
    assert value(4, 0, [3], [0]) == 2
    # two chips on top, their generators on the first floor: both generators ride together
    assert value(4, 0, [3, 3], [0, 0]) == 0
    # three chips on top: no generator can ever join them (at most two ride), and only
    # generators can take the elevator up: no plan
    assert value(4, 0, [3, 3, 3], [0, 0, 0]) is None
    # the game's goal itself
    assert value(4, 3, [3, 3], [3, 3]) == 0


def test_fitting_keeps_only_game_states_within_the_wasteful_steps() -> None:
    facility = Facility("one", 4, ("a",), (3,), (0,))
    tables = WasteTables.of(facility, Deadline(None))
    assert tables is not None and tables.start_waste() == 2
    assert tables.fitting(1) == []
    fitting = tables.fitting(2)
    assert (tables.game.goal, 2, 0) in fitting and (tables.start, 0, 2) in fitting
    assert all(fit.before + fit.after <= 2 for fit in fitting)


@pytest.mark.parametrize(("floors", "pairs"), [(2, 2), (4, 2), (5, 2)])
def test_potential_range_holds_every_potential_of_the_game_state(floors: int, pairs: int) -> None:
    game = TopFloors(floors, pairs)
    ranges: dict[GameState, set[int]] = {}
    for state in distances_to_goal(floors, pairs):
        low, high = game.potential_range(game_state(game, state))
        assert low <= potential(floors, state) <= high, state
        ranges.setdefault(game_state(game, state), set()).add(potential(floors, state))
    if game.pool_top == 0:  # a pool of one floor: the game state fixes the potential
        assert all(game.potential_range(key) == (min(seen), min(seen)) for key, seen in ranges.items())
    else:  # both ends are met where the pool's items and elevator can be anywhere in it
        assert any(game.potential_range(key) == (min(seen), max(seen)) for key, seen in ranges.items() if len(seen) > 1)
