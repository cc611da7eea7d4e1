"""The elevator in PDDL: ground rides whose preconditions keep both floors they touch safe.

Fluents (``f1`` is the bottom floor, elements are ``e-<name>``):
``(elevator f)``, ``(gen e f)``, ``(chip e f)``, and the bookkeeping fluent
``(lone e f)`` = "e's chip is on f and e's generator is not", kept exact by every ride.

A floor is safe iff it holds no generator, or it holds no lone chip.  Both are
conjunctions of negative literals, so safety needs no quantifier, disjunction or
derived predicate (which LM-cut does not support): each ride (direction, floor, one
or two items) is split into ground actions

- by the cases that fix how `lone` changes: a chip that travels without its
  generator becomes lone unless its generator is on the floor reached; a generator
  that travels without its chip makes it lone if the chip stays behind, un-lone if
  the chip waits on the floor reached, and changes nothing otherwise;
- by which half of "safe" each of the two touched floors satisfies after the ride
  (no generator / no lone chip), written over the state after the ride.  The floor
  left needs no check when only chips leave it: the start is safe (see below) and
  every ride keeps the floors it touches safe, so that floor was safe, and taking
  chips away keeps a floor safe.

Variants whose literals contradict each other are dropped; overlapping variants are
harmless (same move, same cost).  The other floors do not change.  An unsafe start
is not a state of the puzzle: the goal includes ``(start-safe)``, true initially only
when `crosscheck.models.elevator.model.all_safe` holds, so Fast Downward proves such a task unsolvable.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product

from crosscheck.models.elevator.model import (
    DOWN,
    GENERATOR,
    MICROCHIP,
    UP,
    ElevatorMove,
    Facility,
    all_safe,
    item_name,
)
from crosscheck.solvers.engines.pddl import Action, Encoding, GroundAction, domain_text, pddl_name, problem_text

#: Translator option: keep every atom a binary variable.  Grouped into one variable per
#: item, ``(not (gen e f))`` would be split into one operator per other floor, and a
#: ride's dozen such literals multiply into tens of thousands of operators.
BINARY = ("--invariant-generation-max-candidates", "0")

Literals = dict[str, bool]  # atom -> required/produced truth value
Item = tuple[int, str]  # (element index, GENERATOR or MICROCHIP)


def _floor(floor: int) -> str:
    return f"f{floor + 1}"


class _Atoms:
    """Atom texts of one facility."""

    def __init__(self, facility: Facility) -> None:
        self.elements = [f"e-{pddl_name(element)}" for element in facility.elements]

    def item(self, item: Item, floor: int) -> str:
        element, kind = item
        return f"({'gen' if kind == GENERATOR else 'chip'} {self.elements[element]} {_floor(floor)})"

    def lone(self, element: int, floor: int) -> str:
        return f"(lone {self.elements[element]} {_floor(floor)})"


def _merge(*parts: Literals) -> Literals | None:
    """The union of literal sets, or None when two of them contradict each other."""
    merged: Literals = {}
    for part in parts:
        for atom, value in part.items():
            if merged.setdefault(atom, value) != value:
                return None
    return merged


def _cases(atoms: _Atoms, element: int, load: tuple[Item, ...], source: int, target: int) -> list[tuple[Literals, Literals]]:
    """(precondition, effect) cases that make the ride's effect on ``lone(element, .)`` exact."""
    chip, gen = (element, MICROCHIP) in load, (element, GENERATOR) in load
    if chip and gen:  # the pair travels together: never lone
        return [({}, {})]
    if chip:
        gone = {atoms.lone(element, source): False}
        return [({atoms.item((element, GENERATOR), target): True}, gone),
                ({atoms.item((element, GENERATOR), target): False}, {**gone, atoms.lone(element, target): True})]
    chip_at = lambda floor: atoms.item((element, MICROCHIP), floor)  # noqa: E731
    return [({chip_at(source): True}, {atoms.lone(element, source): True}),
            ({chip_at(target): True}, {atoms.lone(element, target): False}),
            ({chip_at(source): False, chip_at(target): False}, {})]


