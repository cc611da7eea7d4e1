"""The key vault as CNF over key-collection orders: the encoding ``keys-sat`` refutes and the
harness rebuilds to check its certificates.

Example: in ``#b.A.@.a#`` the robot walks 2 steps east to key a, then 6 west through door A to
key b.  Its points are the start and the keys; its candidate arcs are the start to a (2 steps,
no key needed), the start to b (4 steps, needs a) and a to b (6 steps, needs a); b to a passes
door A, which a alone opens, so it is no arc.  A plan is an order of the keys with one arc into
each, and the tour start -> a -> b costs 2 + 6 = 8.

Candidate arcs (`candidate_arcs`, this module's own search over the grid): from each point u (a
robot's start cell or a key's cell) to each key k, every path that is shortest among the paths
whose doors' keys are a subset of its own: a label-setting breadth-first search over (cell, set
of door keys passed) that drops a label when the same cell holds one with a subset of its keys,
found no later.  Doors whose key is not in the vault never open; keys on the way are walked
over (picking them up early makes the plan no worse and the checker accepts it).

Variables for K keys (positions p = 0 to K - 1, in the order the keys are first collected):

- ``key(p, k)``: key k is collected p-th (a permutation: one key a position, one position a key);
- ``at(p, r, u)``: before the p-th collection robot r stands on point u (exactly one; p = 0 to K);
- ``moves(p, r)``: robot r makes the p-th collection (at most one robot a position);
- ``arc(p, r, a)``: it walks candidate arc a to do so, from where it stands to the p-th key,
  every key its doors need collected at an earlier position;
- ``length(p, w)``: the arc of position p is w steps long (set by the chosen arc);
- ``sum(p, v)``, v = 1 to B: the arcs before position p are at least v steps long in all (an
  order encoding of the running sum, so that "at most B steps" is a chain of clauses).

Queries (`Encoding.cnf` kinds): ``bound`` B: the tour above with arcs of at most B steps in all
(satisfiable exactly when a plan of at most B steps exists: `ENCODING.lemma`); ``start``: the tour with no
bound on its length (unsatisfiable exactly when some key can never be collected: no plan).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from crosscheck.models.keys.model import DIRECTIONS, KeyMove, Vault, is_key
from crosscheck.solvers.engines.sat import BoundOrStart, Cnf, exactly_one

#: The candidate-arc search gives up (`ValueError`) beyond this many labels from one point: loopy
#: vaults have exponentially many sets of doors to pass.
LABEL_LIMIT = 200_000

Cell = tuple[int, int]


@dataclass(frozen=True)
class Arc:
    """A candidate path from point `source` to key `target` (point numbers: robots' starts
    first, then keys in alphabetical order): its `steps` as directions, the key numbers its
    doors need in `needs`."""

    source: int
    target: int
    steps: str
    needs: frozenset[int]


@dataclass(frozen=True)
class Points:
    """A vault's points of interest (point numbers: robots' starts first, then keys in
    alphabetical order) and its candidate arcs; `stands[r]` the points robot r may stand on
    (its start and the keys its start reaches)."""

    robots: int
    keys: int
    arcs: tuple[Arc, ...]
    stands: tuple[tuple[int, ...], ...]

    def key_point(self, key: int) -> int:
        return self.robots + key

    def arcs_of(self, robot: int) -> list[Arc]:
        """The arcs robot `robot` may walk: those from the points it may stand on."""
        stands = set(self.stands[robot])
        return [arc for arc in self.arcs if arc.source in stands]


def _door_key(char: str, letters: str) -> int | None:
    """The key number a door's cell `char` needs; -1 for a door whose key is not in the vault."""
    if "A" <= char <= "Z":
        return letters.find(char.lower())
    return None


def _labels(vault: Vault, source: Cell) -> list[tuple[Cell, int, int, str]]:
    """Every label (cell, door-key mask, parent label, direction from it) the label-setting
    search from `source` keeps, in order of distance; label 0 is the source's."""
    letters = vault.letters
    labels: list[tuple[Cell, int, int, str]] = [(source, 0, -1, "")]
    kept: dict[Cell, list[int]] = {source: [0]}
    layer = [0]
    while layer:
        following = []
        for index in layer:
            (row, column), mask = labels[index][0], labels[index][1]
            if index and is_key(vault.at((row, column))):  # walking on over a key needs it held
                mask |= 1 << letters.index(vault.at((row, column)))
            for direction, (dr, dc) in DIRECTIONS.items():
                cell = (row + dr, column + dc)
                char = vault.at(cell)
                door = _door_key(char, letters)
                if char == "#" or door == -1:
                    continue
                extended = mask | (1 << door if door is not None else 0)
                masks = kept.setdefault(cell, [])
                if any(known & ~extended == 0 for known in masks):
                    continue
                masks.append(extended)
                labels.append((cell, extended, index, direction))
                following.append(len(labels) - 1)
        if len(labels) > LABEL_LIMIT:
            raise ValueError(f"more than {LABEL_LIMIT} Pareto paths from {source}: too many loops past doors")
        layer = following
    return labels


