"""Elevator formulations: known optima, agreement on seeded instances, honest bounds."""

from __future__ import annotations

import random

import pytest
from crosscheck.harness.inputs.index import InstanceFile, discover
from crosscheck.models.answers import NO_SOLUTION, Optimum
from crosscheck.models.elevator.model import ElevatorMove, Facility, all_safe, check_plan, extended, generate, parse
from crosscheck.solvers.base import Deadline, Solver, Status
from crosscheck.solvers.elevator.bfs import ElevatorBfs
from crosscheck.solvers.elevator.common import (
    crossing_bound,
    item_names,
    labelled_bound,
    labelled_moves,
    start_state,
)
from crosscheck.solvers.elevator.cpsat import (
    ElevatorCpsat,
    HorizonModel,
    WasteTables,
    configure_search,
    potential,
    quotient_state_cap,
    with_parity,
)
from crosscheck.solvers.elevator.quotient import ElevatorQuotient, canonical
from crosscheck.solvers.elevator.top_floors import TopFloors
from crosscheck.solvers.engines.cpsat import configured_solver
from crosscheck.solvers.registry import solvers_for
from ortools.sat.python import cp_model

from tests.fixtures import INSTANCES

SOLVERS = [ElevatorBfs(), ElevatorQuotient(), ElevatorCpsat()]


def load(name: str) -> Facility:
    path = INSTANCES / "elevator" / name
    return parse(path.read_text(), str(path))


def test_registered() -> None:
    assert [solver.name for solver in solvers_for("elevator")] == ["elevator-bfs", "elevator-quotient", "elevator-cpsat", "elevator-fd", "elevator-sat"]


@pytest.mark.parametrize("solver", SOLVERS, ids=lambda solver: solver.name)
def test_published_example(solver: Solver) -> None:
    facility = load("two-pairs-example.txt")
    result = solver.solve(facility, time_limit=30)
    assert (result.status, result.cost, result.bound) == (Status.OPTIMAL, 11, 11)
    assert result.plan is not None and check_plan(facility, result.plan) == 11


def indexed(limit_pairs: int) -> list[InstanceFile]:
    return [found for found in discover(INSTANCES / "elevator")
            if found.expected is not None
            and len(parse(found.path.read_text(), str(found.path)).elements) <= limit_pairs]


def assert_answers_index(solver: Solver, found: InstanceFile, limit: float) -> None:
    """`solver` proves the index's answer for `found`, with a plan the checker accepts."""
    facility = parse(found.path.read_text(), str(found.path))
    result = solver.solve(facility, time_limit=limit)
    if found.expected == NO_SOLUTION:
        assert result.status is Status.INFEASIBLE
    else:
        assert isinstance(found.expected, Optimum)
        assert (result.status, result.cost) == (Status.OPTIMAL, found.expected.cost)
        assert result.plan is not None and check_plan(facility, result.plan) == found.expected.cost


@pytest.mark.parametrize("found", indexed(3), ids=lambda found: found.name)
def test_indexed_small_instances(found: InstanceFile) -> None:
    for solver in SOLVERS[:2]:
        assert_answers_index(solver, found, 30)


@pytest.mark.slow
@pytest.mark.parametrize("found", indexed(7), ids=lambda found: found.name)
def test_indexed_instances_quotient(found: InstanceFile) -> None:
    facility = parse(found.path.read_text(), str(found.path))
    result = ElevatorQuotient().solve(facility, time_limit=60)
    if found.expected == NO_SOLUTION:
        assert result.status is Status.INFEASIBLE
    else:
        assert isinstance(found.expected, Optimum)
        assert (result.status, result.cost) == (Status.OPTIMAL, found.expected.cost)


def small_instance(seed: int) -> Facility:
    """Seeded small instances: 1-3 pairs, 2-5 floors, a fifth of them with any start."""
    rng = random.Random(seed)
    return generate(seed, pairs=rng.randint(1, 3), floors=rng.randint(2, 5), safe=rng.random() < 0.8)


