"""``elevator-cpsat``: a time-indexed CP-SAT model over counts of pair types, horizons searched upward.

The rules over counts of pair types are `crosscheck.solvers.elevator.transitions`' (elements
are interchangeable, so the model does not tell them apart: the argument ``elevator-quotient``
rests on, a shared lemma of `crosscheck.harness.independence.trusted.LEMMAS`); `HorizonModel` puts the start
at time 0 and every element of type (top, top) at T.  A solution is turned into a plan by
naming, step by step, elements of the riding types (any will do: they are interchangeable).

Redundant cuts: the safety-free crossing bound (`crosscheck.solvers.elevator.common.crossing_bound`)
holds from every time t as a linear inequality on the remaining boundary crossings; the
potential of `potential` (twice the items' distances to the top minus three times the
elevator's) changes by one per step, down for a *tight* step (up with two riders, down
with one), up for a *wasteful* one, so a plan of T steps makes exactly ``(T - potential
at the start) / 2`` wasteful steps (`HorizonModel._potential_accounting`); and the top
floors relaxation (`crosscheck.solvers.elevator.top_floors`), which sees the safety rule on the two
top floors, bounds the wasteful steps before and after every fourth time by exact tables
(`HorizonModel._top_floors_tables`).

Horizons: a plan with at least one step ends with the elevator on the top floor and
each step changes its floor by one, so its length has the parity of ``floors - 1``.
Horizons start at the larger of the start's crossing bound and its potential plus twice
the relaxation's wasteful moves (rounded up to that parity) and go up by two; the first
feasible horizon is the optimum, because every shorter one was proven infeasible.  A
shortest plan never visits two states equal up to renaming of elements (the rest of the
plan, renamed, would apply earlier), so its length is below the number of such states;
once every horizon below that cap is refuted, no plan exists.  When time runs out the
result is ``timeout`` with the first horizon not yet refuted as its bound.  Three starts
are refuted directly: an unsafe one (a chip already destroyed), one with no safe step,
and one whose relaxation cannot reach its goal.  Before any horizon, a facility without
a plan is usually refuted without one: `crosscheck.solvers.elevator.closure` proposes the
states up to renaming reachable from the start when the goal is not among them, and CP-SAT
proves that no safe step leaves them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from math import comb
from typing import TYPE_CHECKING, ClassVar, Literal, NamedTuple, cast

from crosscheck.models.elevator.model import ElevatorMove, Facility, all_safe
from crosscheck.solvers.base import Answer, Deadline, Solver, Stats, Status
from crosscheck.solvers.configuration import Options, option
from crosscheck.solvers.elevator.closure import closed_without_goal
from crosscheck.solvers.elevator.common import (
    Riding,
    item_names,
    labelled_bound,
    labelled_moves,
    pair_types,
    start_is_safe,
    start_state,
    to_move,
)
from crosscheck.solvers.elevator.top_floors import GameState, TopFloors
from crosscheck.solvers.elevator.transitions import Transitions
from crosscheck.solvers.engines.cpsat import (
    CpsatOptions,
    configured_solver,
    cp_model,
    has_solution,
    run_stats,
    solve,
)

if TYPE_CHECKING:  # for annotations only: importing names from cp_model loads it (crosscheck.solvers.engines.cpsat)
    from ortools.sat.python.cp_model import LinearExprT

#: Count the safe quotient states exactly only while there are at most this many multisets.
EXACT_CAP_LIMIT = 200_000
#: The relaxation's tables constrain every this many times: each table slows propagation,
#: and a state beyond the bounds is cut a few steps later all the same (the spacing's
#: measurements: docs/puzzles/elevator.md).
TABLES_EVERY = 4


def quotient_state_cap(facility: Facility) -> int:
    """An upper bound on the number of states up to renaming (elevator floor x pair multiset).

    Exact count of the safe pair multisets where cheap, the count of all multisets otherwise.
    """
    floors, pairs = facility.floors, len(facility.elements)
    multisets = comb(floors * floors + pairs - 1, pairs)
    if multisets > EXACT_CAP_LIMIT:
        return floors * multisets
    safe = sum(
        all_safe([chip for chip, _ in chosen], [generator for _, generator in chosen])
        for chosen in combinations_with_replacement(pair_types(floors), pairs)
    )
    return floors * safe


def potential(floors: int, state: Sequence[int]) -> int:
    """``2 * (sum of the items' distances to the top) - 3 * (the elevator's distance)``.

    Of a labelled state (`crosscheck.solvers.elevator.common`).  A step carrying r riders up lowers
    the items' distances by r and the elevator's by one: the potential changes by
    ``3 - 2r`` (-1 for two riders, +1 for one); down, by ``2r - 3`` (-1 for one rider, +1
    for two).  At the goal it is 0.  So a plan from a state with potential p makes
    ``(T - p) / 2`` wasteful steps (+1) among its T steps, and T >= p.  At the start
    (elevator on the first floor) it is the crossing bound summed without its
    ``max(1, .)`` (boundary b contributes ``2 * items at or below b - 3``).
    """
    top = floors - 1
    return 2 * sum(top - floor for floor in state[1:]) - 3 * (top - state[0])


def configure_search(solver: cp_model.CpSolver) -> None:
    """Every full-problem worker runs the complete search without LP (the copies differ
    by seed; CP-SAT interleaves its first-solution helpers), after one presolve pass.

    CP-SAT's default portfolio gives the second of two workers to feasibility jump, a
    local search that never found a plan of these models; the LP relaxation of the
    counts slowed every search it was part of; the relaxation's tables make repeated
    presolve passes costly for little.  The settings tried and what each cost:
    docs/puzzles/elevator.md.
    """
    solver.parameters.use_feasibility_jump = False
    solver.parameters.num_full_subsolvers = solver.parameters.num_workers
    solver.parameters.subsolvers.append("no_lp")
    solver.parameters.max_presolve_iterations = 1


@dataclass(frozen=True)
class WasteTables:
    """The top floors relaxation of one facility: its game, the fewest wasteful moves from
    each game state to the goal, and from the start's game state to each game state."""

    game: TopFloors
    start: GameState
    to_goal: Mapping[GameState, int]
    from_start: Mapping[GameState, int]

    @classmethod
    def of(cls, facility: Facility, deadline: Deadline) -> WasteTables | None:
        """The tables, or None if `deadline` expires while they are computed."""
        game = TopFloors(facility.floors, len(facility.elements))
        start = game.state(0, facility.chips, facility.generators)
        to_goal, from_start = game.to_goal(deadline), game.from_state(start, deadline)
        return None if to_goal is None or from_start is None else cls(game, start, to_goal, from_start)

    def start_waste(self) -> int | None:
        """The wasteful steps every plan makes at least; None when the relaxation proves that
        no plan exists (the start's game state cannot reach the goal).  Of a safe start only
        (the game knows no unsafe state)."""
        return self.to_goal.get(self.start)

    def fitting(self, wasteful: int) -> list[Fit]:
        """Every game state that a plan with `wasteful` wasteful steps can pass through:
        reached from the start and reaching the goal with at most that many wasteful moves
        in all."""
        return [Fit(state, before, after) for state, before in self.from_start.items()
                if (after := self.to_goal.get(state)) is not None and before + after <= wasteful]


