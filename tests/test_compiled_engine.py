"""The node table of the compiled searches (`crosscheck.solvers.engines.node_table`), against a
dict; their heap keys (`crosscheck.solvers.engines.search_protocol`) against tuple order; the
driver's arrays (`crosscheck.solvers.engines.arrays.SearchArrays`) against a Python Dijkstra; and
the kernels recording the compiled parts' source they cache against
(`crosscheck.solvers.engines.kernel_cache`)."""

from __future__ import annotations

import heapq
import random
from types import ModuleType

import numpy as np
import pytest
from crosscheck.solvers.amphipods import search_kernel, steps_kernel
from crosscheck.solvers.base import Deadline
from crosscheck.solvers.elevator import quotient_kernel
from crosscheck.solvers.engines import kernel_cache, search_protocol
from crosscheck.solvers.engines.arrays import SearchArrays, doubled_index
from crosscheck.solvers.engines.heap import heap_pop, heap_push
from crosscheck.solvers.engines.node_table import find, rehash
from crosscheck.solvers.engines.search import Ending, SearchOutcome
from crosscheck.solvers.engines.search_protocol import (
    EXHAUSTED,
    EXPANDED,
    GENERATED,
    GOAL,
    HEAP_SIZE,
    NEEDS_ROOM,
    NODES,
    SOLVED,
    STATUS,
    key_f,
    key_g,
    open_key,
)
from crosscheck.solvers.keys import graph_kernel


@pytest.mark.parametrize("seed", range(10))
def test_finds_and_inserts_agree_with_a_dict_as_the_table_grows(seed: int) -> None:
    """Random states (from a small range, so many are found again, or from all 63 bits, negative
    ones too) are looked up and inserted where missing, as a search does; the table doubles
    (refilled by `rehash`) when half full.  Every lookup gives the node a dict gives, or -1
    and an empty slot for a state not inserted yet."""
    rng = random.Random(seed)
    spread = rng.choice((50, 1 << 62))
    states = np.zeros(4, dtype=np.int64)
    table = np.full(8, -1, dtype=np.int64)
    reference: dict[int, int] = {}
    for _ in range(600):
        state = rng.randrange(-spread, spread)
        node, slot = find(table, states, state)
        assert node == reference.get(state, -1)
        if node >= 0:
            continue
        assert table[slot] == -1
        if len(reference) == len(states):  # full: grow before inserting, as the searches do
            states, table = doubled_index(states, table, len(reference), rehash)
            _, slot = find(table, states, state)
        states[len(reference)] = state
        table[slot] = reference[state] = len(reference)
    assert all(find(table, states, state)[0] == node for state, node in reference.items())


@pytest.mark.parametrize("g_bits", [26, search_protocol.G_BITS])
def test_heap_keys_order_as_f_then_the_larger_g_and_unpack(g_bits: int) -> None:
    """Keys of random (f, g), many tied, sort as the tuples (f, -g) do, and give back f and g."""
    rng = random.Random(g_bits)
    costs = (0, 1, (1 << g_bits) - 1)
    pairs = [(rng.randrange(1 << 20) * rng.randrange(2), rng.choice((*costs, rng.randrange(1 << g_bits))))
             for _ in range(400)]
    keys = [open_key(f, g, g_bits) for f, g in pairs]
    by_key = [pairs[i] for i in sorted(range(len(pairs)), key=keys.__getitem__)]
    assert by_key == sorted(pairs, key=lambda pair: (pair[0], -pair[1]))
    assert [(key_f(key, g_bits), key_g(key, g_bits)) for key in keys] == pairs
    statuses = {search_protocol.BUDGET_SPENT, SOLVED, EXHAUSTED, NEEDS_ROOM}
    slots = {NODES, HEAP_SIZE, EXPANDED, GENERATED, GOAL, STATUS}
    assert len(statuses) == 4 and slots == set(range(search_protocol.COUNTER_SLOTS))


