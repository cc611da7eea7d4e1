"""``keys-grid``: the classic search over (robot cells, keys held), walking the grid itself.

It uses neither the route contraction (`crosscheck.solvers.keys.routes`) nor the bounds of the
graph search (`crosscheck.solvers.keys.bounds`), and it reads the grid's rules itself (which
cells are walkable, which door needs which key, which keys can be collected at all:
`crosscheck.solvers.keys.grid_walks`, a second implementation of the model's `Vault.passable`,
`door_key` and `collectable_keys`), so it shares no answer-deciding code with the other
formulations (`crosscheck list --shares`) and checks them independently.

States are (the cell of each robot, keys held), packed into one int: the low bits
hold the key mask, then each robot's terminal index (its start or a key's cell).  An
action lets one robot walk, in the grid under the keys held, up to the first key it
does not hold yet (`FirstKeyWalks`: a breadth-first search of the cells, never through
a closed door nor through another uncollected key); its cost is the walk's length.
A* runs on the shared engine with the cut-packing bound of `crosscheck.solvers.keys.grid_cuts`.
The plan is the walks' cells as `KeyMove`s.

Why walking "up to the first new key" loses no optimum, with any number of robots.
Take an optimal plan and cut each robot's moves into segments, each ending with the
move that picks up a key (a move after the robot's last pickup is wasted, so an
optimal plan has none).  Now run the segments one after another, ordered by the
time of their final move in the original plan.  Robots only interact through the
keys held, which only grow.  A segment crossed only doors that were open when it
crossed them, so their keys were picked up by segments that ended earlier: in the
new order those keys are held when the segment starts.  Every key cell the segment
walks over before its end was already held when it passed there (otherwise passing
there would have been a pickup and ended the segment), so it is held in the new
order too, and the key the segment ends on is still free then (it is picked up
first at that moment).  So the reordered plan is valid, has the same cost, and
consists of walks "from where the robot stands to a key not held yet, over no other
uncollected key": exactly the actions here, each no shorter than the shortest such
walk the search uses.  Conversely every action is a literal sequence of valid moves.
"""

from __future__ import annotations

from collections.abc import Iterable

from crosscheck.models.keys.model import KeyMove, Vault
from crosscheck.solvers.base import Answer, Deadline, Solver, Status
from crosscheck.solvers.engines.search import Strategy, best_first_search
from crosscheck.solvers.keys.grid_cuts import CutBound
from crosscheck.solvers.keys.grid_spans import SpanBound
from crosscheck.solvers.keys.grid_walks import CellGraph, FirstKeyWalks, reachable_keys
from crosscheck.solvers.keys.packing import PackedKeysProblem, RobotPacking

#: (robot, cell it starts from, key cell it walks to, keys held while it walks)
Walk = tuple[int, int, int, int]


class WalkProblem(PackedKeysProblem[Walk]):
    """Collect every key, each action a robot's grid walk to the first new key it reaches.

    Set up (on `graph`, else the vault's own) and searched within `deadline`: each long phase
    checks it (`crosscheck.solvers.base.LimitReached`)."""

    def __init__(self, vault: Vault, deadline: Deadline | None = None, graph: CellGraph | None = None) -> None:
        self.graph = graph or CellGraph(vault, deadline)
        self.walks = FirstKeyWalks(self.graph, deadline)
        self.cut_bound = CutBound(self.graph, deadline)
        self.span_bound = SpanBound(self.graph, self.cut_bound.component, deadline)
        self.robots_alone = self.cut_bound.robots_alone
        self.keys = len(self.graph.key_cells)
        self.cells = self.graph.key_cells + self.graph.starts  # terminal index -> cell
        self.packing = RobotPacking.for_positions(self.keys, len(self.graph.starts), len(self.cells))
        self.goal = self.packing.all_keys
        self.starts = range(self.keys, len(self.cells))  # robot i starts on terminal keys + i

    def successors(self, state: int) -> Iterable[tuple[Walk, int, int]]:
        held = state & self.goal
        for robot, terminal, others, shift in self.packing.slots(state):
            source = self.cells[terminal]
            for bit, moves, target in self.walks.first_keys(source, held):
                key = bit.bit_length() - 1  # a key's terminal index is its bit's position
                yield (robot, source, target, held), others | (key << shift) | bit, moves

    def heuristic(self, state: int) -> int:
        """The larger of the two bounds, robot by robot when each is alone in its component
        (they then work independently, so their bounds add up)."""
        terminals, remaining = self.packing.positions(state), self.goal & ~state
        cuts, spans = self.cut_bound, self.span_bound
        if not self.robots_alone:
            return cuts.bound(terminals, remaining)
        return sum(
            max(cuts.alone(t, remaining), spans.bound(t, remaining & spans.component_keys[t], cuts.needs[t]))
            for t in terminals
        )

    def plan(self, walks: list[Walk]) -> list[KeyMove]:
        """The literal moves of a sequence of walks."""
        return [
            KeyMove(robot, direction)
            for robot, source, target, held in walks
            for direction in self.walks.path(source, target, held)
        ]


class KeysGrid(Solver):
    name = "keys-grid"
    puzzle = "keys"
    summary = "A* over (robot cells, keys held), each action a grid walk to the first new key"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        graph = CellGraph(instance, deadline)  # its own reading of the grid (see `crosscheck.solvers.keys.grid_walks`)
        if reachable_keys(graph, deadline) != (1 << len(graph.key_cells)) - 1:
            return Answer(Status.INFEASIBLE, message="some key cannot be reached even with every reachable door open")
        problem = WalkProblem(instance, deadline, graph)
        outcome = best_first_search(problem, Strategy.ASTAR, deadline)
        return outcome.answer(
            problem.plan, infeasible="every reachable state expanded",
            stats={"grid searches": problem.walks.searches},
        )
