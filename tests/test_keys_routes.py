"""Route contraction against brute force: every pair's Pareto set, on small vaults."""

from __future__ import annotations

from collections import deque

import pytest
from crosscheck.models.keys.model import DIRECTIONS, WALL, Cell, Vault, generate, parse
from crosscheck.solvers.base import Deadline
from crosscheck.solvers.keys.routes import contract, corridor_graph

from tests.fixtures import INSTANCES

EXAMPLES = INSTANCES / "keys"
NO_ROUTE = None


def shortest_with(vault: Vault, source: Cell, target: Cell, held: set[str]) -> int | None:
    """Brute force: fewest moves from `source` to `target` holding exactly `held`,
    never stepping on a door whose key is not held nor on another uncollected key."""
    distance = {source: 0}
    queue = deque([source])
    while queue:
        cell = queue.popleft()
        if cell == target:
            return distance[cell]
        for dr, dc in DIRECTIONS.values():
            other = (cell[0] + dr, cell[1] + dc)
            char = vault.at(other)
            blocked = char == WALL or (char.isupper() and char.lower() not in held)
            blocked |= char.islower() and char not in held and other not in (source, target)
            if not blocked and other not in distance:
                distance[other] = distance[cell] + 1
                queue.append(other)
    return NO_ROUTE


def replay(vault: Vault, source: Cell, path: str) -> tuple[Cell, int]:
    """Where `path` ends and the keys it needs: doors crossed, keys walked over before the end."""
    cell, needs, letters = source, set(), "".join(sorted(vault.keys))
    for index, direction in enumerate(path):
        dr, dc = DIRECTIONS[direction]
        cell = (cell[0] + dr, cell[1] + dc)
        char = vault.at(cell)
        assert char != WALL
        if char.isupper():
            needs.add(char.lower())
        elif char.islower() and index < len(path) - 1 and cell != source:
            needs.add(char)
    return cell, sum(1 << letters.index(letter) for letter in needs)


def check_contraction(vault: Vault) -> None:
    contracted = contract(vault)
    letters = contracted.letters
    assert contracted.cells[: contracted.robots] == vault.robots
    for source, routes in enumerate(contracted.routes):
        start = contracted.cells[source]
        for route in routes:
            end, needs = replay(vault, start, route.path)
            assert end == contracted.cells[route.target] and route.target != source
            assert (len(route.path), needs) == (route.length, route.needs)
            dominated = [
                other for other in routes
                if other is not route and other.target == route.target
                and other.length <= route.length and other.needs & route.needs == other.needs
            ]
            assert not dominated, f"{route} is dominated by {dominated}"
        for target in range(contracted.robots, len(contracted.cells)):
            if target == source:
                continue
            to_target = [route for route in routes if route.target == target]
            for held in range(1 << len(letters)):
                keys = {letter for bit, letter in enumerate(letters) if held >> bit & 1}
                usable = [route.length for route in to_target if route.needs & held == route.needs]
                expected = shortest_with(vault, start, contracted.cells[target], keys)
                assert (min(usable) if usable else NO_ROUTE) == expected, (source, target, keys)


def test_loop_1_keeps_the_longer_route_that_avoids_a_door() -> None:
    vault = parse((EXAMPLES / "loop-1.txt").read_text())
    contracted = contract(vault)
    to_a = sorted((r.length, r.needs) for r in contracted.routes[0] if r.target == contracted.key_node(0))
    assert to_a == [(4, 0b10), (8, 0)]  # through door B, or around the loop without it
    check_contraction(vault)


def test_walking_over_a_key_needs_it() -> None:
    vault = parse("#######\n#@.a.b#\n#######\n")
    contracted = contract(vault)
    assert [(r.target, r.length, r.needs) for r in contracted.routes[0]] == [(1, 2, 0), (2, 4, 0b01)]
    check_contraction(vault)


def test_door_whose_key_is_missing_is_a_wall() -> None:
    contracted = contract(parse("######\n#@Ab.#\n######\n"))
    assert contracted.routes[0] == ()


@pytest.mark.parametrize("name", ["one-robot-2.txt", "one-robot-3.txt", "four-robots-2.txt"])
def test_published_examples_against_brute_force(name: str) -> None:
    check_contraction(parse((EXAMPLES / name).read_text()))


@pytest.mark.parametrize("seed", range(12))
def test_generated_vaults_against_brute_force(seed: int) -> None:
    size = (9, 13)[seed % 2]
    vault = generate(seed, size=size, keys=5, loops=seed % 4, robots=4 if seed % 3 == 2 else 1)
    check_contraction(vault)


@pytest.mark.parametrize("seed", range(6))
def test_every_corridor_is_as_long_as_its_walk(seed: int) -> None:
    """The corridors the bounds read (`CorridorGraph.corridors`) on vaults with cycles: each
    pair's shortest corridor is as long as the walk its edge spells, replayed on the grid."""
    vault = generate(seed, size=13, keys=5, loops=3 + seed % 3)
    keep = set(vault.robots) | set(vault.keys.values())
    graph = corridor_graph(vault, vault.key_bits(), keep, Deadline(None))
    assert graph.corridors
    for a, b, length in graph.corridors:
        shortest = min(other for x, y, other in graph.corridors if {x, y} == {a, b})
        (walk,) = [path for target, _, path in graph.edges[a] if target == b]
        end, _ = replay(vault, graph.cells[a], walk)
        assert end == graph.cells[b] and length >= shortest == len(walk), (a, b)