def test_all_formulations_agree_on_150_generated_instances() -> None:
    kinds = {"optimal": 0, "infeasible at start": 0, "infeasible": 0}
    for seed in range(150):
        facility = small_instance(seed)
        bfs, quotient = (solver.solve(facility, time_limit=20) for solver in SOLVERS[:2])
        # a generous limit where a plan exists (a loaded machine must not fail the test),
        # a short one where CP-SAT can only prove infeasibility or time out
        cpsat = ElevatorCpsat().solve(facility, time_limit=30 if bfs.status is Status.OPTIMAL else 1.0)
        assert bfs.status in (Status.OPTIMAL, Status.INFEASIBLE), facility.to_text()
        assert (quotient.status, quotient.cost) == (bfs.status, bfs.cost), facility.to_text()
        for result in (bfs, quotient, cpsat):
            if result.plan is not None:
                assert check_plan(facility, result.plan) == result.cost
        if bfs.status is Status.OPTIMAL:
            kinds["optimal"] += 1
            # feasible small instances are solved exactly by every formulation
            assert (cpsat.status, cpsat.cost) == (Status.OPTIMAL, bfs.cost), facility.to_text()
        else:
            kinds["infeasible" if all_safe(facility.chips, facility.generators) else "infeasible at start"] += 1
            # CP-SAT proves infeasibility or says honestly that it ran out of time
            assert cpsat.status in (Status.INFEASIBLE, Status.TIMEOUT), facility.to_text()
    assert kinds["optimal"] >= 50 and kinds["infeasible"] >= 10 and kinds["infeasible at start"] >= 5, kinds


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(20))
def test_search_formulations_agree_on_bigger_instances(seed: int) -> None:
    rng = random.Random(seed)
    facility = generate(seed, pairs=rng.randint(3, 4), floors=rng.randint(3, 5))
    bfs, quotient = ElevatorBfs().solve(facility, 120), ElevatorQuotient().solve(facility, 120)
    assert (bfs.status, bfs.cost) == (quotient.status, quotient.cost)


def test_crossing_bound_never_exceeds_the_cost_left_along_optimal_plans() -> None:
    """Admissibility: after k steps of an optimal plan of cost C exactly C - k steps remain."""
    checked = 0
    for seed in range(40):
        facility = small_instance(seed)
        result = ElevatorBfs().solve(facility, 20)
        if result.status is not Status.OPTIMAL:
            continue
        assert result.plan is not None and result.cost is not None
        state, names = start_state(facility), item_names(facility)
        for k, move in enumerate(result.plan):
            assert labelled_bound(state, facility.floors) <= result.cost - k
            state = next(successor for step, load, successor in labelled_moves(state, facility.floors)
                         if step == (1 if move.direction == "up" else -1)
                         and set(move.items) == {names[i] for i in load})
            checked += 1
    assert checked >= 100


def test_crossing_bound_values() -> None:
    # two chips on floor 1, generators on floors 2 and 3, elevator on floor 1
    assert crossing_bound(4, 0, [2, 1, 1, 0]) == 1 + 3 + 5
    # elevator above every item: each of n items below needs a round trip per boundary
    assert crossing_bound(3, 2, [1, 0, 0]) == 2 + 2
    assert crossing_bound(4, 3, [0, 0, 0, 5]) == 0


def counts_key(state: tuple[int, ...], floors: int) -> tuple[int, *tuple[tuple[int, int], ...]]:
    """The popular but wrong key: elevator floor and per-floor numbers of chips and generators."""
    generators, chips = state[1::2], state[2::2]
    return (state[0], *((chips.count(f), generators.count(f)) for f in range(floors)))


