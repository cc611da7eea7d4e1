"""The burrow as CNF over ordered macro moves: the encoding ``amphipods-sat`` refutes and the
harness rebuilds to check its certificates.

Example: in the published burrow ``BCBD/ADCA`` the B above A in room A (a *leaver*) goes out to
a hallway stop and later home; the A below it is home with only its kind below (*at home*) and
never moves.  The encoding rests on the lemma `LEMMA` (some optimal plan is of this shape:
docs/puzzles/amphipods.md).  Its pieces, written here on their own:

- a *mover* is an amphipod in the hallway (it moves once, home) or a leaver: an amphipod in a
  room above the first one, from the bottom, that is not of the room's kind.  A leaver moves
  out to a stop (``hall(a, s)``) and later home, or (``direct(a)``, never for one whose home is
  the room it starts in) straight into its home room;
- an entrant takes the deepest free cell of its home room, so a room's entry cells are filled
  from the bottom up and their energy is fixed; so is every leaver's climb to its door.  What a
  plan's choices change is the walk along the hallway: ``detour(a, s)`` steps beyond the
  shortest walk from the leaver's door to its home door, for the stop s it chooses;
- steps 0 to T - 1 (T: two per leaver, one per hallway mover): each is exactly one of an
  ``out(a, t)`` (leaver a walks to its stop), a ``home(a, t)`` (mover a walks home) or
  ``idle(t)`` (idle steps come last).  ``left(a, t)`` and ``arrived(a, t)`` (times 0 to T) say
  whether a has left its room and whether it is home; ``occupied(s, t)`` is forced true when
  someone stands at stop s at time t;
- rules: a leaver leaves only after every leaver above it; nobody enters a room before all its
  leavers have left; every stop on a walk, the target stop included, is free; everybody is home
  at time T.

Queries (`Encoding.cnf` kinds):

- ``start``: the rules alone: unsatisfiable exactly when no plan of the lemma's shape exists
  (so, by the lemma, none at all);
- ``bound`` B: the rules and the energy at most B: the fixed energy (`Layout.fixed`) plus,
  per kind, its energy times twice the half-detours its leavers choose
  (`crosscheck.solvers.engines.sat.weighted_at_most` over unary counters).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from crosscheck.models.amphipods.model import (
    ENERGY,
    KINDS,
    ROOM_DOORS,
    STOPS,
    AmphipodMove,
    Burrow,
    hallway_label,
    parse_label,
    room_label,
)
from crosscheck.solvers.engines.sat import BoundOrStart, Cnf, exactly_one, unary_sum, weighted_at_most

#: The lemma every certificate of this encoding rests on (`models.amphipods.LEMMAS`).
LEMMA = ("amphipods: some optimal plan moves each amphipod at most twice: an amphipod home with only "
         "its kind below never moves; any other goes from its room to a hallway stop and later home, or "
         "straight home (one in the hallway: home); each entrant takes the deepest free cell")


@dataclass(frozen=True)
class Mover:
    """An amphipod that must move: its kind (its home room's index), the room it starts in (None:
    the hallway), its spot there (slot from the top, or hallway index), and the leavers above it."""

    kind: int
    room: int | None
    spot: int
    above: tuple[int, ...]

    @property
    def door(self) -> int:
        """The hallway index it walks from: its room's door, or its own hallway cell."""
        return self.spot if self.room is None else ROOM_DOORS[self.room]

    def detour(self, stop: int) -> int:
        """Half the steps that walking by `stop` adds to the walk from its door to its home door."""
        home = ROOM_DOORS[self.kind]
        return (abs(self.door - stop) + abs(stop - home) - abs(self.door - home)) // 2


def movers(burrow: Burrow) -> list[Mover]:
    """The burrow's movers: the hallway ones left to right, then each room's leavers top down."""
    found = [Mover(KINDS.index(kind), None, h, ()) for h, kind in enumerate(burrow.hallway) if kind in KINDS]
    for room, cells in enumerate(burrow.rooms):
        home = len(cells)
        while home and cells[home - 1] == KINDS[room]:
            home -= 1
        above: tuple[int, ...] = ()
        for slot in range(home):
            if cells[slot] in KINDS:
                found.append(Mover(KINDS.index(cells[slot]), room, slot, above))
                above += (len(found) - 1,)
    return found


