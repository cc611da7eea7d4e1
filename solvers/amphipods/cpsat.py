"""``amphipods-cpsat``: a CP-SAT scheduling model of the canonical plans.

By the contraction lemma (`crosscheck.solvers.amphipods.common`) some optimal plan is canonical:
every amphipod that must move leaves its room once, either straight into its home
room or to one hallway stop from which it later goes home, and entrants fill rooms
from the bottom.  The model describes exactly the canonical plans:

- events: amphipod i leaves at time ``L[i]`` and arrives home at ``A[i] > L[i]``; all
  event times are distinct (one amphipod moves at a time).  A direct move is the
  option ``direct`` with ``A[i] = L[i] + 1``;
- a choice ``x[i, o]`` of one option: a stop (not above a room) or ``direct``;
  an optional interval ``[L[i], A[i])`` on each stop, with no overlap per stop;
- room order: a room's movers leave top first; an amphipod arrives home only after
  the last mover of its home room (the deepest stranger) has left;
- path clear: at each event, no stop on the hallway stretch the amphipod walks (its
  target stop included) is held by another amphipod at that moment;
- objective: the energy, i.e. a constant (climbing out of rooms and filling rooms
  from the bottom cost the same in every canonical plan) plus the hallway walks.

Every solution is a legal plan (it is extracted event by event; the harness replays
it with the puzzle's checker), and every canonical plan is a solution, so the optimum and the
best bound are those of the puzzle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal, cast

from crosscheck.models.amphipods.model import (
    ENERGY,
    KINDS,
    ROOM_DOORS,
    STOPS,
    AmphipodMove,
    Burrow,
    hallway_label,
    room_label,
)
from crosscheck.solvers.amphipods.common import Layout
from crosscheck.solvers.base import Answer, Deadline, Solver
from crosscheck.solvers.configuration import Options, option
from crosscheck.solvers.engines.cpsat import CpsatOptions, configured_solver, cp_model, run_answer, run_stats, solve

DIRECT = -1
#: The `Mover.room` of an amphipod that starts in the hallway.
HALLWAY = -1


@dataclass(frozen=True)
class Mover:
    """An amphipod that must move: kind, origin room and slot (or `HALLWAY` and its
    hallway index), home room."""

    kind: str
    room: int
    slot: int
    home: int

    @property
    def energy(self) -> int:
        return ENERGY[self.kind]

    @property
    def waiting(self) -> bool:
        """True for an amphipod that starts at a hallway stop: it has stopped there, and
        its one move takes it home."""
        return self.room == HALLWAY


def movers(layout: Layout) -> list[Mover]:
    """The amphipods in the hallway, left to right, then those that leave their rooms,
    room by room, top first."""
    waiting = [Mover(kind, HALLWAY, h, KINDS.index(kind)) for h, kind in enumerate(layout.hallway) if kind != "."]
    return waiting + [Mover(kind, r, slot, KINDS.index(kind))
                      for r in range(4) for kind, slot in (layout.leaver(r, p) for p in range(layout.leave[r]))]


def walk(door: int, stop: int, home_door: int) -> int:
    """Hallway cells walked from a room door to a stop, then to the home door."""
    return abs(door - stop) + abs(stop - home_door)


def between(a: int, b: int) -> list[int]:
    """The stops strictly between hallway cells a and b."""
    low, high = min(a, b), max(a, b)
    return [h for h in STOPS if low < h < high]


class AmphipodsCpsatOptions(CpsatOptions):
    """amphipods-cpsat's design choices: both values of each keep it exact."""

    stop_intervals: Literal["on", "off"] = option(
        "on", "the no-overlap of stop intervals, redundant beside the clear paths (a mover's target stop "
              "is on its path, so it is never held when it is taken)")


