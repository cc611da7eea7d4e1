"""The compiled heap of the compiled searches (`crosscheck.solvers.engines.heap`), against `heapq`."""

from __future__ import annotations

import heapq
import random

import numpy as np
import pytest
from crosscheck.solvers.engines import heap


@pytest.mark.parametrize("node_type", [np.int64, np.int32])
@pytest.mark.parametrize("seed", range(20))
def test_pushes_and_pops_come_out_as_from_heapq(seed: int, node_type: type) -> None:
    """Random pushes and pops, the keys drawn from a small range (many ties) or a large one:
    each pop gives the smallest key `heapq` gives, with a node pushed under that key and
    not popped yet; the heap is emptied at the end."""
    rng = random.Random(seed)
    spread = rng.choice((5, 1 << 40))
    capacity = 300
    keys: np.ndarray = np.zeros(capacity, dtype=np.int64)
    nodes: np.ndarray = np.zeros(capacity, dtype=node_type)
    reference: list[tuple[int, int]] = []
    waiting: dict[int, int] = {}  # node -> its key, for the nodes pushed and not popped
    size = 0
    for step in range(2000):
        if size < capacity and (size == 0 or rng.random() < 0.55):
            key, node = rng.randrange(spread), step
            heap.heap_push(keys, nodes, size, key, node)
            heapq.heappush(reference, (key, node))
            waiting[node] = key
            size += 1
        else:
            key, node = heap.heap_pop(keys, nodes, size)
            size -= 1
            assert key == heapq.heappop(reference)[0]
            assert waiting.pop(int(node)) == key
    while size:
        key, node = heap.heap_pop(keys, nodes, size)
        size -= 1
        assert key == heapq.heappop(reference)[0] and waiting.pop(int(node)) == key
    assert not reference and not waiting


def test_a_heap_of_one_pops_its_entry() -> None:
    keys, nodes = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    heap.heap_push(keys, nodes, 0, -7, 3)
    assert heap.heap_pop(keys, nodes, 1) == (-7, 3)