class Layout:
    """The variables of the burrow's encoding (module doc), numbered in a fixed order."""

    def __init__(self, burrow: Burrow) -> None:
        self.depth = burrow.depth
        self.movers = movers(burrow)
        self.leavers = [tuple(a for a, mover in enumerate(self.movers) if mover.room == room) for room in range(4)]
        self.entrants = [sum(mover.kind == room for mover in self.movers) for room in range(4)]
        self.steps = sum(1 if mover.room is None else 2 for mover in self.movers)
        self.variables = 0
        leaving = [a for a, mover in enumerate(self.movers) if mover.room is not None]
        self.hall = {(a, s): self._new() for a in leaving for s in STOPS}
        self.direct = {a: self._new() for a in leaving if self.movers[a].room != self.movers[a].kind}
        times, moves = range(self.steps + 1), range(self.steps)
        self.out = {(a, t): self._new() for a in leaving for t in moves}
        self.home = {(a, t): self._new() for a in range(len(self.movers)) for t in moves}
        self.idle = [self._new() for _ in moves]
        self.left = {(a, t): self._new() for a in leaving for t in times}
        self.arrived = {(a, t): self._new() for a in range(len(self.movers)) for t in times}
        self.occupied = {(s, t): self._new() for s in STOPS for t in moves}

    def _new(self) -> int:
        self.variables += 1
        return self.variables

    @property
    def fixed(self) -> int:
        """The energy every plan of the lemma's shape spends besides its detours: climbs to the
        doors, the shortest hallway walks between doors and the entrants' descents."""
        energy = 0
        for mover in self.movers:
            climb = 0 if mover.room is None else mover.spot + 1
            energy += ENERGY[KINDS[mover.kind]] * (climb + abs(mover.door - ROOM_DOORS[mover.kind]))
        for room, count in enumerate(self.entrants):
            lowest = self.entry_slot(room, 0)
            energy += ENERGY[KINDS[room]] * sum(lowest - k + 1 for k in range(count))
        return energy

    def entry_slot(self, room: int, entered: int) -> int:
        """The cell the next entrant of `room` takes after `entered` entrants (deepest free first)."""
        return self.entrants[room] - 1 - entered

    def stops_between(self, first: int, second: int) -> list[int]:
        """The stops strictly between hallway indices `first` and `second`."""
        return [s for s in STOPS if min(first, second) < s < max(first, second)]


# --- clause families ----------------------------------------------------------------------

def _choices(cnf: Cnf, layout: Layout) -> None:
    """Each leaver walks by exactly one stop, or straight home."""
    for a, mover in enumerate(layout.movers):
        if mover.room is not None:
            direct = [layout.direct[a]] if a in layout.direct else []
            exactly_one(cnf, [*direct, *(layout.hall[a, s] for s in STOPS)])


def _frames(cnf: Cnf, layout: Layout) -> None:
    """Nobody has moved at time 0; left and arrived change only by a move; everybody home at T."""
    for a, mover in enumerate(layout.movers):
        cnf.add(-layout.arrived[a, 0])
        cnf.add(layout.arrived[a, layout.steps])
        if mover.room is not None:
            cnf.add(-layout.left[a, 0])
        for t in range(layout.steps):
            _follows(cnf, layout.arrived[a, t], layout.arrived[a, t + 1], [layout.home[a, t]])
            if mover.room is not None:
                _follows(cnf, layout.left[a, t], layout.left[a, t + 1], [layout.out[a, t], layout.home[a, t]])


def _follows(cnf: Cnf, before: int, after: int, moves: Sequence[int]) -> None:
    """`after` holds exactly when `before` did or one of `moves` happens."""
    cnf.add(-before, after)
    cnf.add(-after, before, *moves)
    for move in moves:
        cnf.add(-move, after)


def _steps(cnf: Cnf, layout: Layout) -> None:
    """Each step is exactly one move or idle; idle steps come last."""
    for t in range(layout.steps):
        leavers = [layout.out[a, t] for a in range(len(layout.movers)) if (a, t) in layout.out]
        exactly_one(cnf, [*leavers, *(layout.home[a, t] for a in range(len(layout.movers))), layout.idle[t]])
        if t + 1 < layout.steps:
            cnf.add(-layout.idle[t], layout.idle[t + 1])


def _occupancy(cnf: Cnf, layout: Layout) -> None:
    """A stop is occupied at time t when a mover stands there: left for it and not yet home."""
    for t in range(layout.steps):
        for a, mover in enumerate(layout.movers):
            if mover.room is None:
                cnf.add(layout.arrived[a, t], layout.occupied[mover.spot, t])
                continue
            for s in STOPS:
                cnf.add(-layout.hall[a, s], -layout.left[a, t], layout.arrived[a, t], layout.occupied[s, t])