def test_per_floor_counts_merge_states_of_different_safety() -> None:
    """Three elements on three floors: pairs matched versus rotated.

    Each floor holds one chip and one generator in both, so a per-floor-counts key
    merges them; but rotated, every chip meets a foreign generator.  The quotient
    keeps the (chip floor, generator floor) pairs and tells them apart.
    """
    matched, rotated = load("three-matched.txt"), load("three-rotated.txt")
    assert matched.elements == rotated.elements
    a, b = start_state(matched), start_state(rotated)
    assert counts_key(a, 4) == counts_key(b, 4)
    assert all_safe(matched.chips, matched.generators)
    assert not all_safe(rotated.chips, rotated.generators)
    assert canonical(a, 4) != canonical(b, 4)
    for solver in SOLVERS:
        assert solver.solve(matched, 30).status is Status.OPTIMAL
        assert solver.solve(rotated, 30).status is Status.INFEASIBLE


def test_quotient_plan_names_elements_of_an_extended_instance() -> None:
    facility = extended(generate(2, pairs=2))
    result = ElevatorQuotient().solve(facility, 30)
    assert result.status is Status.OPTIMAL and result.plan is not None
    assert check_plan(facility, result.plan) == result.cost
    assert any("elerium" in name for move in result.plan for name in move.items)


def test_cpsat_times_out_honestly_with_a_valid_bound() -> None:
    """20,000 units of work (0.2 s of CP-SAT's deterministic time, on any machine) refute a
    horizon or two, not all up to the optimum: a timeout that names the limit, with the
    next horizon as bound.  (How far CP-SAT's two workers get in that time varies a little.)"""
    facility = generate(3, pairs=5)
    optimum = ElevatorQuotient().solve(facility, 30)
    result = ElevatorCpsat().solve(facility, work_limit=20_000)
    assert result.status is Status.TIMEOUT and "work limit" in result.message, result
    assert result.plan is None and result.bound is not None
    assert optimum.cost is not None and result.bound <= optimum.cost
    work = result.stats["work"]
    assert isinstance(work, int) and 20_000 <= work < 40_000  # CP-SAT stops a little past its deterministic limit


def test_cpsat_proves_infeasibility_directly_or_by_refuting_every_horizon_below_the_cap() -> None:
    # one pair on two floors: the chip and the generator ride up together
    tiny = Facility("tiny", 2, ("a",), (0,), (0,))
    assert quotient_state_cap(tiny) == 2 * 4
    assert ElevatorCpsat().solve(tiny, 10).cost == 1
    # a lone generator on floor 1 cannot move without destroying the chips above
    stuck = ElevatorCpsat().solve(load("stuck-generator.txt"), 10)
    assert (stuck.status, stuck.message) == (Status.INFEASIBLE, "no safe step from the start")
    # the hydrogen pair can never pass the sulfur chip: on three floors the top floors
    # relaxation is the puzzle itself (its pool is one floor, with the safety rule)
    stranded = load("stranded-chip.txt")
    result = ElevatorCpsat().solve(stranded, 30)
    assert (result.status, result.message) == (Status.INFEASIBLE, "the top floors relaxation cannot reach its goal")
    # with a weaker relaxation (one floor kept) and no closure proof: refuted horizon by horizon
    game = TopFloors(stranded.floors, len(stranded.elements), kept=1)
    start = game.state(0, stranded.chips, stranded.generators)
    to_goal, from_start = game.to_goal(Deadline(None)), game.from_state(start, Deadline(None))
    assert to_goal is not None and from_start is not None
    tables = WasteTables(game, start, to_goal, from_start)
    assert tables.start_waste() is not None
    answer = ElevatorCpsat()._horizons(stranded, with_parity(1, stranded), tables, Deadline(30.0))
    assert answer.status is Status.INFEASIBLE
    assert answer.stats["best_bound"] == quotient_state_cap(stranded) - 2  # the last horizon refuted


def test_cpsat_proves_infeasibility_by_its_relaxation() -> None:
    """Three chips on the third floor, their generators on the first: the elevator can never
    reach the third floor (only generators could ride there, and at most two), which the
    top floors relaxation sees at once; the horizons are never tried."""
    facility = generate(924, pairs=3, floors=4)
    assert (facility.chips, facility.generators) == ((2, 2, 2), (0, 0, 0))
    assert ElevatorQuotient().solve(facility, 30).status is Status.INFEASIBLE
    result = ElevatorCpsat().solve(facility, 30)
    assert (result.status, result.message) == (Status.INFEASIBLE, "the top floors relaxation cannot reach its goal")


