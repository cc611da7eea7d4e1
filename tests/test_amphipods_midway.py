"""Every burrow formulation starts exactly from the puzzle statement's intermediate
diagrams: amphipods in the hallway (which may only move into their own room) and rooms
partly empty."""

from __future__ import annotations

import json
import random

import pytest
from crosscheck.models.amphipods.model import Burrow, check_plan, parse
from crosscheck.solvers.base import Solver, Status
from crosscheck.solvers.registry import solvers_for

from planted.instances import burrows, random_state

FORMULATIONS = [solver for solver in solvers_for("amphipods") if solver.unavailable() is None]
IDS = [solver.name for solver in FORMULATIONS]


def answer(solver: Solver, burrow: Burrow) -> int | None:
    """The formulation's exact answer (its plan replayed), None for no solution."""
    result = solver.solve(burrow, 60)
    if result.status is Status.INFEASIBLE:
        return None
    assert result.status is Status.OPTIMAL, (solver.name, result.message)
    assert check_plan(burrow, json.loads(json.dumps(result.plan))) == result.cost
    return result.cost


#: The A at H6 blocks the way of the D in room A to room D and waits for room A to be
#: clean: the D steps out left to H2 (2 steps), the A goes home (4), the D to room D (8).
BLOCKED = "#############\n#.....A.....#\n###D#B#C#.###\n  #########\n"
#: The hallway A goes home to the empty top of room A; the C leaves room D for H10, the
#: D goes from room C straight into room D, the C home.
PARTLY_EMPTY = "#############\n#.A.........#\n###.#B#D#C###\n  #A#B#C#D#\n  #########\n"


@pytest.mark.parametrize("solver", FORMULATIONS, ids=IDS)
def test_a_hallway_amphipod_waits_until_it_can_go_home(solver: Solver) -> None:
    assert answer(solver, parse(BLOCKED, "blocked")) == 4 + 10 * 1000


@pytest.mark.parametrize("solver", FORMULATIONS, ids=IDS)
def test_a_partly_empty_room_is_filled_from_the_bottom(solver: Solver) -> None:
    # A: H2 -> A1 (1 + 1 steps); C: D1 -> H10 (1 + 1); D: C1 -> D1 (1 + 2 + 1); C: H10 -> C1 (3 + 1)
    assert answer(solver, parse(PARTLY_EMPTY, "partly")) == 2 + 2 * 100 + 4 * 1000 + 4 * 100


MIDWAY = [burrow for burrow in burrows(16, seed=5) if not burrow.at_rest]


@pytest.mark.parametrize("burrow", [b for b in MIDWAY if b.depth == 1], ids=lambda burrow: burrow.name)
def test_every_formulation_agrees_on_intermediate_states_of_depth_1(burrow: Burrow) -> None:
    answers = {solver.name: answer(solver, burrow) for solver in FORMULATIONS}
    assert len(set(answers.values())) == 1, (burrow.to_text(), answers)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_every_formulation_agrees_on_intermediate_states_of_depth_2(seed: int) -> None:
    from crosscheck.models.amphipods.model import generate
    rng = random.Random(seed)
    burrow = random_state(generate(seed, depth=2, swaps=3), rng, moves=3)
    answers = {solver.name: answer(solver, burrow) for solver in FORMULATIONS}
    assert len(set(answers.values())) == 1, (burrow.to_text(), answers)
