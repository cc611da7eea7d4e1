"""``amphipods-stops``: A* over burrow configurations, one move per stop, rules only.

A state is the burrow's cells (which amphipod stands where).  Every amphipod in the
hallway has stopped there (moves end in stops), so the rules need nothing more.  A
move is one amphipod walking along free cells to a cell where the rules let it stop:

- from a room cell: up or down its own column to any free cell (entering nothing);
  or out through the door to any free hallway cell not above a room; or on into
  its own room, if that room holds no amphipod of another kind, to any free cell;
- from a hallway cell: only into its own room (under the same condition), any free
  cell.

No canonical form is assumed: settled amphipods may leave, an amphipod may move any
number of times and stop at any free cell of a room.  *Exactness*: the burrow is a
tree, so between two stops a literal single-step plan walks a path that contains the
simple path between them; all its cells are free (nobody else moves meanwhile), the
simple path costs no more, ends at the same stop and enters a room only if the walk
did (last entry, same burrow), so it is one of these moves.  Conversely each move
is a literal walk.  The optimum over these moves is the optimum of the puzzle.

*Stacks* (the bound): forgetting where in its column each amphipod stands, a room is
the sequence of its amphipods from top to bottom.  Every move maps to a move of the
stacks (pop a room's top to a stop, push onto a clean room, both, or nothing for a
move inside a column), and every stack move can be made from every arrangement of
its stacks (move the others down the column first), so a configuration is
reachable exactly when its stacks are.  The reachable stacks (about 10^5 at depth 4,
far fewer than configurations) are enumerated once; no reachable stacks with every
room sorted proves infeasibility.  Otherwise a backward Dijkstra over them gives each
its least *base* cost to the goal, where a move's base cost is its energy outside the
rooms' columns below the top cell (one step per door passed plus the hallway walk).
Splitting a plan's energy into base, upward and downward steps inside columns, and
writing ``depth(x)`` for the sum of energy times slot (0 = top) over amphipods in
rooms, downward minus upward steps equals ``depth(goal) - depth(x)``, so

    energy = base + depth(goal) - depth(x) + 2 * upward steps.

An amphipod in a room not its own, or above one of another kind in its own room,
must leave, so it climbs at least its slot.  Hence the admissible heuristic
``base(stacks(x)) + depth(goal) - depth(x) + 2 * sum(energy * slot of those)``, and
configurations whose stacks cannot reach the goal are dead ends, never expanded.
"""

from __future__ import annotations

import functools
import heapq
from collections.abc import Iterator

from crosscheck.models.amphipods.model import (
    ENERGY,
    HALLWAY_LENGTH,
    KINDS,
    ROOM_DOORS,
    AmphipodMove,
    Burrow,
    hallway_label,
    room_label,
)
from crosscheck.solvers.base import Answer, Deadline, Solver, Stats, Status
from crosscheck.solvers.engines.search import SearchProblem, Strategy, best_first_search

HOME = {kind: r for r, kind in enumerate(KINDS)}
#: Cells: 0-10 the hallway, then room r's slot s (0 = top) is ``11 + r * depth + s``.
Configuration = str
#: (cell the amphipod leaves, cell where it stops)
Move = tuple[int, int]
#: The hallway, then each room's amphipods from top to bottom, joined by ``|``.
Stacks = str
#: Stack states between two deadline checks.
CHECK_EVERY = 4096


class Unfinished(Exception):
    """The deadline passed while the stacks were being enumerated."""


def start_and_goal(burrow: Burrow) -> tuple[Configuration, Configuration]:
    """The burrow's configuration (hallway amphipods included: they have stopped, so
    `StopMoves.moves` only takes them home), and the sorted one (empty hallway, every
    room its own)."""
    return burrow.hallway + "".join(burrow.rooms), "." * HALLWAY_LENGTH + "".join(kind * burrow.depth for kind in KINDS)


