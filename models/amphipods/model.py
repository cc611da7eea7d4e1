"""The amphipod burrow: sort four kinds of amphipods into their side rooms.

Rules (``shared/specs/puzzles.md``, section 2): a hallway of 11 cells; rooms of
`depth` cells hang below hallway columns 3, 5, 7 and 9 (1-based) and belong, left to
right, to kinds A, B, C and D; one step of an A, B, C or D costs 1, 10, 100 or 1000.

Move vocabulary: ``AmphipodMove(source, target)``, one amphipod going from one stop to
the next (never a single cell).  Positions are labelled

- ``H1`` ... ``H11``: hallway cells, numbered like the spec's hallway columns;
- ``A1`` ... ``Ad``, ``B1`` ..., ``D1`` ...: room cells, named after the kind the room
  belongs to, numbered from the top (``A1`` is just below ``H3``).

How `check_plan` reads the rules (only the stated rules; nothing else is enforced):

1. A move takes the amphipod at `source` to an empty `target` along the unique
   simple path of the burrow (a tree); every cell on it after `source` must be empty
   (no passing through others).  Its cost is the path length times the kind's energy.
2. A move never ends on ``H3``, ``H5``, ``H7`` or ``H9`` (no stop above a room).
3. A move that ends in a room other than the one it starts in enters that room: the
   room must be the amphipod's own and hold no amphipod of another kind.  A move
   inside one room (up or down the column) enters nothing and is allowed.
4. A move that starts in the hallway (where the amphipod stopped) must end in the
   amphipod's own room: it moves straight home, with no stop in between.
5. Nothing else: an amphipod may stop at any free cell of a room it may enter (not
   necessarily the deepest), may leave its own room again, and a room amphipod may
   go directly to another room.  Consecutive moves of one amphipod are separate
   moves, each ending in a stop.
6. After the last move every room holds only its own kind.
"""

from __future__ import annotations

import random
import re
import reprlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

from crosscheck.models.base import (
    InvalidInstance,
    InvalidPlan,
    check_range,
    instance_name,
    move_fields,
    plan_moves,
    refuse_leading_blank_lines,
)

KINDS = "ABCD"
ENERGY = {"A": 1, "B": 10, "C": 100, "D": 1000}
HALLWAY_LENGTH = 11
#: 0-based hallway index above room r (hallway columns 3, 5, 7, 9).
ROOM_DOORS = (2, 4, 6, 8)
#: 0-based hallway indices where an amphipod may stop.
STOPS = tuple(h for h in range(HALLWAY_LENGTH) if h not in ROOM_DOORS)
EMPTY = "."
TOP_WALL = "#" * 13
HALLWAY_LINE = "#" + EMPTY * HALLWAY_LENGTH + "#"
BOTTOM_WALL = "  #########"
#: The two lines the deep variant inserts between the first and second room lines.
DEEP_LINES = ("  #D#C#B#A#", "  #D#B#A#C#")


class AmphipodMove(NamedTuple):
    """The amphipod at position `source` moves to position `target` and stops there."""

    source: str
    target: str


# --- positions ---------------------------------------------------------------------
# A position is ("H", h) with h the 0-based hallway index, or (r, s) with r the
# 0-based room index and s the 0-based slot counted from the top.  Comparing the first
# item with "H" tells the two apart (and narrows the type for mypy).

#: A label's shape: its letter, then its number (nine digits at most: no burrow is that deep,
#: and `int` refuses a string of thousands of digits).
_LABEL = re.compile(f"([H{KINDS}])([1-9][0-9]{{0,8}})")
HallwayCell = tuple[Literal["H"], int]
RoomCell = tuple[int, int]
Position = HallwayCell | RoomCell


def hallway_label(h: int) -> str:
    """The label of 0-based hallway index `h` (``H1`` ... ``H11``)."""
    return f"H{h + 1}"


def room_label(room: int, slot: int) -> str:
    """The label of room `room` (0-3), slot `slot` (0 = top): ``A1``, ``C4`` ..."""
    return f"{KINDS[room]}{slot + 1}"


def parse_label(label: object, depth: int) -> Position | None:
    """The position a label names in a burrow of `depth`, or None if it names none.

    A label is read exactly as `position_label` writes it: a letter and a number in ASCII
    digits without leading zeros (``H01``, ``H²`` and ``H`` followed by thousands of digits
    name nothing)."""
    match = _LABEL.fullmatch(label) if isinstance(label, str) else None
    if match is None:
        return None
    letter, number = match[1], int(match[2])
    if letter == "H" and 1 <= number <= HALLWAY_LENGTH:
        return ("H", number - 1)
    if letter in KINDS and 1 <= number <= depth:
        return (KINDS.index(letter), number - 1)
    return None


