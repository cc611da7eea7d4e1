"""The elevator: carry every generator and microchip to the top floor safely.

Rules (see ``shared/specs/puzzles.md``, section 3): each element has a generator and
a microchip; the elevator starts on the first floor; a step moves it one floor up or
down carrying one or two items (never zero) and costs 1; a microchip is destroyed if
it shares a floor with any generator while its own generator is elsewhere, and after
every step every floor must be safe; the goal is every item on the top floor.

Text format: one line per floor, bottom first::

    The first floor contains a hydrogen-compatible microchip and a lithium generator.
    The second floor contains nothing relevant.

Items are joined by "and", by commas, or both ("a X, a Y, and a Z"); "a" and "an"
are both accepted; floors are ordinal words (first, second, ..., twenty-first, ...).

Move vocabulary: `ElevatorMove(direction, items)` with `direction` ``"up"`` or
``"down"`` and `items` one or two item names such as ``"hydrogen generator"`` or
``"hydrogen microchip"``.
"""

from __future__ import annotations

import random
import re
import reprlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from crosscheck.models.base import (
    InvalidInstance,
    InvalidPlan,
    check_range,
    instance_name,
    move_fields,
    plan_moves,
    refuse_leading_blank_lines,
    with_article,
)

GENERATOR, MICROCHIP = "generator", "microchip"
UP, DOWN = "up", "down"
EXTRA_ELEMENTS = ("elerium", "dilithium")  # the extended variant's pairs


class ElevatorMove(NamedTuple):
    """The elevator goes `direction` (``up``/``down``) carrying `items` (one or two names)."""

    direction: str
    items: tuple[str, ...]


@dataclass(frozen=True)
class Facility:
    """A parsed instance.

    `elements` are sorted by name; `chips[i]` and `generators[i]` are the 0-based
    floors of element i's microchip and generator.  The elevator starts on floor 0;
    floor ``floors - 1`` is the top.  `listing` is the order in which the text lists
    the items, as (element, kind) pairs (the parser keeps it, so `to_text` writes a
    floor's items back in the order read); it takes no part in equality, and when
    empty each floor lists element by element, generator first.
    """

    name: str
    floors: int
    elements: tuple[str, ...]
    chips: tuple[int, ...]
    generators: tuple[int, ...]
    listing: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    @property
    def top(self) -> int:
        return self.floors - 1

    def items(self) -> list[tuple[str, str]]:
        """Every (element, kind) item: each element's generator, then its microchip."""
        return [(element, kind) for element in self.elements for kind in (GENERATOR, MICROCHIP)]

    def floor_of(self, element: str, kind: str) -> int:
        """The 0-based floor of an item."""
        i = self.elements.index(element)
        return self.generators[i] if kind == GENERATOR else self.chips[i]

    def to_text(self) -> str:
        order = self.listing or tuple(self.items())
        lines = []
        for floor in range(self.floors):
            phrases = [_phrase(element, kind) for element, kind in order if self.floor_of(element, kind) == floor]
            lines.append(f"The {ordinal(floor + 1)} floor contains {_join(phrases)}.")
        return "\n".join(lines) + "\n"


def item_name(element: str, kind: str) -> str:
    """The move vocabulary's name of an item, e.g. ``"hydrogen microchip"``."""
    return f"{element} {kind}"


def is_safe(chips: Sequence[int], generators: Sequence[int], floor: int) -> bool:
    """True when no microchip on `floor` meets a foreign generator without its own."""
    if floor not in generators:
        return True
    return all(generator == floor for chip, generator in zip(chips, generators, strict=True) if chip == floor)


def all_safe(chips: Sequence[int], generators: Sequence[int]) -> bool:
    """True when every floor is safe."""
    return all(is_safe(chips, generators, floor) for floor in set(chips))


def _phrase(element: str, kind: str) -> str:
    """An item as the text lists it: ``a hydrogen generator``, ``an oxygen-compatible microchip``."""
    return f"{with_article(element)} {kind}" if kind == GENERATOR else f"{with_article(element)}-compatible {kind}"


def _join(phrases: list[str]) -> str:
    if not phrases:
        return "nothing relevant"
    if len(phrases) <= 2:
        return " and ".join(phrases)
    return ", ".join(phrases[:-1]) + ", and " + phrases[-1]


# --- ordinal words -----------------------------------------------------------------