def stacks_of(cells: Configuration, depth: int) -> Stacks:
    """The stacks of a configuration: where in its column each amphipod is, forgotten."""
    rooms = (cells[11 + r * depth:11 + (r + 1) * depth].replace(".", "") for r in range(4))
    return cells[:HALLWAY_LENGTH] + "|" + "|".join(rooms)


def _split(state: Stacks) -> tuple[str, list[str]]:
    hall, *rooms = state.split("|")
    return hall, rooms


def _clear(hall: str, a: int, b: int) -> bool:
    """Whether hallway cells a..b (inclusive, either order) are all free."""
    low, high = min(a, b), max(a, b)
    return hall[low:high + 1].count(".") == high + 1 - low


@functools.lru_cache(maxsize=1 << 16)
def _spans(hall: str) -> tuple[tuple[int, int], ...]:
    """Per hallway cell p, the widest run lo..hi of cells around p free apart from p itself."""
    spans = []
    for p in range(HALLWAY_LENGTH):
        lo, hi = p, p
        while lo > 0 and hall[lo - 1] == ".":
            lo -= 1
        while hi < HALLWAY_LENGTH - 1 and hall[hi + 1] == ".":
            hi += 1
        spans.append((lo, hi))
    return tuple(spans)


def _enterable(rooms: list[str], room: int, depth: int) -> bool:
    """Whether an amphipod of the room's kind may enter it: not full, no other kind inside."""
    return len(rooms[room]) < depth and not rooms[room].strip(KINDS[room])


def stack_moves(state: Stacks, depth: int) -> Iterator[tuple[Stacks, int]]:
    """Every stack move from `state` with its base cost (energy outside the columns)."""
    hall, rooms = _split(state)
    spans = _spans(hall)
    for h, kind in enumerate(hall):
        t = HOME.get(kind)
        if t is None or not _enterable(rooms, t, depth):
            continue
        door = ROOM_DOORS[t]
        lo, hi = spans[h]
        if lo <= door <= hi:
            moved = rooms.copy()
            moved[t] = kind + rooms[t]
            yield _join(hall[:h] + "." + hall[h + 1:], moved), (abs(h - door) + 1) * ENERGY[kind]
    for r, room in enumerate(rooms):
        if not room:
            continue
        kind, door = room[0], ROOM_DOORS[r]
        left = rooms.copy()
        left[r] = room[1:]
        lo, hi = spans[door]
        yield from _hallway_stops(hall, left, kind, door, lo, hi)
        t = HOME[kind]
        if t != r and _enterable(rooms, t, depth) and lo <= ROOM_DOORS[t] <= hi:
            left[t] = kind + rooms[t]
            yield _join(hall, left), (abs(door - ROOM_DOORS[t]) + 2) * ENERGY[kind]


def _hallway_stops(hall: str, rooms: list[str], kind: str, door: int, lo: int, hi: int) -> Iterator[tuple[Stacks, int]]:
    """`kind` standing at each hallway stop in cells `lo`..`hi` (never above a room), with the
    cost of the walk between that stop and the room cell below `door`."""
    for h in range(lo, hi + 1):
        if h not in ROOM_DOORS:
            yield _join(hall[:h] + kind + hall[h + 1:], rooms), (abs(h - door) + 1) * ENERGY[kind]


def _join(hall: str, rooms: list[str]) -> Stacks:
    return hall + "|" + "|".join(rooms)


def reachable_stacks(start: Stacks, depth: int, deadline: Deadline) -> set[Stacks]:
    """Every stack state reachable from `start` (raises `Unfinished` at the deadline)."""
    seen = {start}
    todo = [start]
    expanded = 0
    while todo:
        expanded += 1
        if expanded % CHECK_EVERY == 0 and deadline.expired(CHECK_EVERY):
            raise Unfinished
        for successor, _ in stack_moves(todo.pop(), depth):
            if successor not in seen:
                seen.add(successor)
                todo.append(successor)
    return seen