def _outs(cnf: Cnf, layout: Layout, a: int, t: int) -> None:
    """Leaver a walks out at step t: still in its room, the leavers above it gone, its walk free."""
    mover, out = layout.movers[a], layout.out[a, t]
    cnf.add(-out, -layout.left[a, t])
    if a in layout.direct:
        cnf.add(-out, -layout.direct[a])
    for b in mover.above:
        cnf.add(-out, layout.left[b, t])
    for s in STOPS:
        for c in [*layout.stops_between(mover.door, s), s]:
            cnf.add(-out, -layout.hall[a, s], -layout.occupied[c, t])


def _homes(cnf: Cnf, layout: Layout, a: int, t: int) -> None:
    """Mover a walks home at step t: not home yet, its home room's leavers gone, its walk free."""
    mover, home = layout.movers[a], layout.home[a, t]
    door = ROOM_DOORS[mover.kind]
    cnf.add(-home, -layout.arrived[a, t])
    for b in layout.leavers[mover.kind]:
        if b != a:
            cnf.add(-home, layout.left[b, t])
    if mover.room is None:
        for c in layout.stops_between(mover.spot, door):
            cnf.add(-home, -layout.occupied[c, t])
        return
    for s in STOPS:
        cnf.add(-home, -layout.hall[a, s], layout.left[a, t])
        for c in layout.stops_between(s, door):
            cnf.add(-home, -layout.hall[a, s], -layout.occupied[c, t])
    if a in layout.direct:
        for b in mover.above:
            cnf.add(-home, -layout.direct[a], layout.left[b, t])
        for c in layout.stops_between(mover.door, door):
            cnf.add(-home, -layout.direct[a], -layout.occupied[c, t])


def _energy(cnf: Cnf, layout: Layout, limit: int | None) -> None:
    """Per kind, a unary counter of its leavers' half-detours; with a `limit`, the detours'
    energy (kind's energy times twice its count) at most `limit`."""
    terms = []
    for kind in reversed(range(4)):
        numbers = []
        for a, mover in enumerate(layout.movers):
            if mover.kind != kind or mover.room is None:
                continue
            unary = [cnf.new_variable() for _ in range(max(mover.detour(s) for s in STOPS))]
            for s in STOPS:
                for j in range(mover.detour(s)):
                    cnf.add(-layout.hall[a, s], unary[j])
            numbers.append(unary)
        total = unary_sum(cnf, numbers, sum(map(len, numbers)))
        terms.append((2 * ENERGY[KINDS[kind]], total))
    if limit is not None:
        weighted_at_most(cnf, [term for term in terms if term[1]], limit)


# --- queries ------------------------------------------------------------------------------

def encode(burrow: Burrow, bound: int | None) -> Cnf:
    """"A plan of the lemma's shape with energy at most `bound` exists" as CNF (query ``bound``;
    None: of any energy, query ``start``)."""
    layout = Layout(burrow)
    cnf = Cnf(layout.variables)
    _choices(cnf, layout)
    _frames(cnf, layout)
    _steps(cnf, layout)
    _occupancy(cnf, layout)
    for t in range(layout.steps):
        for a in range(len(layout.movers)):
            if (a, t) in layout.out:
                _outs(cnf, layout, a, t)
            _homes(cnf, layout, a, t)
    if bound is not None:
        _energy(cnf, layout, bound - layout.fixed)
    return cnf


def energy(burrow: Burrow, model: Sequence[int]) -> int:
    """The energy of the plan a model of ``encode(burrow, ...)`` chooses."""
    layout, true = Layout(burrow), {literal for literal in model if literal > 0}
    return layout.fixed + sum(2 * ENERGY[KINDS[layout.movers[a].kind]] * layout.movers[a].detour(s)
                              for (a, s), variable in layout.hall.items() if variable in true)


