"""keys-cpsat's warm start: a greedy collection sequence, improved by moving keys in it.

Works on keys-cpsat's own usable routes (`crosscheck.solvers.keys.cpsat.usable_routes`): per arc
(source node, target key node) the routes with their `length` and `needs` (a key mask).
A *sequence* is an order of key nodes; it is walked by `walk`: for each key in turn,
the shortest route, over the robots whose region holds it, from that robot's current
node whose needs are all held.  So every sequence that `walk` accepts is a feasible
plan of the model (each route's needs are collected before its target), and its cost is
the sum of the chosen lengths.  The result is only a hint: it never decides an answer.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Generic, Protocol, TypeVar

#: The seed of the kicks of `kicked_sequence` (fixed: the warm start is reproducible).
KICK_SEED = 0
#: Attempts per kick to find single-key moves that keep the sequence walkable.
KICK_TRIES = 200


class RouteLike(Protocol):
    """What the warm start reads of a route."""

    @property
    def length(self) -> int: ...

    @property
    def needs(self) -> int: ...


R = TypeVar("R", bound=RouteLike)
#: One step of a plan: (robot, source node, target key node, route).
Step = tuple[int, int, int, R]
Arcs = Mapping[tuple[int, int], Sequence[R]]


def greedy_sequence(robots: int, keys: int, arcs: Arcs[R], region: Sequence[Sequence[int]]) -> list[Step[R]] | None:
    """A feasible sequence collecting all `keys` keys, or None if stuck.

    Each step takes the shortest route, over all robots, from a robot's node to an
    uncollected key of its region whose needs are all held.
    """
    everything = (1 << keys) - 1
    held, at, steps = 0, list(range(robots)), []
    while held != everything:
        best: tuple[int, Step[R]] | None = None
        for robot in range(robots):
            for target in region[robot]:
                if held >> (target - robots) & 1:
                    continue
                for route in arcs.get((at[robot], target), ()):
                    if route.needs & held == route.needs and (best is None or route.length < best[0]):
                        best = (route.length, (robot, at[robot], target, route))
        if best is None:
            return None
        robot, _, target, _ = best[1]
        steps.append(best[1])
        held |= 1 << (target - robots)
        at[robot] = target
    return steps


def walk(robots: int, arcs: Arcs[R], owners: Mapping[int, Sequence[int]], order: Sequence[int]) -> list[Step[R]] | None:
    """The steps of collecting `order`'s keys in turn (see the module docstring), or None
    when some key has no usable route from any of its robots at its turn."""
    at, held, steps = list(range(robots)), 0, []
    for target in order:
        step = _step(arcs, owners, at, held, target)
        if step is None:
            return None
        steps.append(step)
        at[step[0]] = target
        held |= 1 << (target - robots)
    return steps


def _step(arcs: Arcs[R], owners: Mapping[int, Sequence[int]], at: Sequence[int], held: int,
          target: int) -> Step[R] | None:
    """The shortest route to `target` over its robots (at nodes `at`) usable with the keys
    `held`, as a step; None when there is none."""
    best: tuple[int, Step[R]] | None = None
    for robot in owners.get(target, ()):
        for route in arcs.get((at[robot], target), ()):
            if route.needs & held == route.needs and (best is None or route.length < best[0]):
                best = (route.length, (robot, at[robot], target, route))
    return None if best is None else best[1]


def improved_sequence(robots: int, arcs: Arcs[R], region: Sequence[Sequence[int]], steps: list[Step[R]],
                      stop: Callable[[], bool] = lambda: False) -> list[Step[R]]:
    """`steps` improved by moving one to three consecutive keys elsewhere in the order,
    taking the first move that lowers the cost, until none does (or `stop()`).  Each
    accepted move lowers the cost, so this ends."""
    owners = _owners(region)
    while not stop():
        better = _better_move(robots, arcs, owners, steps)
        if better is None:
            break
        steps = better
    return steps


def _better_move(robots: int, arcs: Arcs[R], owners: Mapping[int, Sequence[int]],
                 steps: list[Step[R]]) -> list[Step[R]] | None:
    """The first sequence, moving a run of one to three keys, that `walk`s cheaper than `steps`."""
    order, walked = [target for _, _, target, _ in steps], _Walked(robots, steps)
    for size in (1, 2, 3):
        for start in range(len(order) - size + 1):
            piece, rest = order[start:start + size], order[:start] + order[start + size:]
            for place in range(len(rest) + 1):
                candidate = rest[:place] + piece + rest[place:]
                if place != start and walked.cheaper(arcs, owners, candidate, start, place, size):
                    return walk(robots, arcs, owners, candidate)
    return None


class _Walked(Generic[R]):
    """A walked sequence with the state before each of its keys (robot nodes, keys held,
    cost so far), so that a reordering is costed only where it differs."""

    def __init__(self, robots: int, steps: list[Step[R]]) -> None:
        self.robots = robots
        at, held, cost = list(range(robots)), 0, 0
        self.states: list[tuple[tuple[int, ...], int, int]] = [(tuple(at), held, cost)]
        for robot, _, target, route in steps:
            at[robot] = target
            held |= 1 << (target - robots)
            cost += route.length
            self.states.append((tuple(at), held, cost))

    def cheaper(self, arcs: Arcs[R], owners: Mapping[int, Sequence[int]], order: Sequence[int],
                start: int, place: int, size: int) -> bool:
        """Whether `order` (this sequence with its keys `start`..`start+size-1` moved to
        `place`) walks and costs less.  Both orders agree before min(start, place) and from
        max(start, place) + size on; once the robots stand where this sequence's do there
        (the same keys are held), the rest is walked alike and costs the same."""
        common, rejoin, total = min(start, place), max(start, place) + size, self.states[-1][2]
        at, held, cost = self.states[common]
        position = list(at)
        for index in range(common, len(order)):
            if index >= rejoin and tuple(position) == self.states[index][0]:
                return cost + total - self.states[index][2] < total
            step = _step(arcs, owners, position, held, order[index])
            if step is None:
                return False
            cost += step[3].length
            if cost >= total:
                return False
            position[step[0]] = order[index]
            held |= 1 << (order[index] - self.robots)
        return True


def kicked_sequence(robots: int, arcs: Arcs[R], region: Sequence[Sequence[int]], steps: list[Step[R]],
                    kicks: int, stop: Callable[[], bool] = lambda: False) -> list[Step[R]]:
    """Iterated local search: `improved_sequence` of `steps`, then `kicks` times: move
    three random keys of the current sequence (each move kept only if the sequence
    still `walk`s), improve again, and keep the result as current if no costlier.
    Returns the cheapest sequence seen.  Seeded, so the same input gives the same result."""
    rng = random.Random(KICK_SEED)
    owners = _owners(region)
    best = current = improved_sequence(robots, arcs, region, steps, stop)
    for _ in range(kicks):
        if stop():
            break
        kicked = walk(robots, arcs, owners, _kick([target for _, _, target, _ in current], robots, arcs, owners, rng))
        if kicked is None:
            continue
        candidate = improved_sequence(robots, arcs, region, kicked, stop)
        if _cost(candidate) <= _cost(current):
            current = candidate
        if _cost(candidate) < _cost(best):
            best = candidate
    return best


def _kick(order: list[int], robots: int, arcs: Arcs[R], owners: Mapping[int, Sequence[int]],
          rng: random.Random) -> list[int]:
    """`order` with up to three random single-key moves, each kept only if it still walks."""
    moved = tries = 0
    while len(order) > 1 and moved < 3 and tries < KICK_TRIES:
        tries += 1
        candidate = list(order)
        key = candidate.pop(rng.randrange(len(candidate)))
        candidate.insert(rng.randrange(len(candidate) + 1), key)
        if walk(robots, arcs, owners, candidate) is not None:
            order, moved = candidate, moved + 1
    return order


def _owners(region: Sequence[Sequence[int]]) -> dict[int, list[int]]:
    """Per key node, the robots whose region holds it."""
    owners: dict[int, list[int]] = {}
    for robot, keys in enumerate(region):
        for node in keys:
            owners.setdefault(node, []).append(robot)
    return owners


def _cost(steps: Sequence[Step[R]]) -> int:
    return sum(route.length for _, _, _, route in steps)
