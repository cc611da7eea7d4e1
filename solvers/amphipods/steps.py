"""``amphipods-steps``: the literal formulation, one cell per step.

Nothing of the contraction lemma is assumed.  A state is the burrow's cells, the
amphipod currently moving (if any) and its *phase*:

- any amphipod may take one step to a free neighbouring cell; a step by another
  amphipod than the current mover ends the mover's move (it *stops*);
- a stop must not be above a room, and an amphipod whose move started in the
  hallway (phase *homing*: it had stopped there) must stop inside its own room;
- a step from the hallway into a room enters it: only its own room, and only while
  that room holds no amphipod of another kind.

Every other amphipod's phase follows from where it stands: one in the hallway that is
not the mover has stopped there (so its next move is homing), one in a room has not.
Only one amphipod moves at a time, so a plan is exactly a sequence of steps in which
a change of stepper is a stop: the state space holds every plan the rules allow.
The start may be one of the puzzle statement's intermediate diagrams: nobody is
moving, so its hallway amphipods have stopped there (homing only), and its rooms may
have empty cells above their amphipods.

Search: A* compiled with numba (`steps_kernel`): states packed
in 64-bit words, an open-addressing table, a binary heap, all in arrays.  The bound is
the *stack projection*'s (`steps_projection`): the literal graph with where each amphipod
stands in its column forgotten, whose exact distances (enumerated from the start's
projection) plus a bound on the energy spent inside the columns never overestimate.  *Dead*
states are never expanded: one whose projection cannot reach the goal, and one in which
some amphipod stopped in the hallway can provably never get home (`Burrowing.stuck`);
dropping them changes no optimum and no infeasibility verdict.  The plan folds consecutive steps of one amphipod into
one move.  Correctness arguments: docs/puzzles/amphipods.md (amphipods-steps).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from crosscheck.models.amphipods.model import (
    EMPTY,
    HALLWAY_LENGTH,
    KINDS,
    ROOM_DOORS,
    AmphipodMove,
    Burrow,
    hallway_label,
    room_label,
)
from crosscheck.solvers.amphipods import steps_kernel as kernel
from crosscheck.solvers.amphipods.steps_kernel import DEAD
from crosscheck.solvers.amphipods.steps_projection import StackProjection
from crosscheck.solvers.base import Answer, Deadline, Solver
from crosscheck.solvers.engines.arrays import SearchArrays, doubled
from crosscheck.solvers.engines.search import Ending, SearchOutcome, SearchProblem
from crosscheck.solvers.engines.search_protocol import GOAL

#: The cells (one byte each: 0 empty, 1-4 kinds A-D), then the mover's cell (`NO_MOVER`:
#: none) and its phase (1: homing, it started from a hallway stop; 0: it started in a room).
State = bytes
#: (from cell, to cell, starts a new move)
Step = tuple[int, int, bool]
NO_MOVER = kernel.NO_MOVER
#: The deepest burrow whose cells the state's mover byte can name (cells 0 .. NO_MOVER - 1).
MAX_DEPTH = (NO_MOVER - HALLWAY_LENGTH) // 4
#: Expansions between two deadline checks of the compiled search.
CHUNK = 1 << 16
#: Nodes the store starts with (it doubles when full).
FIRST_CAPACITY = 1 << 16
#: What the compiled search reads without a bound (Dijkstra): no projected states.
NO_PROJECTION = StackProjection(np.zeros((1, 1), dtype=np.uint64), np.full(1, -1, dtype=np.int32),
                                np.zeros(1, dtype=np.int64))
#: `Burrowing.heuristic` of a dead state: more than any plan costs (there is none).
UNREACHABLE = 1 << 40


class Burrowing(SearchProblem[State, Step]):
    """Cells 0-10 are the hallway; room r, slot s is cell ``11 + r * depth + s``.

    `search` runs the compiled A*; `successors` and `heuristic` are the same compiled
    rules one state at a time (for the generic engine and for tests).
    """

    deeper_ties = True

    def __init__(self, burrow: Burrow) -> None:
        if burrow.depth > MAX_DEPTH:
            raise ValueError(f"amphipods-steps handles rooms up to {MAX_DEPTH} deep, got depth {burrow.depth}")
        self.depth = depth = burrow.depth
        self.size = HALLWAY_LENGTH + 4 * depth
        code = {EMPTY: 0} | {kind: k + 1 for k, kind in enumerate(KINDS)}
        self.start = bytes([code[c] for c in burrow.hallway + "".join(burrow.rooms)] + [NO_MOVER, 0])
        self.neighbours = np.full((self.size, kernel.MAX_FANOUT), -1, dtype=np.int64)
        for a, b in self._links():
            for x, y in ((a, b), (b, a)):
                free = list(self.neighbours[x]).index(-1)
                self.neighbours[x, free] = y
        #: room index of each room cell (-1 in the hallway)
        self.room_at = np.array([-1] * HALLWAY_LENGTH + [r for r in range(4) for _ in range(depth)], dtype=np.int64)
        #: packed words per state: the cells, then the mover's two digits and the phase's one
        self.words = -(-(self.size + 3) // kernel.DIGITS_PER_WORD)
        self._projection: StackProjection | None = None

    def _links(self) -> Iterator[tuple[int, int]]:
        for h in range(HALLWAY_LENGTH - 1):
            yield h, h + 1
        for r in range(4):
            yield ROOM_DOORS[r], self.cell(r, 0)
            for s in range(self.depth - 1):
                yield self.cell(r, s), self.cell(r, s + 1)

    def cell(self, room: int, slot: int) -> int:
        return HALLWAY_LENGTH + room * self.depth + slot

    def label(self, cell: int) -> str:
        if cell < HALLWAY_LENGTH:
            return hallway_label(cell)
        room, slot = divmod(cell - HALLWAY_LENGTH, self.depth)
        return room_label(room, slot)

    def initial(self) -> State:
        """No amphipod is moving: one in the hallway has stopped there (its next move
        starts there, so it must end in its own room)."""
        return self.start

    def is_goal(self, state: State) -> bool:
        return bool(kernel.is_goal(_row(state), self.depth))

    def may_stop(self, state: State) -> bool:
        """Whether the current mover (if any) may stop where it stands."""
        return bool(kernel.may_stop(_row(state), self.size, self.room_at))

    def stuck(self, state: State) -> bool:
        """Whether some amphipod stopped in the hallway of `state` can never get home
        (`steps_kernel.stuck`; the argument: docs/puzzles/amphipods.md)."""
        return bool(kernel.stuck(_row(state), self.size, self.depth))

    def heuristic(self, state: State) -> int:
        """The stack projection's bound of `state` (`steps_projection.bound`), built once from
        the burrow's start (so `state` must be reachable from it); `UNREACHABLE` for a dead state."""
        if self._projection is None:
            self._projection = StackProjection.build(_row(self.start), self.size, self.depth, Deadline(None))
        assert self._projection is not None  # built without a deadline
        bound = self._projection.bound(_row(state), self.size, self.depth)
        return UNREACHABLE if bound == DEAD else bound

    def successors(self, state: State) -> Iterator[tuple[Step, State, int]]:
        fanout = kernel.MAX_FANOUT * self.size
        children = np.zeros((fanout, self.size + 2), dtype=np.uint8)
        steps = np.zeros((fanout, 3), dtype=np.int64)
        count = kernel.expand(_row(state), self.size, self.depth, self.neighbours, self.room_at,
                              children, steps)
        for c in range(count):
            here, there, energy = (int(v) for v in steps[c])
            yield (here, there, state[self.size] != here), children[c].tobytes(), energy

    def search(self, deadline: Deadline | None = None, use_bound: bool = True,
               start: State | None = None) -> SearchOutcome[Step]:
        """The compiled A* from `start` (default the burrow's), Dijkstra without `use_bound`."""
        deadline = deadline or Deadline(None)
        row = _row(start or self.start)
        projection = StackProjection.build(row, self.size, self.depth, deadline) if use_bound else NO_PROJECTION
        if projection is None:
            return SearchOutcome(Ending.TIMEOUT, None, None, None, 0, 0)
        store = Store(self.words)
        first = projection.bound(row, self.size, self.depth) if use_bound else 0
        if first != DEAD:
            words = np.zeros(self.words, dtype=np.uint64)
            kernel.pack(row, self.size, words)
            store.add_start(words, first)

        def run(budget: int) -> None:
            kernel.search(store.states, store.g, store.parent, store.step, store.table, store.heap_key,
                          store.heap_node, store.counters, self.size, self.depth, self.neighbours, self.room_at,
                          use_bound, projection.keys, projection.table, projection.dist, budget)

        ending = store.drive(run, deadline, CHUNK)
        if ending is not Ending.SOLVED:
            return store.outcome(ending)
        goal = int(store.counters[GOAL])
        return store.outcome(ending, int(store.g[goal]), self._plan(store, goal))

    def _plan(self, store: Store, node: int) -> list[Step]:
        steps: list[Step] = []
        row = np.zeros(self.size + 2, dtype=np.uint8)
        while (before := int(store.parent[node])) >= 0:
            here, there = (int(v) for v in store.step[node])
            kernel.unpack(store.states[before], self.size, row)
            steps.append((here, there, int(row[self.size]) != here))
            node = before
        steps.reverse()
        return steps