def decode(burrow: Burrow, model: Sequence[int]) -> list[AmphipodMove]:
    """The plan (the burrow's move vocabulary) a model of ``encode(burrow, ...)`` chooses."""
    layout, true = Layout(burrow), {literal for literal in model if literal > 0}
    stop = {a: s for (a, s), variable in layout.hall.items() if variable in true}
    entered, plan = [0] * 4, []
    for t in range(layout.steps):
        for a, mover in enumerate(layout.movers):
            start = hallway_label(mover.spot) if mover.room is None else room_label(mover.room, mover.spot)
            if layout.out.get((a, t)) in true:
                plan.append(AmphipodMove(start, hallway_label(stop[a])))
            elif layout.home[a, t] in true:
                source = hallway_label(stop[a]) if a in stop else start
                plan.append(AmphipodMove(source, room_label(mover.kind, layout.entry_slot(mover.kind,
                                                                                          entered[mover.kind]))))
                entered[mover.kind] += 1
    return plan


# --- plans as assignments -----------------------------------------------------------------

def canonical(burrow: Burrow, plan: Sequence[Any]) -> list[tuple[int, int | None]]:
    """The lemma's shape of `plan` (checked: valid moves of this burrow): its movers' moves in
    order, ``(a, stop)`` for leaver a walking out to `stop`, ``(a, None)`` for mover a walking
    home.  Each leaver walks out when the plan first takes it out of its room, to the last stop it
    stands at before the plan takes it home for the last time (straight home when it comes from
    its room); every mover walks home then.  Moves of amphipods at home are left out."""
    layout = Layout(burrow)
    standing: dict[tuple[Any, int], int] = {}
    for a, mover in enumerate(layout.movers):
        standing[("H", mover.spot) if mover.room is None else (mover.room, mover.spot)] = a
    first_out: dict[int, int] = {}
    last_home: dict[int, tuple[int, int | None]] = {}
    for number, (source_label, target_label) in enumerate(plan):
        source, target = parse_label(source_label, burrow.depth), parse_label(target_label, burrow.depth)
        assert source is not None and target is not None, "a checked plan names positions only"
        if source not in standing:
            continue
        a = standing.pop(source)
        standing[target] = a
        mover = layout.movers[a]
        if mover.room is not None and source[0] == mover.room and target[0] != mover.room and a not in first_out:
            first_out[a] = number
        if target[0] == mover.kind and source[0] != mover.kind:
            last_home[a] = (number, source[1] if source[0] == "H" else None)
    moves: list[tuple[int, int, int | None]] = []
    for a, (number, stop) in last_home.items():
        if stop is not None and layout.movers[a].room is not None:
            moves.append((first_out[a], a, stop))
        moves.append((number, a, None))
    return [(a, stop) for _, a, stop in sorted(moves)]


def assignment(burrow: Burrow, plan: Sequence[Any], bound: int = 0) -> list[int]:
    """`plan` (checked) in the lemma's shape (`canonical`) as an assignment of ``encode(burrow,
    bound)``: its moves in order, idle steps after them.  The variables are the same at every
    bound, so one assignment serves all."""
    layout = Layout(burrow)
    moves = canonical(burrow, plan)
    stops = {a: stop for a, stop in moves if stop is not None}
    true = {layout.hall[a, s] for a, s in stops.items()}
    true |= {variable for a, variable in layout.direct.items() if a not in stops}
    left = {a for a, mover in enumerate(layout.movers) if mover.room is None}
    arrived: set[int] = set()
    for t in range(layout.steps + 1):
        true |= {layout.left[a, t] for a in left if (a, t) in layout.left}
        true |= {layout.arrived[a, t] for a in arrived}
        if t == layout.steps:
            break
        true |= {layout.occupied[_standing(layout, a, stops), t] for a in left - arrived}
        if t >= len(moves):
            true.add(layout.idle[t])
            continue
        a, stop = moves[t]
        true.add(layout.out[a, t] if stop is not None else layout.home[a, t])
        (arrived if stop is None else left).add(a)
        left.add(a)
    main = [variable if variable in true else -variable for variable in range(1, layout.variables + 1)]
    return encode(burrow, bound).extended(main)


def _standing(layout: Layout, a: int, stops: dict[int, int]) -> int:
    """The stop mover a stands at while out of its room and not home."""
    mover = layout.movers[a]
    return mover.spot if mover.room is None else stops[a]


#: The encoding (`crosscheck.solvers.certificate.Encoding`) the harness rebuilds the CNFs with.
ENCODING = BoundOrStart(
    lemma=("amphipods-sat: a model of the CNF at bound B exists exactly when a plan of the lemma's shape "
          "with energy at most B does; the start query has none exactly when no such plan exists; "
          f"the lemma: {LEMMA}"),
    encode=encode, to_assignment=assignment)
