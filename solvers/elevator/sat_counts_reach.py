"""The states up to renaming that elevator-sat over counts proposes as invariants: a breadth-first
walk (0-1: a wasteful step weighs one, a tight one nothing) under this module's own reading of the
rules, over the states of `crosscheck.solvers.elevator.sat_counts`.

A proposal only: the three invariant queries, refuted by the SAT solver and checked by the harness,
are what prove it.  The walk settles states by the fewest wasteful steps they are reached by
(``w``); when it meets the goal at w*, the states settled below w* are the invariant of "no plan
makes fewer than w* wasteful steps", at the bound ``potential + 2 w* - 1``; when the states run
out without a goal, all of them are the invariant of "no plan at all".
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from crosscheck.models.elevator.model import Facility
from crosscheck.solvers.base import Deadline
from crosscheck.solvers.elevator.sat_counts import CountState, Edge, edges, start_counts

#: Propose an invariant only while the walk has met at most this many states.
REACH_STATES = 20_000


@dataclass(frozen=True)
class Reach:
    """What the walk found: `settled` states with their fewest wasteful steps, and `goal`, the
    fewest wasteful steps of a plan (None: no goal among the states reachable, all in `settled`)."""

    settled: dict[CountState, int]
    goal: int | None

    def below_goal(self) -> list[tuple[int, ...]]:
        """The settled states below the goal's wasteful steps, each as (w, state...)."""
        return [(wasted, *state) for state, wasted in self.settled.items() if self.goal is None or wasted < self.goal]


def reach(facility: Facility, deadline: Deadline, limit: int = REACH_STATES) -> Reach | None:
    """The walk of the module doc, or None when it meets more than `limit` states or time runs out."""
    floors, pairs = facility.floors, len(facility.elements)
    groups = _groups(facility.floors)
    start = start_counts(facility)
    best: dict[CountState, int] = {start: 0}
    settled: dict[CountState, int] = {}
    queue: deque[tuple[int, CountState]] = deque([(0, start)])
    while queue:
        wasted, state = queue.popleft()
        if wasted > best[state]:
            continue
        if state[-1] == pairs:  # the top floor's pair type is the last
            return Reach(settled, wasted)
        settled[state] = wasted
        for following, waste in _successors(state, floors, groups):
            if wasted + waste < best.get(following, wasted + 2):
                best[following] = wasted + waste
                queue.appendleft((wasted, following)) if not waste else queue.append((wasted + 1, following))
        if len(best) > limit or deadline.expired(1):
            return None
    return Reach(settled, None)


def _groups(floors: int) -> dict[tuple[int, int], list[Edge]]:
    """The edges by (floor, rise), each list in transfer order."""
    groups: dict[tuple[int, int], list[Edge]] = {}
    for edge in edges(floors):
        groups.setdefault((edge.floor, edge.rise), []).append(edge)
    return {key: sorted(group, key=lambda edge: edge.rank) for key, group in groups.items()}


def _successors(state: CountState, floors: int, groups: dict[tuple[int, int], list[Edge]]
                ) -> Iterator[tuple[CountState, int]]:
    """The states one safe step leads to, each with 1 for a wasteful step (up with one rider, down
    with two), else 0."""
    elevator, counts = state[0], state[1:]
    for rise in (1, -1):
        group = groups.get((elevator, rise), [])
        for number, first in enumerate(group):
            if not counts[first.source]:
                continue
            middle = _moved(counts, first)
            if _safe(middle, floors):
                yield (elevator + rise, *middle), int(rise > 0)
            for second in group[number:]:
                if middle[second.source]:
                    after = _moved(middle, second)
                    if _safe(after, floors):
                        yield (elevator + rise, *after), int(rise < 0)


def _moved(counts: Sequence[int], edge: Edge) -> tuple[int, ...]:
    moved = list(counts)
    moved[edge.source] -= 1
    moved[edge.target] += 1
    return tuple(moved)


def _safe(counts: Sequence[int], floors: int) -> bool:
    """No floor holds both a chip away from its generator and a generator."""
    for floor in range(floors):
        lonely = any(counts[floor * floors + away] for away in range(floors) if away != floor)
        if lonely and any(counts[chip * floors + floor] for chip in range(floors)):
            return False
    return True
