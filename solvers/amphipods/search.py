"""``amphipods-search``: A* over macro moves (room to stop, stop to room, room to room).

State: a 15-character string, the 11 hallway cells followed by one progress
character (``chr(48 + p)``) per room.  Room r's progress p counts events: while ``p < need[r]`` the top p
amphipods have left; from then on the room is clean and ``p - need[r]`` amphipods
have come home (see `Layout`).  The rooms' contents follow from the progress, so
they are not stored.

Moves (relying on the contraction lemma of `solvers.amphipods.common`):
- if some amphipod can go home now (from a hallway stop, or straight from the top of
  its room), it does so at once, as part of the move that made it possible.  Safe:
  doing it earlier frees its cell, enters the same set of room slots at the same
  total cost, and keeps every later move legal;
- otherwise each room's top mover may go to any free stop it can reach, followed by
  every home move this unlocks (one action, so every state is *settled*).
States in which two hallway amphipods each must pass the other are dead and dropped.

Heuristic: the energy if nobody ever blocked anybody (exit to the hallway, walk to
the home door, fill the home room from the bottom).  It is consistent, and it is
maintained incrementally: forced home moves lower it by exactly their cost.
"""

from __future__ import annotations

from collections.abc import Iterator

from models.amphipods import ENERGY, KINDS, ROOM_DOORS, STOPS, AmphipodMove, Burrow, hallway_label, room_label
from solvers.amphipods.common import Layout
from solvers.base import Answer, Deadline, Solver
from solvers.search import SearchProblem, Strategy, best_first_search

State = str
#: (kind, room the move starts from or -1, slot or hallway index, target room or -1, target)
Move = tuple[str, int, int, int, int]
#: One step out of a room followed by every forced move home it unlocks.
Action = tuple[Move, ...]
#: A stop the top mover of a room may reach: (stop, cost, heuristic drop, deadlock slice
#: bounds lo and hi, kinds that would deadlock with it there, action).
Exit = tuple[int, int, int, int, int, frozenset[str], Action]
#: A room's top mover at one progress: (kind, the room's next progress digit, exits per side).
RoomExits = tuple[str, str, tuple[tuple[Exit, ...], ...]]
DOTS = ["." * n for n in range(12)]
HOME = {kind: r for r, kind in enumerate(KINDS)}
DOOR_OF = {kind: ROOM_DOORS[r] for r, kind in enumerate(KINDS)}


