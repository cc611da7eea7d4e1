"""``keys-graph``: shortest path over the contracted vault.

States are (robot nodes, keys held), packed into one int: the low bits hold the key
mask, then each robot's node index.  An action moves one robot along one Pareto route
(`crosscheck.solvers.keys.routes`) to a key it does not hold yet, usable iff the route's needs
are held; the route's length is the action cost.  For each (robot node, target key)
only the shortest usable route is tried: a longer usable route to the same key ends
in the same state.  A* runs on the shared engine with the admissible
`RemainingKeysBound` (door-free distances: the shortest route between two nodes,
which ignores doors; bridge distances from the door-free layout), told which keys
can be a robot's last: not those that every route to another remaining key needs
(the same order proof gives its re-entry term: bridges crossed again for a key).
A robot alone in its component adds its steps inside the vault's cycles (`CycleTours`:
shortest tours and paths through each biconnected component's ports) to its bridge bound (on
loopy vaults the bridges alone say little).  A state is not expanded once the same robot
nodes holding one more key were reached at no greater cost (`ContractedProblem.dominators`).
The plan is the routes' cell paths as `KeyMove`s.
Options (`KeysGraphOptions`) weaken the bound (door-free: the farthest remaining key; none:
Dijkstra), leave out the cycle tours, or turn dominance off; each keeps the search exact.
Robots each alone in their part of a vault with cycles are searched by the same rules in compiled code
(`ContractedProblem.compiles`, `crosscheck.solvers.keys.graph_compiled`) once the kernel is loaded
(`KeysGraph.warm_up`, in the forkserver of ``compare`` and ``hunt``): loading it costs more than
a lone ``solve`` of a real vault takes in Python, so that one searches in Python (stats ``kernel``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import ClassVar, Literal, cast

from crosscheck.models.keys.model import KeyMove, Vault, parse
from crosscheck.solvers.base import Answer, Deadline, Solver
from crosscheck.solvers.configuration import Options, option
from crosscheck.solvers.engines.search import Strategy, best_first_search
from crosscheck.solvers.keys.bounds import UNREACHABLE, RemainingKeysBound, door_free_layout
from crosscheck.solvers.keys.cycle_tours import CycleTours
from crosscheck.solvers.keys.packing import PackedKeysProblem, RobotPacking
from crosscheck.solvers.keys.routes import ContractedVault, Route, contract

Action = tuple[int, Route]  # (robot, route it walks)

#: The module of the compiled search, loaded by `KeysGraph.warm_up`.
COMPILED = "crosscheck.solvers.keys.graph_compiled"
#: A ring with a door, for `KeysGraph.warm_up`: one robot on a vault with a cycle.
WARM_UP = "#######\n#@.a.A#\n#.###.#\n#..b..#\n#######\n"


class KeysGraphOptions(Options):
    """keys-graph's design choices (docs/puzzles/keys.md); every value keeps the search exact."""

    bound: Literal["walk", "door-free", "none"] = option(
        "walk", "A*'s bound: walk (bridge tree walk, re-entries, cycle tours), door-free (the farthest "
                "remaining key by door-free distance), none (0: Dijkstra)")
    cycle_tours: Literal["on", "off"] = option(
        "on", "add the steps inside the vault's cycles (CycleTours) to the walk bound")
    dominance: Literal["on", "off"] = option(
        "on", "skip a state once the same robot nodes holding one more key were reached at no greater cost")


