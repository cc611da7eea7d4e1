"""Small seeded instances of each puzzle, edge cases among them: vaults with absent keys and
unreachable doors, unsafe elevator starts, burrows part way through a solution.  Each
function draws the same instances for the same seed."""

from __future__ import annotations

import random

from crosscheck.models.amphipods import model as amphipods
from crosscheck.models.amphipods.relations import states_along
from crosscheck.models.base import InvalidPlan
from crosscheck.models.elevator import model as elevator
from crosscheck.models.keys import model as keys


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
