"""Helpers of the relation tests: small seeded instances of each puzzle, exact answers
from two built-in formulations, and the check that a relation holds on them."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from crosscheck.models.amphipods import model as amphipods
from crosscheck.models.amphipods.relations import states_along
from crosscheck.models.answers import NO_SOLUTION, ExactAnswer, Optimum
from crosscheck.models.base import InvalidPlan
from crosscheck.models.elevator import model as elevator
from crosscheck.models.keys import model as keys
from crosscheck.models.registry import puzzles
from crosscheck.models.relations import NotApplicable, Relation
from crosscheck.solvers.amphipods.cpsat import AmphipodsCpsat
from crosscheck.solvers.amphipods.search import AmphipodsSearch
from crosscheck.solvers.base import Solver, Status
from crosscheck.solvers.elevator.bfs import ElevatorBfs
from crosscheck.solvers.elevator.quotient import ElevatorQuotient
from crosscheck.solvers.keys.graph import KeysGraph
from crosscheck.solvers.keys.grid import KeysGrid

#: Two independent built-in formulations per puzzle, fast on small instances.
FORMULATIONS: dict[str, tuple[Solver, ...]] = {
    "keys": (KeysGrid(), KeysGraph()),
    "amphipods": (AmphipodsSearch(), AmphipodsCpsat()),
    "elevator": (ElevatorBfs(), ElevatorQuotient()),
}
#: Seconds per formulation and instance; an instance no formulation finishes is skipped.
LIMIT = 10.0


@dataclass(frozen=True)
class Solved:
    """An exact answer both formulations agree on, and an optimal plan (None: no solution)."""

    answer: ExactAnswer
    plan: list[Any] | None


def solve(puzzle: str, instance: Any, formulations: Iterable[Solver] | None = None) -> Solved | None:
    """The exact answer of the formulations that finish (they must agree; each plan is
    replayed by the puzzle's checker), or None when none finishes."""
    answers: list[Solved] = []
    for solver in formulations or FORMULATIONS[puzzle]:
        result = solver.solve(instance, LIMIT)
        if result.status is Status.OPTIMAL and result.cost is not None:
            plan = json.loads(json.dumps(result.plan))
            assert puzzles()[puzzle].check_plan(instance, plan) == result.cost, (solver.name, instance.to_text())
            answers.append(Solved(Optimum(result.cost), plan))
        elif result.status is Status.INFEASIBLE:
            answers.append(Solved(NO_SOLUTION, None))
    assert len({solved.answer for solved in answers}) <= 1, (instance.to_text(), answers)
    return answers[0] if answers else None


@dataclass
class Verdict:
    """What checking a relation on many instances found."""

    checked: int = 0
    not_applicable: int = 0
    unknown: int = 0
    broken: list[str] = field(default_factory=list)


def check_relation(relation: Relation, instances: Iterable[Any], seed: int = 0) -> Verdict:
    """Derive a related instance of each instance (plans from the formulations), check
    that its text parses back to it, solve both and judge the pair."""
    puzzle, rng, verdict = puzzles()[relation.puzzle], random.Random(seed), Verdict()
    for instance in instances:
        original = solve(relation.puzzle, instance)
        if original is None:
            verdict.unknown += 1
            continue
        try:
            related = relation.derive(instance, rng, original.plan)
        except NotApplicable:
            verdict.not_applicable += 1
            continue
        again = puzzle.parse(related.text, related.instance.name)
        assert again == related.instance and again.to_text() == related.text
        answer = solve(relation.puzzle, related.instance)
        if answer is None:
            verdict.unknown += 1
            continue
        verdict.checked += 1
        problem = related.expectation.broken(original.answer, answer.answer)
        if problem:
            verdict.broken.append(f"{related.detail}: {problem}\n{instance.to_text()}->\n{related.text}")
    return verdict


# --- small seeded instances ----------------------------------------------------------

def vaults(count: int, seed: int = 0) -> list[keys.Vault]:
    """Rectangular vaults (1-4 rows by 1-6 columns inside a wall) with up to four keys,
    doors (some whose key is absent), walls and one or two robots: some have no solution."""
    rng = random.Random(seed)
    found = []
    for index in range(count):
        height, width = rng.randint(1, 4), rng.randint(1, 6)
        letters = "abcd"[:rng.randint(1, 4)]
        cells = [rng.choice(".....#" + letters + letters.upper() + "E") for _ in range(height * width)]
        seen: set[str] = set()
        for i, char in enumerate(cells):
            if char.islower():
                cells[i] = "." if char in seen else char
                seen.add(char)
        for spot in rng.sample(range(height * width), min(len(cells), rng.choice((1, 1, 2)))):
            cells[spot] = "@"
        rows = ["#" * (width + 2)] + ["#" + "".join(cells[r * width:(r + 1) * width]) + "#" for r in range(height)]
        found.append(keys.Vault(f"v{index}", tuple(rows + ["#" * (width + 2)])))
    return found


def facilities(count: int, seed: int = 0) -> list[elevator.Facility]:
    """Facilities of 1-3 pairs on 2-4 floors, a quarter of them with any start (some unsafe)."""
    rng = random.Random(seed)
    return [elevator.generate(rng.randrange(10**6), pairs=rng.randint(1, 3), floors=rng.randint(2, 4),
                              safe=index % 4 != 0) for index in range(count)]


def burrows(count: int, seed: int = 0) -> list[amphipods.Burrow]:
    """Burrows of depth 1 or 2 at rest, and states reached by random legal moves from
    them (amphipods in the hallway, empty room cells), alternately."""
    rng = random.Random(seed)
    found = []
    for index in range(count):
        burrow = amphipods.generate(rng.randrange(10**6), depth=rng.randint(1, 2), swaps=rng.randint(1, 5))
        found.append(random_state(burrow, rng) if index % 2 else burrow)
    return found


def random_state(burrow: amphipods.Burrow, rng: random.Random, moves: int = 4) -> amphipods.Burrow:
    """The last state the format expresses along up to `moves` random legal moves."""
    labels = [amphipods.hallway_label(h) for h in range(amphipods.HALLWAY_LENGTH)] + [
        amphipods.room_label(r, s) for r in range(4) for s in range(burrow.depth)]
    plan: list[tuple[str, str]] = []
    for _ in range(moves):
        legal = [(a, b) for a in labels for b in labels if _legal(burrow, plan + [(a, b)])]
        if not legal:
            break
        plan.append(rng.choice(legal))
    state = next(state for _, state in reversed(states_along(burrow, plan)) if state is not None)
    return amphipods.Burrow(f"{burrow.name}-after-{len(plan)}", state.rooms, state.hallway)


def _legal(burrow: amphipods.Burrow, plan: list[tuple[str, str]]) -> bool:
    """Whether every move of `plan` is legal (ending unsorted is fine)."""
    try:
        amphipods.check_plan(burrow, plan)
    except InvalidPlan as error:
        return error.step == len(plan)
    return True