def _path(labels: list[tuple[Cell, int, int, str]], index: int) -> str:
    steps = []
    while labels[index][2] >= 0:
        steps.append(labels[index][3])
        index = labels[index][2]
    return "".join(reversed(steps))


def candidate_arcs(vault: Vault) -> Points:
    """The points of `vault` and the candidate arcs between them (module doc)."""
    letters = vault.letters
    cells = [*vault.robots, *(vault.keys[letter] for letter in letters)]
    robots = len(vault.robots)
    at_point = {cell: point for point, cell in enumerate(cells)}
    stands = []
    arcs = []
    for source, cell in enumerate(cells):
        labels = _labels(vault, cell)
        if source < robots:
            reached = {at_point[label[0]] for label in labels if label[0] in at_point}
            stands.append(tuple(sorted(point for point in reached if point >= robots or point == source)))
        for index, (end, mask, _, _) in enumerate(labels):
            target = at_point.get(end, -1)
            if target >= robots and target != source:
                needs = frozenset(bit for bit in range(len(letters)) if mask >> bit & 1)
                if target - robots not in needs:  # an arc through its own key's door is never walked
                    arcs.append(Arc(source, target - robots, _path(labels, index), needs))
    return Points(robots, len(letters), tuple(arcs), tuple(stands))


class Layout:
    """The variables of the tour over `points` (module doc), the running sum's up to `bound`
    (none without one), numbered in the order they are made here."""

    def __init__(self, points: Points, bound: int | None) -> None:
        self.points, self.bound, self.cnf = points, bound, Cnf()
        positions, robots = range(points.keys), range(points.robots)
        self.arcs = [points.arcs_of(robot) for robot in robots]
        self.lengths = sorted({len(arc.steps) for arc in points.arcs})
        fresh = self.cnf.new_variable
        self.key = {(p, k): fresh() for p in positions for k in range(points.keys)}
        self.at = {(p, r, u): fresh() for p in range(points.keys + 1) for r in robots for u in points.stands[r]}
        self.moves = {(p, r): fresh() for p in positions for r in robots}
        self.arc = {(p, r, i): fresh() for p in positions for r in robots for i in range(len(self.arcs[r]))}
        self.length = {(p, w): fresh() for p in positions for w in self.lengths}
        self.sum = {(p, v): fresh() for p in range(1, points.keys + 1) for v in range(1, (bound or 0) + 1)}


def permutation(layout: Layout) -> None:
    """One key a position, one position a key."""
    keys = range(layout.points.keys)
    for p in keys:
        exactly_one(layout.cnf, [layout.key[p, k] for k in keys])
    for k in keys:
        exactly_one(layout.cnf, [layout.key[p, k] for p in keys])


def standing(layout: Layout) -> None:
    """Each robot starts on its start and stands on one point before each collection; one robot
    collects each key; a robot that does not collect stays where it stands."""
    cnf, points = layout.cnf, layout.points
    for r in range(points.robots):
        cnf.add(layout.at[0, r, r])
        for p in range(points.keys + 1):
            exactly_one(cnf, [layout.at[p, r, u] for u in points.stands[r]])
    for p in range(points.keys):
        for first, second in combinations(range(points.robots), 2):
            cnf.add(-layout.moves[p, first], -layout.moves[p, second])
        for r in range(points.robots):
            cnf.add(-layout.moves[p, r], *(layout.arc[p, r, i] for i in range(len(layout.arcs[r]))))
            for u in points.stands[r]:
                cnf.add(layout.moves[p, r], -layout.at[p, r, u], layout.at[p + 1, r, u])


def walks(layout: Layout) -> None:
    """The p-th key is reached by an arc from where its robot stands, after every key its doors
    need; the robot then stands on that key, and the position's length is the arc's."""
    cnf, points = layout.cnf, layout.points
    for p in range(points.keys):
        into: dict[int, list[int]] = {k: [] for k in range(points.keys)}
        for r in range(points.robots):
            for i, arc in enumerate(layout.arcs[r]):
                chosen = layout.arc[p, r, i]
                into[arc.target].append(chosen)
                cnf.add(-chosen, layout.moves[p, r])
                cnf.add(-chosen, layout.at[p, r, arc.source])
                cnf.add(-chosen, layout.key[p, arc.target])
                cnf.add(-chosen, layout.at[p + 1, r, points.key_point(arc.target)])
                cnf.add(-chosen, layout.length[p, len(arc.steps)])
                for need in sorted(arc.needs):
                    cnf.add(-chosen, *(layout.key[q, need] for q in range(p)))
        for k, arcs in into.items():
            cnf.add(-layout.key[p, k], *arcs)


def at_most(layout: Layout, bound: int) -> None:
    """The arcs' lengths sum to at most `bound`: ``sum(p + 1, .)`` is at least ``sum(p, .)``
    plus every length position p holds, and no sum passes `bound`."""
    cnf = layout.cnf
    for p in range(layout.points.keys):
        for w in layout.lengths:
            length = layout.length[p, w]
            if w > bound:
                cnf.add(-length)
                continue
            cnf.add(-length, layout.sum[p + 1, w])
            for v in range(1, bound + 1 if p else 1):
                beyond = v + w > bound
                cnf.add(-layout.sum[p, v], -length, *(() if beyond else (layout.sum[p + 1, v + w],)))
        for v in range(1, bound + 1 if p else 1):
            cnf.add(-layout.sum[p, v], layout.sum[p + 1, v])


