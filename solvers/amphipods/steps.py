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

Search: A* with an admissible heuristic (each amphipod's own remaining walk, alone in
the burrow, plus the room-filling term), kept incrementally.  *Dead* states are never
expanded (`Burrowing.stuck`): a state in which some amphipod stopped in the hallway
can provably never get home cannot reach the goal, so dropping it changes no optimum
and no infeasibility verdict.  The plan folds consecutive steps of one amphipod into
one move.
"""

from __future__ import annotations

from collections.abc import Iterator

from crosscheck.models.amphipods import (
    EMPTY,
    ENERGY,
    HALLWAY_LENGTH,
    KINDS,
    ROOM_DOORS,
    AmphipodMove,
    Burrow,
    hallway_label,
    room_label,
)
from crosscheck.solvers.base import Answer, Deadline, Solver
from crosscheck.solvers.search import SearchProblem, Strategy, best_first_search

#: The cells (one byte each: 0 empty, 1-4 kinds A-D), then the mover's cell (255: none)
#: and its phase (1: homing, it started from a hallway stop; 0: it started in a room).
State = bytes
#: (from cell, to cell, starts a new move)
Step = tuple[int, int, bool]
#: (heuristic value, per kind how many amphipods are still to enter its room)
Estimate = tuple[int, tuple[int, ...]]
NO_MOVER = 255
#: Energy per step of kind byte 1-4.
STEP_ENERGY = (0,) + tuple(ENERGY[kind] for kind in KINDS)


class Burrowing(SearchProblem[State, Step]):
    """Cells 0-10 are the hallway; room r, slot s is cell ``11 + r * depth + s``.

    With ``prune=False`` dead states are expanded too (the plain literal graph, for
    tests that check the pruning against it).
    """

    deeper_ties = True

    def __init__(self, burrow: Burrow, prune: bool = True) -> None:
        self.depth = depth = burrow.depth
        self.size = HALLWAY_LENGTH + 4 * depth
        self.prune = prune
        code = {EMPTY: 0} | {kind: k + 1 for k, kind in enumerate(KINDS)}
        self.start = bytes([code[c] for c in burrow.hallway + "".join(burrow.rooms)] + [NO_MOVER, 0])
        self.goal_cells = bytes([0] * HALLWAY_LENGTH + [k + 1 for k in range(4) for _ in range(depth)])
        neighbours: list[list[int]] = [[] for _ in range(self.size)]
        for a, b in self._links():
            neighbours[a].append(b)
            neighbours[b].append(a)
        self.neighbours = neighbours
        #: room index of each room cell (-1 in the hallway)
        self.room_at = [-1] * HALLWAY_LENGTH + [r for r in range(4) for _ in range(depth)]
        #: per kind byte, the bytes that may share its room (empty and itself)
        self.friendly = [b""] + [bytes([0, k]) for k in range(1, 5)]
        self.estimates: dict[State, Estimate] = {self.start: self.estimate(self.start)}
        #: memo of `stuck`, keyed by the hallway cells and the rooms that hold strangers
        self.stuck_memo: dict[tuple[bytes, int], bool] = {}

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
        return state[:self.size] == self.goal_cells

    def clean(self, cells: bytes, room: int) -> bool:
        """Whether room `room` holds no amphipod of another kind."""
        base = self.cell(room, 0)
        return not cells[base:base + self.depth].strip(self.friendly[room + 1])

    def may_stop(self, state: State) -> bool:
        """Whether the current mover (if any) may stop where it stands."""
        mover = state[self.size]
        if mover == NO_MOVER:
            return True
        room = self.room_at[mover]
        if room < 0:
            return not state[self.size + 1] and mover not in ROOM_DOORS
        return not state[self.size + 1] or room + 1 == state[mover]

    def successors(self, state: State) -> Iterator[tuple[Step, State, int]]:
        size, mover = self.size, state[self.size]
        switch = self.may_stop(state)
        stopped_in_hallway = switch and mover < HALLWAY_LENGTH  # the mover stops there if another steps
        for here in range(size):
            kind = state[here]
            if not kind or (here != mover and not switch):
                continue
            continuing = here == mover
            for there in self.neighbours[here]:
                if state[there]:
                    continue
                room = self.room_at[there]
                if room >= 0 and here < HALLWAY_LENGTH and (room + 1 != kind or not self.clean(state, room)):
                    continue
                child = bytearray(state)
                child[here], child[there], child[size] = 0, kind, there
                child[size + 1] = state[size + 1] if continuing else here < HALLWAY_LENGTH
                moved = bytes(child)
                if moved not in self.estimates:
                    if self.prune and stopped_in_hallway and not continuing and self.stuck(moved):
                        continue
                    self.estimates[moved] = self._after_step(self.estimates[state], state, moved, here, there)
                yield (here, there, not continuing), moved, STEP_ENERGY[kind]

    def heuristic(self, state: State) -> int:
        """Each amphipod's walk home if it were alone, entering distinct cells of its room.

        Kept per state with the per-kind counts of amphipods still to enter (`Estimate`),
        updated by each step (`_after_step`), computed in full for the start only.
        """
        return self.estimates[state][0]

    def walk_home(self, cells: bytes, here: int) -> int:
        """The steps the amphipod at `here` needs to get home if it were alone (0 if it is)."""
        kind = cells[here]
        home = kind - 1
        room = self.room_at[here]
        if room < 0:
            return abs(here - ROOM_DOORS[home]) + 1
        slot = here - self.cell(room, 0)
        if room != home:
            return slot + 1 + abs(ROOM_DOORS[room] - ROOM_DOORS[home]) + 1
        below = cells[here + 1:self.cell(room, 0) + self.depth]
        # a stranger below: out, one step aside (no stop above a room), back, in
        return slot + 4 if below.strip(self.friendly[kind]) else 0

    def estimate(self, cells: bytes) -> Estimate:
        """The heuristic of `cells` from scratch, with the per-kind counts still to enter."""
        total = 0
        entering = [0] * 4
        for here in range(self.size):
            kind = cells[here]
            if not kind:
                continue
            steps = self.walk_home(cells, here)
            entering[kind - 1] += steps > 0
            total += steps * STEP_ENERGY[kind]
        # the m amphipods still to enter a room end in m distinct slots: 0 + 1 + ... + m-1
        # steps below the top cell, beyond the one step into the room counted above
        total += sum(m * (m - 1) // 2 * STEP_ENERGY[k + 1] for k, m in enumerate(entering))
        return total, tuple(entering)

    def _after_step(self, before: Estimate, cells: bytes, moved: bytes, here: int, there: int) -> Estimate:
        """The estimate after the amphipod at `here` stepped to `there`.

        Only the stepping amphipod's own walk changes: nobody else has it below them in
        a room on either side of the step (it never passes anybody).
        """
        total, entering = before
        kind = cells[here]
        k, energy = kind - 1, STEP_ENERGY[kind]
        old, new = self.walk_home(cells, here), self.walk_home(moved, there)
        total += (new - old) * energy
        if (old > 0) != (new > 0):
            m = entering[k]
            total += (m if new else -(m - 1)) * energy  # m(m+1)/2 - m(m-1)/2 = m
            entering = entering[:k] + (m + (1 if new else -1),) + entering[k + 1:]
        return total, entering

    def stuck(self, state: State) -> bool:
        """Whether some amphipod stopped in the hallway of `state` can never get home.

        Optimistic release (a relaxation of the rules): repeatedly let a hallway
        amphipod go home once every hallway amphipod between it and its door has gone,
        and its room is clean or can start to empty (a cell beside the room's door is
        free or its holder has gone).  Nobody else is taken into account.  In any real
        plan, the hallway amphipods go home in some order; when one does, those between
        it and its door left before (hallway amphipods only leave by going home), and
        any stranger in its room stepped out through the door onto a cell beside it
        before, whose holder had therefore left too: so each is released in turn here.
        Whoever is never released never gets home, and the state is dead.
        """
        mover = state[self.size]
        hall = bytearray(state[:HALLWAY_LENGTH])
        if mover < HALLWAY_LENGTH and not state[self.size + 1]:
            hall[mover] = 0  # still walking out of a room: it need not stop where it is
        dirty = sum(1 << r for r in range(4) if not self.clean(state, r))
        key = (bytes(hall), dirty)
        verdict = self.stuck_memo.get(key)
        if verdict is None:
            verdict = self.stuck_memo[key] = _never_released(hall, dirty)
        return verdict


def _never_released(hall: bytearray, dirty: int) -> bool:
    """The fixpoint of `Burrowing.stuck` on hallway cells `hall` (kind bytes, 0 empty) and
    the rooms holding strangers (bit r of `dirty`); changes `hall`."""
    progress = True
    while progress:
        progress = False
        for h in range(HALLWAY_LENGTH):
            kind = hall[h]
            if not kind:
                continue
            door = ROOM_DOORS[kind - 1]
            low, high = (h + 1, door) if door > h else (door, h - 1)
            if any(hall[low:high + 1]):
                continue
            if dirty >> (kind - 1) & 1 and hall[door - 1] and hall[door + 1]:
                continue
            hall[h] = 0
            progress = True
    return any(hall)


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
        return outcome.answer(lambda actions: fold(problem, actions), infeasible="every reachable live state expanded")