class ContractedProblem(PackedKeysProblem[Action]):
    """Collect every key by walking routes of a `ContractedVault`, with the bound and the
    dominance `options` choose (the defaults without)."""

    deeper_ties = True  # the bound is often exact (door-free tree vaults): no plateau to widen

    def __init__(self, vault: ContractedVault, options: KeysGraphOptions | None = None,
                 deadline: Deadline | None = None) -> None:
        """The problem on `vault`, its bound set up within `deadline` (`crosscheck.solvers.base.LimitReached`)."""
        self.options: KeysGraphOptions = options or KeysGraphOptions()
        deadline = deadline or Deadline(None)
        self.keys = len(vault.letters)
        self.packing = RobotPacking.for_positions(self.keys, vault.robots, len(vault.cells))
        self.starts = range(vault.robots)  # robot i starts on node i
        self.shifts = [self.packing.shift(robot) for robot in range(vault.robots)]
        self.goal = vault.all_keys
        self.bits = [1 << k for k in range(self.keys)]
        # choices[node]: per target key (bit, target node, routes by length as (needs, route))
        self.choices: list[list[tuple[int, int, list[tuple[int, Route]]]]] = []
        # distances[node][k]: door-free distance from node to key k
        self.distances: list[list[int]] = []
        for routes in vault.routes:
            by_target: dict[int, list[Route]] = {}
            for route in routes:
                by_target.setdefault(route.target, []).append(route)
            row = [UNREACHABLE] * self.keys
            choice = []
            for target, to_target in sorted(by_target.items()):
                to_target.sort(key=lambda route: route.length)
                bit = target - vault.robots
                row[bit] = to_target[0].length
                choice.append((1 << bit, target, [(route.needs, route) for route in to_target]))
            self.choices.append(choice)
            self.distances.append(row)
        # needers[node][k]: the keys j that every route from node to j needs k for
        needers = [[0] * self.keys for _ in self.choices]
        for node, choice in enumerate(self.choices):
            for bit, _, ways in choice:
                needs = _common(ways, self.goal)
                while needs:  # each key k that every way needs, lowest first
                    low = needs & -needs
                    needers[node][low.bit_length() - 1] |= bit
                    needs ^= low
        deadline.check("setting up the bound")
        self.bound = remaining_keys_bound(vault, self.distances, needers, self.options.cycle_tours == "on",
                                          deadline)
        # per group of robots sharing a part of the vault: the state bits its walk depends on
        # (its robots' nodes and its keys), walks memoised by those bits; none with one group,
        # where every state is new
        position = (1 << self.packing.bits_per_robot) - 1
        self.fields: list[tuple[int, int, dict[int, int]]] = [
            (group, keys | sum(position << self.shifts[robot] for robot in robots), {})
            for group, (robots, keys) in enumerate(self.bound.groups)
        ] if len(self.bound.groups) > 1 else []

    def compiles(self) -> bool:
        """Whether `crosscheck.solvers.keys.graph_compiled` runs this search: every key in the
        reach of a robot alone in its part of a vault with cycles (a loop-free vault is quick in
        Python; several robots in one part are bounded by a spanning tree, not compiled), and
        a packed state fits a non-negative 64-bit integer (the kernel's)."""
        groups = self.bound.groups
        return (all(len(robots) == 1 for robots, _ in groups) and sum(keys for _, keys in groups) == self.goal
                and self.bound.cyclic and self.packing.shift(self.packing.robots) <= 63)

    def successors(self, state: int) -> Iterable[tuple[Action, int, int]]:
        held = state & self.goal
        for robot, node, others, shift in self.packing.slots(state):
            for bit, target, options in self.choices[node]:
                if held & bit:
                    continue
                for needs, route in options:
                    if needs & held == needs:
                        yield (robot, route), others | (target << shift) | bit, route.length
                        break

    def dominators(self, state: int) -> list[int]:
        """The states with the same robot nodes holding one more key.

        Their cost to the goal is at most `state`'s: any walk of the robots that collects
        every key holding `state`'s keys still does holding more (doors only open), and
        the contraction is exact from any robot nodes and keys held (`routes`), so
        costs-to-go here are those of the vault.  Key sets only grow along dominance,
        so it has no cycle, as the engine requires.  None with the option ``dominance=off``.
        """
        if self.options.dominance == "off":
            return []
        return [state | bit for bit in self.bits if not state & bit]

    def heuristic(self, state: int) -> int:
        mask = (1 << self.packing.bits_per_robot) - 1
        if self.options.bound != "walk":
            return self._weak_bound([state >> shift & mask for shift in self.shifts], self.goal & ~state)
        if not self.fields:
            return self.bound.bound([state >> shift & mask for shift in self.shifts], self.goal & ~state)
        total = 0
        for group, field, memo in self.fields:
            part = state & field
            walk = memo.get(part)
            if walk is None:
                nodes = [state >> shift & mask for shift in self.shifts]
                walk = memo[part] = self.bound.walk(group, nodes, self.goal & ~state)
            total += walk
        return total


    def _weak_bound(self, nodes: list[int], remaining: int) -> int:
        """The options' weaker bounds: 0 for ``none``; for ``door-free``, per group of robots
        sharing a part of the vault, the largest over its remaining keys of the nearest robot's
        door-free distance (some robot walks at least that far to collect that key)."""
        if self.options.bound == "none":
            return 0
        total = 0
        for robots, keys in self.bound.groups:
            left = remaining & keys
            total += max((min(self.distances[nodes[robot]][k] for robot in robots)
                          for k in range(self.keys) if left >> k & 1), default=0)
        return total