def path(source: Position, target: Position) -> list[Position]:
    """The cells walked from `source` to `target` (excluding `source`, including `target`).

    The burrow is a tree, so this is the unique simple path: up the source room's
    column, along the hallway, down the target room's column.
    """
    if source[0] != "H" and source[0] == target[0]:  # inside one room
        room, s, t = source[0], source[1], target[1]
        step = 1 if t > s else -1
        return [(room, slot) for slot in range(s + step, t + step, step)]
    cells: list[Position] = []
    if source[0] == "H":
        start = source[1]
    else:
        room, slot = source
        cells += [(room, s) for s in range(slot - 1, -1, -1)]
        start = ROOM_DOORS[room]
        cells.append(("H", start))
    end = target[1] if target[0] == "H" else ROOM_DOORS[target[0]]
    step = 1 if end > start else -1
    cells += [("H", h) for h in range(start + step, end + step, step)]
    if target[0] != "H":
        room, slot = target
        cells += [(room, s) for s in range(slot + 1)]
    return cells


# --- the instance ------------------------------------------------------------------

@dataclass(frozen=True)
class Burrow:
    """A parsed burrow.  `rooms[r]` lists room r's cells from top to bottom; `hallway`
    lists the 11 hallway cells.  A cell holds a kind or ``.`` (empty).

    The published inputs have an empty hallway and full rooms.  The puzzle statement's
    own intermediate diagrams are burrows too: amphipods in the hallway (never directly
    above a room), which have stopped there, and ``.`` cells in a room, all above its
    amphipods.  Each kind still has `depth` amphipods.
    """

    name: str
    rooms: tuple[str, str, str, str]
    hallway: str = EMPTY * HALLWAY_LENGTH

    @property
    def depth(self) -> int:
        return len(self.rooms[0])

    @property
    def at_rest(self) -> bool:
        """True for a burrow as the published inputs are: empty hallway, full rooms."""
        return self.hallway == EMPTY * HALLWAY_LENGTH and EMPTY not in "".join(self.rooms)

    def to_text(self) -> str:
        lines = [TOP_WALL, f"#{self.hallway}#"]
        for slot in range(self.depth):
            cells = "#".join(room[slot] for room in self.rooms)
            lines.append(f"###{cells}###" if slot == 0 else f"  #{cells}#")
        lines.append(BOTTOM_WALL)
        return "\n".join(lines) + "\n"


def detect(text: str) -> bool:
    """A burrow starts with the 13-wall top line followed by a hallway line ``#...#``.

    Amphipods in the hallway still count as a burrow (the parser then says where).
    """
    lines = text.lstrip().splitlines()
    if len(lines) < 2 or lines[0].rstrip() != TOP_WALL:
        return False
    hallway = lines[1].rstrip()
    return len(hallway) > 2 and hallway[0] == hallway[-1] == "#" and set(hallway[1:-1]) <= set(EMPTY + KINDS)


def parse(text: str, source: str = "<string>") -> Burrow:
    """Parse a burrow of any depth >= 1; raise `InvalidInstance` naming line and column.

    Besides the published inputs (empty hallway, full rooms) this reads the puzzle
    statement's intermediate diagrams (see `Burrow`): amphipods in the hallway except
    directly above a room, ``.`` in rooms above their amphipods, `depth` of each kind.
    Trailing whitespace on a line and blank lines at the end are ignored; the walls
    must otherwise be exactly as in the published format.
    """
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    refuse_leading_blank_lines(lines, source, f"the top wall {TOP_WALL!r}")
    reader = _Reader(lines, source)
    reader.expect_exact(1, TOP_WALL, "top wall")
    if len(lines) < 3:
        raise reader.fail("no room lines and bottom wall", len(lines) + 1, 1, "room lines such as '###B#C#B#D###'")
    depth = reader.bottom_wall() - 3
    hallway = reader.hallway(depth)
    rooms: list[list[str]] = [[], [], [], []]
    for offset in range(depth):
        for room, cell in enumerate(reader.room_line(3 + offset, offset == 0, depth, rooms)):
            rooms[room].append(cell)
    reader.check_counts(depth)
    return Burrow(name=instance_name(source), rooms=four_rooms("".join(room) for room in rooms), hallway=hallway)


