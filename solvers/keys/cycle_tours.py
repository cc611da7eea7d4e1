"""Lower bounds on a robot's steps inside the vault's cycles: walks per biconnected component.

keys-graph's `crosscheck.solvers.keys.bounds.RemainingKeysBound` adds `CycleTours.bound` to its
bridge walk for a robot alone in its component; why the sum stays admissible is in the class
docstring.  Each component's shortest tours and paths through its ports (the projections of
keys) are tabled exactly by Held-Karp over port subsets (`held_karp_tables`).
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from operator import add

from crosscheck.solvers.base import Deadline

#: A corridor of the door-free vault: (vertex, other vertex, length in moves).
Corridor = tuple[int, int, int]

#: The most ports of one component whose tours are tabled exactly (Held-Karp over 2**PORTS subsets);
#: a component with more tables the tours through a spread subset of that many.
PORTS = 12


class CycleTours:
    """``bound(node, remaining)``: per robot position and remaining keys, two sums over cycle components.

    Why they never overestimate.  Every corridor of the door-free corridor graph lies in exactly
    one biconnected component (a bridge is a component of one corridor; the others, "cycle
    components", hold cycles).  Project the robot's walk onto a component C: a vertex outside
    C maps to the vertex of C through which its part of the vault hangs (removing C's corridors
    leaves every vertex joined to exactly one vertex of C, or it would lie in C).  A step along
    C's corridors projects to itself, any other step to standing still, so the projection is a
    walk in C no longer than the walk's steps in C; it starts at the robot's projection s,
    visits the projection (port) of every remaining key and ends at the last key's projection
    x.  Shortest walks between vertices of C stay in C (leaving it means coming back through
    the same vertex), so door-free distances serve.  So the steps in C are at least

    - the shortest path from s through the ports (ending anywhere): the second sum; the steps
      in different components and on bridges are different steps, so these add up with each
      other and with the bridge bound of `crosscheck.solvers.keys.bounds.RemainingKeysBound`;
    - ``tour(C) - d(s, x)``, where ``tour(C)`` is the shortest closed tour through s and the
      ports (closing the projected walk with a shortest way back from x to s makes one): the
      first sum is that of the tours.  On a bridge the tour is twice its length if a port lies
      beyond it (``2 w(T)`` of the bridge bound), and ``sum over all components of d(s_C, x_C)``
      is the door-free distance from the robot to its last key (a shortest way between them
      crosses exactly the components on the way, entering and leaving each at those
      projections), so the walk is at least ``tours + 2 w(T) - d(robot, last key)``.

    A path or tour through a subset of the ports is no longer than one through all (triangle
    inequality), so a component with more than `PORTS` ports tables those through a spread
    subset of `PORTS` of them (from the best start when the robot's projection is left out).
    """

    def __init__(self, vertices: int, corridors: Sequence[Corridor], nodes: Sequence[int], first_key: int,
                 deadline: Deadline | None = None) -> None:
        """The tables of the vault's cycle components, built within `deadline` (`Deadline.check`)."""
        deadline = deadline or Deadline(None)
        around: list[list[tuple[int, int, int]]] = [[] for _ in range(vertices)]
        for e, (u, v, length) in enumerate(corridors):
            around[u].append((v, e, length))
            around[v].append((u, e, length))
        # per cycle component: (bit offset of its ports in a signature, their number, each node's
        # port or -1, `held_karp_tables` of the distances between ports)
        self.components: list[tuple[int, int, list[int], list[int], list[int]]] = []
        port_bits = [0] * (len(nodes) - first_key)
        offset = 0
        for component in biconnected_components(around):
            if len(component) < 2:
                continue  # a bridge: the caller's bridge walk counts it
            deadline.check("touring the vault's cycles")
            inside = {e for e in component}
            projected = _projections(around, inside, corridors, nodes)
            ports = _spread(sorted({v for v in projected if v is not None}), around, inside)
            if len(ports) < 2:
                continue
            index = {v: i for i, v in enumerate(ports)}
            node_port = [-1 if v is None else index.get(v, -1) for v in projected]
            for k in range(len(port_bits)):
                if node_port[first_key + k] >= 0:
                    port_bits[k] |= 1 << (offset + node_port[first_key + k])
            distances = [_distances(around, inside, port, ports) for port in ports]
            self.components.append((offset, len(ports), node_port, *held_karp_tables(distances)))
            offset += len(ports)
        self._half = (len(port_bits) + 1) // 2
        self._low = subset_unions(port_bits[: self._half]) if self.components else [0]
        self._high = subset_unions(port_bits[self._half :]) if self.components else [0]
        self._memo: dict[tuple[int, int], tuple[int, int]] = {}

    def signatures(self) -> tuple[int, list[int], list[int]]:
        """How `bound` maps remaining keys to their ports (for a compiled copy of it): the
        number of keys in the low half, and the port mask of each subset of the low keys and
        of the high keys."""
        return self._half, self._low, self._high

    def bound(self, node: int, remaining: int) -> tuple[int, int]:
        """Over the cycle components, with the robot on `node` and the keys of `remaining` left:
        the sum of the tours through its projection and the ports, and the sum of the shortest
        paths from its projection through the ports (ending anywhere); memoised on (node, ports)."""
        if not self.components:
            return 0, 0
        signature = self._low[remaining & ((1 << self._half) - 1)] | self._high[remaining >> self._half]
        sums = self._memo.get((node, signature))
        if sums is None:
            tour_sum = path_sum = 0
            for offset, size, node_port, tours, opens in self.components:
                ports = signature >> offset & (len(tours) - 1)
                if not ports:
                    continue
                start = node_port[node]
                if start < 0:  # outside a spread subset: the best start's path is still a bound
                    tour_sum += tours[ports]
                    path_sum += min(opens[ports * size + p] for p in range(size) if ports >> p & 1)
                    continue
                ports |= 1 << start
                tour_sum += tours[ports]
                path_sum += opens[ports * size + start]
            sums = self._memo[node, signature] = (tour_sum, path_sum)
        return sums


def biconnected_components(around: Sequence[Sequence[tuple[int, int, int]]]) -> list[list[int]]:
    """The corridor ids of each biconnected component (Tarjan's edge stack, iterative).

    `around[v]` lists (neighbour, corridor id, length); parallel corridors close a cycle:
    the search skips only the very corridor it came in by.
    """
    size = len(around)
    rank, low = [-1] * size, [0] * size
    found: list[list[int]] = []
    clock = 0
    for root in range(size):
        if rank[root] >= 0:
            continue
        rank[root] = low[root] = clock
        clock += 1
        edges: list[int] = []
        stack = [(root, -1, iter(around[root]))]
        while stack:
            vertex, via, corridors = stack[-1]
            for other, e, _ in corridors:
                if e == via:
                    continue
                if rank[other] < 0:
                    edges.append(e)
                    rank[other] = low[other] = clock
                    clock += 1
                    stack.append((other, e, iter(around[other])))
                    break
                if rank[other] < rank[vertex]:  # a back corridor, seen first from its lower end's descendant
                    edges.append(e)
                    low[vertex] = min(low[vertex], rank[other])
            else:
                stack.pop()
                if stack:
                    above = stack[-1][0]
                    low[above] = min(low[above], low[vertex])
                    if low[vertex] >= rank[above]:  # above separates vertex's subtree: close a component
                        component = []
                        while True:
                            e = edges.pop()
                            component.append(e)
                            if e == via:
                                break
                        found.append(component)
    return found


def _projections(
    around: Sequence[Sequence[tuple[int, int, int]]], inside: set[int], corridors: Sequence[Corridor],
    nodes: Sequence[int],
) -> list[int | None]:
    """Each node's vertex in the component of corridors `inside` (None in another connected part)."""
    owner: dict[int, int] = {}
    for e in inside:
        for v in corridors[e][:2]:
            owner[v] = v
    frontier = list(owner)
    while frontier:
        vertex = frontier.pop()
        for other, e, _ in around[vertex]:
            if e not in inside and other not in owner:
                owner[other] = owner[vertex]
                frontier.append(other)
    return [owner.get(v) for v in nodes]


def _distances(
    around: Sequence[Sequence[tuple[int, int, int]]], inside: set[int], source: int, targets: Sequence[int]
) -> list[int]:
    """Shortest distances from `source` to `targets` along the corridors `inside` (Dijkstra)."""
    done: dict[int, int] = {}
    heap = [(0, source)]
    while heap:
        distance, vertex = heapq.heappop(heap)
        if vertex in done:
            continue
        done[vertex] = distance
        for other, e, length in around[vertex]:
            if e in inside and other not in done:
                heapq.heappush(heap, (distance + length, other))
    return [done[target] for target in targets]


def _spread(ports: list[int], around: Sequence[Sequence[tuple[int, int, int]]], inside: set[int]) -> list[int]:
    """`ports` if at most `PORTS`, else `PORTS` of them picked farthest-first (a spread subset)."""
    if len(ports) <= PORTS:
        return ports
    rows = {port: _distances(around, inside, port, ports) for port in ports}
    chosen = [ports[0]]
    nearest = list(rows[ports[0]])
    while len(chosen) < PORTS:
        far = max(range(len(ports)), key=nearest.__getitem__)
        chosen.append(ports[far])
        nearest = [min(a, b) for a, b in zip(nearest, rows[ports[far]], strict=True)]
    return sorted(chosen)


def held_karp_tables(distances: Sequence[Sequence[int]]) -> tuple[list[int], list[int]]:
    """Shortest walks through the points of each mask of ``0 .. 2**n - 1`` (Held-Karp, masks in
    increasing order: a mask less one point comes before it).

    ``tours[mask]``: the shortest closed tour through the points of `mask` (0 for at most one);
    ``opens[mask * n + s]``: the shortest path from point s through all of `mask` (s in it),
    ending anywhere (a huge number when s is not in `mask`).  Plain Python: a vault's components
    have few ports (at most `PORTS`), and importing numpy would cost more than the tables.
    """
    n = len(distances)
    infinity = 1 << 40
    columns = [[row[end] for row in distances] for end in range(n)]
    blank = [infinity] * n
    # per mask: the shortest paths through it from its lowest point (rooted), or from any of its
    # points (free), to each end; mask 0 stands as point 0 alone (nothing reads it)
    rooted = [[0, *blank[1:]]] * (1 << n)
    free = rooted[:]
    tours = [0] * (1 << n)
    for mask in range(1, 1 << n):
        members = [i for i in range(n) if mask >> i & 1]
        low = members[0]
        if len(members) == 1:
            rooted[mask] = free[mask] = [0 if i == low else infinity for i in range(n)]
            continue
        from_root, from_any = blank[:], blank[:]
        for end in members:
            before, column = mask ^ (1 << end), columns[end]
            from_any[end] = min(map(add, free[before], column))
            if end != low:
                from_root[end] = min(map(add, rooted[before], column))
        rooted[mask], free[mask] = from_root, from_any
        tours[mask] = min(map(add, from_root, columns[low]))  # back from each end to the lowest point
    return tours, [value for row in free for value in row]


def subset_unions(bits: Sequence[int]) -> list[int]:
    """``unions[m]``: the union (bitwise or) of ``bits[i]`` over the bits i of m."""
    unions = [0]
    for bit in bits:
        unions += [union | bit for union in unions]
    return unions
