"""The top floors relaxation: lower bounds on the wasteful steps of an elevator plan.

Tight and wasteful steps are those of `crosscheck.solvers.elevator.cpsat.potential`: a step up with
two riders or down with one is *tight*, up with one or down with two is *wasteful*, and
a plan of T steps from a state of potential p makes exactly ``(T - p) / 2`` wasteful
steps.  Where the safety rule forces detours, optimal plans make wasteful steps; this
module bounds how many, by solving a smaller puzzle exactly.

The relaxed game keeps the top `levels` floors as they are and merges every floor below
them into one *pool*: level 0 is the pool, level l >= 1 is floor ``floors - 1 - levels + l``.
Its moves are the puzzle's (one or two items at the elevator's level ride one level up or
down), except that a pool of several floors has no safety rule and its items are all at
hand whenever the elevator is in the pool (a pool of one floor is that floor, rule and
all).  Its cost counts the wasteful moves.  Keeping every floor above the first
(``kept = floors - 1``) makes the game the puzzle itself, up to renaming of elements.

**Why it bounds the puzzle.** Map a plan's states to the game (each item and the
elevator to its level).  A step between two pool floors changes nothing there; every
other step is a game move with the same direction and riders (they stood on the
elevator's floor, so at its level), so it is wasteful in the game exactly when it is in
the plan; the kept floors are safe in every state of a plan.  So the steps of a plan
that cross a boundary at or above the pool's top, taken in order, are a game path with
as many wasteful moves as those steps make.  Hence for a plan through state s:
its wasteful steps after s number at least `to_goal` of s's game state, and its wasteful
steps before s at least the game's distance from the start's game state (`from_state`).
A game state that cannot reach the goal, or cannot be reached from the start, is one no
plan passes through.

Elements are interchangeable in the game as in the puzzle, so a game state is the
elevator's level and how many elements have their chip and generator at each pair of
levels (`GameState`), the quotient under renaming (the argument of
``elevator-quotient``, a shared lemma of `crosscheck.harness.independence.trusted.LEMMAS`).  Both tables are exact
breadth-first searches with 0/1 costs over these states.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterator, Mapping, Sequence
from heapq import heappop, heappush
from itertools import combinations_with_replacement

from crosscheck.models.elevator.model import is_safe
from crosscheck.solvers.base import Deadline
from crosscheck.solvers.elevator.common import PairType, Riding, pair_types

#: How many floors the game keeps at most (the one below them and all lower ones are the pool).
KEPT_FLOORS = 2
#: How many game states pass between two deadline checks.
CHECK_EVERY = 1024

#: (elevator level, how many elements have each (chip level, generator level) of `TopFloors.categories`)
GameState = tuple[int, tuple[int, ...]]


class TopFloors:
    """The relaxed game of a facility with `floors` floors and `pairs` elements."""

    def __init__(self, floors: int, pairs: int, kept: int = KEPT_FLOORS) -> None:
        self.levels = min(kept, floors - 1)
        self.pool_top = floors - 1 - self.levels  # the highest floor merged into the pool
        self.pairs = pairs
        self.categories: list[PairType] = pair_types(self.levels + 1)  # (chip level, generator level)
        self._index = {category: i for i, category in enumerate(self.categories)}
        top = self.levels
        self.goal: GameState = (top, tuple(pairs if category == (top, top) else 0 for category in self.categories))

    def level(self, floor: int) -> int:
        return max(0, floor - self.pool_top)

    def state(self, elevator: int, chips: Sequence[int], generators: Sequence[int]) -> GameState:
        """The game state of the puzzle state with these floors."""
        counts = [0] * len(self.categories)
        for chip, generator in zip(chips, generators, strict=True):
            counts[self._index[self.level(chip), self.level(generator)]] += 1
        return self.level(elevator), tuple(counts)

    def potential_range(self, state: GameState) -> tuple[int, int]:
        """The least and the greatest potential (twice the items' distances to the top
        floor minus three times the elevator's) of a puzzle state with this game state: an
        item or the elevator at the pool's level is `levels` to ``floors - 1`` floors below the top."""
        elevator, counts = state
        kept = pooled = 0
        for (chip, generator), elements in zip(self.categories, counts, strict=True):
            for level in (chip, generator):
                kept += elements * (self.levels - level) if level else 0
                pooled += elements if level == 0 else 0
        nearest, deepest = self.levels, self.pool_top + self.levels  # a pool floor's distances to the top
        lift_nearest, lift_deepest = (nearest, deepest) if elevator == 0 else (self.levels - elevator,) * 2
        return 2 * (kept + pooled * nearest) - 3 * lift_deepest, 2 * (kept + pooled * deepest) - 3 * lift_nearest

    def to_goal(self, deadline: Deadline) -> Mapping[GameState, int] | None:
        """The fewest wasteful moves from each game state that reaches the goal to the goal
        (None if `deadline` expires first).  Moves between game states safe on the kept
        levels are reversible, and reversing one swaps tight and wasteful (up with two
        riders reversed is down with two), so this is a search from the goal that charges
        each move's reverse; it finds every game state safe on the kept levels that reaches
        the goal (an unsafe one is absent: ask only of safe states).  The table depends on
        the levels and pairs only: it is computed once per process and shared, read-only."""
        key = (self.levels, self.pool_top == 0, self.pairs)
        if key not in _GOAL_TABLES:
            table = self._search(self.goal, backwards=True, deadline=deadline)
            if table is None:
                return None
            _GOAL_TABLES[key] = table
        return _GOAL_TABLES[key]

    def from_state(self, start: GameState, deadline: Deadline) -> Mapping[GameState, int] | None:
        """The fewest wasteful moves from `start` to each game state it reaches (None if
        `deadline` expires first)."""
        return self._search(start, backwards=False, deadline=deadline)

    def reachable(self, source: GameState, limit: int, deadline: Deadline) -> frozenset[GameState] | None:
        """Every game state reachable from `source`; None as soon as the goal is among them,
        once more than `limit` are found, or when `deadline` expires.  A greedy search: the
        state of least potential first, which tends to head for the goal."""
        seen = {source}
        frontier = [(self.potential_range(source)[0], source)]
        popped = 0
        while frontier:
            popped += 1
            if len(seen) > limit or (popped % CHECK_EVERY == 0 and deadline.expired()):
                return None
            for successor, _ in self.moves(heappop(frontier)[1]):
                if successor not in seen:
                    if successor == self.goal:
                        return None
                    seen.add(successor)
                    heappush(frontier, (self.potential_range(successor)[0], successor))
        return frozenset(seen)

    def _search(self, source: GameState, backwards: bool, deadline: Deadline) -> dict[GameState, int] | None:
        """Breadth-first search with 0/1 costs from `source`: a move costs 1 when it is
        wasteful (`backwards`: when its reverse is)."""
        best = {source: 0}
        queue: deque[tuple[int, GameState]] = deque([(0, source)])
        popped = 0
        while queue:
            cost, state = queue.popleft()
            if cost > best[state]:
                continue
            popped += 1
            if popped % CHECK_EVERY == 0 and deadline.expired(CHECK_EVERY):
                return None
            for successor, wasteful in self.moves(state):
                step = int(wasteful != backwards)
                if cost + step < best.get(successor, cost + step + 1):
                    best[successor] = cost + step
                    (queue.appendleft if step == 0 else queue.append)((cost + step, successor))
        return best

    def moves(self, state: GameState) -> Iterator[tuple[GameState, bool]]:
        """Every game move from `state`: (next state, whether it is wasteful)."""
        elevator, counts = state
        here = ([(self._index[elevator, generator], Riding.CHIP) for generator in range(self.levels + 1)]
                + [(self._index[chip, elevator], Riding.GENERATOR) for chip in range(self.levels + 1)])
        loads = [(item,) for item in here] + list(combinations_with_replacement(here, 2))
        loads.append(((self._index[elevator, elevator], Riding.PAIR),))
        for target in (elevator + 1, elevator - 1):
            if not 0 <= target <= self.levels:
                continue
            for load in loads:
                moved = self._moved(counts, load, target)
                riders = sum(2 if riding is Riding.PAIR else 1 for _, riding in load)
                if moved is not None and self._safe(moved, elevator) and self._safe(moved, target):
                    yield (target, moved), riders == (1 if target > elevator else 2)

    def _moved(self, counts: tuple[int, ...], load: Sequence[tuple[int, Riding]], target: int) -> tuple[int, ...] | None:
        """`counts` after the load's items go to level `target`; None unless each item is of
        its own element (two items of one category need two elements of it)."""
        needed = Counter(index for index, _ in load)
        if any(counts[index] < number for index, number in needed.items()):
            return None
        moved = list(counts)
        for index, riding in load:
            chip, generator = self.categories[index]
            destination = {Riding.CHIP: (target, generator), Riding.GENERATOR: (chip, target),
                           Riding.PAIR: (target, target)}[riding]
            moved[index] -= 1
            moved[self._index[destination]] += 1
        return tuple(moved)

    def _safe(self, counts: tuple[int, ...], level: int) -> bool:
        """The puzzle's safety rule on a kept level or a pool of one floor (a pool of several has none)."""
        if level == 0 and self.pool_top > 0:
            return True
        chips = [chip for (chip, _), n in zip(self.categories, counts, strict=True) for _ in range(n)]
        generators = [generator for (_, generator), n in zip(self.categories, counts, strict=True) for _ in range(n)]
        return is_safe(chips, generators, level)


#: `TopFloors.to_goal` per (levels, whether the pool is one floor, pairs), filled on first use.
_GOAL_TABLES: dict[tuple[int, bool, int], Mapping[GameState, int]] = {}