def stack_predecessors(state: Stacks, depth: int) -> Iterator[tuple[Stacks, int]]:
    """Every stack state with a stack move to `state`, with that move's base cost.

    The three kinds of `stack_moves` undone: a push home from a stop, a pop to a
    stop, a move from one room straight into another.
    """
    hall, rooms = _split(state)
    spans = _spans(hall)
    for t, room in enumerate(rooms):
        kind, door = KINDS[t], ROOM_DOORS[t]
        if not room or room.strip(kind):
            continue  # nobody can have come home last: the room is empty or not clean
        came = rooms.copy()
        came[t] = room[1:]
        lo, hi = spans[door]
        yield from _hallway_stops(hall, came, kind, door, lo, hi)
        for r, other in enumerate(rooms):
            if r != t and len(other) < depth and lo <= ROOM_DOORS[r] <= hi:
                back = came.copy()
                back[r] = kind + other
                yield _join(hall, back), (abs(ROOM_DOORS[r] - door) + 2) * ENERGY[kind]
    for h, kind in enumerate(hall):
        if kind == ".":
            continue
        freed = hall[:h] + "." + hall[h + 1:]
        lo, hi = spans[h]
        for r, room in enumerate(rooms):
            if len(room) < depth and lo <= ROOM_DOORS[r] <= hi:
                back = rooms.copy()
                back[r] = kind + room
                yield _join(freed, back), (abs(h - ROOM_DOORS[r]) + 1) * ENERGY[kind]


def base_costs(reachable: set[Stacks], goal: Stacks, depth: int, deadline: Deadline) -> dict[Stacks, int]:
    """The least base cost from each reachable stack state that can reach `goal` to it.

    A backward Dijkstra from `goal` within `reachable`; states missing from the
    result cannot reach the goal at all.
    """
    cost: dict[Stacks, int] = {}
    heap = [(0, goal)] if goal in reachable else []
    popped = 0
    while heap:
        c, state = heapq.heappop(heap)
        if state in cost:
            continue
        cost[state] = c
        popped += 1
        if popped % CHECK_EVERY == 0 and deadline.expired(CHECK_EVERY):
            raise Unfinished
        for before, step in stack_predecessors(state, depth):
            if before in reachable and before not in cost:
                heapq.heappush(heap, (c + step, before))
    return cost


