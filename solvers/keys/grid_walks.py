"""The vault as a grid of cells, and a robot's walks in it up to the first new key.

`CellGraph` numbers the vault's cells ``r * width + c`` and keeps, per cell, its
walkable neighbours (no wall, no door whose key is absent: that door never opens),
the key bit of the door on it and the key bit of the key on it.  Key bits follow the
letters in alphabetical order.  It reads the grid's characters itself (`walkable`,
`door_letter`): a second implementation of the model's `Vault.passable` and `door_key`,
kept apart on purpose so that ``keys-grid`` shares no rule with the other formulations
and a fault in either reading makes the two disagree (see `crosscheck.harness.independence.trusted`).
`reachable_keys` is likewise its own test of which keys can be collected at all.

`FirstKeyWalks.first_keys(cell, held)` runs a breadth-first search of one robot from
`cell` under the keys `held`: it never enters a door whose key is not held, and a
cell holding a key not yet held is reached but never walked through (entering it
picks the key up, which ends the walk).  It returns each such key with the length of
the shortest walk to it.  Answers are memoised by what the search touched: the run
reads `held` only at the door and key cells it met, so any other `held` that agrees
with it on those letters repeats the run exactly and gets the stored answer.
"""

from __future__ import annotations

from crosscheck.models.keys.model import DIRECTIONS, Vault
from crosscheck.solvers.base import Deadline

#: One walk's end: (key bit picked up, moves, cell of the key).
Walk = tuple[int, int, int]
#: How many breadth-first layers of a walk's search pass between two deadline checks.
CHECK_LAYERS = 64
#: How many cells a flood fill takes between two deadline checks.
CHECK_CELLS = 4096


def door_letter(char: str) -> str | None:
    """The key letter that opens the door `char` (an uppercase letter), else None."""
    return char.lower() if char.isalpha() and char.isupper() else None


def walkable(char: str, letters: str) -> bool:
    """Whether a robot may ever stand on `char` when every key in `letters` is held:
    not a wall, and not a door whose key is not in the vault (it never opens)."""
    door = door_letter(char)
    return char != "#" and (door is None or door in letters)


class CellGraph:
    """The vault's walkable cells, flat-numbered, with the letters on them (read within `deadline`)."""

    def __init__(self, vault: Vault, deadline: Deadline | None = None) -> None:
        deadline = deadline or Deadline(None)
        self.width = vault.width
        self.letters = vault.letters
        bit_of = vault.key_bits()
        cells = vault.height * vault.width
        self.door = [0] * cells
        self.key = [0] * cells
        self.walkable = [False] * cells
        for r, row in enumerate(vault.rows):
            deadline.check("reading the grid")
            for c, char in enumerate(row):
                cell = r * self.width + c
                self.walkable[cell] = walkable(char, self.letters)
                self.door[cell] = bit_of.get(door_letter(char) or "", 0)
                self.key[cell] = bit_of.get(char, 0)
        # steps[cell]: (direction, neighbour) for each walkable neighbour of a walkable cell
        self.steps: list[tuple[tuple[str, int], ...]] = [() for _ in range(cells)]
        for cell in range(cells):
            if cell % CHECK_CELLS == 0:
                deadline.check("reading the grid")
            if self.walkable[cell]:
                r, c = divmod(cell, self.width)
                self.steps[cell] = tuple(
                    (direction, (r + dr) * self.width + c + dc)
                    for direction, (dr, dc) in DIRECTIONS.items()
                    if 0 <= r + dr < vault.height and 0 <= c + dc < vault.width
                    and self.walkable[(r + dr) * self.width + c + dc]
                )
        self.neighbours = [tuple(other for _, other in steps) for steps in self.steps]
        self.letter = [door | key for door, key in zip(self.door, self.key, strict=True)]  # either bit, or 0
        self.key_cells = [r * self.width + c for r, c in (vault.keys[letter] for letter in self.letters)]
        self.starts = [r * self.width + c for r, c in vault.robots]
        deadline.check("reading the grid")
        self.trimmed = self._trim_dead_ends()

    def _trim_dead_ends(self) -> list[tuple[int, ...]]:
        """`neighbours` without the dead-end branches that hold no key and no start.

        Such a branch hangs off the rest by one cell, so a walk that enters it comes back
        out the same way: no shortest walk between cells outside it (the only ones a robot
        walks between) ever enters it, and a walk that stops at the first new key never
        ends in it.  Peeling cells of one walkable neighbour, repeatedly, removes exactly
        these branches (a door inside one closes nothing that matters)."""
        keep = set(self.key_cells) | set(self.starts)
        degree = [len(around) for around in self.neighbours]
        gone = bytearray(len(degree))
        peel = [cell for cell, d in enumerate(degree) if d == 1 and cell not in keep]
        while peel:
            cell = peel.pop()
            gone[cell] = 1
            for other in self.neighbours[cell]:
                degree[other] -= 1
                if degree[other] == 1 and not gone[other] and other not in keep:
                    peel.append(other)
        return [() if gone[cell] else tuple(other for other in around if not gone[other])
                for cell, around in enumerate(self.neighbours)]