class _Reader:
    """The parser's line checks, with the kinds counted so far (`seen`) and the first
    empty room cell (`first_gap`, line and column) for the error on a missing amphipod."""

    def __init__(self, lines: list[str], source: str) -> None:
        self.lines, self.source = lines, source
        self.seen = dict.fromkeys(KINDS, 0)
        self.first_gap: tuple[int, int] | None = None

    def fail(self, reason: str, line: int, column: int, expected: str) -> InvalidInstance:
        return InvalidInstance(reason, source=self.source, line=line, column=column, expected=expected)

    def expect_exact(self, number: int, wanted: str, what: str) -> None:
        if number > len(self.lines):
            raise self.fail(f"file ends before the {what}", number, 1, repr(wanted))
        line = self.lines[number - 1]
        for column, (got, want) in enumerate(zip(line, wanted, strict=False), start=1):  # length checked below
            if got != want:
                raise self.fail(f"unexpected {got!r} in the {what}", number, column, repr(want))
        if len(line) != len(wanted):
            column = min(len(line), len(wanted)) + 1
            raise self.fail(f"the {what} has {len(line)} characters, not {len(wanted)} (ragged wall)", number, column,
                            repr(wanted))

    def bottom_wall(self) -> int:
        """The line number of the bottom wall: the first line below the first room line
        made of walls and spaces only (a room line always holds cells), checked exactly.
        Its absence is named after the last line, and a line after it where it stands."""
        number = next((number for number, line in enumerate(self.lines, start=1)
                       if number > 3 and line.strip() and set(line) <= {"#", " "}), None)
        if number is None:
            last = len(self.lines)
            raise self.fail(f"missing bottom wall after line {last}, the last line", last + 1, 1, repr(BOTTOM_WALL))
        self.expect_exact(number, BOTTOM_WALL, "bottom wall")
        if number < len(self.lines):
            extra = self.lines[number]
            column = len(extra) - len(extra.lstrip()) + 1
            raise self.fail(f"a line after the bottom wall (line {number})", number + 1, column,
                            "the end of the burrow after its bottom wall")
        return number

    def count(self, kind: str, depth: int, number: int, column: int) -> None:
        self.seen[kind] += 1
        if self.seen[kind] > depth:
            raise self.fail(f"more than {depth} amphipods of kind {kind} (the rooms are {depth} deep)", number, column,
                            f"exactly {depth} of each kind")

    def hallway(self, depth: int) -> str:
        """Line 2: the hallway, with amphipods that have stopped there (never above a room)."""
        line = self.lines[1]
        for column, (got, want) in enumerate(zip(line, HALLWAY_LINE, strict=False), start=1):
            if want == "#" and got != want:
                raise self.fail(f"unexpected {got!r} in the hallway's wall", 2, column, "'#'")
        if len(line) != len(HALLWAY_LINE):
            column = min(len(line), len(HALLWAY_LINE)) + 1
            raise self.fail(f"the hallway has {len(line)} characters, not {len(HALLWAY_LINE)} (ragged wall)", 2, column,
                            repr(HALLWAY_LINE))
        for h, got in enumerate(line[1:-1]):
            if got == EMPTY:
                continue
            if got not in KINDS:
                raise self.fail(f"unknown hallway cell {got!r}", 2, h + 2, "'.' or one of A, B, C, D")
            if h in ROOM_DOORS:
                raise self.fail(f"amphipod {got} directly above room {KINDS[ROOM_DOORS.index(h)]}", 2, h + 2,
                                "'.' above a room (an amphipod never stops there)")
            self.count(got, depth, 2, h + 2)
        return line[1:-1]

    def room_line(self, number: int, first: bool, depth: int, rooms: list[list[str]]) -> list[str]:
        """A room line's four cells; a ``.`` must not lie below an amphipod of its room."""
        line = self.lines[number - 1]
        frame = "###.#.#.#.###" if first else "  #.#.#.#.#"
        if len(line) != len(frame):
            column = min(len(line), len(frame)) + 1
            raise self.fail(f"room line has {len(line)} characters, not {len(frame)} (ragged wall)", number, column,
                            repr(frame.replace(".", "X")))
        cells = []
        for column, (got, want) in enumerate(zip(line, frame, strict=True), start=1):
            if want != ".":
                if got != want:
                    raise self.fail(f"unexpected {got!r} in a room line's wall", number, column, repr(want))
                continue
            room = (column - 4) // 2
            if got == EMPTY:
                if any(cell != EMPTY for cell in rooms[room]):
                    raise self.fail(f"'.' below an amphipod in room {KINDS[room]}", number, column,
                                    "amphipods at the bottom of a room, '.' only above them")
                self.first_gap = self.first_gap or (number, column)
            elif got in KINDS:
                self.count(got, depth, number, column)
            else:
                raise self.fail(f"unknown amphipod {got!r}", number, column, "one of A, B, C, D, or '.'")
            cells.append(got)
        return cells

    def check_counts(self, depth: int) -> None:
        """Every kind `depth` times (a shortfall leaves an empty room cell: named there)."""
        short = [kind for kind in KINDS if self.seen[kind] < depth]
        if short:
            counts = ", ".join(f"{self.seen[kind]} of kind {kind}" for kind in short)
            raise self.fail(f"too few amphipods: {counts} (the rooms are {depth} deep)", *(self.first_gap or (2, 1)),
                            f"exactly {depth} of each kind, in the hallway or the rooms")