class Schedule:
    """The CP-SAT model of one burrow (variables named after movers and stops), built within
    `deadline` (`crosscheck.solvers.base.LimitReached` once it passes); without
    `stop_intervals`, no interval constraint (`_one_amphipod_per_stop`, redundant)."""

    def __init__(self, layout: Layout, deadline: Deadline | None = None, stop_intervals: bool = True) -> None:
        self.deadline = deadline or Deadline(None)
        self.layout = layout
        self.movers = movers(layout)
        self.model = cp_model.CpModel()
        n = len(self.movers)
        self.horizon = 2 * n
        self.leave = [self.model.new_int_var(0, self.horizon - 1, f"leave_{i}") for i in range(n)]
        self.arrive = [self.model.new_int_var(0, self.horizon - 1, f"arrive_{i}") for i in range(n)]
        self.events = self.leave + self.arrive  # mover i leaves at event i, arrives at event n + i
        self.options = [self._options(i, m) for i, m in enumerate(self.movers)]
        self._one_move_at_a_time()
        self._room_order()
        if stop_intervals:
            self._one_amphipod_per_stop()
        self._paths_clear(self._held_stops())
        self._objective()

    def _options(self, i: int, m: Mover) -> dict[int, cp_model.IntVar]:
        """Mover i's choice of exactly one stop, or of going home directly (a waiting
        amphipod's only option is the stop it stands on)."""
        stops = [m.slot] if m.waiting else STOPS
        choices = {h: self.model.new_bool_var(f"stop_{i}_{hallway_label(h)}") for h in stops}
        if m.home != m.room and not m.waiting:
            choices[DIRECT] = self.model.new_bool_var(f"direct_{i}")
        self.model.add_exactly_one(choices.values())
        return choices

    def _one_move_at_a_time(self) -> None:
        """Distinct event times; arrival after departure; a direct move is one event.
        The amphipods waiting in the hallway have stopped there before the first move:
        their departures are the first events (they take no move of the plan)."""
        self.model.add_all_different(self.events)
        waiting = sum(m.waiting for m in self.movers)
        for i, m in enumerate(self.movers):
            if m.waiting:
                self.model.add(self.leave[i] == i)
            else:
                self.model.add(self.leave[i] >= waiting)
        for i, choices in enumerate(self.options):
            self.model.add(self.arrive[i] > self.leave[i])
            if DIRECT in choices:
                self.model.add(self.arrive[i] == self.leave[i] + 1).only_enforce_if(choices[DIRECT])

    def _room_order(self) -> None:
        """Movers leave top first; entrants come after their home room's last mover left."""
        last: dict[int, int] = {}
        for i, m in enumerate(self.movers):
            if m.waiting:
                continue
            if i > 0 and self.movers[i - 1].room == m.room:
                self.model.add(self.leave[i - 1] < self.leave[i])
            last[m.room] = i
        for i, m in enumerate(self.movers):
            if m.home in last:  # else no stranger is in the home room
                self.model.add(self.arrive[i] > self.leave[last[m.home]])

    def _one_amphipod_per_stop(self) -> None:
        """A stop holds at most one amphipod at a time."""
        for h in STOPS:
            intervals = []
            for i in (i for i in range(len(self.movers)) if h in self.options[i]):
                size = self.model.new_int_var(1, self.horizon, f"wait_{i}_{hallway_label(h)}")
                intervals.append(self.model.new_optional_interval_var(
                    self.leave[i], size, self.arrive[i], self.options[i][h], f"hold_{i}_{hallway_label(h)}"))
            self.model.add_no_overlap(intervals)

    def _held_stops(self) -> dict[tuple[int, int], cp_model.IntVar]:
        """``held[h, e]``, forced true when another amphipod holds stop h at event e."""
        model, events, n = self.model, self.events, len(self.movers)
        count = len(events)
        before: dict[tuple[int, int], cp_model.BoolVarT] = {}
        for e in range(count):
            self.deadline.check("ordering the model's events")
            for f in range(e + 1, count):
                literal = model.new_bool_var(f"before_{e}_{f}")
                model.add(events[e] < events[f]).only_enforce_if(literal)
                model.add(events[e] > events[f]).only_enforce_if(~literal)
                before[e, f], before[f, e] = literal, ~literal
        held = {(h, e): model.new_bool_var(f"held_{hallway_label(h)}_at_{e}") for h in STOPS for e in range(count)}
        for j in range(n):
            self.deadline.check("marking the stops held")
            for e in range(count):
                if e in (j, n + j):
                    continue  # j does not hold a stop at its own events
                inside = [before[j, e], before[e, n + j]]  # leave_j < event < arrive_j
                for h, chosen in self.options[j].items():
                    if h != DIRECT:
                        model.add_bool_or([held[h, e], chosen.Not(), inside[0].Not(), inside[1].Not()])
        return held

    def _paths_clear(self, held: dict[tuple[int, int], cp_model.IntVar]) -> None:
        """At each of its events, no stop on the stretch a mover walks is held."""
        n = len(self.movers)
        for i, m in enumerate(self.movers):
            self.deadline.check("clearing the paths")
            door, home_door = self._door(m), ROOM_DOORS[m.home]
            for stop, chosen in self.options[i].items():
                if m.waiting:
                    stretches = {n + i: between(stop, home_door)}
                elif stop == DIRECT:
                    stretches = {i: between(door, home_door)}
                else:
                    stretches = {i: between(door, stop) + [stop], n + i: between(stop, home_door)}
                for event, stops in stretches.items():
                    for h in stops:
                        self.model.add_implication(chosen, held[h, event].Not())

    @staticmethod
    def _door(m: Mover) -> int:
        """The hallway cell a mover starts its walk from: its room's door, or its stop."""
        return m.slot if m.waiting else ROOM_DOORS[m.room]

    def _objective(self) -> None:
        """The hallway walks; climbing out and filling rooms is the constant `constant`."""
        layout = self.layout
        self.constant = sum((m.slot + 1) * m.energy for m in self.movers if not m.waiting) + sum(
            (layout.entry_slot(t, k) + 1) * ENERGY[KINDS[t]] for t in range(4) for k in range(layout.enter[t])
        )
        self.model.minimize(sum(
            m.energy * (abs(self._door(m) - ROOM_DOORS[m.home]) if option == DIRECT
                        else walk(self._door(m), option, ROOM_DOORS[m.home])) * chosen
            for m, choices in zip(self.movers, self.options, strict=True) for option, chosen in choices.items()
        ))

    def plan(self, solver: cp_model.CpSolver) -> list[AmphipodMove]:
        """The plan of a solution: its events in time order."""
        n = len(self.movers)
        events: list[tuple[int, int, str, int]] = []  # (time, mover, what, stop or DIRECT)
        for i in range(n):
            option = next(o for o, chosen in self.options[i].items() if solver.boolean_value(chosen))
            if option == DIRECT:
                events.append((solver.value(self.leave[i]), i, "direct", DIRECT))
            else:
                if not self.movers[i].waiting:
                    events.append((solver.value(self.leave[i]), i, "out", option))
                events.append((solver.value(self.arrive[i]), i, "home", option))
        entered = [0, 0, 0, 0]
        moves: list[AmphipodMove] = []
        for _, i, what, stop in sorted(events):
            m = self.movers[i]
            source = room_label(m.room, m.slot) if what != "home" else hallway_label(stop)
            if what == "out":
                moves.append(AmphipodMove(source, hallway_label(stop)))
                continue
            slot = self.layout.entry_slot(m.home, entered[m.home])
            entered[m.home] += 1
            moves.append(AmphipodMove(source, room_label(m.home, slot)))
        return moves


class AmphipodsCpsat(Solver):
    """The `Schedule` model solved by CP-SAT: ``optimal`` or ``feasible`` (with CP-SAT's
    bound plus the constant), ``infeasible`` when no canonical plan exists, ``timeout``."""

    name = "amphipods-cpsat"
    puzzle = "amphipods"
    summary = "CP-SAT scheduling model: leave/arrive events, stop choice, no-overlap, room order, path clear"
    runs_cpsat = True
    Options: ClassVar[type[Options]] = AmphipodsCpsatOptions

    def _solve(self, instance: Burrow, deadline: Deadline) -> Answer:
        options: AmphipodsCpsatOptions = cast(AmphipodsCpsatOptions, self.options)  # as `configured` checks
        schedule = Schedule(Layout.of(instance), deadline, options.stop_intervals == "on")
        solver = configured_solver(deadline)
        status = solve(solver, schedule.model, deadline, options.cpsat)
        stats = run_stats(solver) | {"constraints": len(schedule.model.proto.constraints)}
        return run_answer(solver, status, schedule.model, lambda: schedule.plan(solver), stats,
                          offset=schedule.constant, infeasible="no canonical plan exists (contraction lemma)")
