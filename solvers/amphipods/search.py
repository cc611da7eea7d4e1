"""``amphipods-search``: A* over macro moves (room to stop, stop to room, room to room).

State: a 15-character string, the 11 hallway cells followed by one progress
character (``chr(48 + p)``) per room.  Room r's progress p counts events: while ``p < leave[r]`` the top p
amphipods have left; from then on the room is clean and ``p - leave[r]`` amphipods
have come home (see `Layout`).  The rooms' contents follow from the progress, so
they are not stored.

Moves (relying on the contraction lemma of `crosscheck.solvers.amphipods.common`):
- if some amphipod can go home now (from a hallway stop, or straight from the top of
  its room), it does so at once, as part of the move that made it possible.  Safe:
  doing it earlier frees its cell, enters the same set of room slots at the same
  total cost, and keeps every later move legal;
- otherwise each room's top mover may go to any free stop it can reach, followed by
  every home move this unlocks (one action, so every state is *settled*).
Dead states are dropped: two hallway amphipods that each must pass the other,
*stranded* rooms (see `MacroMoves._stranded`), and *jammed* hallways where no room can
be the next to become clean (see `MacroMoves._jammed`; on real-kind deep burrows nearly
every reachable state is dead, so pruning them saves most of the search).  The tests
read masks of hallway cells (`BIT`) and remember their verdicts (`Memo`).

Heuristic: the energy if nobody ever blocked anybody (exit to the hallway, walk to
the home door, fill the home room from the bottom).  It is consistent, and it is
maintained incrementally: forced home moves lower it by exactly their cost.

A burrow of depth 7 at most is searched by the same rules in compiled code
(`crosscheck.solvers.amphipods.search_compiled`) once the kernel is loaded
(`AmphipodsSearch.warm_up`, in the forkserver of ``compare`` and ``hunt``): loading it costs
more than a lone ``solve`` of a real burrow takes in Python, so that one searches in Python
(stats ``kernel``).

Options (`SearchOptions`): the heuristic off (Dijkstra), dead states kept (every dead-state
test off), both exact; and the heuristic weighted twice, which gives up optimality (its
plans are upper bounds only).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from functools import partial
from typing import ClassVar, Generic, Literal, TypeVar, cast

from crosscheck.models.amphipods.model import (
    ENERGY,
    KINDS,
    ROOM_DOORS,
    STOPS,
    AmphipodMove,
    Burrow,
    hallway_label,
    parse,
    room_label,
)
from crosscheck.solvers.amphipods.common import Layout
from crosscheck.solvers.base import Answer, Deadline, Solver
from crosscheck.solvers.configuration import Options, option
from crosscheck.solvers.engines.search import SearchProblem, Strategy, best_first_search

State = str
V = TypeVar("V")
#: (kind, room the move starts from or -1, slot or hallway index, target room or -1, target)
Move = tuple[str, int, int, int, int]
#: One step out of a room followed by every forced move home it unlocks.
Action = tuple[Move, ...]
#: A stop the top mover of a room may reach: (stop, cost, heuristic drop, deadlock slice
#: bounds lo and hi, kinds that would deadlock with it there, action).
Exit = tuple[int, int, int, int, int, frozenset[str], Action]
#: A room's top mover at one progress: (kind, the room's next progress digit, exits per side).
RoomExits = tuple[str, str, tuple[tuple[Exit, ...], ...]]
#: Room r's amphipod that leaves at progress p: (kind, slot, home room).
Mover = tuple[str, int, int]
DOTS = ["." * n for n in range(12)]
HOME = {kind: r for r, kind in enumerate(KINDS)}
DOOR_OF = {kind: ROOM_DOORS[r] for r, kind in enumerate(KINDS)}
#: How many stops lie right (left) of each hallway cell.
STOPS_RIGHT = [sum(s > h for s in STOPS) for h in range(11)]
STOPS_LEFT = [sum(s < h for s in STOPS) for h in range(11)]
#: How many stops s have lo <= s < hi (indexed [lo][hi], 0 <= lo, hi <= 11).
STOPS_BETWEEN = [[sum(lo <= s < hi for s in STOPS) for hi in range(12)] for lo in range(12)]
#: Per pair of rooms: the hallway cells from one door to the other, as slice bounds.
DOOR_SPANS = [[(min(a, b), max(a, b) + 1) for b in ROOM_DOORS] for a in ROOM_DOORS]
#: Hallway cells as the bits of a mask: the ``int`` of an 11-digit binary string, cell 0 its first digit.
BIT = [1 << (10 - h) for h in range(11)]
NO_BIT = [0] * 11
#: Per kind: the table that turns a hallway (as bytes) into the binary digits of that kind's cells.
ONLY = {kind: bytes.maketrans(b"." + KINDS.encode(), b"0" + bytes(b"01"[k == kind] for k in KINDS)) for kind in KINDS}
#: The table that turns a hallway (as bytes) into the binary digits of its occupied cells.
OCCUPIED = bytes.maketrans(b"." + KINDS.encode(), b"01111")
#: Per set of clean rooms (bit r: room r): the table that marks ``*`` the hallway cells (as bytes)
#: of the amphipods whose home room is clean.
HOMING = [bytes.maketrans(b"." + KINDS.encode(), b"." + bytes(b".*"[clean >> r & 1] for r in range(4)))
          for clean in range(16)]
#: Per set of clean rooms (bit r: room r): the table that turns a hallway (as bytes) into the
#: binary digits of its stuck cells (the amphipods whose home room is not clean).
STUCK = [bytes.maketrans(b"." + KINDS.encode(), b"0" + bytes(b"10"[clean >> r & 1] for r in range(4)))
         for clean in range(16)]
#: The module of the compiled search, loaded by `AmphipodsSearch.warm_up`.
COMPILED = "crosscheck.solvers.amphipods.search_compiled"
#: A burrow for `AmphipodsSearch.warm_up`: the published example.
WARM_UP = """\
#############
#...........#
###B#C#B#D###
  #A#D#C#A#
  #########