class StopMoves(SearchProblem[Configuration, Move]):
    """Burrow configurations and the moves between stops, with the stacks bound."""

    def __init__(self, burrow: Burrow, base: dict[Stacks, int]) -> None:
        self.depth = depth = burrow.depth
        self.start, self.goal = start_and_goal(burrow)
        self.base = base
        self.top = [HALLWAY_LENGTH + r * depth for r in range(4)]
        self.goal_depth = sum(ENERGY[kind] for kind in KINDS) * depth * (depth - 1) // 2

    def initial(self) -> Configuration:
        return self.start

    def is_goal(self, state: Configuration) -> bool:
        return state == self.goal

    def heuristic(self, state: Configuration) -> int:
        """base(stacks) + depth(goal) - depth(state) + 2 * the climb of those who must leave."""
        total = self.base[stacks_of(state, self.depth)] + self.goal_depth
        for r, top in enumerate(self.top):
            foreign = False
            for slot in range(self.depth - 1, -1, -1):  # bottom up: who has a stranger below
                kind = state[top + slot]
                if kind == ".":
                    continue
                foreign = foreign or kind != KINDS[r]
                total += (slot if foreign else -slot) * ENERGY[kind]
        return total

    def _clean(self, state: Configuration, room: int) -> bool:
        top, kind = self.top[room], KINDS[room]
        return state[top:top + self.depth].strip("." + kind) == ""

    def _descents(self, state: Configuration, room: int) -> Iterator[int]:
        """The free cells of `room` reachable from its door, top down."""
        top = self.top[room]
        for cell in range(top, top + self.depth):
            if state[cell] != ".":
                return
            yield cell

    def successors(self, state: Configuration) -> Iterator[tuple[Move, Configuration, int]]:
        for move, steps in self.moves(state):
            moved = after(state, move)
            if stacks_of(moved, self.depth) in self.base:  # others are dead ends
                yield move, moved, steps * ENERGY[state[move[0]]]

    def moves(self, state: Configuration) -> Iterator[tuple[Move, int]]:
        """Every legal (move, number of steps) in `state`, dead ends included."""
        for h in range(HALLWAY_LENGTH):
            kind = state[h]
            if kind == ".":
                continue
            home = HOME[kind]
            door = ROOM_DOORS[home]
            if _clear(state, h + (1 if door > h else -1), door) and self._clean(state, home):
                for depth, cell in enumerate(self._descents(state, home)):
                    yield (h, cell), abs(door - h) + 1 + depth
        for r, top in enumerate(self.top):
            for slot in range(self.depth):
                here = top + slot
                if state[here] != ".":
                    yield from self._moves_from_room(state, r, slot)

    def _moves_from_room(self, state: Configuration, room: int, slot: int) -> Iterator[tuple[Move, int]]:
        """The moves of the amphipod at `slot` of `room`: along its column, out, home."""
        top = self.top[room]
        here = top + slot
        for there in range(here + 1, top + self.depth):  # down the column
            if state[there] != ".":
                break
            yield (here, there), there - here
        for there in range(here - 1, top - 1, -1):  # up the column
            if state[there] != ".":
                return
            yield (here, there), here - there
        kind, door = state[here], ROOM_DOORS[room]
        home = HOME[kind]
        enter = home != room and self._clean(state, home)
        for step in (-1, 1):
            h = door
            while 0 <= h < HALLWAY_LENGTH and state[h] == ".":
                walked = slot + 1 + abs(h - door)
                if h not in ROOM_DOORS:
                    yield (here, h), walked
                elif enter and h == ROOM_DOORS[home]:
                    for depth, cell in enumerate(self._descents(state, home)):
                        yield (here, cell), walked + 1 + depth
                h += step


class AmphipodsStops(Solver):
    """A* over configurations with the stack bound: ``optimal``; ``infeasible`` when no
    reachable room stacks have every room sorted; ``timeout`` with the open f-bound, or
    without a bound when the deadline passes while the stacks are enumerated."""

    name = "amphipods-stops"
    puzzle = "amphipods"
    summary = "A* over configurations, one move per stop, bounded by the reachable room stacks (no contraction)"

    def _solve(self, instance: Burrow, deadline: Deadline) -> Answer:
        depth = instance.depth
        start, goal = start_and_goal(instance)
        try:
            reachable = reachable_stacks(stacks_of(start, depth), depth, deadline)
            base = base_costs(reachable, stacks_of(goal, depth), depth, deadline)
        except Unfinished:
            return Answer(Status.TIMEOUT, message="stopped while enumerating the room stacks")
        stats: Stats = {"stacks": len(reachable), "stacks_to_goal": len(base)}
        if stacks_of(start, depth) not in base:
            return Answer(Status.INFEASIBLE, stats=stats,
                          message=f"none of the {len(reachable)} reachable room stacks has every room sorted")
        outcome = best_first_search(StopMoves(instance, base), Strategy.ASTAR, deadline)
        return outcome.answer(lambda moves: [AmphipodMove(label(a, depth), label(b, depth)) for a, b in moves],
                              infeasible="every configuration whose stacks can reach the goal expanded", stats=stats)

def after(state: Configuration, move: Move) -> Configuration:
    """The configuration after `move`: the amphipod and the free cell trade places."""
    low, high = min(move), max(move)
    return state[:low] + state[high] + state[low + 1:high] + state[low] + state[high + 1:]


def label(cell: int, depth: int) -> str:
    """The position label of a cell index."""
    if cell < HALLWAY_LENGTH:
        return hallway_label(cell)
    room, slot = divmod(cell - HALLWAY_LENGTH, depth)
    return room_label(room, slot)