_UNITS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen " \
         "sixteen seventeen eighteen nineteen".split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_IRREGULAR = {"one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth",
              "nine": "ninth", "twelve": "twelfth"}
MAX_ORDINAL = 999


def _cardinal(n: int) -> str:
    if n < 20:
        return _UNITS[n]
    if n < 100:
        tens, unit = divmod(n, 10)
        return _TENS[tens] + (f"-{_UNITS[unit]}" if unit else "")
    hundreds, rest = divmod(n, 100)
    return f"{_UNITS[hundreds]} hundred" + (f" {_cardinal(rest)}" if rest else "")


def ordinal(n: int) -> str:
    """The English ordinal word of `n` (1 to 999): first, second, ..., twenty-first."""
    if not 1 <= n <= MAX_ORDINAL:
        raise ValueError(f"no ordinal word for {n} (1 to {MAX_ORDINAL})")
    words = _cardinal(n)
    split = re.match(r"(.*?)([a-z]+)$", words)
    if split is None:  # every cardinal word ends in a letter
        raise AssertionError(f"cardinal {words!r} does not end in a word")
    head, last = split.groups()
    if last in _IRREGULAR:
        last = _IRREGULAR[last]
    elif last.endswith("y"):
        last = last[:-1] + "ieth"
    else:
        last += "th"
    return head + last


@lru_cache(maxsize=1)
def _ordinal_numbers() -> dict[str, int]:
    return {ordinal(n): n for n in range(1, MAX_ORDINAL + 1)}


# --- parser ------------------------------------------------------------------------

_LINE_HEAD = re.compile(r"The ([a-z][a-z -]*?) floor contains ")
_ARTICLE = re.compile(r"an? ")
_ELEMENT = re.compile(r"[a-z]+")
_KINDS = ((" generator", GENERATOR), ("-compatible microchip", MICROCHIP))
_SEPARATORS = (", and ", ", ", " and ")
NOTHING = "nothing relevant"


def detect(text: str) -> bool:
    """An elevator instance starts with ``The first floor contains``."""
    return text.lstrip().startswith("The first floor contains")


def parse(text: str, source: str = "<string>") -> Facility:
    """Parse floors bottom first; raise `InvalidInstance` naming line and column on errors."""
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise InvalidInstance("empty file", source=source, line=1, column=1,
                              expected="'The first floor contains ...'")
    refuse_leading_blank_lines(lines, source, "'The first floor contains ...'")
    seen: dict[tuple[str, str], tuple[int, int, int]] = {}  # item -> (floor, line, column)
    for number, line in enumerate(lines, start=1):
        for element, kind, column in _parse_line(line, number, source):
            if (element, kind) in seen:
                _, first_line, first_column = seen[(element, kind)]
                raise InvalidInstance(
                    f"{item_name(element, kind)} listed a second time (first at line {first_line}, column {first_column})",
                    source=source, line=number, column=column, expected="each item once",
                )
            seen[(element, kind)] = (number - 1, number, column)
    elements = tuple(sorted({element for element, _ in seen}))
    for element in elements:
        for kind, other in ((GENERATOR, MICROCHIP), (MICROCHIP, GENERATOR)):
            if (element, kind) in seen and (element, other) not in seen:
                _, at_line, column = seen[(element, kind)]
                raise InvalidInstance(
                    f"{element} has a {kind} but no {other}", source=source, line=at_line, column=column,
                    expected=f"a {other} for every {kind}",
                )
    return Facility(
        name=instance_name(source),
        floors=len(lines),
        elements=elements,
        chips=tuple(seen[(element, MICROCHIP)][0] for element in elements),
        generators=tuple(seen[(element, GENERATOR)][0] for element in elements),
        listing=tuple(seen),
    )