class FirstKeyWalks:
    """Shortest walks of one robot up to the first key it does not hold yet (memoised); a
    search checks `deadline` as it goes (`crosscheck.solvers.base.LimitReached`)."""

    def __init__(self, graph: CellGraph, deadline: Deadline | None = None) -> None:
        self.graph = graph
        self.deadline = deadline or Deadline(None)
        # memo[cell][touched][held & touched]: the walks found from cell
        self.memo: dict[int, dict[int, dict[int, tuple[Walk, ...]]]] = {}
        self.searches = 0  # breadth-first searches actually run

    def first_keys(self, cell: int, held: int) -> tuple[Walk, ...]:
        """Every (key bit, moves, key cell) a walk from `cell` under `held` can pick up first."""
        by_touched = self.memo.setdefault(cell, {})
        for touched, answers in by_touched.items():
            found = answers.get(held & touched)
            if found is not None:
                return found
        touched, walks = self._search(cell, held)
        by_touched.setdefault(touched, {})[held & touched] = walks
        return walks

    def _search(self, source: int, held: int) -> tuple[int, tuple[Walk, ...]]:
        """Breadth-first search from `source`; returns (letters touched, walks)."""
        self.searches += 1
        graph = self.graph
        letters, key, neighbours = graph.letter, graph.key, graph.trimmed
        seen = bytearray(len(letters))
        seen[source] = 1
        frontier = [source]
        touched, moves = 0, 0
        walks: list[Walk] = []
        while frontier:
            moves += 1
            if moves % CHECK_LAYERS == 0:
                self.deadline.check("walking the grid")
            following = []
            for cell in frontier:
                for other in neighbours[cell]:
                    if seen[other]:
                        continue
                    seen[other] = 1
                    letter = letters[other]
                    if letter:
                        touched |= letter
                        if not held & letter:
                            if key[other]:
                                walks.append((letter, moves, other))
                            continue  # a closed door, or a new key that ends the walk
                    following.append(other)
            frontier = following
        return touched, tuple(walks)

    def path(self, source: int, target: int, held: int) -> list[str]:
        """The directions of one shortest walk from `source` to the key cell `target` under `held`."""
        graph = self.graph
        came: dict[int, tuple[int, str]] = {source: (source, "")}
        frontier = [source]
        while target not in came:
            following = []
            for cell in frontier:
                for direction, other in graph.steps[cell]:
                    letter = graph.letter[other]
                    if other in came or (letter and not held & letter and other != target):
                        continue
                    came[other] = (cell, direction)
                    following.append(other)
            if not following:
                raise ValueError(f"no walk from cell {source} to cell {target} under keys {held:b}")
            frontier = following
        directions = []
        while target != source:
            target, direction = came[target]
            directions.append(direction)
        directions.reverse()
        return directions


def reachable_keys(graph: CellGraph, deadline: Deadline | None = None) -> int:
    """The key bits some sequence of moves can collect (ignoring cost): explore from the
    robots' cells through every door whose key is held, collect what was reached, and
    repeat until nothing new is found (holding a key never closes anything); within `deadline`."""
    deadline = deadline or Deadline(None)
    held = 0
    while True:
        seen = set(graph.starts)
        stack = list(graph.starts)
        found, popped = 0, 0
        while stack:
            popped += 1
            if popped % CHECK_CELLS == 0:
                deadline.check("finding the reachable keys")
            cell = stack.pop()
            found |= graph.key[cell]
            for other in graph.neighbours[cell]:
                if other not in seen and graph.door[other] & ~held == 0:
                    seen.add(other)
                    stack.append(other)
        if found | held == held:
            return held
        held |= found