class Fit(NamedTuple):
    """A game state, with the fewest wasteful moves from the start to it and from it to the goal."""

    state: GameState
    before: int
    after: int


class ElevatorCpsatOptions(CpsatOptions):
    """elevator-cpsat's design choices: both values keep it exact."""

    top_floor_cuts: Literal["on", "off"] = option(
        "on", "the top floors relaxation's tables as cuts in every horizon's model (off: the relaxation "
              "still sets the first horizon)")


class HorizonModel(Transitions):
    """The CP-SAT model of plans of exactly `horizon` steps from the facility's start to its
    goal (`crosscheck.solvers.elevator.transitions` states the rules; without `tables`, no
    relaxation cuts)."""

    def __init__(self, facility: Facility, horizon: int, tables: WasteTables | None = None) -> None:
        super().__init__(facility, horizon)
        model = self.model
        self._start_and_goal()
        self._crossing_cuts()
        start_potential = self.start_potential = potential(self.floors, start_state(facility))
        #: the wasteful steps of every plan of this horizon (`potential`)
        self.wasteful = (horizon - start_potential) // 2
        if horizon < start_potential or (horizon - start_potential) % 2:
            model.add_bool_or([])  # every plan of this horizon would contradict the accounting
            return  # (`ElevatorCpsat` never asks for such a horizon)
        self._potential_accounting()
        if tables is not None:
            self._top_floors_tables(tables)

    def _start_and_goal(self) -> None:
        facility, model = self.facility, self.model
        model.add(self.elevator[0][0] == 1)
        start = {pair_type: 0 for pair_type in self.types}
        for chip, generator in zip(facility.chips, facility.generators, strict=True):
            start[chip, generator] += 1
        for pair_type in self.types:
            model.add(self.count[0][pair_type] == start[pair_type])
            model.add(self.count[self.horizon][pair_type] == (self.pairs if pair_type == (self.top, self.top) else 0))

    def _potential(self, t: int) -> LinearExprT:
        """`potential` of the state at time t."""
        top = self.top
        items = sum((2 * top - c - g) * self.count[t][c, g] for c, g in self.types)
        return 2 * items - 3 * sum((top - f) * self.elevator[t][f] for f in range(self.floors))

    def _potential_accounting(self) -> None:
        """The potential at every time t is the start's minus t plus twice the wasteful steps
        so far, and the plan makes exactly ``(horizon - start_potential) / 2`` of them.

        Both follow from `potential`'s change of -1 per tight step and +1 per wasteful
        one, with 0 at the goal.  Per step, ``lone_up`` (up with one rider) and
        ``pair_down`` (down with two) mark the wasteful steps: riders = 1 + up - lone_up
        + pair_down.  With at most the plan's wasteful steps after t, this bounds the steps
        left by the potential at t; once the wasteful steps are spent, every step is tight.
        """
        model, horizon = self.model, self.horizon
        self.lone_up = [model.new_bool_var(f"lone_up_{t}") for t in range(horizon + 1)]
        self.pair_down = [model.new_bool_var(f"pair_down_{t}") for t in range(horizon + 1)]
        model.add(self.lone_up[0] == 0)
        model.add(self.pair_down[0] == 0)
        for t in range(1, horizon + 1):
            model.add_implication(self.lone_up[t], self.up[t])
            model.add_implication(self.pair_down[t], ~self.up[t])
            model.add(self._riders(t) == 1 + self.up[t] - self.lone_up[t] + self.pair_down[t])
            model.add(self._potential(t) == self.start_potential - t + 2 * self.wasteful_until(t))
        model.add(self.wasteful_until(horizon) == self.wasteful)

    def wasteful_until(self, t: int) -> LinearExprT:
        """The number of wasteful steps among steps 1..t."""
        return sum(self.lone_up[1 : t + 1]) + sum(self.pair_down[1 : t + 1])

    def _top_floors_tables(self, tables: WasteTables) -> None:
        """At every `TABLES_EVERY`-th time t the relaxation's game state of the state is one
        that a plan with this horizon's wasteful steps can pass through at t (`_rows_at`),
        with at least its `Fit.before` wasteful steps before t and its `Fit.after` after
        (see `crosscheck.solvers.elevator.top_floors` for why).  The wasteful steps so far and to come
        are read off the state's potential by the accounting."""
        model, game, wasteful = self.model, tables.game, self.wasteful
        fits = tables.fitting(wasteful)
        if not fits:
            model.add_bool_or([])  # no game state fits a plan of this horizon
            return
        ranges = [game.potential_range(fit.state) for fit in fits]
        self.table_rows: dict[int, list[list[int]]] = {}  # the allowed rows per time
        for t in range(TABLES_EVERY, self.horizon, TABLES_EVERY):
            level = model.new_int_var(0, game.levels, f"level_{t}")
            model.add(level == sum(game.level(f) * self.elevator[t][f] for f in range(self.floors)))
            columns = [level]
            for category in game.categories:
                members = [self.count[t][c, g] for c, g in self.types if (game.level(c), game.level(g)) == category]
                columns.append(model.new_int_var(0, self.pairs, f"category_{t}_{category[0]}_{category[1]}"))
                model.add(columns[-1] == sum(members))
            before = model.new_int_var(0, wasteful, f"wasteful_before_{t}")
            after = model.new_int_var(0, wasteful, f"wasteful_after_{t}")
            self.table_rows[t] = self._rows_at(t, fits, ranges)
            model.add_allowed_assignments([*columns, before, after], self.table_rows[t])
            # potential(t) = start's - t + 2 * (wasteful steps so far); the rest come after t
            model.add(2 * before <= self._potential(t) - (self.start_potential - t))
            model.add(2 * after <= self.horizon - t - self._potential(t))

    def _rows_at(self, t: int, fits: list[Fit], ranges: list[tuple[int, int]]) -> list[list[int]]:
        """``[level, *counts, before, after]`` of the fits whose potential range meets the
        potentials a state can have at t: the start's minus t plus twice the wasteful steps
        so far, which are at least `Fit.before` and at most the horizon's less `Fit.after`."""
        lowest = self.start_potential - t  # no wasteful step so far
        return [[fit.state[0], *fit.state[1], fit.before, fit.after] for fit, (low, high) in zip(fits, ranges, strict=True)
                if low <= lowest + 2 * (self.wasteful - fit.after) and lowest + 2 * fit.before <= high]

    def _crossing_cuts(self) -> None:
        """From every time t: remaining crossings of boundary b >= 2 * items below - 3 * [elevator below]."""
        model, horizon = self.model, self.horizon
        for b in range(self.floors - 1):
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
                below = sum(((c <= b) + (g <= b)) * self.count[t][c, g] for c, g in self.types)
                elevator_below = sum(self.elevator[t][f] for f in range(b + 1))
                model.add(sum(crossings[t:]) >= 2 * below - 3 * elevator_below)

    def plan(self, solver: cp_model.CpSolver) -> list[ElevatorMove]:
        """The solution as moves: at each step, elements of the riding types (not yet
        chosen at this step) are named in the labelled state reached so far."""
        names = item_names(self.facility)
        state = list(start_state(self.facility))  # (elevator, generator 0, chip 0, generator 1, ...)
        moves = []
        for t in range(1, self.horizon + 1):
            chosen: list[int] = []
            items: list[int] = []
            for ride in self.rides[t]:
                for _ in range(solver.value(ride.number)):
                    element = next(e for e in range(self.pairs)
                                   if e not in chosen and (state[2 * e + 2], state[2 * e + 1]) == ride.source)
                    chosen.append(element)
                    items += {Riding.CHIP: [2 * element + 1], Riding.GENERATOR: [2 * element],
                              Riding.PAIR: [2 * element, 2 * element + 1]}[ride.riding]
            step = 1 if solver.boolean_value(self.up[t]) else -1
            state[0] += step
            for item in items:
                state[item + 1] = state[0]
            moves.append(to_move(step, tuple(items), names))
        return moves