def _parse_line(line: str, number: int, source: str) -> list[tuple[str, str, int]]:
    """The (element, kind, 1-based column) items of floor line `number`."""

    def fail(reason: str, position: int, expected: str) -> InvalidInstance:
        return InvalidInstance(reason, source=source, line=number, column=position + 1, expected=expected)

    head = _LINE_HEAD.match(line)
    if not head:
        raise fail("not a floor line", 0, "'The <ordinal> floor contains ...'")
    word = head.group(1)
    floor = _ordinal_numbers().get(word)
    if floor is None:
        raise fail(f"unknown floor word {word!r}", head.start(1), "an ordinal word such as 'first'")
    if floor != number:
        raise fail(f"the {word} floor is out of order", head.start(1),
                   f"the {ordinal(number)} floor on line {number} (floors are listed bottom first)")
    position = head.end()
    if line.startswith(NOTHING, position):
        position += len(NOTHING)
        items: list[tuple[str, str, int]] = []
    else:
        items = []
        while True:
            article = _ARTICLE.match(line, position)
            if not article:
                raise fail("expected an item", position, "'a' or 'an' followed by an item, or 'nothing relevant'")
            start = position
            element = _ELEMENT.match(line, article.end())
            if not element:
                raise fail("expected an element name", article.end(), "a lowercase element name")
            position = element.end()
            for suffix, kind in _KINDS:  # noqa: B007  (kind is used after the loop: break keeps the match)
                if line.startswith(suffix, position):
                    position += len(suffix)
                    break
            else:
                raise fail(f"unknown item kind after {element.group()!r}", position,
                           "' generator' or '-compatible microchip'")
            items.append((element.group(), kind, start + 1))
            separator = next((s for s in _SEPARATORS if line.startswith(s, position)), None)
            if separator is None:
                break
            position += len(separator)
    if position == len(line):
        raise fail("the line does not end with '.'", position, "'.'")
    if line[position:] != ".":
        raise fail(f"unexpected text {line[position:]!r}", position, "'.' at the end of the line, or ', ' / ' and '")
    return items


# --- variant -----------------------------------------------------------------------

def extended(facility: Facility) -> Facility:
    """Add an elerium and a dilithium pair (generator and microchip) on the first floor."""
    clash = sorted(set(EXTRA_ELEMENTS) & set(facility.elements))
    if clash:
        raise InvalidInstance(f"the instance already has {', '.join(clash)}", source=facility.name,
                              expected="no elerium or dilithium before the extended transform")
    floors = dict(zip(facility.elements, zip(facility.chips, facility.generators, strict=True), strict=True))
    floors.update({element: (0, 0) for element in EXTRA_ELEMENTS})
    elements = tuple(sorted(floors))
    return Facility(
        name=f"{facility.name}+extended",
        floors=facility.floors,
        elements=elements,
        chips=tuple(floors[element][0] for element in elements),
        generators=tuple(floors[element][1] for element in elements),
    )


# --- plan checker ------------------------------------------------------------------

def check_plan(facility: Facility, plan: Sequence[Sequence[object]]) -> int:
    """Replay `plan` step by step and return its cost (the number of steps).

    Raises `InvalidPlan` when the start is unsafe, for a plan that is no list, a malformed
    move (not a list of two), a direction that is neither ``up`` nor ``down``, items that
    are no list of one or two item names, an unknown item or one named twice, an item not
    on the elevator's floor, a step below the bottom or above the top floor, a step after
    which the floor left or the floor reached is unsafe, or a plan that ends with items
    below the top floor.  Floors are named 1 (the first) to ``facility.floors``.
    """
    moves = plan_moves(plan)
    index = {item_name(element, kind): (i, kind) for i, element in enumerate(facility.elements)
             for kind in (GENERATOR, MICROCHIP)}
    floors = {GENERATOR: list(facility.generators), MICROCHIP: list(facility.chips)}
    if not all_safe(floors[MICROCHIP], floors[GENERATOR]):
        raise InvalidPlan(0, "the start is unsafe: a microchip shares a floor with a foreign generator",
                          where="before any move")
    elevator = 0
    for step, move in enumerate(moves):
        direction, items = _read_move(step, move, index)
        target = elevator + (1 if direction == UP else -1)
        if not 0 <= target < facility.floors:
            end = "top" if direction == UP else "bottom"
            raise InvalidPlan(step, f"the elevator is on floor {elevator + 1}, the {end} floor, and cannot go "
                                    f"{direction}")
        for name, (i, kind) in items.items():
            if floors[kind][i] != elevator:
                raise InvalidPlan(step, f"{name} is on floor {floors[kind][i] + 1}, not with the elevator on floor {elevator + 1}")
            floors[kind][i] = target
        for floor in (elevator, target):
            if not is_safe(floors[MICROCHIP], floors[GENERATOR], floor):
                raise InvalidPlan(step, f"floor {floor + 1} is unsafe after the step: a microchip meets a foreign generator")
        elevator = target
    below = [name for name, (i, kind) in index.items() if floors[kind][i] != facility.top]
    if below:
        raise InvalidPlan.unfinished(moves, f"the plan ends with items below the top floor: {', '.join(sorted(below))}")
    return len(moves)