def four_rooms(rooms: Iterable[str]) -> tuple[str, str, str, str]:
    """The rooms as the 4-tuple a `Burrow` holds (`ValueError` unless there are exactly four)."""
    a, b, c, d = rooms
    return a, b, c, d


def deep(burrow: Burrow) -> Burrow:
    """The deep variant: insert ``#D#C#B#A#`` / ``#D#B#A#C#`` after the first room line.

    Applies to burrows of depth >= 2 (there must be a second room line) at rest (empty
    hallway, full rooms: a published input); the result is two cells deeper and named
    ``<name>+deep``.
    """
    if not burrow.at_rest:
        raise InvalidInstance("the deep transform applies to a burrow at rest (empty hallway, full rooms)",
                              source=burrow.name, expected="a burrow as the published inputs are")
    if burrow.depth < 2:
        raise InvalidInstance(
            f"the deep transform inserts lines between the first and second room lines; "
            f"this burrow has depth {burrow.depth}",
            source=burrow.name, expected="a burrow of depth >= 2",
        )
    inserted = [line.strip().strip("#").split("#") for line in DEEP_LINES]
    rooms = four_rooms(room[0] + inserted[0][r] + inserted[1][r] + room[1:] for r, room in enumerate(burrow.rooms))
    return Burrow(name=f"{burrow.name}+deep", rooms=rooms)


# --- the referee -------------------------------------------------------------------

def check_plan(burrow: Burrow, plan: Sequence[Sequence[object]]) -> int:
    """Replay `plan` move by move under the rules in the module docstring; return its energy.

    Raises `InvalidPlan` naming the first offending move (or ``len(plan)`` when the
    plan ends before every room is sorted): a plan that is no list, a move that is no
    list of two position labels, or one that breaks a rule.
    """
    depth = burrow.depth
    cells: dict[Position, str] = {("H", h): kind for h, kind in enumerate(burrow.hallway)}
    for r, occupants in enumerate(burrow.rooms):
        for s, kind in enumerate(occupants):
            cells[(r, s)] = kind
    moves = plan_moves(plan)
    energy = 0
    for step, move in enumerate(moves):
        source_label, target_label = move_fields(step, move, "[source, target]")
        source, target = parse_label(source_label, depth), parse_label(target_label, depth)
        for label, position in ((source_label, source), (target_label, target)):
            if position is None:
                raise InvalidPlan(step, f"no position {reprlib.repr(label)} in a burrow of depth {depth}, expected "
                                        f"a label H1 to H11 or A1 to D{depth}")
        assert source is not None and target is not None
        kind = cells[source]
        if kind == EMPTY:
            raise InvalidPlan(step, f"no amphipod at {source_label}")
        if source == target:
            raise InvalidPlan(step, f"{kind} at {source_label} moves nowhere")
        route = path(source, target)
        blocked = [cell for cell in route if cells[cell] != EMPTY]
        if blocked:
            where = position_label(blocked[0])
            raise InvalidPlan(step, f"{kind} from {source_label} to {target_label} runs into {cells[blocked[0]]} "
                                    f"at {where}")
        if target[0] == "H" and target[1] in ROOM_DOORS:
            raise InvalidPlan(step, f"{kind} stops at {target_label}, directly above a room")
        if source[0] == "H" and (target[0] == "H" or KINDS[target[0]] != kind):
            raise InvalidPlan(step, f"{kind} stopped in the hallway at {source_label} and may only move "
                                    f"straight into room {kind}, not to {target_label}")
        if target[0] != "H" and target[0] != source[0]:
            room = target[0]
            if KINDS[room] != kind:
                raise InvalidPlan(step, f"{kind} enters room {KINDS[room]}, which is not its own")
            strangers = sorted({cells[(room, s)] for s in range(depth)} - {EMPTY, kind})
            if strangers:
                raise InvalidPlan(step, f"{kind} enters its room while it still holds {', '.join(strangers)}")
        cells[source], cells[target] = EMPTY, kind
        energy += len(route) * ENERGY[kind]
    for r in range(4):
        wrong = [position_label((r, s)) for s in range(depth) if cells[(r, s)] != KINDS[r]]
        if wrong:
            raise InvalidPlan.unfinished(moves, f"the plan ends with room {KINDS[r]} not sorted at {', '.join(wrong)}")
    return energy