def with_parity(steps: int, facility: Facility) -> int:
    """The least plan length of at least `steps`: plans have the parity of ``floors - 1``."""
    return steps + (steps - facility.top) % 2


class ElevatorCpsat(Solver):
    """`HorizonModel` at horizons upward from the crossing and relaxation bounds (same
    parity as a plan): the first satisfiable horizon is ``optimal``; ``infeasible`` when
    the start is unsafe, has no safe step, its relaxation cannot reach the goal, CP-SAT
    proves a set of states holding the start and not the goal closed under safe steps
    (`closed_without_goal`), or every horizon below the number of states up to renaming is
    refuted; else ``timeout`` with the first undecided horizon as the bound."""

    name = "elevator-cpsat"
    puzzle = "elevator"
    summary = "time-indexed CP-SAT model over counts of pair types, horizons upward from proven bounds"
    runs_cpsat = True
    Options: ClassVar[type[Options]] = ElevatorCpsatOptions

    def _solve(self, instance: Facility, deadline: Deadline) -> Answer:
        if not start_is_safe(instance):
            return Answer(Status.INFEASIBLE, message="the start is unsafe")
        start = start_state(instance)
        if all(floor == instance.top for floor in start[1:]):
            return Answer(Status.OPTIMAL, 0, 0, [], {"horizons": 0})
        if next(labelled_moves(start, instance.floors), None) is None:
            return Answer(Status.INFEASIBLE, message="no safe step from the start")
        crossing = labelled_bound(start, instance.floors)
        tables = WasteTables.of(instance, deadline)
        if tables is None:
            return Answer(Status.TIMEOUT, bound=with_parity(crossing, instance),
                          message=f"{deadline.limit_reached()} reached computing the top floors relaxation")
        start_waste = tables.start_waste()
        if start_waste is None:
            return Answer(Status.INFEASIBLE, message="the top floors relaxation cannot reach its goal")
        closed = closed_without_goal(instance, deadline)
        if closed is not None:
            return Answer(Status.INFEASIBLE, stats={"closed_states": closed}, message=(
                f"CP-SAT proved that no safe step leaves a set of {closed} states up to renaming "
                "that holds the start and not the goal"))
        horizon = with_parity(max(crossing, potential(instance.floors, start) + 2 * start_waste), instance)
        return self._horizons(instance, horizon, tables, deadline)

    def _horizons(self, instance: Facility, horizon: int, tables: WasteTables, deadline: Deadline) -> Answer:
        """Solve `HorizonModel` at `horizon`, `horizon` + 2, ... until one is satisfiable."""
        options: ElevatorCpsatOptions = cast(ElevatorCpsatOptions, self.options)  # as `configured` checks
        cap: int | None = None  # counting states is costly on big facilities: only once needed
        # summed over horizons
        effort: dict[str, float] = {"conflicts": 0, "branches": 0, "wall_time": 0.0, "deterministic_time": 0.0}
        horizons = 0
        stats: Stats = {**effort, "horizons": horizons}
        while True:
            if deadline.expired():
                return Answer(Status.TIMEOUT, bound=horizon, stats=stats,
                              message=f"{deadline.limit_reached()} reached before horizon {horizon}")
            model = HorizonModel(instance, horizon, tables if options.top_floor_cuts == "on" else None)
            solver = configured_solver(deadline)
            configure_search(solver)
            status = solve(solver, model.model, deadline, options.cpsat)
            effort["conflicts"] += solver.num_conflicts
            effort["branches"] += solver.num_branches
            effort["wall_time"] += solver.wall_time
            effort["deterministic_time"] += solver.deterministic_time
            horizons += 1
            # the last run's set-up (seed, workers), the effort of all runs
            stats |= run_stats(solver) | effort | {"horizons": horizons, "best_bound": horizon,
                                                   "constraints": len(model.model.proto.constraints)}
            found = has_solution(status, model.model)
            if found:
                return Answer(Status.OPTIMAL, horizon, horizon, model.plan(solver), stats)
            if found is None:
                return Answer(Status.TIMEOUT, bound=horizon, stats=stats,
                              message=f"horizon {horizon} undecided at the {deadline.limit_reached()}")
            horizon += 2
            cap = cap or quotient_state_cap(instance)
            if horizon >= cap:  # a plan visits distinct states, so it is shorter than their number
                return Answer(Status.INFEASIBLE, stats=stats, message=(
                    f"every horizon below {cap} (the number of states up to renaming) is infeasible"))
