"""The elevator's metamorphic relations (see `crosscheck.models.relations`)."""

from __future__ import annotations

import random
import string

from crosscheck.models.elevator import model as elevator
from crosscheck.models.elevator.model import DOWN, GENERATOR, MICROCHIP, UP, Facility
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


#: The longest prefix that new names share, and the most letters each adds to it.
LONGEST_PREFIX, MOST_ADDED = 8, 3


def _shared_prefix_names(count: int, rng: random.Random) -> tuple[str, list[str]]:
    """A prefix of 1 to `LONGEST_PREFIX` lowercase letters and `count` distinct names that
    start with it, each adding 0 to `MOST_ADDED` letters (all drawn by `rng`): names that
    differ only in their last letters or in length, or that are prefixes of one another
    (plutonium, plutonix, pluto).  A program that keys elements by their first few
    letters, or matches one name as a prefix of another, confuses them.  (The format
    admits lowercase names only, so names differing in case alone cannot be drawn.)"""
    prefix = "".join(rng.choices(string.ascii_lowercase, k=rng.randint(1, LONGEST_PREFIX)))
    names: set[str] = set()
    while len(names) < count:
        names.add(prefix + "".join(rng.choices(string.ascii_lowercase, k=rng.randint(0, MOST_ADDED))))
    return prefix, rng.sample(sorted(names), count)


def rename(facility: Facility, rng: random.Random, plan: Plan | None = None) -> Related:
    """The elements renamed consistently (generator and microchip alike): either the
    present names permuted among themselves, or new names that all share a prefix of
    one to eight letters (drawn by `rng`).  The rules never look at names, only at which
    chip belongs to which generator: same optimum."""
    if len(facility.elements) >= 2 and rng.random() < 0.5:
        return permuted_names(facility, rng)
    return prefix_names(facility, rng)


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


def prefix_names(facility: Facility, rng: random.Random, plan: Plan | None = None) -> Related:
    """`rename`'s kind that gives new names sharing a prefix (`_shared_prefix_names`)."""
    prefix, new = _shared_prefix_names(len(facility.elements), rng)
    names = dict(zip(facility.elements, new, strict=True))
    return _renamed_by(facility, names, f"names sharing the prefix {prefix!r}")


def _renamed_by(facility: Facility, names: dict[str, str], how: str) -> Related:
    detail = f"{how}: " + ", ".join(f"{a}->{b}" for a, b in names.items() if a != b)
    return Related(_facility(facility, "rename", _renamed(facility, names)), Same(), detail)


def _reordered(line: list[tuple[str, str]], rng: random.Random) -> list[tuple[str, str]]:
    """`line`'s items in another order (drawn by `rng`): starting with another element's
    item when the line holds two elements or more, else any other order (a line of one
    item kept)."""
    if len(line) < 2:
        return line
    several = len({element for element, _ in line}) > 1
    while True:
        order = rng.sample(line, len(line))
        if (order[0][0] != line[0][0]) if several else order != line:
            return order


def reorder(facility: Facility, rng: random.Random, plan: Plan | None = None) -> Related:
    """Every floor line of two items or more listed in another order (drawn by `rng`),
    starting with another element's item where the line holds two elements or more: so
    the element each such line names first changes, and with it the order in which the
    elements first appear in the text.  A floor holds a set of items: same optimum.
    (The parsed instances are equal; the texts differ, so this relation tests programs
    that read the text.  No text of the facility moves an item to another floor, so a
    program whose reading depends on the floors alone, such as one pairing the i-th chip
    listed with the i-th generator listed, answers alike on every reordering.)"""
    listing = _listing(facility)
    lines = [[item for item in listing if facility.floor_of(*item) == floor] for floor in range(facility.floors)]
    reordered = Facility(facility.name, facility.floors, facility.elements, facility.chips, facility.generators,
                         tuple(item for line in lines for item in _reordered(line, rng)))
    return Related(_facility(facility, "reorder", reordered), Same(), "items of each floor listed in another order")


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
    Relation("rename", "elevator", rename, kinds=(permuted_names, prefix_names)),
    Relation("reorder", "elevator", reorder),
    Relation("suffix", "elevator", suffix, needs_plan=True),
)