def position_label(position: Position) -> str:
    """The label of a position: ``H1`` ... ``H11`` or ``A1`` ... ``D<depth>``."""
    return hallway_label(position[1]) if position[0] == "H" else room_label(*position)


# --- generator ---------------------------------------------------------------------

#: The deepest burrow `generate` draws: 4,000 amphipods, a text of 13 kB a checker holds at
#: once; far past what any formulation here solves (the published ones are 2 and 4 deep).
MAX_DEPTH = 1000
#: The most swaps `generate` makes: a few times the cells' count of swaps already leave a
#: uniformly random arrangement, more change nothing but the time (docs/puzzles/amphipods.md).
MAX_SWAPS = 1_000_000


def generate(seed: int, depth: int = 2, style: str = "random", swaps: int = 0) -> Burrow:
    """A seeded burrow.

    ``style="random"``: the `depth` copies of each kind are shuffled over the rooms;
    with ``swaps > 0`` instead, the sorted burrow has `swaps` random pairs of cells
    exchanged (fewer swaps, easier burrows).
    ``style="real"``: shaped like the published puzzle inputs: a depth-2 burrow in
    which no room starts with its own kind at the bottom, and for ``depth=4`` its deep
    variant (some of those have no solution at all).  The name records the
    parameters and the seed.  `depth` goes up to `MAX_DEPTH`, `swaps` to `MAX_SWAPS`.
    """
    check_range("depth", depth, 1, MAX_DEPTH)
    check_range("swaps", swaps, 0, MAX_SWAPS)
    if style not in ("random", "real"):
        raise ValueError(f"style must be 'random' or 'real', got {style!r}")
    if style == "real" and (depth not in (2, 4) or swaps):
        raise ValueError(f"real-style burrows have depth 2 or 4 and no swaps, got depth {depth}, swaps {swaps}")
    rng = random.Random(seed)
    if swaps:
        cells = [kind for kind in KINDS for _ in range(depth)]
        for _ in range(swaps):
            a, b = rng.sample(range(len(cells)), 2)
            cells[a], cells[b] = cells[b], cells[a]
        rooms = four_rooms("".join(cells[r * depth:(r + 1) * depth]) for r in range(4))
        return Burrow(name=f"burrow-d{depth}-swaps{swaps}-s{seed}", rooms=rooms)
    size = depth if style == "random" else 2
    while True:
        pool = [kind for kind in KINDS for _ in range(size)]
        rng.shuffle(pool)
        rooms = four_rooms("".join(pool[r * size:(r + 1) * size]) for r in range(4))
        if style == "random" or all(room[-1] != KINDS[r] for r, room in enumerate(rooms)):
            break
    burrow = Burrow(name=f"burrow-d{depth}-{style}-s{seed}", rooms=rooms)
    if style == "real" and depth == 4:
        burrow = Burrow(name=burrow.name, rooms=deep(burrow).rooms)
    return burrow


def settled(burrow: Burrow) -> list[int]:
    """Per room, how many amphipods at its bottom are home with only their kind below."""
    counts = []
    for r, room in enumerate(burrow.rooms):
        count = 0
        for kind in reversed(room):
            if kind != KINDS[r]:
                break
            count += 1
        counts.append(count)
    return counts


def features(burrow: Burrow) -> dict[str, int]:
    """Size measures: amphipods that must move (in the hallway, or in a room above a
    stranger or not their own), depth, and how many of those are of the heavy kinds C and D."""
    movers = [burrow.rooms[r][s] for r, room in enumerate(burrow.rooms) for s in range(burrow.depth - settled(burrow)[r])]
    movers = [kind for kind in movers + list(burrow.hallway) if kind != EMPTY]
    return {"movers": len(movers), "depth": burrow.depth, "heavy_movers": sum(kind in "CD" for kind in movers)}


def outside_published_shape(burrow: Burrow) -> str:
    """Why `burrow` is not of the published inputs' shape; '' when it is."""
    if burrow.depth not in (2, 4):
        return f"depth {burrow.depth} (published: 2 or 4)"
    return "" if set(burrow.hallway) == {EMPTY} else "amphipods in the hallway"