def sum_clauses(vault: Vault, bound: int) -> int:
    """About how many clauses `at_most` writes for `vault` at `bound`."""
    points = candidate_arcs(vault)
    return points.keys * len({len(arc.steps) for arc in points.arcs}) * (bound + 1)


def encode(vault: Vault, bound: int | None) -> Cnf:
    """"A plan of at most `bound` steps exists" as CNF (query ``bound``); with `bound` None, "a
    plan exists" (query ``start``).  `ValueError` when the candidate arcs are too many to search."""
    layout = Layout(candidate_arcs(vault), bound)
    permutation(layout)
    standing(layout)
    walks(layout)
    if bound is not None:
        at_most(layout, bound)
    return layout.cnf


# --- plans and models ---------------------------------------------------------------------

def decode(vault: Vault, bound: int | None, model: Sequence[int]) -> list[KeyMove]:
    """The plan a model of ``encode(vault, bound)`` holds: each position's arc, walked cell by
    cell by its robot."""
    layout, true = Layout(candidate_arcs(vault), bound), {literal for literal in model if literal > 0}
    plan = []
    for p in range(layout.points.keys):
        r, i = next((r, i) for (q, r, i), variable in layout.arc.items() if q == p and variable in true)
        plan += [KeyMove(r, direction) for direction in layout.arcs[r][i].steps]
    return plan


@dataclass(frozen=True)
class _Collection:
    """A key first collected by a plan: by `robot`, walking from `source` (a point) `steps`
    steps through doors needing the keys `needs`."""

    robot: int
    source: int
    key: int
    steps: int
    needs: frozenset[int]


def collections(vault: Vault, plan: Sequence[Any]) -> list[_Collection]:
    """The keys `plan` (checked) collects, in order, each with the walk its robot took to it
    since its previous collection (or its start)."""
    letters = vault.letters
    cells, robots = list(vault.robots), len(vault.robots)
    source, steps, needs = list(range(robots)), [0] * robots, [set[int]() for _ in range(robots)]
    held: set[str] = set()
    found = []
    for robot, direction in plan:
        (row, column), (dr, dc) = cells[robot], DIRECTIONS[direction]
        cells[robot] = (row + dr, column + dc)
        char = vault.at(cells[robot])
        steps[robot] += 1
        if is_key(char) and char not in held:
            held.add(char)
            key = letters.index(char)
            found.append(_Collection(robot, source[robot], key, steps[robot], frozenset(needs[robot])))
            source[robot], steps[robot], needs[robot] = robots + key, 0, set()
            continue
        passed = letters.find(char) if is_key(char) else _door_key(char, letters)
        if passed is not None:
            needs[robot].add(passed)
    return found


def assignment(vault: Vault, plan: Sequence[Any], bound: int | None = None) -> list[int]:
    """`plan` (checked: valid moves of this vault) as an assignment of ``encode(vault, bound)``
    (`bound` defaults to the plan's length): its collections in order, each by the shortest
    candidate arc no longer than the walk to it whose keys are among the walk's door keys.  A
    walk that no candidate arc dominates leaves its position without an arc, so the assignment
    falsifies a clause: the encoding has lost that plan."""
    bound = len(plan) if bound is None else bound
    layout = Layout(candidate_arcs(vault), bound)
    points = layout.points
    stands, true, total = list(range(points.robots)), set(), 0
    for p, walk in enumerate(collections(vault, plan)):
        true |= {layout.at[p, r, u] for r, u in enumerate(stands)}
        true |= {layout.key[p, walk.key], layout.moves[p, walk.robot]}
        true |= {layout.sum[p, v] for v in range(1, min(total, bound) + 1)}
        fitting = [(len(arc.steps), i) for i, arc in enumerate(layout.arcs[walk.robot])
                   if (arc.source, arc.target) == (walk.source, walk.key)
                   and len(arc.steps) <= walk.steps and arc.needs <= walk.needs]
        if fitting:
            length, i = min(fitting)
            true |= {layout.arc[p, walk.robot, i], layout.length[p, length]}
            total += length
        stands[walk.robot] = points.key_point(walk.key)
    true |= {layout.at[points.keys, r, u] for r, u in enumerate(stands)}
    true |= {layout.sum[points.keys, v] for v in range(1, min(total, bound) + 1)}
    return [variable if variable in true else -variable for variable in range(1, layout.cnf.variables + 1)]


#: The encoding (`crosscheck.solvers.certificate.Encoding`) the harness rebuilds the CNFs with.
ENCODING = BoundOrStart(
    lemma=("keys-sat: a model of the CNF at bound B exists exactly when a plan of at most B steps does, the "
          "start query's exactly when any plan does (every walk between two points of interest is dominated "
          "by a candidate arc, no longer, whose keys needed are among the walk's)"),
    encode=encode, to_assignment=assignment)