def test_cpsat_starts_at_the_wasteful_steps_of_its_relaxation() -> None:
    """Three pairs together on the third floor, one on the first: potential and crossing
    bound say 15 steps, the top floors relaxation three wasteful steps more: 21, the
    optimum, is the first and only horizon tried (without the relaxation: 15, 17, 19, 21)."""
    facility = generate(322, pairs=4, floors=4)
    assert (facility.chips, facility.generators) == ((2, 2, 2, 0), (2, 2, 2, 0))
    assert potential(4, start_state(facility)) == labelled_bound(start_state(facility), 4) == 15
    assert ElevatorQuotient().solve(facility, 30).cost == 21
    result = ElevatorCpsat().solve(facility, 30)
    assert (result.status, result.cost, result.stats["horizons"]) == (Status.OPTIMAL, 21, 1)


def test_cpsat_tables_every_fourth_time_keep_only_fitting_game_states() -> None:
    """The relaxation's tables stand at times 4, 8, ...; each allows only game states that fit
    the horizon's wasteful steps, and at t only those whose potentials can be had at t."""
    facility = generate(7, pairs=5)
    tables = WasteTables.of(facility, Deadline(None))
    assert tables is not None
    horizon = 45  # the optimum: (45 - 41) / 2 = 2 wasteful steps
    model = HorizonModel(facility, horizon, tables)
    assert sorted(model.table_rows) == list(range(4, horizon, 4))
    fitting = [[fit.state[0], *fit.state[1], fit.before, fit.after] for fit in tables.fitting(2)]
    assert len(fitting) < len(tables.to_goal)
    for rows in model.table_rows.values():
        assert rows and all(row in fitting for row in rows)
    assert min(len(rows) for rows in model.table_rows.values()) < len(fitting)  # some cannot be had early or late


@pytest.mark.parametrize("seed", range(4))
def test_cpsat_keeps_the_optimum_of_alike_pairs(seed: int) -> None:
    """Two extra pairs start alike on the first floor (and others become alike on the way):
    counting the elements of each type must keep every optimum."""
    facility = extended(generate(seed, pairs=2, floors=3))
    quotient = ElevatorQuotient().solve(facility, 30)
    cpsat = ElevatorCpsat().solve(facility, 60)
    assert (cpsat.status, cpsat.cost) == (quotient.status, quotient.cost)
    if cpsat.plan is not None:
        assert check_plan(facility, cpsat.plan) == cpsat.cost


def test_cpsat_runs_complete_searches_without_lp_only() -> None:
    """Two workers, both the search without LP (no local search)."""
    facility = generate(7, pairs=5)  # not decided by presolve alone
    model = HorizonModel(facility, 45, WasteTables.of(facility, Deadline(None)))
    solver = configured_solver(Deadline(None), workers=2)  # no time limit: the answer must not depend on load
    configure_search(solver)
    lines: list[str] = []
    solver.parameters.log_search_progress, solver.parameters.log_to_stdout = True, False
    solver.log_callback = lines.append
    assert solver.solve(model.model) == cp_model.OPTIMAL
    assert any("2 full problem subsolvers: [no_lp(2)]" in line for line in lines), lines
    assert not any("[fj]" in line for line in lines)


#: (direction, riders, next state) of each step of a replayed plan, in labelled states
Replayed = list[tuple[int, tuple[int, ...], tuple[int, ...]]]


def replay(facility: Facility, plan: list[ElevatorMove]) -> Replayed:
    """The labelled (direction, riders, next state) of each move of `plan`."""
    state, names, steps = start_state(facility), item_names(facility), []
    for move in plan:
        step, load, state = next(
            (step, load, successor) for step, load, successor in labelled_moves(state, facility.floors)
            if step == (1 if move.direction == "up" else -1) and set(move.items) == {names[i] for i in load})
        steps.append((step, load, state))
    return steps


