"""``amphipods-steps``: the literal formulation, one cell per step.

Nothing of the contraction lemma is assumed.  A state is the burrow's cells plus the
amphipod currently moving (if any) and whether it started from the hallway:

- any amphipod may take one step to a free neighbouring cell; a step by another
  amphipod than the current mover ends the mover's move (it *stops*);
- a stop must not be above a room, and an amphipod whose move started in the
  hallway (where it had stopped) must stop inside its own room;
- a step from the hallway into a room enters it: only its own room, and only while
  that room holds no amphipod of another kind.

A* with an admissible heuristic (each amphipod's own remaining walk, alone in the
burrow).  The plan folds consecutive steps of one amphipod into one move.
"""

from __future__ import annotations

from collections.abc import Iterator

from crosscheck.models.amphipods import ENERGY, HALLWAY_LENGTH, KINDS, ROOM_DOORS, AmphipodMove, Burrow, hallway_label, room_label
from crosscheck.solvers.base import Answer, Deadline, Solver
from crosscheck.solvers.search import SearchProblem, Strategy, best_first_search

#: (cell, cells, mover cell or -1, mover started in the hallway)
State = tuple[str, int, bool]
#: (from cell, to cell, starts a new move)
Step = tuple[int, int, bool]
#: (heuristic value, per kind how many amphipods are still to enter its room)
Estimate = tuple[int, tuple[int, ...]]


class Burrowing(SearchProblem[State, Step]):
    """Cells 0-10 are the hallway; room r, slot s is cell ``11 + r * depth + s``."""

    def __init__(self, burrow: Burrow) -> None:
        self.depth = depth = burrow.depth
        self.size = HALLWAY_LENGTH + 4 * depth
        self.start = burrow.hallway + "".join(burrow.rooms)
        self.goal = "." * HALLWAY_LENGTH + "".join(kind * depth for kind in KINDS)
        neighbours: list[list[int]] = [[] for _ in range(self.size)]

        def link(a: int, b: int) -> None:
            neighbours[a].append(b)
            neighbours[b].append(a)

        for h in range(HALLWAY_LENGTH - 1):
            link(h, h + 1)
        for r in range(4):
            link(ROOM_DOORS[r], self.cell(r, 0))
            for s in range(depth - 1):
                link(self.cell(r, s), self.cell(r, s + 1))
        self.neighbours = neighbours
        #: room index of each room cell (None in the hallway)
        self.room_at = [None] * HALLWAY_LENGTH + [r for r in range(4) for _ in range(depth)]
        self.estimates: dict[State, Estimate] = {self.initial(): self.estimate(self.start)}

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
        return (self.start, -1, False)

    def is_goal(self, state: State) -> bool:
        return state[0] == self.goal

    def _may_stop(self, cells: str, mover: int, from_hallway: bool) -> bool:
        """Whether the current mover may stop where it is."""
        if mover < 0:
            return True
        room = self.room_at[mover]
        if room is None:
            return not from_hallway and mover not in ROOM_DOORS
        return not from_hallway or KINDS[room] == cells[mover]

    def _may_enter(self, cells: str, kind: str, room: int) -> bool:
        if KINDS[room] != kind:
            return False
        base = self.cell(room, 0)
        return all(c == "." or c == kind for c in cells[base:base + self.depth])

    def successors(self, state: State) -> Iterator[tuple[Step, State, int]]:
        cells, mover, from_hallway = state
        switch = self._may_stop(cells, mover, from_hallway)
        for here, kind in enumerate(cells):
            if kind == ".":
                continue
            continuing = here == mover
            if not continuing and not switch:
                continue
            for there in self.neighbours[here]:
                if cells[there] != ".":
                    continue
                room = self.room_at[there]
                if room is not None and here < HALLWAY_LENGTH and not self._may_enter(cells, kind, room):
                    continue
                low, high = min(here, there), max(here, there)
                moved = cells[:low] + cells[high] + cells[low + 1:high] + cells[low] + cells[high + 1:]
                flag = from_hallway if continuing else here < HALLWAY_LENGTH
                child = (moved, there, flag)
                if child not in self.estimates:
                    self.estimates[child] = self._after_step(self.estimates[state], cells, moved, here, there)
                yield (here, there, not continuing), child, ENERGY[kind]

    def heuristic(self, state: State) -> int:
        """Each amphipod's walk home if it were alone, entering distinct cells of its room.

        Kept per state with the per-kind counts of amphipods still to enter (`Estimate`),
        updated by each step (`_after_step`), computed in full for the start only.
        """
        return self.estimates[state][0]

    def walk_home(self, cells: str, here: int) -> int:
        """The steps the amphipod at `here` needs to get home if it were alone (0 if it is)."""
        kind = cells[here]
        home = KINDS.index(kind)
        room = self.room_at[here]
        if room is None:
            return abs(here - ROOM_DOORS[home]) + 1
        slot = here - self.cell(room, 0)
        if room != home:
            return slot + 1 + abs(ROOM_DOORS[room] - ROOM_DOORS[home]) + 1
        below = cells[here + 1:self.cell(room, 0) + self.depth]
        # a stranger below: out, one step aside (no stop above a room), back, in
        return slot + 4 if any(c not in (".", kind) for c in below) else 0

    def estimate(self, cells: str) -> Estimate:
        """The heuristic of `cells` from scratch, with the per-kind counts still to enter."""
        total = 0
        entering = [0] * 4
        for here, kind in enumerate(cells):
            if kind == ".":
                continue
            steps = self.walk_home(cells, here)
            entering[KINDS.index(kind)] += steps > 0
            total += steps * ENERGY[kind]
        # the m amphipods still to enter a room end in m distinct slots: 0 + 1 + ... + m-1
        # steps below the top cell, beyond the one step into the room counted above
        total += sum(m * (m - 1) // 2 * ENERGY[kind] for kind, m in zip(KINDS, entering, strict=True))
        return total, tuple(entering)

    def _after_step(self, before: Estimate, cells: str, moved: str, here: int, there: int) -> Estimate:
        """The estimate after the amphipod at `here` stepped to `there`.

        Only the stepping amphipod's own walk changes: nobody else has it below them in
        a room on either side of the step (it never passes anybody).
        """
        total, entering = before
        kind = cells[here]
        k, energy = KINDS.index(kind), ENERGY[kind]
        old, new = self.walk_home(cells, here), self.walk_home(moved, there)
        total += (new - old) * energy
        if (old > 0) != (new > 0):
            m = entering[k]
            total += (m if new else -(m - 1)) * energy  # m(m+1)/2 - m(m-1)/2 = m
            entering = entering[:k] + (m + (1 if new else -1),) + entering[k + 1:]
        return total, entering

def fold(problem: Burrowing, steps: list[Step]) -> list[AmphipodMove]:
    """Consecutive steps of one amphipod become one move (source, final cell)."""
    moves: list[list[int]] = []
    for here, there, new_move in steps:
        if new_move:
            moves.append([here, there])
        else:
            moves[-1][1] = there
    return [AmphipodMove(problem.label(a), problem.label(b)) for a, b in moves]


class StepSearch(Solver):
    name = "amphipods-steps"
    puzzle = "amphipods"
    summary = "A* over single steps with the rules in the state (literal formulation, no contraction)"

    def _solve(self, instance: Burrow, deadline: Deadline) -> Answer:
        problem = Burrowing(instance)
        outcome = best_first_search(problem, Strategy.ASTAR, deadline)
        return outcome.answer(lambda actions: fold(problem, actions), infeasible="every reachable state expanded")