def _read_move(step: int, move: object,
               index: dict[str, tuple[int, str]]) -> tuple[str, dict[str, tuple[int, str]]]:
    """The direction and items of `move`, the plan's move at 0-based index `step`: each item
    name with its entry in `index` (the facility's items), in the move's order;
    `InvalidPlan` naming what was expected unless the move is a list of a direction and a
    list of one or two distinct item names."""
    direction, names = move_fields(step, move, "[direction, items]")
    if not isinstance(direction, str) or direction not in (UP, DOWN):
        raise InvalidPlan(step, f"unknown direction {reprlib.repr(direction)}, expected 'up' or 'down'")
    if not isinstance(names, (list, tuple)) or not 1 <= len(names) <= 2:
        raise InvalidPlan(step, f"the elevator carries one or two items, got {reprlib.repr(names)}, expected a list "
                                "of one or two item names")
    items: dict[str, tuple[int, str]] = {}
    for name in names:
        if not isinstance(name, str):
            raise InvalidPlan(step, f"{reprlib.repr(name)} is not an item name, expected a string such as "
                                    "'hydrogen microchip'")
        item = index.get(name)
        if item is None:
            raise InvalidPlan(step, f"unknown item {reprlib.repr(name)}, expected an item of this facility "
                                    "('<element> generator' or '<element> microchip')")
        items[name] = item
    if len(items) != len(names):
        raise InvalidPlan(step, f"item named twice in {reprlib.repr(names)}, expected two different items")
    return direction, items


# --- generator ---------------------------------------------------------------------

ELEMENT_NAMES = (
    "hydrogen", "lithium", "helium", "beryllium", "boron", "carbon", "nitrogen", "oxygen", "fluorine",
    "neon", "sodium", "magnesium", "aluminum", "silicon", "phosphorus", "sulfur", "chlorine", "argon",
    "potassium", "calcium", "cobalt", "curium", "plutonium", "promethium", "ruthenium", "strontium",
    "thulium", "polonium",
)


def generate(seed: int, pairs: int = 5, floors: int = 4, spread: int | None = None, safe: bool = True) -> Facility:
    """A seeded facility: `pairs` elements, `floors` floors, items on the lowest `spread` floors.

    `spread` defaults to ``floors - 1`` (like the real inputs: the top floor starts
    empty).  With ``safe=True`` placements are redrawn until the start is safe (it may
    still have no solution); with ``safe=False`` the first draw is kept, safe or not.
    `pairs` goes up to the element names' count, `floors` to `MAX_ORDINAL`.
    """
    check_range("pairs", pairs, 1, len(ELEMENT_NAMES), " (the element names)")
    check_range("floors", floors, 1, MAX_ORDINAL, " (the floors the text format's ordinal words name)")
    spread = max(1, floors - 1) if spread is None else spread
    check_range("spread", spread, 1, floors, f" (at most floors={floors})")
    rng = random.Random(seed)
    elements = tuple(sorted(rng.sample(ELEMENT_NAMES, pairs)))
    name = f"elevator-p{pairs}-f{floors}-s{spread}{'' if safe else '-any'}-{seed}"
    for _ in range(10_000):
        chips = tuple(rng.randrange(spread) for _ in elements)
        generators = tuple(rng.randrange(spread) for _ in elements)
        if safe and not all_safe(chips, generators):
            continue
        return Facility(name=name, floors=floors, elements=elements, chips=chips, generators=generators)
    raise ValueError(f"no safe placement found for seed {seed}")


def features(facility: Facility) -> dict[str, int]:
    """Size measures: pairs, floors and items."""
    return {"pairs": len(facility.elements), "floors": facility.floors, "items": 2 * len(facility.elements)}


def outside_published_shape(facility: Facility) -> str:
    """Why `facility` is not of the published inputs' shape; '' when it is."""
    if facility.floors != 4:
        return f"{facility.floors} floors (published: 4)"
    return "" if all_safe(facility.chips, facility.generators) else "an unsafe start"