def remaining_keys_bound(
    vault: ContractedVault, distances: list[list[int]], needers: list[list[int]], cycle_tours: bool = True,
    deadline: Deadline | None = None,
) -> RemainingKeysBound:
    """The bound over `vault`'s nodes, with door-free `distances` from each node to each
    key and the `needers` proof of which keys cannot be last (see `RemainingKeysBound`),
    set up within `deadline`; without `cycle_tours`, the steps inside cycles are not counted
    (`CycleTours` of no corridor)."""
    layout = door_free_layout(len(vault.graph.cells), vault.graph.corridors)
    bridges = layout.bridge_distances(vault.graph_nodes)
    corridors = vault.graph.corridors if cycle_tours else []
    deadline = deadline or Deadline(None)
    deadline.check("setting up the bound")
    return RemainingKeysBound(
        distances,
        [row[vault.robots :] for row in bridges],
        [layout.rank[vertex] for vertex in vault.graph_nodes],
        vault.robots,
        needers,
        CycleTours(len(vault.graph.cells), corridors, vault.graph_nodes, vault.robots, deadline),
        cyclic=len(vault.graph.corridors) > len(vault.graph.cells) - len(set(layout.component)),
    )


def _common(options: list[tuple[int, Route]], everything: int) -> int:
    """The keys that all of `options` need."""
    needs = everything
    for route_needs, _ in options:
        needs &= route_needs
    return needs


class KeysGraph(Solver):
    """A* over `ContractedProblem`: ``optimal`` with the routes' cell paths as the plan,
    ``infeasible`` when every reachable state was expanded (the contraction is exact),
    else ``timeout`` with the smallest open f-value as the bound."""

    name = "keys-graph"
    puzzle = "keys"
    summary = "A* over (robot nodes, keys held) on the Pareto route contraction"
    warm_up_pays_alone = False  # loading numba costs more than a real vault's search in Python
    Options: ClassVar[type[Options]] = KeysGraphOptions

    @classmethod
    def warm_up(cls) -> None:
        """Compile (or load from numba's cache) the one-robot kernel, by solving a small ring."""
        from crosscheck.solvers.keys.graph_compiled import compiled_search

        problem = ContractedProblem(contract(parse(WARM_UP)))
        compiled_search(problem).solution()

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        vault = contract(instance, deadline)
        options = cast(KeysGraphOptions, self.options)  # as `configured` checks
        problem = ContractedProblem(vault, options, deadline)
        compiled = problem.compiles() and COMPILED in sys.modules  # loaded by `warm_up`: see the module doc
        if compiled:
            from crosscheck.solvers.keys.graph_compiled import compiled_search

            outcome = compiled_search(problem, deadline)
        else:
            outcome = best_first_search(problem, Strategy.ASTAR, deadline)
        # the contraction is exact, so no goal among the reachable states proves infeasibility
        return outcome.answer(
            lambda actions: [KeyMove(robot, direction) for robot, route in actions for direction in route.path],
            infeasible="every reachable state expanded",
            stats={"routes": sum(len(routes) for routes in vault.routes),
                   "kernel": "compiled" if compiled else "python"},
        )