def _row(state: State) -> np.ndarray:
    return np.frombuffer(state, dtype=np.uint8).copy()


class Store(SearchArrays):
    """The compiled search's arrays (see `steps_kernel.search`): per node its packed state (a row of
    `words`), cost, parent and step from the parent; the hash table; the heap; counters."""

    def __init__(self, words: int, capacity: int = FIRST_CAPACITY) -> None:
        super().__init__(np.zeros((capacity, words), dtype=np.uint64), table_factor=4, g_bits=kernel.G_BITS,
                         index=(kernel.find, kernel.rehash), node_dtype=np.int32)
        self.g = np.zeros(capacity, dtype=np.int64)
        self.parent = np.full(capacity, -1, dtype=np.int32)
        self.step = np.zeros((capacity, 2), dtype=np.uint8)

    def grow(self) -> None:
        """Double every array, the table refilled."""
        super().grow()
        self.g, self.parent, self.step = doubled(self.g), doubled(self.parent, -1), doubled(self.step)


def fold(problem: Burrowing, steps: list[Step]) -> list[AmphipodMove]:
    """Consecutive steps of one amphipod become one move (source, final cell)."""
    moves: list[list[int]] = []
    for here, there, new_move in steps:
        if new_move:
            moves.append([here, there])
        else:
            moves[-1][1] = there
    return [AmphipodMove(problem.label(a), problem.label(b)) for a, b in moves]


class AmphipodsSteps(Solver):
    name = "amphipods-steps"
    puzzle = "amphipods"
    summary = "A* over single steps with the rules in the state (literal formulation, no contraction)"

    @classmethod
    def warm_up(cls) -> None:
        """Compile (or load from numba's cache) the kernel, by solving a one-swap burrow."""
        Burrowing(Burrow("warm-up", ("B", "A", "C", "D"))).search()

    def _solve(self, instance: Burrow, deadline: Deadline) -> Answer:
        problem = Burrowing(instance)
        outcome = problem.search(deadline)
        return outcome.answer(lambda actions: fold(problem, actions),
                              infeasible="every live state expanded (dead: a projection that misses the goal, a stuck amphipod)")
