"""elevator-bfs (bidirectional layered BFS on packed labelled states) against the others.

Agreement with elevator-quotient (a different state space: states up to renaming, A*)
and with the index on seeded generated facilities of every size class the packing
handles (uint32, uint64 and Python-integer codes), honest bounds at a timeout, and the
packed move generator against the rules as the model's checker applies them.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from crosscheck.harness.inputs.index import InstanceFile
from crosscheck.models.base import InvalidPlan
from crosscheck.models.elevator.model import (
    ELEMENT_NAMES,
    UP,
    ElevatorMove,
    Facility,
    check_plan,
    generate,
    item_name,
)
from crosscheck.solvers.base import Deadline, Status
from crosscheck.solvers.elevator.bfs import ElevatorBfs
from crosscheck.solvers.elevator.packed import Moves, Packing
from crosscheck.solvers.elevator.quotient import ElevatorQuotient

from tests.test_elevator_solvers import assert_answers_index, indexed


def seeded(seed: int, most_pairs: int) -> Facility:
    """1 to `most_pairs` pairs on 2-6 floors (fewer pairs on many floors); a sixth any-start."""
    rng = random.Random(seed)
    floors = rng.randint(2, 6)
    pairs = rng.randint(1, most_pairs if floors <= 4 else min(most_pairs, 3))
    return generate(seed, pairs=pairs, floors=floors, spread=rng.randint(1, floors), safe=rng.random() < 0.85)


def assert_agree(facility: Facility, limit: float = 60) -> Status:
    bfs, quotient = ElevatorBfs().solve(facility, limit), ElevatorQuotient().solve(facility, limit)
    assert bfs.status in (Status.OPTIMAL, Status.INFEASIBLE), (bfs.message, facility.to_text())
    assert (bfs.status, bfs.cost) == (quotient.status, quotient.cost), facility.to_text()
    if bfs.plan is not None:
        assert check_plan(facility, bfs.plan) == bfs.cost
    return bfs.status


def test_agrees_with_the_quotient_on_120_seeded_facilities() -> None:
    seen = {"optimal": 0, "infeasible": 0, "unsafe start": 0, "some floors empty": 0}
    for seed in range(120):
        facility = seeded(seed, 4)
        status = assert_agree(facility)
        unsafe = ElevatorBfs().solve(facility, 60).message == "the start is unsafe"
        seen["unsafe start" if unsafe else status.value] += 1
        seen["some floors empty"] += len(set(facility.chips + facility.generators)) < facility.floors - 1
    assert min(seen.values()) >= 5, seen


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(40))
def test_agrees_with_the_quotient_on_bigger_seeded_facilities(seed: int) -> None:
    assert_agree(seeded(1000 + seed, 6))


@pytest.mark.parametrize("found", indexed(6), ids=lambda found: found.name)
def test_indexed_instances_up_to_six_pairs(found: InstanceFile) -> None:
    assert_answers_index(ElevatorBfs(), found, 60)


@pytest.mark.slow
@pytest.mark.parametrize("found", [f for f in indexed(7) if f not in indexed(6)], ids=lambda found: found.name)
def test_indexed_seven_pair_instances(found: InstanceFile) -> None:
    assert_answers_index(ElevatorBfs(), found, 120)


def mostly_done(floors: int, pairs: int, low: int) -> Facility:
    """`low` pairs on the first floor, every other pair already on the top floor."""
    elements = tuple(sorted(ELEMENT_NAMES[:pairs]))
    placed = tuple(0 if i < low else floors - 1 for i in range(pairs))
    return Facility(f"mostly-done-{floors}-{pairs}-{low}", floors, elements, placed, placed)


@pytest.mark.parametrize(("floors", "pairs", "low", "dtype"), [
    (2, 20, 2, np.dtype(np.uint64)),  # 41 bits
    (3, 16, 2, object),  # 66 bits: Python integers
    (4, 28, 1, object),  # every element name
    (9, 2, 2, np.dtype(np.uint32)),  # four bits a floor
    (9, 8, 1, object),  # 68 bits, 16 items: loads from the table
])
def test_every_code_width_agrees_with_the_quotient(floors: int, pairs: int, low: int, dtype: object) -> None:
    facility = mostly_done(floors, pairs, low)
    assert Packing.of(facility).dtype == dtype
    assert assert_agree(facility) is Status.OPTIMAL


def test_unsafe_start_and_finished_start() -> None:
    unsafe = Facility("unsafe", 3, ("a", "b"), (0, 1), (1, 0))
    result = ElevatorBfs().solve(unsafe, 10)
    assert (result.status, result.message) == (Status.INFEASIBLE, "the start is unsafe")
    done = mostly_done(4, 3, 0)
    result = ElevatorBfs().solve(done, 10)
    assert (result.status, result.cost, result.plan) == (Status.OPTIMAL, 0, [])


class ExpiresAfter(Deadline):
    """A deadline that expires after `checks` checks: stops a search at every possible point."""

    def __init__(self, checks: int) -> None:
        super().__init__(None)
        self.left = checks

    def expired(self, work: int = 0) -> bool:
        self.left -= 1
        return self.left < 0


def test_bound_at_a_timeout_never_exceeds_the_optimum_and_reaches_it() -> None:
    facility = generate(0, pairs=4)
    optimum = ElevatorQuotient().solve(facility, 60).cost
    bounds: list[int] = []
    for checks in range(200):
        result = ElevatorBfs()._solve(facility, ExpiresAfter(checks))
        if result.status is Status.OPTIMAL:
            break
        assert result.status is Status.TIMEOUT and result.plan is None and result.bound is not None
        bounds.append(result.bound)
    assert result.cost == optimum
    assert bounds == sorted(bounds) and bounds[-1] == optimum  # the last layer before meeting proves it


def legal_steps(facility: Facility, state: list[int]) -> set[tuple[int, frozenset[int]]]:
    """Every legal step up from a labelled state with the elevator on floor 0, by the rules:
    the loads whose one-move plan the model's checker rejects for nothing but unfinished work.
    """
    steps = set()
    items = range(2 * len(facility.elements))
    probe = Facility("probe", facility.floors, facility.elements, tuple(state[2::2]), tuple(state[1::2]))
    names = [item_name(element, kind) for element, kind in facility.items()]
    loads = [(i,) for i in items] + [(i, j) for i in items for j in items if i < j]
    for load in loads:
        try:
            check_plan(probe, [ElevatorMove(UP, tuple(names[i] for i in load))])
        except InvalidPlan as error:
            if "below the top floor" not in str(error):
                continue
        steps.add((1, frozenset(load)))
    return steps


@pytest.mark.parametrize("seed", range(30))
def test_moves_from_the_first_floor_are_exactly_the_checkers_legal_steps(seed: int) -> None:
    facility = generate(seed, pairs=random.Random(seed).randint(1, 4), floors=3, spread=2)
    packing = Packing.of(facility)
    state = [0] + [floor for pair in zip(facility.generators, facility.chips, strict=True) for floor in pair]
    code = packing.encode(0, state[1:])
    found = set()
    for successor in Moves(packing).successors(packing.array([code])):
        _, after = packing.decode(int(successor))
        found.add((1, frozenset(i for i in range(packing.items) if after[i] != state[i + 1])))
    assert found == legal_steps(facility, state)
