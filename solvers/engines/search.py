"""One best-first search engine for every state-space formulation.

A formulation describes its state space as a `SearchProblem`; `best_first_search`
explores it breadth-first (unit costs), by Dijkstra (uniform cost) or by A*
(uniform cost plus an admissible heuristic), counting expanded and generated states
and stopping at a `Deadline` (its work limit counts expanded states).

Correctness notes:
- Goals are tested when a state is *expanded* (popped), never when generated, so
  Dijkstra and A* return optimal costs.  BFS tests at generation, which is exact
  for unit costs and saves one layer.
- A state reached again with a smaller cost is pushed again (lazy deletion), so an
  admissible but inconsistent heuristic still yields optimal answers.
- States must be hashable; they never need to be orderable (a counter breaks ties).
- A problem may name, per state, states that dominate it (`SearchProblem.dominators`): a state
  popped while one of them has been reached at no greater cost is not expanded.  A dominator's
  cost-to-go is at most the state's, so a plan through it is no costlier; dominance must be a
  strict partial order (no cycles), so every chain of dominators ends in a state that is not
  skipped, and the cost A* returns stays optimal.
"""

from __future__ import annotations

import heapq
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import count
from typing import Any, Generic, TypeVar

from crosscheck.solvers.base import Answer, Deadline, LimitReached, Stats, Status

S = TypeVar("S", bound=Hashable)
A = TypeVar("A")

#: How many expansions pass between two deadline checks (time.monotonic is not free); each
#: check counts them as work (`Deadline.expired`).
CHECK_EVERY = 512


class Strategy(StrEnum):
    """The search algorithm."""

    BFS = "bfs"
    DIJKSTRA = "dijkstra"
    ASTAR = "astar"


class Ending(StrEnum):
    """How a search ended."""

    SOLVED = "solved"  # a goal reached at optimal cost
    EXHAUSTED = "exhausted"  # every reachable state expanded without a goal: proven infeasible
    TIMEOUT = "timeout"  # the deadline passed first


class SearchProblem(ABC, Generic[S, A]):
    """A state space: one initial state, a goal test and weighted successors."""

    @abstractmethod
    def initial(self) -> S:
        """The start state."""

    @abstractmethod
    def is_goal(self, state: S) -> bool:
        """True when `state` solves the problem."""

    @abstractmethod
    def successors(self, state: S) -> Iterable[tuple[A, S, int]]:
        """Every (action, next state, non-negative action cost) from `state`."""

    def heuristic(self, state: S) -> int:
        """A lower bound on the cost from `state` to a goal (never overestimate)."""
        return 0

    #: Among open states of equal f, expand the one reached at the larger cost first (a
    #: problem whose heuristic is often exact then walks straight to a goal instead of
    #: widening a plateau).  The order of ties never changes the cost A* returns.
    deeper_ties: bool = False

    def dominators(self, state: S) -> Iterable[S]:
        """States at least as good as `state`: each one's cost to a goal is at most
        `state`'s, and no state dominates itself, directly or through a chain.  If one of
        them has been reached at no greater cost, A* skips `state` (none by default)."""
        return ()


@dataclass
class SearchOutcome(Generic[A]):
    """How a search ended.

    `status` says how (cost and actions are set exactly when it is solved).  `bound`
    is a proven lower bound on the optimal cost: the cost itself when solved, the
    smallest open f-value (or BFS depth) at a timeout, ``None`` when exhausted.
    """

    status: Ending
    cost: int | None
    actions: list[A] | None
    bound: int | None
    expanded: int
    generated: int

    def stats(self) -> Stats:
        return {"expanded": self.expanded, "generated": self.generated}

    def solution(self) -> tuple[int, list[A]]:
        """The optimal cost and actions of a solved search; `ValueError` for any other status."""
        if self.status is not Ending.SOLVED or self.cost is None or self.actions is None:
            raise ValueError(f"the search ended {self.status!r}, it has no solution")
        return self.cost, self.actions

    def answer(self, plan: Callable[[list[A]], Sequence[Any]] = list, *, infeasible: str = "",
               stats: Stats | None = None) -> Answer:
        """The solver's answer: solved -> optimal with ``plan(actions)`` as the witness
        (the puzzle's moves), exhausted -> infeasible with the message `infeasible` (why
        exhausting this state space proves it), timeout -> timeout with the bound.

        The answer's stats are the search's counts plus `stats`.
        """
        stats = self.stats() | (stats or {})
        if self.status is Ending.SOLVED:
            cost, actions = self.solution()
            return Answer(Status.OPTIMAL, cost=cost, bound=cost, plan=list(plan(actions)), stats=stats)
        if self.status is Ending.EXHAUSTED:
            return Answer(Status.INFEASIBLE, stats=stats, message=infeasible)
        return Answer(Status.TIMEOUT, bound=self.bound, stats=stats)


