"""keys-graph's compiled A*: the tables of `graph_kernel` and the search loop.

`compiled_search` runs exactly the search of `ContractedProblem` (same successors, bound and
dominance, `crosscheck.solvers.keys.graph_kernel`) in compiled code, checking the deadline
between chunks of expansions.  keys-graph uses it, once loaded, when every robot is alone in
its part of a vault with cycles (a loop-free vault is quick in Python).
"""

from __future__ import annotations

import numpy as np
from crosscheck.solvers.base import Deadline
from crosscheck.solvers.engines.arrays import SearchArrays, doubled
from crosscheck.solvers.engines.search import Ending, SearchOutcome
from crosscheck.solvers.engines.search_protocol import GOAL
from crosscheck.solvers.keys import graph_kernel as kernel
from crosscheck.solvers.keys.bounds import RemainingKeysBound
from crosscheck.solvers.keys.graph import Action, ContractedProblem
from crosscheck.solvers.keys.graph_kernel import BoundTables, RouteTables
from crosscheck.solvers.keys.routes import Route

#: Expansions between two deadline checks of the compiled search.
CHUNK = 4096
#: Nodes the search's arrays first hold (they double when full).
FIRST_CAPACITY = 1 << 14
#: The kernel's bound for each value of keys-graph's option ``bound``.
BOUND_KINDS = {"walk": kernel.WALK, "door-free": kernel.DOOR_FREE, "none": kernel.NO_BOUND}


def _ints(values: object) -> np.ndarray:
    return np.array(values, dtype=np.int64)


def _padded(rows: list[list[tuple[int, int, int]]], width: int) -> np.ndarray:
    """`rows` of (distance, bit, needers) as an array (rows, 3, width), padded with zeros (bit 0)."""
    table = np.zeros((len(rows), 3, width), dtype=np.int64)
    for n, row in enumerate(rows):
        for i, entry in enumerate(row):
            table[n, :, i] = entry
    return table


def bound_tables(bound: RemainingKeysBound, kind: int = kernel.WALK) -> BoundTables:
    """`bound`'s tables (for robots alone in their parts) as `graph_kernel.BoundTables`, standing
    for the bound `kind` (`graph_kernel.WALK`, `DOOR_FREE` or `NO_BOUND`)."""
    lone, blocks = bound.lone_robot_tables(), bound.blocks
    nodes = len(lone.slot)
    offsets, sizes, ports, tour_base, open_base = [], [], [], [], []
    tours: list[int] = []
    opens: list[int] = []
    for offset, size, node_port, component_tours, component_opens in blocks.components:
        offsets.append(offset)
        sizes.append(size)
        ports.append(node_port)
        tour_base.append(len(tours))
        open_base.append(len(opens))
        tours += component_tours
        opens += component_opens
    width = max(1, len(lone.ring_bridges))
    far = np.stack([_padded(lone.far, width), _padded(lone.far_bridges, width)])
    triples = [triple for node in lone.triples for triple in node]
    port_half, port_low, port_high = blocks.signatures()
    return BoundTables(
        half=lone.half, ring_low=_ints(lone.low), ring_high=_ints(lone.high), slot=_ints(lone.slot),
        ring_rows=_ints(lone.ring_rows), ring_bridges=_ints(lone.ring_bridges).reshape(width, -1),
        port_half=port_half, port_low=_ints(port_low), port_high=_ints(port_high),
        comp_offset=_ints(offsets), comp_size=_ints(sizes), comp_port=_ints(ports).reshape(len(sizes), nodes),
        tour_base=_ints(tour_base), tours=_ints(tours), open_base=_ints(open_base), opens=_ints(opens),
        far=far[:, :, 0].copy(), far_bit=far[:, :, 1].copy(), far_needers=far[:, :, 2].copy(),
        triple_start=_ints([0] + [len(node) for node in lone.triples]).cumsum(),
        triple_twice=_ints([twice for twice, _ in triples]), triple_keys=_ints([keys for _, keys in triples]),
        kind=kind,
    )


def route_tables(problem: ContractedProblem) -> tuple[RouteTables, list[Route]]:
    """`problem`'s routes per node, by target key and length (its `choices`, in order), as
    `graph_kernel.RouteTables`; and the routes in that order."""
    starts, keys, needs, lengths = [0], [], [], []
    routes: list[Route] = []
    for choice in problem.choices:
        for bit, _, options in choice:
            for route_needs, route in options:
                keys.append(bit.bit_length() - 1)
                needs.append(route_needs)
                lengths.append(route.length)
                routes.append(route)
        starts.append(len(routes))
    reach = [0] * problem.packing.robots
    for (robot,), group_keys in problem.bound.groups:
        reach[robot] = group_keys
    tables = RouteTables(problem.keys, problem.packing.robots, problem.packing.bits_per_robot, _ints(reach),
                         _ints(starts), _ints(keys), _ints(needs), _ints(lengths), problem.options.dominance == "on")
    return tables, routes


class Store(SearchArrays):
    """The compiled search's arrays (see `graph_kernel.search`): per node its bound `h`, `parent` and
    `route` besides those of `SearchArrays`."""

    def __init__(self, capacity: int = FIRST_CAPACITY) -> None:
        super().__init__(np.zeros(capacity, dtype=np.int64), table_factor=4)
        self.g = np.zeros(capacity, dtype=np.int64)
        self.h = np.zeros(capacity, dtype=np.int64)
        self.parent = np.full(capacity, -1, dtype=np.int64)
        self.route = np.full(capacity, -1, dtype=np.int64)

    def grow(self) -> None:
        """Double every array, the table refilled."""
        super().grow()
        self.g, self.h = doubled(self.g), doubled(self.h)
        self.parent, self.route = doubled(self.parent, -1), doubled(self.route, -1)

    def run(self, bound: BoundTables, routes: RouteTables, budget: int) -> None:
        """`graph_kernel.search` for at most `budget` expansions."""
        kernel.search(self.states, self.g, self.h, self.parent, self.route, self.table, self.heap_key,
                      self.heap_node, self.counters, bound, routes, budget)

    def plan(self, routes: list[Route], robots: int) -> list[Action]:
        """The actions from the start to the goal's node."""
        node = int(self.counters[GOAL])
        actions = []
        while (link := int(self.route[node])) >= 0:
            actions.append((link % robots, routes[link // robots]))
            node = int(self.parent[node])
        actions.reverse()
        return actions


def compiled_search(problem: ContractedProblem, deadline: Deadline | None = None,
                    capacity: int = FIRST_CAPACITY) -> SearchOutcome[Action]:
    """A* over `problem` (robots alone in their parts: `ContractedProblem.compiles`) in
    compiled code, until a goal, exhaustion or the deadline; its arrays first hold `capacity` nodes."""
    deadline = deadline or Deadline(None)
    tables = bound_tables(problem.bound, BOUND_KINDS[problem.options.bound])
    routes, route_list = route_tables(problem)
    store = Store(capacity)
    h = int(kernel.state_bound(tables, routes, problem.initial()))
    store.add_start(problem.initial(), h)
    store.h[0] = h
    ending = store.drive(lambda budget: store.run(tables, routes, budget), deadline, CHUNK)
    if ending is not Ending.SOLVED:
        return store.outcome(ending)
    cost = int(store.g[int(store.counters[GOAL])])
    return store.outcome(ending, cost, store.plan(route_list, problem.packing.robots))