"""


class Memo(dict[int, V], Generic[V]):
    """A memo of a function of a mask of hallway cells (a dead-state test, the free exits of a
    room): a missing mask is computed once."""

    def __init__(self, function: Callable[[int], V]) -> None:
        super().__init__()
        self.function = function

    def __missing__(self, cells: int) -> V:
        value = self[cells] = self.function(cells)
        return value


def _window(door: int, cells: int) -> tuple[int, int, int]:
    """Around `door`, the nearest of the hallway cells in mask `cells` (`BIT`) on its left and on
    its right (-1 and 11 where there is none), and how many stops lie between those two."""
    taken = format(cells, "011b")
    left, right = taken.rfind("1", 0, door), taken.find("1", door)
    right = 11 if right < 0 else right
    return left, right, STOPS_BETWEEN[left + 1][right]

#: A room whose top mover may step out, at some progress: (room, mover's kind, its exits free
#: per mask of occupied hallway cells (see `MacroMoves._free_exits`),
#: progress digits after the step, whether the step may unlock a move home, the stranded-room
#: verdicts of the mover's kind (None: no test), the jammed-hallway verdicts after a step that
#: unlocks nothing (None: no test), per stop the bit the mover adds to the stuck cells).
Step = tuple[int, str, Memo[tuple[Exit, ...]], str, bool, Memo[bool] | None, Memo[bool] | None, list[int]]
#: What `MacroMoves.successors` needs of some progress digits: the table marking stuck kinds
#: (see `MacroMoves._jammed`), the steps out of rooms, and the progress as numbers.
Progress = tuple[bytes, tuple[Step, ...], list[int]]
#: A room not clean, as `MacroMoves._jammed` sees it at some progress: (its door, how many amphipods
#: still leave it, how many of them have a home room not clean, the doors of the others' home rooms).
Unclean = tuple[int, int, int, tuple[int, ...]]


class SearchOptions(Options):
    """amphipods-search's design choices (docs/puzzles/amphipods.md)."""

    heuristic: Literal["on", "off"] = option("on", "A* with the no-blocking energy bound, or Dijkstra (off)")
    dead_states: Literal["pruned", "kept"] = option(
        "pruned", "drop dead states (mutual blocks, stranded rooms, jammed hallways) or keep them")
    weight: Literal[1, 2] = option(1, "weight of the heuristic in f = g + weight * h (2 gives up optimality)",
                                   inexact=(2,))


