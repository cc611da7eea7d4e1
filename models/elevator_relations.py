"""The elevator's metamorphic relations (see `crosscheck.models.relations`)."""

from __future__ import annotations

import random
import string

from crosscheck.models import elevator
from crosscheck.models.elevator import DOWN, GENERATOR, MICROCHIP, UP, Facility
from crosscheck.models.relations import NotApplicable, Offset, Plan, Related, Relation, Same, related_name, reparsed


def _facility(original: Facility, relation: str, facility: Facility) -> Facility:
    name = related_name(original, relation)
    parsed: Facility = reparsed(elevator.parse, facility, name)
    return parsed


def _listing(facility: Facility) -> tuple[tuple[str, str], ...]:
    return facility.listing or tuple(facility.items())


def _renamed(facility: Facility, names: dict[str, str]) -> Facility:
    """`facility` with each element called `names[element]` (floors and listing kept)."""
    floors = {names[e]: (chip, gen) for e, chip, gen in zip(facility.elements, facility.chips, facility.generators,
                                                            strict=True)}
    elements = tuple(sorted(floors))
    return Facility(facility.name, facility.floors, elements, tuple(floors[e][0] for e in elements),
                    tuple(floors[e][1] for e in elements), tuple((names[e], kind) for e, kind in _listing(facility)))


def _shared_initial_names(count: int, rng: random.Random) -> list[str]:
    """`count` distinct lowercase names that all start with one letter (drawn by `rng`),
    like plutonium and promethium: a program that keys elements by their first letter
    confuses them."""
    initial = rng.choice(string.ascii_lowercase)
    names: set[str] = set()
    while len(names) < count:
        names.add(initial + "".join(rng.choices(string.ascii_lowercase, k=rng.randint(1, 9))))
    return rng.sample(sorted(names), count)


def rename(facility: Facility, rng: random.Random, plan: Plan | None = None) -> Related:
    """The elements renamed consistently (generator and microchip alike): either the
    present names permuted among themselves, or new names that all share a first letter
    (drawn by `rng`).  The rules never look at names, only at which chip belongs to
    which generator: same optimum."""
    if len(facility.elements) >= 2 and rng.random() < 0.5:
        return permuted_names(facility, rng)
    return initial_names(facility, rng)


def permuted_names(facility: Facility, rng: random.Random, plan: Plan | None = None) -> Related:
    """`rename`'s kind that permutes the present names (other than the identity, drawn by
    `rng`; with two elements, their swap).  Raises `NotApplicable` with fewer than two."""
    old = list(facility.elements)
    if len(old) < 2:
        raise NotApplicable("one element has no other name to take")
    new = old.copy()
    while new == old:
        rng.shuffle(new)
    return _renamed_by(facility, dict(zip(old, new, strict=True)), "names permuted")


def initial_names(facility: Facility, rng: random.Random, plan: Plan | None = None) -> Related:
    """`rename`'s kind that gives new names sharing their first letter (drawn by `rng`)."""
    names = dict(zip(facility.elements, _shared_initial_names(len(facility.elements), rng), strict=True))
    return _renamed_by(facility, names, "names sharing their first letter")


def _renamed_by(facility: Facility, names: dict[str, str], how: str) -> Related:
    detail = f"{how}: " + ", ".join(f"{a}->{b}" for a, b in names.items() if a != b)
    return Related(_facility(facility, "rename", _renamed(facility, names)), Same(), detail)


def reorder(facility: Facility, rng: random.Random, plan: Plan | None = None) -> Related:
    """Each floor line's items listed in another order (drawn by `rng`).  A floor holds
    a set of items: same optimum.  (The parsed instances are equal; the texts differ, so
    this relation tests programs that read the text.)"""
    listing = list(_listing(facility))
    rng.shuffle(listing)
    reordered = Facility(facility.name, facility.floors, facility.elements, facility.chips, facility.generators,
                         tuple(listing))
    return Related(_facility(facility, "reorder", reordered), Same(), "items of each floor shuffled")


def suffix(facility: Facility, rng: random.Random, plan: Plan | None = None) -> Related:
    """The state after the first k steps of `plan`, for a k (drawn by `rng`) after which
    the elevator is back on the first floor (the format fixes it there).  The rest of an
    optimal plan solves that state, and any cheaper solution would make the whole plan
    cheaper: the optimum is the original's minus k (each step costs 1).  Raises
    `NotApplicable` when the plan never returns to the first floor after a step."""
    if plan is None:
        raise NotApplicable("the suffix relation needs a plan")
    elevator.check_plan(facility, plan)
    index = {elevator.item_name(e, kind): (i, kind) for i, e in enumerate(facility.elements)
             for kind in (GENERATOR, MICROCHIP)}
    floors = {GENERATOR: list(facility.generators), MICROCHIP: list(facility.chips)}
    at, states = 0, []
    for k, (direction, names) in enumerate(plan, start=1):
        at += {UP: 1, DOWN: -1}[direction]
        for item in names:
            i, kind = index[item]
            floors[kind][i] = at
        if at == 0:
            states.append((k, tuple(floors[MICROCHIP]), tuple(floors[GENERATOR])))
    if not states:
        raise NotApplicable("the elevator never comes back to the first floor along the plan")
    k, chips, generators = rng.choice(states)
    state = Facility(facility.name, facility.floors, facility.elements, chips, generators, facility.listing)
    return Related(_facility(facility, "suffix", state), Offset(k), f"after {k} of {len(plan)} steps")


RELATIONS = (
    Relation("rename", "elevator", rename, kinds=(permuted_names, initial_names)),
    Relation("reorder", "elevator", reorder),
    Relation("suffix", "elevator", suffix, needs_plan=True),
)