class MacroMoves(SearchProblem[State, Action]):
    """The macro-move state space of one burrow."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.goal = "." * 11 + _digits([2 * n for n in layout.need])
        self.start = "." * 11 + "0000"
        self.h: dict[State, int] = {self.start: self._initial_heuristic()}
        self.exits = self._exit_table()

    def initial(self) -> State:
        return self.start

    def _initial_heuristic(self) -> int:
        layout, total = self.layout, 0
        for r, room in enumerate(layout.rooms):
            for slot in range(layout.need[r]):
                kind = room[slot]
                t = HOME[kind]
                walk = abs(ROOM_DOORS[r] - ROOM_DOORS[t]) if t != r else 2
                total += (slot + 1 + walk) * ENERGY[kind]
            e = ENERGY[KINDS[r]]
            total += sum(layout.entry_slot(r, k) + 1 for k in range(layout.need[r])) * e
        return total

    def is_goal(self, state: State) -> bool:
        return state == self.goal

    def heuristic(self, state: State) -> int:
        return self.h[state]

    def successors(self, state: State) -> Iterator[tuple[Action, State, int]]:
        hall, digits = state[:11], state[11:]
        progress = [ord(c) - 48 for c in digits]
        h_values = self.h
        h_here = h_values[state]
        if state == self.start:  # every other state is settled: nobody can go home
            hall, forced, cost = self._go_home(hall, progress)
            if forced:
                child = hall + _digits(progress)
                self.h[child] = h_here - cost
                yield tuple(forced), child, cost
                return
        need = self.layout.need
        for r in range(4):
            p = progress[r]
            if p >= need[r]:
                continue
            kind, rest, options = self.exits[r][p]
            rest = digits[:r] + rest + digits[r + 1:]
            unlock = self._may_unlock(progress, r)
            for side in options:
                for h, step_cost, h_drop, lo, hi, bad, action in side:
                    if hall[h] != ".":
                        break
                    if lo < hi and not bad.isdisjoint(hall[lo:hi]):
                        continue  # deadlock
                    new_hall = hall[:h] + kind + hall[h + 1:]
                    if unlock:
                        moved = progress.copy()
                        moved[r] += 1
                        new_hall, chain, chain_cost = self._go_home(new_hall, moved)
                        child = new_hall + _digits(moved)
                        h_values[child] = h_here - h_drop - chain_cost
                        yield action + tuple(chain), child, step_cost + chain_cost
                    else:
                        child = new_hall + rest
                        h_values[child] = h_here - h_drop
                        yield action, child, step_cost

    def _exit_table(self) -> list[list[RoomExits]]:
        """Per room and progress: the top mover, its room's next progress digit, and per
        side the stops it may reach with (stop, cost, heuristic drop, deadlock slice
        bounds, kinds that would deadlock with it there, action), nearest first."""
        table: list[list[RoomExits]] = []
        for r, room in enumerate(self.layout.rooms):
            door = ROOM_DOORS[r]
            rows: list[RoomExits] = []
            for p in range(self.layout.need[r]):
                kind = room[p]
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
                        drop = (p + 1 + old_walk - abs(h - home)) * e
                        action = ((kind, r, p, -1, h),)
                        side.append((h, (p + 1 + abs(door - h)) * e, drop, lo, hi, frozenset(bad), action))
                    sides.append(tuple(side))
                rows.append((kind, chr(48 + p + 1), tuple(sides)))
            table.append(rows)
        return table

    def _may_unlock(self, progress: list[int], room: int) -> bool:
        """Whether a move out of settled `room` (at `progress`) may let someone go home.

        In a settled state nobody can go home; a step out of `room` only adds a
        hallway amphipod (which blocks, and could not go home from the room either),
        so only the room's new top, or the room becoming clean, can unlock a move.
        """
        p, need = progress[room] + 1, self.layout.need
        if p >= need[room]:
            return True
        t = HOME[self.layout.rooms[room][p]]
        return t != room and progress[t] >= need[t]

    def _go_home(self, hall: str, progress: list[int]) -> tuple[str, list[Move], int]:
        """Send amphipods home while one can go (from a stop or straight from a room).

        Updates `progress` in place; returns the new hallway, the moves and their cost.
        """
        layout, need = self.layout, self.layout.need
        moves: list[Move] = []
        cost = 0
        moved = True
        while moved:
            moved = False
            for h in range(11):
                kind = hall[h]
                if kind == ".":
                    continue
                t = HOME[kind]
                if progress[t] < need[t]:
                    continue
                door = ROOM_DOORS[t]
                between = hall[h + 1:door + 1] if h < door else hall[door:h]
                if between == DOTS[len(between)]:
                    slot = layout.entry_slot(t, progress[t] - need[t])
                    cost += (abs(h - door) + slot + 1) * ENERGY[kind]
                    hall = hall[:h] + "." + hall[h + 1:]
                    progress[t] += 1
                    moves.append((kind, -1, h, t, slot))
                    moved = True
            for r in range(4):
                p = progress[r]
                if p >= need[r]:
                    continue
                kind = layout.rooms[r][p]
                t = HOME[kind]
                if t == r or progress[t] < need[t]:
                    continue
                a, b = sorted((ROOM_DOORS[r], ROOM_DOORS[t]))
                if hall[a:b + 1] == DOTS[b + 1 - a]:
                    slot = layout.entry_slot(t, progress[t] - need[t])
                    cost += (p + 1 + b - a + slot + 1) * ENERGY[kind]
                    progress[r] += 1
                    progress[t] += 1
                    moves.append((kind, r, p, t, slot))
                    moved = True
        return hall, moves, cost


def _digits(progress: list[int]) -> str:
    return "".join(chr(48 + p) for p in progress)


def to_move(action: Move) -> AmphipodMove:
    """The plan move of a search action."""
    _, room, where, target_room, target = action
    source = hallway_label(where) if room < 0 else room_label(room, where)
    goal = hallway_label(target) if target_room < 0 else room_label(target_room, target)
    return AmphipodMove(source, goal)


class MacroSearch(Solver):
    """A* over the canonical macro moves of the contraction lemma: ``optimal``,
    ``infeasible`` when no canonical plan exists, or ``timeout`` with the open f-bound."""

    name = "amphipods-search"
    puzzle = "amphipods"
    summary = "A* over macro moves (room to stop, stop to room, room to room), no-blocking energy heuristic"
    shares = frozenset({"solvers.amphipods.common.Layout"})

    def _solve(self, instance: Burrow, deadline: Deadline) -> Answer:
        outcome = best_first_search(MacroMoves(Layout.of(instance)), Strategy.ASTAR, deadline)
        return outcome.answer(lambda actions: [to_move(move) for action in actions for move in action],
                              infeasible="no canonical plan exists (contraction lemma)")