class MacroMoves(SearchProblem[State, Action]):
    """The macro-move state space of one burrow, searched as `options` say (the defaults without)."""

    def __init__(self, layout: Layout, options: SearchOptions | None = None) -> None:
        self.layout = layout
        self.options: SearchOptions = options or SearchOptions()
        self.weight = self.options.weight
        self.prune = self.options.dead_states == "pruned"
        self.goal = "." * 11 + _digits([out + back for out, back in zip(layout.leave, layout.enter, strict=True)])
        self.start = layout.hallway + "0000"
        self.h: dict[State, int] = {self.start: self._initial_heuristic()}
        self.exits = self._exit_table()
        self.crossing = self._crossing_table()
        self.unlock_by = self._unlock_table()
        #: Per room r and progress p < leave[r]: the home rooms of r's amphipods still to leave.
        self.leaver_homes = [[tuple(HOME[kind] for kind in room[top + p:top + n]) for p in range(n)]
                             for room, top, n in zip(layout.rooms, layout.top, layout.leave, strict=True)]
        #: Room r's leavers in order (`Mover`), and per progress of room t the slot its next entrant takes.
        self.movers: list[list[Mover]] = [[(*layout.leaver(r, p), HOME[layout.leaver(r, p)[0]]) for p in range(n)]
                                          for r, n in enumerate(layout.leave)]
        self.entry = [[-1] * n + [layout.entry_slot(t, k) for k in range(back)]
                      for t, (n, back) in enumerate(zip(layout.leave, layout.enter, strict=True))]
        #: Memos: per room t and progress p, `_stranded`'s verdicts for t's kind with t's crossing
        #: counts (None where they are all 0, or t is clean); per progress digits, `_jammed`'s
        #: stuck-kind table and verdicts (shared by progress whose rooms not clean are alike, as
        #: `Unclean` says); per room and progress, the free exits; `_window` per door; `Progress` per progress digits.
        self.strand_memos: list[list[Memo[bool] | None]] = [
            [None if counts is None else Memo(partial(self._stranded, KINDS[t], counts)) for counts in row]
            + [None] * (layout.enter[t] + 1) for t, row in enumerate(self.crossing)]
        self.jam_memos: dict[str, tuple[bytes, Memo[bool]]] = {}
        self.windows = {door: Memo(partial(_window, door)) for door in ROOM_DOORS}
        self.jam_shared: dict[tuple[Unclean, ...], tuple[bytes, Memo[bool]]] = {}
        self.free_exits = [[Memo(partial(self._free_exits, ROOM_DOORS[r], sides)) for _, _, sides in row]
                           for r, row in enumerate(self.exits)]
        self.at: dict[str, Progress] = {}

    def initial(self) -> State:
        return self.start

    def fits(self) -> bool:
        """Whether the compiled search takes this burrow: every room's progress (leavers and
        entrants) in 4 bits (`crosscheck.solvers.amphipods.search_kernel`)."""
        return all(out + back < 16 for out, back in zip(self.layout.leave, self.layout.enter, strict=True))

    def _initial_heuristic(self) -> int:
        layout = self.layout
        total = sum(abs(h - DOOR_OF[kind]) * ENERGY[kind] for h, kind in enumerate(layout.hallway) if kind != ".")
        for r in range(4):
            for p in range(layout.leave[r]):
                kind, slot = layout.leaver(r, p)
                t = HOME[kind]
                walk = abs(ROOM_DOORS[r] - ROOM_DOORS[t]) if t != r else 2
                total += (slot + 1 + walk) * ENERGY[kind]
            e = ENERGY[KINDS[r]]
            total += sum(layout.entry_slot(r, k) + 1 for k in range(layout.enter[r])) * e
        return total

    def is_goal(self, state: State) -> bool:
        return state == self.goal

    def heuristic(self, state: State) -> int:
        return self.weight * self.h[state]

    def successors(self, state: State) -> Iterator[tuple[Action, State, int]]:
        hall, digits = state[:11], state[11:]
        h_values = self.h
        h_here = h_values[state]
        stuck_bits, steps, progress = self.at.get(digits) or self._progress(digits)
        if state == self.start:  # every other state is settled: nobody can go home
            moved = progress.copy()
            home_hall, forced, cost = self._go_home(hall, moved)
            if forced:
                child = home_hall + _digits(moved)
                h_values[child] = h_here - cost
                yield tuple(forced), child, cost
                return
        cells_of = hall.encode()
        stuck, occupied = int(cells_of.translate(stuck_bits), 2), int(cells_of.translate(OCCUPIED), 2)
        deadlocks = self.prune
        for r, kind, free_exits, rest, unlock, strand, jams, marks in steps:
            exits = free_exits[occupied]
            if unlock:
                for h, step_cost, h_drop, lo, hi, bad, action in exits:
                    if deadlocks and lo < hi and not bad.isdisjoint(hall[lo:hi]):
                        continue  # deadlock
                    unlocked = self._unlocked(hall[:h] + kind + hall[h + 1:], progress, r, kind)
                    if unlocked is not None:
                        child, chain, chain_cost = unlocked
                        h_values[child] = h_here - h_drop - chain_cost
                        yield action + chain, child, step_cost + chain_cost
                continue
            cells = -1  # the mask of `kind`'s hallway cells, once a stop needs it
            for h, step_cost, h_drop, lo, hi, bad, action in exits:  # the cheapest tests first
                if jams is not None and jams[stuck | marks[h]]:
                    continue
                if strand is not None:
                    if cells < 0:
                        cells = int(cells_of.translate(ONLY[kind]), 2)
                    if strand[cells | BIT[h]]:
                        continue
                if deadlocks and lo < hi and not bad.isdisjoint(hall[lo:hi]):
                    continue  # deadlock
                child = hall[:h] + kind + hall[h + 1:] + rest
                h_values[child] = h_here - h_drop
                yield action, child, step_cost

    def _progress(self, digits: str) -> Progress:
        """`Progress` of `digits` (memoized in `at`)."""
        stuck_bits = self._jam_memo(digits)[0]
        progress = [ord(c) - 48 for c in digits]
        leave, steps = self.layout.leave, []
        for r in range(4):
            p = progress[r]
            if p >= leave[r]:
                continue
            kind, rest, _ = self.exits[r][p]
            rest = digits[:r] + rest + digits[r + 1:]
            t = self.unlock_by[r][p]
            unlock = t < 0 or (t < 4 and progress[t] >= leave[t])
            strand = self.strand_memos[HOME[kind]][progress[HOME[kind]]] if self.prune else None
            jams = self._jam_memo(rest)[1] if self.prune and not unlock else None
            marks = BIT if stuck_bits[ord(kind)] == ord("1") else NO_BIT
            steps.append((r, kind, self.free_exits[r][p], rest, unlock, strand, jams, marks))
        entry = self.at[digits] = (stuck_bits, tuple(steps), progress)
        return entry

    def _unlocked(self, hall: str, progress: list[int], r: int, kind: str) -> tuple[State, Action, int] | None:
        """After room r's top mover (of `kind`) stepped out into `hall` at `progress`: the state
        once every move home this unlocks is made, those moves and their cost; None if it is dead."""
        moved = progress.copy()
        moved[r] += 1
        hall, chain, cost = self._go_home(hall, moved)
        digits = _digits(moved)
        if self.prune:
            strand = self.strand_memos[HOME[kind]][moved[HOME[kind]]]
            stranded = strand is not None and strand[int(hall.encode().translate(ONLY[kind]), 2)]
            if stranded or self._jammed(hall, digits):
                return None
        return hall + digits, tuple(chain), cost

    def _exit_table(self) -> list[list[RoomExits]]:
        """Per room and progress: the top mover, its room's next progress digit, and per
        side the stops it may reach with (stop, cost, heuristic drop, deadlock slice
        bounds, kinds that would deadlock with it there, action), nearest first."""
        table: list[list[RoomExits]] = []
        for r in range(4):
            door = ROOM_DOORS[r]
            rows: list[RoomExits] = []
            for p in range(self.layout.leave[r]):
                kind, slot = self.layout.leaver(r, p)
                e, home = ENERGY[kind], DOOR_OF[kind]
                old_walk = abs(door - home) if home != door else 2
                sides: list[tuple[Exit, ...]] = []
                for stops in (reversed([h for h in STOPS if h < door]), [h for h in STOPS if h > door]):
                    side: list[Exit] = []
                    for h in stops:
                        if home > h:
                            lo, hi, bad = h + 1, home, {k for k in KINDS if DOOR_OF[k] < h}
                        else:
                            lo, hi, bad = home + 1, h, {k for k in KINDS if DOOR_OF[k] > h}
                        drop = (slot + 1 + old_walk - abs(h - home)) * e
                        action = ((kind, r, slot, -1, h),)
                        side.append((h, (slot + 1 + abs(door - h)) * e, drop, lo, hi, frozenset(bad), action))
                    sides.append(tuple(side))
                rows.append((kind, chr(48 + p + 1), tuple(sides)))
            table.append(rows)
        return table

    @staticmethod
    def _free_exits(door: int, sides: tuple[tuple[Exit, ...], ...], occupied: int) -> tuple[Exit, ...]:
        """The exits of a room at `door` (`sides`: `_exit_table`'s) its top mover can reach while the
        hallway cells in `occupied` (a mask: `BIT`) are taken: per side, those before the first taken stop."""
        taken = format(occupied, "011b")
        left, right = taken.rfind("1", 0, door), taken.find("1", door + 1)
        return sides[0][:STOPS_BETWEEN[left + 1][door]] + sides[1][:STOPS_BETWEEN[door + 1][11 if right < 0 else right]]

    def _unlock_table(self) -> list[list[int]]:
        """Per room r and progress p: which room must be clean for a move out of r to
        let someone go home (-1: any move may, r itself becomes clean; 4: none may).

        In a settled state nobody can go home; a step out of room r only adds a
        hallway amphipod (which blocks, and could not go home from the room either),
        so only r's new top (if its home room t is clean), or r becoming clean, can
        unlock a move.
        """
        layout, table = self.layout, []
        for r in range(4):
            row = [-1 if p + 1 >= layout.leave[r] else HOME[layout.leaver(r, p + 1)[0]] for p in range(layout.leave[r])]
            table.append([t if t != r else 4 for t in row])
        return table

    def _crossing_table(self) -> list[list[tuple[int, ...] | None]]:
        """Per room t, progress p and hallway cell h: how many of t's leavers still in
        the room (slots p and below) have their home door on the far side of h from
        t's door (None when that is 0 for every h)."""
        layout, table = self.layout, []
        for t, room in enumerate(layout.rooms):
            door, rows = ROOM_DOORS[t], []
            for p in range(layout.leave[t]):
                homes = [DOOR_OF[kind] for kind in room[layout.top[t] + p:layout.top[t] + layout.leave[t]]]
                counts = tuple(sum(home < h if h < door else home > h for home in homes) for h in range(11))
                rows.append(counts if any(counts) else None)
            table.append(rows)
        return table

    @staticmethod
    def _stranded(kind: str, crossing: tuple[int, ...], cells: int) -> bool:
        """Whether some hallway amphipod of `kind` makes the state dead (`crossing`:
        the counts of `kind`'s home room at the state's progress; `cells`: the hallway
        cells of `kind`'s amphipods, a mask as `BIT` says).

        Let X wait at stop h for its home room t (door d, say h < d; the other side is
        the mirror image).  X only moves home, and only once t is clean.  Every
        leaver L of t whose home door lies left of h cannot pass X, so it must leave t
        for a stop s > h; a stop with h < s < d is on X's way while X is on L's, a
        deadlock, so s > d.  L only moves home, across h, so it waits there until X
        has gone.  Hence when t becomes clean, all such L and every other hallway
        amphipod of X's kind right of d (it too waits for t to be clean) hold
        distinct stops right of d: if there are more of them than stops, the goal
        is unreachable.  Only a new hallway amphipod of `kind` can make this true
        (moves home and room progress only shrink both counts), so callers check
        the kind that just stepped out.
        """
        door, hall = DOOR_OF[kind], format(cells, "011b")  # "1" where an amphipod of `kind` is
        h = hall.find("1")
        while h >= 0:
            count = crossing[h]
            if count:
                room = STOPS_RIGHT[door] - hall.count("1", door + 1) if h < door else STOPS_LEFT[door] - hall.count("1", 0, door)
                if count > room:
                    return True
            h = hall.find("1", h + 1)
        return False

    def _jammed(self, hall: str, digits: str) -> bool:
        """Whether no room can be the next to become clean: the state is dead.

        Call a hallway amphipod *stuck* if its home room is not clean.  Take any
        continuation to the goal and the first room t not clean now to become clean
        in it.  Until then no room that is not clean now becomes clean, so every stuck
        amphipod stays where it is (it only moves home, into a clean room).  Each
        amphipod still to leave t steps out of door t and either goes straight into
        its home room or stops; it can go home only if that room is clean now and no
        stuck amphipod lies between the two doors, and otherwise stays at its stop
        until t is clean (it too only moves home).  The stops it can reach lie
        between the nearest stuck amphipods left and right of door t.  So when t
        becomes clean, every such leaver holds its own stop there: if they outnumber
        those stops, t cannot be first.  If no room can be first, the goal is
        unreachable.  (Amphipods whose home is clean, in the hallway or leaving t
        with a free way home, are assumed to clear out: that only errs towards
        keeping the state.)  `digits` are the state's progress digits; the verdict is
        memoized on them and the stuck amphipods' cells.
        """
        stuck_bits, verdicts = self.jam_memos.get(digits) or self._jam_memo(digits)
        return verdicts[int(hall.encode().translate(stuck_bits), 2)]

    def _jam_memo(self, digits: str) -> tuple[bytes, Memo[bool]]:
        """`_jammed`'s memo for progress `digits`: the table that turns a hallway (as bytes) into
        the binary digits of its stuck cells, and the verdicts per mask of stuck cells."""
        memo = self.jam_memos.get(digits)
        if memo is None:
            progress = [ord(c) - 48 for c in digits]
            leave = self.layout.leave
            unclean = [t for t in range(4) if progress[t] < leave[t]]
            rooms: list[Unclean] = []
            for t in unclean:
                homes = self.leaver_homes[t][progress[t]]
                clean_doors = tuple([ROOM_DOORS[u] for u in homes if u not in unclean])
                rooms.append((ROOM_DOORS[t], len(homes), len(homes) - len(clean_doors), clean_doors))
            key = tuple(rooms)
            memo = self.jam_shared.get(key)  # the test depends on nothing else
            if memo is None:
                clean = sum(1 << t for t in range(4) if t not in unclean)
                memo = self.jam_shared[key] = (STUCK[clean], Memo(partial(self._no_room_first, self.windows, key)))
            self.jam_memos[digits] = memo
        return memo

    @staticmethod
    def _no_room_first(windows: dict[int, Memo[tuple[int, int, int]]], rooms: tuple[Unclean, ...], cells: int) -> bool:
        """`_jammed`'s test, given the rooms not clean (`Unclean`) and the stuck amphipods' cells
        as a mask (`BIT`); `windows`: `_window` per door, memoized."""
        for door, leaving, must_stop, clean_doors in rooms:
            left, right, stops = windows[door][cells]
            if leaving <= stops:
                return False
            for home_door in clean_doors:  # a leaver whose clean home room lies beyond them stops too
                if not left < home_door < right:
                    must_stop += 1
            if must_stop <= stops:
                return False
        return bool(rooms)

    def _go_home(self, hall: str, progress: list[int]) -> tuple[str, list[Move], int]:
        """Send amphipods home while one can go (from a stop or straight from a room).

        Updates `progress` in place; returns the new hallway, the moves and their cost.
        """
        leave, movers, entry = self.layout.leave, self.movers, self.entry
        moves: list[Move] = []
        cost = 0
        p0, p1, p2, p3 = progress  # bit t of `clean`: room t is clean
        clean = (p0 >= leave[0]) | (p1 >= leave[1]) << 1 | (p2 >= leave[2]) << 2 | (p3 >= leave[3]) << 3
        moved = True
        while moved:
            moved = False
            homing = hall.encode().translate(HOMING[clean])  # a pass changes `hall` only at cells already passed
            h = homing.find(b"*")
            while h >= 0:
                kind = hall[h]
                t = HOME[kind]
                door = ROOM_DOORS[t]
                between = hall[h + 1:door + 1] if h < door else hall[door:h]
                if between == DOTS[len(between)]:
                    slot = entry[t][progress[t]]
                    cost += (abs(h - door) + slot + 1) * ENERGY[kind]
                    hall = hall[:h] + "." + hall[h + 1:]
                    progress[t] += 1
                    moves.append((kind, -1, h, t, slot))
                    moved = True
                h = homing.find(b"*", h + 1)
            for r in range(4):
                p = progress[r]
                if p >= leave[r]:
                    continue
                kind, here, t = movers[r][p]
                if t == r or progress[t] < leave[t]:
                    continue
                a, b = DOOR_SPANS[r][t]
                if hall[a:b] == DOTS[b - a]:
                    slot = entry[t][progress[t]]
                    cost += (here + b - a + slot + 1) * ENERGY[kind]
                    progress[r] += 1
                    progress[t] += 1
                    moves.append((kind, r, here, t, slot))
                    moved = True
                    if progress[r] == leave[r]:
                        clean |= 1 << r
        return hall, moves, cost