def _safe_after(atoms: _Atoms, elements: int, load: tuple[Item, ...], floor: int, target: int,
                effect: Literals) -> list[Literals]:
    """The two ways `floor` can be safe after the ride, as preconditions (impossible ones left out)."""
    ways = []
    if not any(kind == GENERATOR for _, kind in load) or floor != target:  # no generator arrives here
        ways.append({atoms.item((e, GENERATOR), floor): False for e in range(elements)
                     if (e, GENERATOR) not in load})
    if not any(effect.get(atoms.lone(e, floor)) for e in range(elements)):  # no chip becomes lone here
        ways.append({atoms.lone(e, floor): False for e in range(elements) if atoms.lone(e, floor) not in effect})
    return ways


def _rides(facility: Facility, atoms: _Atoms) -> Iterator[tuple[ElevatorMove, Literals, Literals]]:
    """Every ground ride: (move, precondition, effect)."""
    items: list[Item] = [(e, kind) for e in range(len(facility.elements)) for kind in (GENERATOR, MICROCHIP)]
    loads = [(item,) for item in items] + list(combinations(items, 2))
    for source in range(facility.floors):
        for direction, target in ((UP, source + 1), (DOWN, source - 1)):
            if not 0 <= target < facility.floors:
                continue
            for load in loads:
                move = ElevatorMove(direction, tuple(item_name(facility.elements[e], kind) for e, kind in load))
                base_pre = {f"(elevator {_floor(source)})": True, **{atoms.item(item, source): True for item in load}}
                base_eff = {f"(elevator {_floor(source)})": False, f"(elevator {_floor(target)})": True,
                            **{atoms.item(item, source): False for item in load},
                            **{atoms.item(item, target): True for item in load}}
                touched = sorted({e for e, _ in load})
                generator_leaves = any(kind == GENERATOR for _, kind in load)
                for case in product(*(_cases(atoms, e, load, source, target) for e in touched)):
                    pre = _merge(base_pre, *(p for p, _ in case))
                    eff = _merge(base_eff, *(e for _, e in case))
                    if pre is None or eff is None:
                        continue
                    n = len(facility.elements)
                    # Taking only chips away keeps a safe floor safe (and every state is safe).
                    lefts = _safe_after(atoms, n, load, source, target, eff) if generator_leaves else [{}]
                    for left, reached in product(lefts, _safe_after(atoms, n, load, target, target, eff)):
                        full = _merge(pre, left, reached)
                        if full is not None:
                            yield move, full, eff


def _literal(atom: str, value: bool) -> str:
    return atom if value else f"(not {atom})"


def encode(facility: Facility) -> Encoding[ElevatorMove]:
    """The facility as a PDDL task whose optimal plans are its optimal ride sequences."""
    atoms = _Atoms(facility)
    actions, table = [], {}
    for number, (move, pre, eff) in enumerate(_rides(facility, atoms)):
        name = f"ride-{number}"
        actions.append(Action(name, (), [_literal(*pair) for pair in pre.items()],
                              [_literal(*pair) for pair in eff.items()], cost=1))
        table[name] = move
    floors = [_floor(floor) for floor in range(facility.floors)]
    domain = domain_text(
        pddl_name(f"elevator-{facility.name}"),
        types=["element", "floor"],
        constants={"element": atoms.elements, "floor": floors},
        predicates=["(elevator ?f - floor)", "(gen ?e - element ?f - floor)", "(chip ?e - element ?f - floor)",
                    "(lone ?e - element ?f - floor)", "(start-safe)"],
        actions=actions,
        comment="Elevator: ride-N moves the elevator one floor with one or two items (cost 1); its\n"
                "preconditions keep the floor left and the floor reached safe.",
    )
    init = ["(elevator f1)"] + (["(start-safe)"] if all_safe(facility.chips, facility.generators) else [])
    for e, (chip, gen) in enumerate(zip(facility.chips, facility.generators, strict=True)):
        init += [atoms.item((e, GENERATOR), gen), atoms.item((e, MICROCHIP), chip)]
        if chip != gen:
            init.append(atoms.lone(e, chip))
    goal = ["(start-safe)"] + [atoms.item((e, kind), facility.top) for e in range(len(facility.elements))
                               for kind in (GENERATOR, MICROCHIP)]
    problem = problem_text(pddl_name(facility.name), pddl_name(f"elevator-{facility.name}"), {}, init, goal)
    return Encoding(domain, problem, lambda action: _decode(table, action), translate_options=BINARY)


def _decode(table: dict[str, ElevatorMove], action: GroundAction) -> ElevatorMove:
    return table[action[0]]
