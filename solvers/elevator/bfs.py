"""``elevator-bfs``: breadth-first search over labelled states, a whole layer at a time.

States keep element names (`crosscheck.solvers.elevator.packed`): no renaming symmetry, no bound,
no pruning, and its own safety test (`Moves.safe`, also for the start: `safe_everywhere`), so it
shares no answer-deciding code with the other elevator formulations (`crosscheck list --shares`).

Every step can be undone (carrying the same items back leaves the two floors as they were), so the safe states form an undirected graph, which gives three
exact shortcuts of plain BFS:

- layer d + 1 is the neighbours of layer d minus layers d and d - 1 (no visited set);
- the search runs from the start and from the goal at once, always extending the side
  with the smaller last layer.  When no state was on both sides so far, every plan has
  more than ``depth(start side) + depth(goal side)`` steps; a new layer meeting the
  other side's *last* layer therefore closes a shortest plan (a meeting with an older
  layer would have happened a layer earlier);
- a side whose next layer is empty has reached every state connected to its root
  without meeting the other side: no plan exists.

Layers are sorted arrays of packed codes; the plan is rebuilt backwards from the
meeting state by finding, layer by layer, a neighbour in the layer before.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from crosscheck.models.elevator.model import Facility
from crosscheck.solvers.base import Answer, Deadline, Solver, Status
from crosscheck.solvers.elevator.packed import Codes, Moves, Packing, to_moves
from crosscheck.solvers.engines.search import Ending, SearchOutcome

#: States expanded per array operation: bounds the memory of one batch of successors.
BATCH = 1 << 20


def sorted_unique(codes: Codes) -> Codes:
    """The distinct codes, ascending (a sort: numpy's `unique` hashes, several times slower here)."""
    ordered = np.sort(codes)
    if len(ordered) == 0:
        return ordered
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]


def contains(layer: Codes, codes: Codes) -> npt.NDArray[np.bool_]:
    """True where a code is in the sorted array `layer`."""
    if len(layer) == 0:
        return np.zeros(len(codes), dtype=bool)
    positions = np.minimum(np.searchsorted(layer, codes), len(layer) - 1)
    return np.asarray(layer[positions] == codes, dtype=bool)


@dataclass
class Side:
    """One direction of the search: its layers (sorted, disjoint), layer d at depth d."""

    layers: list[Codes]
    expanded: int = 0
    generated: int = 0

    @property
    def depth(self) -> int:
        return len(self.layers) - 1


def next_layer(moves: Moves, side: Side, deadline: Deadline) -> Codes | None:
    """The states one step beyond `side`'s last layer, or `None` at the deadline."""
    last = side.layers[-1]
    before = side.layers[-2] if len(side.layers) > 1 else last[:0]
    batches = []
    for begin in range(0, len(last), BATCH):
        batch = last[begin:begin + BATCH]
        if deadline.expired(len(batch)):  # counts the batch about to be expanded
            return None
        found = moves.successors(batch)
        side.generated += len(found)
        found = sorted_unique(found)
        batches.append(found[~contains(last, found) & ~contains(before, found)])
    side.expanded += len(last)
    return batches[0] if len(batches) == 1 else sorted_unique(np.concatenate(batches))


def walk_to_root(moves: Moves, side: Side, code: int) -> list[int]:
    """A path from `code` (in the side's last layer) back to the side's root."""
    path = [code]
    for layer in reversed(side.layers[:-1]):
        around = moves.successors(moves.packing.array([path[-1]]))
        path.append(int(around[contains(layer, around)][0]))
    return path


def search(moves: Moves, start: int, goal: int, deadline: Deadline) -> tuple[SearchOutcome[int], list[Side]]:
    """Bidirectional layered BFS from `start` to `goal` (see the module docstring).

    `goal` has the elevator on the top floor: a plan's last step carries items there.
    A solved outcome's actions are the codes of the states after each step.
    """
    forward, backward = Side([moves.packing.array([start])]), Side([moves.packing.array([goal])])

    def ending(status: Ending, path: list[int] | None = None) -> tuple[SearchOutcome[int], list[Side]]:
        counts = forward.expanded + backward.expanded, forward.generated + backward.generated
        if path is not None:
            return SearchOutcome(status, len(path) - 1, path[1:], len(path) - 1, *counts), [forward, backward]
        bound = None if status is Ending.EXHAUSTED else forward.depth + backward.depth + 1
        return SearchOutcome(status, None, None, bound, *counts), [forward, backward]

    if (start ^ goal) & moves.items_mask == 0:  # every item on the top floor: done, wherever the elevator is
        return ending(Ending.SOLVED, [start])
    while True:
        side, other = (forward, backward) if len(forward.layers[-1]) <= len(backward.layers[-1]) else (backward, forward)
        layer = next_layer(moves, side, deadline)
        if layer is None:
            return ending(Ending.TIMEOUT)
        if len(layer) == 0:
            return ending(Ending.EXHAUSTED)
        side.layers.append(layer)
        met = layer[contains(other.layers[-1], layer)]
        if len(met):
            middle = int(met[0])
            head = walk_to_root(moves, forward, middle)
            return ending(Ending.SOLVED, head[::-1] + walk_to_root(moves, backward, middle)[1:])


def safe_everywhere(moves: Moves, code: int) -> bool:
    """Whether every floor of the packed state `code` is safe, by the packed safety test
    (`Moves.safe`): this formulation's own test of an unsafe start, a second
    implementation of the model's `all_safe` kept apart on purpose (see
    `crosscheck.harness.independence.trusted`)."""
    codes = moves.packing.array([code])
    return all(bool(moves.safe(moves.on_floor(codes, floor))[0]) for floor in range(moves.packing.floors))


class ElevatorBfs(Solver):
    """Bidirectional breadth-first search over labelled states: ``optimal``, ``infeasible``
    (unsafe start, or one side explored every state connected to its root) or ``timeout``
    with the bound ``start side depth + goal side depth + 1``."""

    name = "elevator-bfs"
    puzzle = "elevator"
    summary = "bidirectional breadth-first search over labelled states, whole layers as numpy arrays"

    def _solve(self, instance: Facility, deadline: Deadline) -> Answer:
        packing = Packing.of(instance)
        start = packing.encode(0, [floor for pair in zip(instance.generators, instance.chips, strict=True)
                                   for floor in pair])
        goal = packing.encode(instance.top, [instance.top] * packing.items)
        moves = Moves(packing)
        if not safe_everywhere(moves, start):
            return Answer(Status.INFEASIBLE, message="the start is unsafe")
        outcome, (forward, backward) = search(moves, start, goal, deadline)
        return outcome.answer(
            lambda path: list(to_moves(instance, packing, [start, *path])),
            infeasible="one side reached every state connected to its root without meeting the other",
            stats={"forward_depth": forward.depth, "backward_depth": backward.depth})