def _dijkstra_kernel(store: SearchArrays, g: list[int], edges: dict[int, list[tuple[int, int]]], goal: int,
                     budget: int) -> None:
    """A kernel in Python keeping the protocol on `store` (states are graph vertices; per node `g`)."""
    counters, fanout = store.counters, max(map(len, edges.values()))
    while counters[HEAP_SIZE]:
        if budget <= 0:
            counters[STATUS] = search_protocol.BUDGET_SPENT
            return
        if counters[NODES] + fanout > len(store.states) or counters[HEAP_SIZE] + fanout > len(store.heap_key):
            counters[STATUS] = NEEDS_ROOM
            return
        key, node = heap_pop(store.heap_key, store.heap_node, int(counters[HEAP_SIZE]))
        counters[HEAP_SIZE] -= 1
        cost = key_g(key, store.g_bits)
        if cost > g[node]:
            continue
        if store.states[node] == goal:
            counters[STATUS], counters[GOAL] = SOLVED, node
            return
        counters[EXPANDED] += 1
        budget -= 1
        for target, weight in edges[int(store.states[node])]:
            counters[GENERATED] += 1
            child, slot = find(store.table, store.states, target)
            if child >= 0 and g[child] <= cost + weight:
                continue
            if child < 0:
                child = int(counters[NODES])
                counters[NODES] += 1
                store.states[child], store.table[slot] = target, child
                g.append(0)
            g[child] = cost + weight
            key = open_key(g[child], g[child], store.g_bits)
            heap_push(store.heap_key, store.heap_node, int(counters[HEAP_SIZE]), key, child)
            counters[HEAP_SIZE] += 1
    counters[STATUS] = EXHAUSTED


def _driven(edges: dict[int, list[tuple[int, int]]], goal: int, deadline: Deadline) -> SearchOutcome[int]:
    """`_dijkstra_kernel` from vertex 0 driven by `SearchArrays.drive`: two nodes of room at first,
    three expansions a chunk."""
    store, g = SearchArrays(np.zeros(2, dtype=np.int64), table_factor=2), [0]
    store.add_start(0, 0)
    ending = store.drive(lambda budget: _dijkstra_kernel(store, g, edges, goal, budget), deadline, 3)
    return store.outcome(ending, g[int(store.counters[GOAL])] if ending is Ending.SOLVED else None)


@pytest.mark.parametrize("seed", range(8))
def test_driver_arrays_grow_and_search_in_chunks_like_dijkstra(seed: int) -> None:
    """A search driven by `SearchArrays.drive` (two nodes of room at first, three expansions a
    chunk) finds the cost heapq's Dijkstra finds, or exhausts when there is none; under a work
    limit it stops with a bound no greater than the cost."""
    rng = random.Random(seed)
    vertices = rng.randrange(5, 40)
    edges = {v: [(rng.randrange(vertices) * 7919, rng.randrange(1, 9)) for _ in range(rng.randrange(1, 4))]
             for v in range(0, vertices * 7919, 7919)}
    goal = rng.randrange(vertices) * 7919
    best, queue = {0: 0}, [(0, 0)]
    while queue:
        cost, vertex = heapq.heappop(queue)
        for target, weight in edges[vertex] if cost == best[vertex] else ():
            if cost + weight < best.get(target, cost + weight + 1):
                best[target] = cost + weight
                heapq.heappush(queue, (cost + weight, target))
    for deadline in (Deadline(None), Deadline(None, work=2)):
        outcome = _driven(edges, goal, deadline)
        if deadline.work is None:
            expected = (Ending.SOLVED, best[goal]) if goal in best else (Ending.EXHAUSTED, None)
            assert (outcome.status, outcome.cost) == expected
        elif outcome.status is Ending.TIMEOUT:
            assert outcome.expanded == 2 and outcome.bound is not None
            assert outcome.bound <= best.get(goal, outcome.bound)


@pytest.mark.parametrize("kernel", [graph_kernel, steps_kernel, quotient_kernel, search_kernel],
                         ids=lambda module: module.__name__)
def test_each_kernel_records_the_compiled_parts_source_it_caches_against(kernel: ModuleType) -> None:
    """numba's cache notices a change in a kernel's own file only: a kernel uses it only while
    the parts' digest it records is the current one (`kernel_cache.cache_enabled`), so after a
    change of a part this fails until the kernel's ``ENGINE_SOURCE`` is updated (which retires
    its cache)."""
    assert kernel.ENGINE_SOURCE == kernel_cache.source_digest(), (
        f"set ENGINE_SOURCE = {kernel_cache.source_digest()!r} in {kernel.__file__}")
    assert kernel.CACHE is True
    assert not kernel_cache.cache_enabled("0" * 16)
