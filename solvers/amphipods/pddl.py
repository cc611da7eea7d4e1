"""The amphipod burrow in PDDL: one ground action per (kind, start stop, end stop).

Objects are the positions (``h1`` ... ``h11``, ``a1`` ... ``d<depth>``, the labels of
`crosscheck.models.amphipods.model` in lower case) and the kinds ``a`` ... ``d`` (as ``k-a`` ...).
Every position either is ``(empty p)`` or holds one ``(at k p)``.

The actions are exactly the moves `crosscheck.models.amphipods.model.check_plan` accepts (its rules
1-5), not the usual pruned macro moves, so the planner's optimum is the optimum of
the rules as the checker states them, without any dominance argument:

- room -> hallway stop (never above a room) or -> another cell of the same room;
- hallway stop -> a cell of the mover's own room;
- room -> a cell of the mover's own room (another room);

A burrow may start in the middle of a plan (see `Burrow`): the initial state puts
amphipods at hallway stops and leaves room cells empty, and a hallway amphipod's only
actions are those from a stop, into its own room.

Where entering the own room from outside requires that it hold no other kind, every
cell on the path (`crosscheck.models.amphipods.model.path`) is empty, and the cost is the path length
times the kind's energy.  The goal puts every kind in every cell of its room.
"""

from __future__ import annotations

from crosscheck.models.amphipods.model import (
    ENERGY,
    KINDS,
    STOPS,
    AmphipodMove,
    Burrow,
    HallwayCell,
    Position,
    RoomCell,
    path,
    position_label,
)
from crosscheck.solvers.engines.pddl import Action, Encoding, GroundAction, domain_text, pddl_name, problem_text


def _name(position: Position) -> str:
    return position_label(position).lower()


def moves(depth: int) -> list[tuple[str, Position, Position]]:
    """Every (kind, source, target) the rules allow in some state of a burrow of `depth`."""
    rooms: list[RoomCell] = [(room, slot) for room in range(4) for slot in range(depth)]
    stops: list[HallwayCell] = [("H", h) for h in STOPS]
    found: list[tuple[str, Position, Position]] = []
    for kind in KINDS:
        home = [(room, slot) for room, slot in rooms if KINDS[room] == kind]
        for source in rooms:
            targets: list[Position] = stops + [cell for cell in rooms if cell[0] == source[0] and cell != source]
            targets += [cell for cell in home if cell[0] != source[0]]
            found += [(kind, source, target) for target in targets]
        found += [(kind, stop, cell) for stop in stops for cell in home]
    return found


def _action(kind: str, source: Position, target: Position, depth: int) -> Action:
    route = path(source, target)
    precondition = [f"(at k-{kind.lower()} {_name(source)})"] + [f"(empty {_name(cell)})" for cell in route]
    if target[0] != "H" and target[0] != source[0]:  # entering the own room: no other kind in it
        precondition += [f"(not (at k-{other.lower()} {_name((target[0], slot))}))"
                         for slot in range(depth) for other in KINDS if other != kind]
    effect = [f"(not (at k-{kind.lower()} {_name(source)}))", f"(empty {_name(source)})",
              f"(not (empty {_name(target)}))", f"(at k-{kind.lower()} {_name(target)})"]
    return Action(f"move-{kind.lower()}-{_name(source)}-{_name(target)}", (), precondition, effect,
                  cost=len(route) * ENERGY[kind])


def encode(burrow: Burrow) -> Encoding[AmphipodMove]:
    """The burrow as a PDDL task whose optimal plans are the burrow's optimal move sequences."""
    depth = burrow.depth
    table: dict[str, AmphipodMove] = {}
    actions: list[Action] = []
    for kind, source, target in moves(depth):
        action = _action(kind, source, target, depth)
        actions.append(action)
        table[action.name] = AmphipodMove(position_label(source), position_label(target))
    positions: list[Position] = [("H", h) for h in range(11)]
    positions += [(room, slot) for room in range(4) for slot in range(depth)]
    domain = domain_text(
        pddl_name(f"burrow-depth-{depth}"),
        types=["kind", "position"],
        constants={"kind": [f"k-{kind.lower()}" for kind in KINDS], "position": [_name(p) for p in positions]},
        predicates=["(at ?k - kind ?p - position)", "(empty ?p - position)"],
        actions=actions,
        comment=f"Amphipod burrow of depth {depth}: move-KIND-FROM-TO moves one amphipod from one stop to\n"
                "the next along an empty path; energy = path length x 1, 10, 100, 1000 for A, B, C, D.",
    )
    occupied: dict[Position, str] = {("H", h): kind for h, kind in enumerate(burrow.hallway) if kind != "."}
    occupied.update({(room, slot): kind for room, content in enumerate(burrow.rooms)
                     for slot, kind in enumerate(content) if kind != "."})
    init = [f"(at k-{occupied[p].lower()} {_name(p)})" if p in occupied else f"(empty {_name(p)})"
            for p in positions]
    problem = problem_text(
        pddl_name(burrow.name), pddl_name(f"burrow-depth-{depth}"),
        objects={},
        init=init,
        goal=[f"(at k-{KINDS[room].lower()} {_name((room, slot))})" for room in range(4) for slot in range(depth)],
    )
    return Encoding(domain, problem, lambda action: _decode(table, action))


def _decode(table: dict[str, AmphipodMove], action: GroundAction) -> AmphipodMove:
    return table[action[0]]