def test_potential_changes_by_one_per_step_down_when_tight() -> None:
    """-1 for up with two riders or down with one, +1 otherwise; 0 at the goal; at the start
    the crossing bound without its max(1, .) (equal when every boundary has two items below)."""
    rng = random.Random(1)
    checked = 0
    for seed in range(30):
        facility = small_instance(seed)
        state = start_state(facility)
        for _ in range(40):
            moves = list(labelled_moves(state, facility.floors))
            if not moves:
                break
            step, load, successor = rng.choice(moves)
            tight = (step, len(load)) in ((1, 2), (-1, 1))
            assert potential(facility.floors, successor) - potential(facility.floors, state) == (-1 if tight else 1)
            state, checked = successor, checked + 1
    assert checked >= 500
    assert potential(4, (3,) + (3,) * 10) == 0
    facility = generate(7, pairs=5)  # items 6, 9, 10 at or below the three boundaries
    counts = [sum(floor == f for floor in start_state(facility)[1:]) for f in range(4)]
    assert potential(4, start_state(facility)) == crossing_bound(4, 0, counts) == 9 + 15 + 17


def fix_states(model: HorizonModel, facility: Facility, steps: Replayed) -> None:
    """Fix the model's elevator and type counts at every time to those of a replayed plan."""
    states = [start_state(facility)] + [state for _, _, state in steps]
    for t, state in enumerate(states):
        model.model.add(model.elevator[t][state[0]] == 1)
        for pair_type in model.types:
            elements = sum((chip, generator) == pair_type for generator, chip in zip(state[1::2], state[2::2], strict=True))
            model.model.add(model.count[t][pair_type] == elements)


def test_every_cut_keeps_optimal_plans() -> None:
    """An optimal plan (found by elevator-quotient, as the test's oracle) satisfies the model
    of its length with every cut: the potential accounting and the top floors relaxation's
    tables (wasteful steps before and after every time).  Most of these optimal plans make
    wasteful steps; a wrong count or a bound that overestimates makes a fixed plan infeasible."""
    checked = wasteful_plans = 0
    for seed in range(24):
        rng = random.Random(seed)
        facility = generate(seed, pairs=rng.randint(2, 5), floors=rng.randint(3, 5))
        result = ElevatorQuotient().solve(facility, 30)
        if result.status is not Status.OPTIMAL or result.cost is None or result.plan is None:
            continue
        steps = replay(facility, result.plan)
        model = HorizonModel(facility, result.cost, WasteTables.of(facility, Deadline(None)))
        fix_states(model, facility, steps)
        solver = configured_solver(Deadline(30.0))
        assert solver.solve(model.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE), facility.to_text()
        wasteful = sum((step, len(load)) not in ((1, 2), (-1, 1)) for step, load, _ in steps)
        assert 2 * wasteful == result.cost - potential(facility.floors, start_state(facility))
        assert model.wasteful == wasteful
        assert sum(solver.boolean_value(v) for v in model.lone_up + model.pair_down) == wasteful
        checked, wasteful_plans = checked + 1, wasteful_plans + (wasteful > 0)
    assert checked >= 12 and wasteful_plans >= 6, (checked, wasteful_plans)


def test_potential_accounting_counts_the_wasteful_steps_of_longer_plans() -> None:
    """The published example starts at potential 9: its 11-step plans make one wasteful
    step, its 13-step plans two (the model must still find one: padding with a round trip
    adds a wasteful step), and 9 steps are refuted."""
    facility = load("two-pairs-example.txt")
    tables = WasteTables.of(facility, Deadline(None))
    assert potential(facility.floors, start_state(facility)) == 9
    for horizon, wasteful in ((11, 1), (13, 2)):
        model = HorizonModel(facility, horizon, tables)
        solver = configured_solver(Deadline(30.0))
        assert solver.solve(model.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
        assert sum(solver.boolean_value(v) for v in model.lone_up + model.pair_down) == wasteful
        assert check_plan(facility, model.plan(solver)) == horizon
    assert configured_solver(Deadline(30.0)).solve(HorizonModel(facility, 9, tables).model) == cp_model.INFEASIBLE