def best_first_search(
    problem: SearchProblem[S, A],
    strategy: Strategy = Strategy.ASTAR,
    deadline: Deadline | None = None,
) -> SearchOutcome[A]:
    """Search `problem` with `strategy` until a goal, exhaustion or the deadline.

    BFS assumes every action costs 1 (a `ValueError` is raised otherwise).  The
    heuristic is used only by A*.
    """
    deadline = deadline or Deadline(None)
    if strategy is Strategy.BFS:
        return _breadth_first(problem, deadline)
    return _uniform_cost(problem, deadline, use_heuristic=strategy is Strategy.ASTAR)


#: Each reached state's (parent, action from the parent); the start maps to None.
Parents = dict[S, tuple[S, A] | None]


def _plan(parents: Parents[S, A], state: S) -> list[A]:
    actions: list[A] = []
    while (link := parents[state]) is not None:
        state, action = link
        actions.append(action)
    actions.reverse()
    return actions


def _breadth_first(problem: SearchProblem[S, A], deadline: Deadline) -> SearchOutcome[A]:
    start = problem.initial()
    parents: Parents[S, A] = {start: None}
    if problem.is_goal(start):
        return SearchOutcome(Ending.SOLVED, 0, [], 0, 0, 1)
    frontier: deque[tuple[S, int]] = deque([(start, 0)])
    expanded, generated, depth = 0, 1, 0
    try:
        while frontier:
            state, depth = frontier.popleft()
            expanded += 1
            if expanded % CHECK_EVERY == 0 and deadline.expired(CHECK_EVERY):
                return SearchOutcome(Ending.TIMEOUT, None, None, depth, expanded, generated)
            for action, successor, cost in problem.successors(state):
                if cost != 1:
                    raise ValueError(f"BFS needs unit action costs, got {cost}")
                generated += 1
                if successor in parents:
                    continue
                parents[successor] = (state, action)
                if problem.is_goal(successor):
                    return SearchOutcome(Ending.SOLVED, depth + 1, _plan(parents, successor), depth + 1, expanded, generated)
                frontier.append((successor, depth + 1))
    except LimitReached:  # an expansion's own work met the deadline (`Deadline.check`)
        return SearchOutcome(Ending.TIMEOUT, None, None, depth, expanded, generated)
    return SearchOutcome(Ending.EXHAUSTED, None, None, None, expanded, generated)


def _uniform_cost(problem: SearchProblem[S, A], deadline: Deadline, *, use_heuristic: bool) -> SearchOutcome[A]:
    h: Callable[[S], int] = problem.heuristic if use_heuristic else (lambda state: 0)
    dominance = type(problem).dominators is not SearchProblem.dominators  # else no state has dominators
    is_goal, successors = problem.is_goal, problem.successors
    start = problem.initial()
    tie = count()
    depth = -1 if problem.deeper_ties else 0  # per unit of cost, in the heap's order
    best: dict[S, int] = {start: 0}
    parents: Parents[S, A] = {start: None}
    heap: list[tuple[int, int, int, int, S]] = [(h(start), 0, next(tie), 0, start)]
    expanded, generated, f = 0, 1, heap[0][0]
    try:
        while heap:
            f, _, _, g, state = heapq.heappop(heap)
            if g > best[state]:
                continue  # stale entry: the state was reached more cheaply since
            if is_goal(state):
                return SearchOutcome(Ending.SOLVED, g, _plan(parents, state), g, expanded, generated)
            if dominance and _dominated(best, problem.dominators(state), g):
                continue  # a state at least as good was reached at no greater cost
            expanded += 1
            if expanded % CHECK_EVERY == 0 and deadline.expired(CHECK_EVERY):
                return SearchOutcome(Ending.TIMEOUT, None, None, f, expanded, generated)
            for action, successor, cost in successors(state):
                generated += 1
                new_g = g + cost
                old_g = best.get(successor)
                if old_g is not None and old_g <= new_g:
                    continue
                best[successor] = new_g
                parents[successor] = (state, action)
                heapq.heappush(heap, (new_g + h(successor), depth * new_g, next(tie), new_g, successor))
    except LimitReached:  # an expansion's own work met the deadline (`Deadline.check`)
        return SearchOutcome(Ending.TIMEOUT, None, None, f, expanded, generated)
    return SearchOutcome(Ending.EXHAUSTED, None, None, None, expanded, generated)


def _dominated(best: dict[S, int], others: Iterable[S], g: int) -> bool:
    """Whether one of `others` was reached (its cost in `best`) at cost `g` or less."""
    for other in others:
        cost = best.get(other)
        if cost is not None and cost <= g:
            return True
    return False