def _digits(progress: list[int]) -> str:
    a, b, c, d = progress
    return "%c%c%c%c" % (48 + a, 48 + b, 48 + c, 48 + d)


def to_move(action: Move) -> AmphipodMove:
    """The plan move of a search action."""
    _, room, where, target_room, target = action
    source = hallway_label(where) if room < 0 else room_label(room, where)
    goal = hallway_label(target) if target_room < 0 else room_label(target_room, target)
    return AmphipodMove(source, goal)


class AmphipodsSearch(Solver):
    """A* over the canonical macro moves of the contraction lemma: ``optimal``,
    ``infeasible`` when no canonical plan exists, or ``timeout`` with the open f-bound."""

    name = "amphipods-search"
    puzzle = "amphipods"
    summary = "A* over macro moves (room to stop, stop to room, room to room), no-blocking energy heuristic"
    Options: ClassVar[type[Options]] = SearchOptions
    warm_up_pays_alone = False  # loading numba costs more than a real burrow's search in Python

    @classmethod
    def warm_up(cls) -> None:
        """Compile (or load from numba's cache) the kernel, by solving a small burrow (in arrays
        too small for it, so that growing them is compiled too)."""
        from crosscheck.solvers.amphipods.search_compiled import compiled_search

        compiled_search(MacroMoves(Layout.of(parse(WARM_UP, "warm-up"))), capacity=64).solution()

    def _solve(self, instance: Burrow, deadline: Deadline) -> Answer:
        options: SearchOptions = cast(SearchOptions, self.options)  # as `configured` checks
        strategy = Strategy.ASTAR if options.heuristic == "on" else Strategy.DIJKSTRA
        problem = MacroMoves(Layout.of(instance), options)
        compiled = COMPILED in sys.modules and problem.fits()  # loaded by `warm_up`: see the module doc
        if compiled:
            from crosscheck.solvers.amphipods.search_compiled import compiled_search

            outcome = compiled_search(problem, deadline)
        else:
            outcome = best_first_search(problem, strategy, deadline)
        return outcome.answer(lambda actions: [to_move(move) for action in actions for move in action],
                              infeasible="no canonical plan exists (contraction lemma)",
                              stats={"kernel": "compiled" if compiled else "python"})
