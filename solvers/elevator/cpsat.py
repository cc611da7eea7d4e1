"""``elevator-cpsat``: a time-indexed CP-SAT model, horizons searched upward.

For a horizon T the model has, per time 0..T, the elevator's floor and every item's
floor (one-hot Booleans), and per step 1..T which items ride (one or two, all on the
elevator's floor before and after the step; the others stay) and whether the
elevator goes up or down.  After every step every floor is safe.  At T every item is
on the top floor.  Redundant cuts: the safety-free crossing bound
(`solvers.elevator.common.crossing_bound`) holds from every time t, as a linear
inequality on the remaining boundary crossings; and the potential of `potential`
(twice the items' distances to the top minus three times the elevator's) changes by
one per step, down for a *tight* step (up with two riders, down with one), up for a
*wasteful* one, so a plan of T steps makes exactly ``(T - potential at the start) / 2``
wasteful steps and from every time t the steps left are at least the potential at t
(`HorizonModel._potential_accounting`).  Symmetry breaking: pairs equal at a
time keep their next floors ordered by index (`HorizonModel._identical_pairs_in_order`);
it rests on the renaming symmetry that ``elevator-quotient`` also uses (declared in
`TimeIndexed.shares`).  Search: every worker runs a complete search; with two workers,
one without LP and one in a chronological fixed order (`full_searches_only`).

Horizons: a plan with at least one step ends with the elevator on the top floor and
each step changes its floor by one, so its length has the parity of ``floors - 1``.
Horizons start at the crossing bound of the start (rounded up to that parity) and go
up by two; the first feasible horizon is the optimum, because every shorter one was
proven infeasible.  A shortest plan never visits two states equal up to renaming of
elements (the rest of the plan, renamed, would apply earlier), so its length is below
the number of such states; once every horizon below that cap is refuted, no plan
exists.  When time runs out the result is ``timeout`` with the first horizon not yet
refuted as its bound.  Two starts are refuted directly: an unsafe one (a chip already
destroyed) and one with no safe step.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement
from math import comb

from ortools.sat.python import cp_model
from ortools.sat.python.cp_model import LinearExprT

from models.elevator import ElevatorMove, Facility, all_safe
from solvers.base import Answer, Deadline, Solver, Stats, Status
from solvers.cpsat import configured_solver, has_solution, run_stats, solve
from solvers.elevator.common import (
    crossing_bound,
    item_names,
    labelled_moves,
    start_is_safe,
    start_state,
    to_move,
)

#: Count the safe quotient states exactly only while there are at most this many multisets.
EXACT_CAP_LIMIT = 200_000


def quotient_state_cap(facility: Facility) -> int:
    """An upper bound on the number of states up to renaming (elevator floor x pair multiset).

    Exact count of the safe pair multisets where cheap, the count of all multisets otherwise.
    """
    floors, pairs = facility.floors, len(facility.elements)
    multisets = comb(floors * floors + pairs - 1, pairs)
    if multisets > EXACT_CAP_LIMIT:
        return floors * multisets
    codes = [(chip, generator) for chip in range(floors) for generator in range(floors)]
    safe = sum(
        all_safe([chip for chip, _ in chosen], [generator for _, generator in chosen])
        for chosen in combinations_with_replacement(codes, pairs)
    )
    return floors * safe


def potential(floors: int, state: Sequence[int]) -> int:
    """``2 * (sum of the items' distances to the top) - 3 * (the elevator's distance)``.

    Of a labelled state (`solvers.elevator.common`).  A step carrying r riders up lowers
    the items' distances by r and the elevator's by one: the potential changes by
    ``3 - 2r`` (-1 for two riders, +1 for one); down, by ``2r - 3`` (-1 for one rider, +1
    for two).  At the goal it is 0.  So a plan from a state with potential p makes
    ``(T - p) / 2`` wasteful steps (+1) among its T steps, and T >= p.  At the start
    (elevator on the first floor) it is the crossing bound summed without its
    ``max(1, .)`` (boundary b contributes ``2 * items at or below b - 3``).
    """
    top = floors - 1
    return 2 * sum(top - floor for floor in state[1:]) - 3 * (top - state[0])


def full_searches_only(solver: cp_model.CpSolver) -> None:
    """Let every CP-SAT worker run a complete search, none a first-solution local search.

    CP-SAT's default portfolio gives the second of two workers to feasibility jump, a
    local search that never found a plan of these models (measured: half of the CPU of
    a 60 s run, the plan always from the other worker).  Two workers run the search
    without LP and the fixed search in `HorizonModel`'s chronological order: with the
    potential accounting this pair refuted and found single horizons faster than the
    default LP search beside either (``benchmarks.bench_elevator``; figures in the
    commit message); one worker runs the default search alone, more workers CP-SAT's
    portfolio of complete searches.
    """
    solver.parameters.use_feasibility_jump = False
    solver.parameters.num_full_subsolvers = solver.parameters.num_workers
    if solver.parameters.num_workers == 2:
        solver.parameters.subsolvers.extend(["no_lp", "fixed"])


class HorizonModel:
    """The CP-SAT model of plans of exactly `horizon` steps (`break_symmetries=False`
    leaves out the symmetry breaking, for tests that fix a given plan)."""

    def __init__(self, facility: Facility, horizon: int, break_symmetries: bool = True) -> None:
        self.facility, self.horizon = facility, horizon
        floors, top = facility.floors, facility.top
        start = start_state(facility)
        items = len(start) - 1
        times, steps = range(horizon + 1), range(1, horizon + 1)
        model = self.model = cp_model.CpModel()

        # variables: elevator and item floors per time, riders and direction per step
        self.elevator = [[model.new_bool_var(f"elevator_{t}_{f}") for f in range(floors)] for t in times]
        self.at = [[[model.new_bool_var(f"item_{i}_{t}_{f}") for f in range(floors)] for t in times]
                   for i in range(items)]
        self.ride = [[model.new_bool_var(f"ride_{i}_{t}") for t in times] for i in range(items)]
        self.up = [model.new_bool_var(f"up_{t}") for t in times]
        for t in times:
            model.add_exactly_one(self.elevator[t])
            for i in range(items):
                model.add_exactly_one(self.at[i][t])

        # start and goal
        model.add(self.elevator[0][start[0]] == 1)
        for i in range(items):
            model.add(self.at[i][0][start[i + 1]] == 1)
            model.add(self.at[i][horizon][top] == 1)

        for t in steps:
            # the elevator moves one floor
            for f in range(floors):
                here = self.elevator[t - 1][f]
                if f + 1 < floors:
                    model.add_bool_or([~here, ~self.up[t], self.elevator[t][f + 1]])
                else:
                    model.add_bool_or([~here, ~self.up[t]])
                if f > 0:
                    model.add_bool_or([~here, self.up[t], self.elevator[t][f - 1]])
                else:
                    model.add_bool_or([~here, self.up[t]])
            # one or two items ride, from the elevator's floor to its next floor; the rest stay
            riders = [self.ride[i][t] for i in range(items)]
            model.add(sum(riders) >= 1)
            model.add(sum(riders) <= 2)
            for i in range(items):
                for f in range(floors):
                    model.add_bool_or([~self.ride[i][t], ~self.elevator[t - 1][f], self.at[i][t - 1][f]])
                    model.add_bool_or([~self.ride[i][t], ~self.elevator[t][f], self.at[i][t][f]])
                    model.add(self.at[i][t][f] == self.at[i][t - 1][f]).only_enforce_if(~self.ride[i][t])
            # safety: a chip on a floor with any generator has its own generator there
            for f in range(floors):
                any_generator = model.new_bool_var(f"generator_on_{t}_{f}")
                for k in range(0, items, 2):
                    model.add_implication(self.at[k][t][f], any_generator)
                    model.add_bool_or([~self.at[k + 1][t][f], ~any_generator, self.at[k][t][f]])

        self._crossing_cuts(items, floors)
        self._potential_accounting(items, floors, potential(floors, start))
        if break_symmetries:
            self._identical_pairs_in_order(start, floors)
        self._chronological_order(items)

    def _chronological_order(self, items: int) -> None:
        """The decision order of CP-SAT's fixed-search worker: step by step, the direction
        (up first), then whether each item rides (riding first).

        It orders decisions only and excludes no plan.  A worker that follows it is a
        depth-first search over plans from the start, with clause learning, pruned early by
        the crossing cuts and the potential accounting (see `full_searches_only`).
        """
        order = []
        for t in range(1, self.horizon + 1):
            order += [self.up[t], *(self.ride[i][t] for i in range(items))]
        self.model.add_decision_strategy(order, cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)

    def _potential_accounting(self, items: int, floors: int, start_potential: int) -> None:
        """The steps left from every time t are at least the `potential` at t, and the
        plan makes exactly ``(horizon - start_potential) / 2`` wasteful steps.

        Both follow from `potential`'s change of -1 per tight step and +1 per wasteful
        one, with 0 at the goal.  Per step, ``lone_up`` (up with one rider) and
        ``pair_down`` (down with two) mark the wasteful steps: riders = 1 + up - lone_up
        + pair_down.  The crossing cuts bound each boundary alone, their sum only through
        the LP; this bounds the sum directly, and fixes every step tight once the
        wasteful steps are spent.
        """
        model, horizon, top = self.model, self.horizon, floors - 1
        wasteful = horizon - start_potential
        if wasteful < 0 or wasteful % 2:
            model.add_bool_or([])  # every plan of this horizon would contradict the accounting
            return
        for t in range(1, horizon):
            model.add(2 * sum((top - f) * self.at[i][t][f] for i in range(items) for f in range(floors))
                      - 3 * sum((top - f) * self.elevator[t][f] for f in range(floors)) <= horizon - t)
        self.lone_up = [model.new_bool_var(f"lone_up_{t}") for t in range(horizon + 1)]
        self.pair_down = [model.new_bool_var(f"pair_down_{t}") for t in range(horizon + 1)]
        model.add(self.lone_up[0] == 0)
        model.add(self.pair_down[0] == 0)
        for t in range(1, horizon + 1):
            model.add_implication(self.lone_up[t], self.up[t])
            model.add_implication(self.pair_down[t], ~self.up[t])
            model.add(sum(self.ride[i][t] for i in range(items)) == 1 + self.up[t] - self.lone_up[t] + self.pair_down[t])
        model.add(sum(self.lone_up) + sum(self.pair_down) == wasteful // 2)

    def _identical_pairs_in_order(self, start: tuple[int, ...], floors: int) -> None:
        """Symmetry breaking between pairs, valid for every horizon.

        Write ``code_i(t) = floors * generator floor + chip floor`` of pair i at time t.
        Call a plan *sorted* when, at every time t, any two pairs i < j with equal
        codes at t have i's codes from t on lexicographically at most j's.  Renaming
        maps plans to plans (rules and goal treat elements alike), and any plan can be
        sorted: going through the times upward, rename among the pairs equal at t so
        that their futures are sorted; that changes nothing before t and keeps every
        earlier time sorted (pairs equal at t that were ordered earlier only by their
        futures are now ordered by index, the same way).  So a sorted plan of every
        feasible horizon exists, and the model may require what sorting implies:
        at time 0, the full order of each group of alike pairs; at every later time,
        the next code only (pairs equal at t: ``code_i(t+1) <= code_j(t+1)``).
        """
        model, times, elements = self.model, range(self.horizon + 1), (len(start) - 1) // 2
        codes = [[sum(f * (floors * self.at[2 * pair][t][f] + self.at[2 * pair + 1][t][f]) for f in range(floors))
                  for t in times] for pair in range(elements)]
        for first, second in combinations(range(elements), 2):
            if start[2 * first + 1 : 2 * first + 3] == start[2 * second + 1 : 2 * second + 3]:
                self._ordered_from_start(codes[first], codes[second], f"{first}_{second}")
            for t in times[1:-1]:
                equal = model.new_bool_var(f"equal_{first}_{second}_{t}")
                model.add(codes[first][t] == codes[second][t]).only_enforce_if(equal)
                model.add(codes[first][t] != codes[second][t]).only_enforce_if(~equal)
                model.add(codes[first][t + 1] <= codes[second][t + 1]).only_enforce_if(equal)

    def _ordered_from_start(self, first: Sequence[LinearExprT], second: Sequence[LinearExprT], name: str) -> None:
        """`first` lexicographically at most `second` (equal at time 0); ``same[t]``: equal up to t."""
        model = self.model
        same = [model.new_bool_var(f"same_{name}_{t}") for t in range(len(first))]
        model.add(same[0] == 1)
        for t in range(1, len(first)):
            model.add_implication(same[t], same[t - 1])
            model.add(first[t] == second[t]).only_enforce_if(same[t])
            model.add(first[t] + 1 <= second[t]).only_enforce_if([same[t - 1], ~same[t]])

    def _crossing_cuts(self, items: int, floors: int) -> None:
        """From every time t: remaining crossings of boundary b >= 2 * items below - 3 * [elevator below]."""
        model, horizon = self.model, self.horizon
        for b in range(floors - 1):
            crossings = []
            for t in range(1, horizon + 1):
                crossing = model.new_bool_var(f"cross_{t}_{b}")
                up = [self.elevator[t - 1][b], self.elevator[t][b + 1]]
                down = [self.elevator[t - 1][b + 1], self.elevator[t][b]]
                # crossing <=> (both of up) or (both of down)
                model.add_bool_or([~crossing, up[0], down[0]])
                model.add_bool_or([~crossing, up[1], down[1]])
                model.add_bool_or([~up[0], ~up[1], crossing])
                model.add_bool_or([~down[0], ~down[1], crossing])
                crossings.append(crossing)
            for t in range(horizon):
                below = sum(self.at[i][t][f] for i in range(items) for f in range(b + 1))
                elevator_below = sum(self.elevator[t][f] for f in range(b + 1))
                model.add(sum(crossings[t:]) >= 2 * below - 3 * elevator_below)

    def plan(self, solver: cp_model.CpSolver, names: list[str]) -> list[ElevatorMove]:
        moves: list[ElevatorMove] = []
        for t in range(1, self.horizon + 1):
            load = tuple(i for i in range(len(names)) if solver.boolean_value(self.ride[i][t]))
            moves.append(to_move(1 if solver.boolean_value(self.up[t]) else -1, load, names))
        return moves


class TimeIndexed(Solver):
    """`HorizonModel` at horizons upward from the crossing bound (same parity as a plan):
    the first satisfiable horizon is ``optimal``; ``infeasible`` when the start is unsafe,
    has no safe step, or every horizon below the number of states up to renaming is
    refuted; else ``timeout`` with the first undecided horizon as the bound."""

    name = "elevator-cpsat"
    puzzle = "elevator"
    summary = "time-indexed CP-SAT model, horizons upward from the crossing bound"
    # the symmetry breaking rests on the renaming argument elevator-quotient's states rest on
    shares = frozenset({"solvers.elevator.common.crossing_bound", "solvers.elevator.common.labelled_moves",
                        "elevator: plans map to plans under renaming of elements"})
    runs_cpsat = True

    def _solve(self, instance: Facility, deadline: Deadline) -> Answer:
        if not start_is_safe(instance):
            return Answer(Status.INFEASIBLE, message="the start is unsafe")
        start = start_state(instance)
        if all(floor == instance.top for floor in start[1:]):
            return Answer(Status.OPTIMAL, 0, 0, [], {"horizons": 0})
        if next(labelled_moves(start, instance.floors), None) is None:
            return Answer(Status.INFEASIBLE, message="no safe step from the start")
        counts = [0] * instance.floors
        for floor in start[1:]:
            counts[floor] += 1
        horizon = crossing_bound(instance.floors, 0, counts)
        horizon += (horizon - instance.top) % 2
        cap: int | None = None  # counting states takes a second on big facilities: only once needed
        effort: dict[str, float] = {"conflicts": 0, "branches": 0, "wall_time": 0.0}  # summed over horizons
        horizons = 0
        stats: Stats = {**effort, "horizons": horizons}
        names = item_names(instance)
        while True:
            if deadline.expired():
                return Answer(Status.TIMEOUT, bound=horizon, stats=stats)
            model = HorizonModel(instance, horizon)
            solver = configured_solver(deadline)
            full_searches_only(solver)
            status = solve(solver, model.model, deadline)
            effort["conflicts"] += solver.num_conflicts
            effort["branches"] += solver.num_branches
            effort["wall_time"] += solver.wall_time
            horizons += 1
            # the last run's set-up (seed, workers), the effort of all runs
            stats |= run_stats(solver) | effort | {"horizons": horizons, "best_bound": horizon}
            found = has_solution(status, model.model)
            if found:
                return Answer(Status.OPTIMAL, horizon, horizon, model.plan(solver, names), stats)
            if found is None:
                return Answer(Status.TIMEOUT, bound=horizon, stats=stats,
                              message=f"horizon {horizon} undecided at the time limit")
            horizon += 2
            cap = cap or quotient_state_cap(instance)
            if horizon >= cap:  # a plan visits distinct states, so it is shorter than their number
                return Answer(Status.INFEASIBLE, stats=stats, message=(
                    f"every horizon below {cap} (the number of states up to renaming) is infeasible"))
