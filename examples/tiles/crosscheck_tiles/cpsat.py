"""``tiles-cpsat``: a time-indexed CP-SAT model of plans of exactly T moves, horizons upward.

`HorizonModel` has a Boolean ``at[t][cell][tile]`` (tile 0 the blank) per time 0..T, one
tile per cell and one cell per tile, and per move t a Boolean per directed edge (cell a,
cell b) of the grid: the blank goes from a to b, the tile on b goes to a, every other
cell keeps its tile.  Time 0 is the board, time T the goal.

Lemma (parity).  Let p be the parity of the permutation taking the goal's arrangement to
the board's (the blank counted as a tile) and d the parity of the blank's Manhattan
distance to its goal cell (bottom right).  A move swaps the blank with a neighbouring
tile, a transposition, so it flips p; and it moves the blank by one cell, so it flips d.
So p + d (mod 2) never changes, and it is 0 at the goal: a board with p + d odd has no
plan.  (`TilesCpsat` proves infeasibility by this lemma alone.)

Lemma (horizons).  Every move changes the blank's row plus column by one, so every plan's
length has the parity of the blank's distance to its goal cell; a plan of length L
extended by a move and its undo is one of length L + 2.  Horizons are tried from a lower
bound of the right parity upward by two, so the first feasible horizon is the optimum.

Cuts, each valid at a horizon T whose every shorter horizon was refuted (then every plan
of T moves is optimal): no move undoes the move before (an optimal plan never does); from
every time t, the T - t moves left are at least the tiles' summed Manhattan distances to
their goal cells (each move shifts one tile by one cell) and at least the blank's distance
to its goal cell.  The first horizon tried is the number of tiles out of place (each move
places at most one tile), raised to the blank's distance, and to the plan's parity.
"""

from __future__ import annotations

from math import factorial
from typing import TYPE_CHECKING

from crosscheck import Answer, Deadline, Solver, Stats, Status, cpsat

from crosscheck_tiles.model import Board, goal

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

Edge = tuple[int, int]  # (cell the blank leaves, cell it moves to)


def grid_edges(rows: int, columns: int) -> list[Edge]:
    """Every directed pair of cells sharing a side."""
    edges = []
    for a in range(rows * columns):
        for b in range(rows * columns):
            if abs(a // columns - b // columns) + abs(a % columns - b % columns) == 1:
                edges.append((a, b))
    return edges


def taxicab(a: int, b: int, columns: int) -> int:
    """The number of single-cell steps between cells `a` and `b`."""
    return abs(a // columns - b // columns) + abs(a % columns - b % columns)


def permutation_is_odd(start: tuple[int, ...], target: tuple[int, ...]) -> bool:
    """Whether the permutation of cells taking `target`'s arrangement to `start`'s is odd
    (cells minus cycles, counted by following each cycle)."""
    cell_of = {tile: cell for cell, tile in enumerate(target)}
    visited = [False] * len(start)
    cycles = 0
    for first in range(len(start)):
        if not visited[first]:
            cycles += 1
            cell = first
            while not visited[cell]:
                visited[cell] = True
                cell = cell_of[start[cell]]
    return (len(start) - cycles) % 2 == 1


class HorizonModel:
    """Plans of exactly `horizon` moves from `board` to its goal, with the module's cuts."""

    def __init__(self, board: Board, horizon: int) -> None:
        self.board, self.horizon = board, horizon
        self.cells = board.rows * board.columns
        self.target = goal(board.rows, board.columns)
        self.edges = grid_edges(board.rows, board.columns)
        model = self.model = cpsat.cp_model.CpModel()
        self.at = [[[model.new_bool_var(f"at_{t}_{c}_{k}") for k in range(self.cells)] for c in range(self.cells)]
                   for t in range(horizon + 1)]
        for t in range(horizon + 1):
            for i in range(self.cells):
                model.add_exactly_one(self.at[t][i])  # one tile per cell
                model.add_exactly_one([self.at[t][c][i] for c in range(self.cells)])  # one cell per tile
        self.move = [{edge: model.new_bool_var(f"move_{t}_{edge[0]}_{edge[1]}") for edge in self.edges}
                     for t in range(horizon + 1)]  # index 0 unused: moves are 1..horizon
        for t in range(1, horizon + 1):
            self._step(t)
        for c in range(self.cells):
            model.add(self.at[0][c][board.tiles[c]] == 1)
            model.add(self.at[horizon][c][self.target[c]] == 1)
        self._cuts()

    def _step(self, t: int) -> None:
        """Move t: one edge; the blank on its ends before and after; the tile crossing it;
        every cell the blank does not reach keeps its tile."""
        model, at = self.model, self.at
        model.add_exactly_one(self.move[t].values())
        for (a, b), chosen in self.move[t].items():
            model.add_implication(chosen, at[t - 1][a][0])
            model.add_implication(chosen, at[t][b][0])
            for k in range(1, self.cells):
                model.add_bool_or([~chosen, ~at[t - 1][b][k], at[t][a][k]])
        for c in range(self.cells):
            for k in range(1, self.cells):
                # a tile stays unless the blank arrives on its cell
                model.add_bool_or([~at[t - 1][c][k], at[t][c][0], at[t][c][k]])

    def _cuts(self) -> None:
        """No undo; the Manhattan and blank-distance bounds from every time (module docstring)."""
        model, columns, horizon = self.model, self.board.columns, self.horizon
        home = {tile: cell for cell, tile in enumerate(self.target)}
        for t in range(1, horizon):
            for (a, b), chosen in self.move[t].items():
                model.add_implication(chosen, ~self.move[t + 1][b, a])
        for t in range(horizon + 1):
            distance = sum(taxicab(c, home[k], columns) * self.at[t][c][k]
                           for c in range(self.cells) for k in range(1, self.cells))
            model.add(distance <= horizon - t)
            for c in range(self.cells):
                if taxicab(c, home[0], columns) > horizon - t:
                    model.add(self.at[t][c][0] == 0)

    def plan(self, solver: cp_model.CpSolver) -> list[str]:
        """The blank's directions, read off the chosen edges."""
        names = {-self.board.columns: "U", self.board.columns: "D", -1: "L", 1: "R"}
        moves = []
        for t in range(1, self.horizon + 1):
            a, b = next(edge for edge, chosen in self.move[t].items() if solver.boolean_value(chosen))
            moves.append(names[b - a])
        return moves


def first_horizon(board: Board) -> int:
    """The least plan length this module proves: tiles out of place, at least the blank's
    distance to its goal cell, of that distance's parity."""
    target = goal(board.rows, board.columns)
    misplaced = sum(1 for tile, wanted in zip(board.tiles, target, strict=True) if tile and tile != wanted)
    blank = taxicab(board.tiles.index(0), target.index(0), board.columns)
    least = max(misplaced, blank)
    return least + (least - blank) % 2


class TilesCpsat(Solver):
    """`HorizonModel` at horizons upward by two from `first_horizon`: the first satisfiable
    one is ``optimal``; ``infeasible`` by the parity lemma, or once the horizon reaches the
    number of arrangements (a shortest plan repeats none); else ``timeout`` with the first
    horizon not refuted as the bound."""

    name = "tiles-cpsat"
    puzzle = "tiles"
    summary = "time-indexed CP-SAT model of tile positions, horizons upward from misplaced tiles; parity refutes"
    runs_cpsat = True

    def _solve(self, instance: Board, deadline: Deadline) -> Answer:
        target = goal(instance.rows, instance.columns)
        blank_odd = taxicab(instance.tiles.index(0), target.index(0), instance.columns) % 2 == 1
        if permutation_is_odd(instance.tiles, target) != blank_odd:
            return Answer(Status.INFEASIBLE, message="the permutation's parity differs from the blank's distance's")
        if instance.tiles == target:
            return Answer(Status.OPTIMAL, 0, 0, [], {"horizons": 0})
        return self._horizons(instance, first_horizon(instance), deadline)

    def _horizons(self, board: Board, horizon: int, deadline: Deadline) -> Answer:
        """Solve `HorizonModel` at `horizon`, `horizon` + 2, ... until one is satisfiable."""
        effort: dict[str, float] = {"conflicts": 0, "branches": 0, "wall_time": 0.0, "deterministic_time": 0.0}
        stats: Stats = {**effort, "horizons": 0}
        horizons = 0
        while horizon < factorial(board.rows * board.columns):
            if deadline.expired():
                return Answer(Status.TIMEOUT, bound=horizon, stats=stats,
                              message=f"{deadline.limit_reached()} reached before horizon {horizon}")
            model = HorizonModel(board, horizon)
            solver = cpsat.configured_solver(deadline)
            status = cpsat.solve(solver, model.model, deadline)
            effort["conflicts"] += solver.num_conflicts
            effort["branches"] += solver.num_branches
            effort["wall_time"] += solver.wall_time
            effort["deterministic_time"] += solver.deterministic_time
            horizons += 1
            stats = {**stats, **cpsat.run_stats(solver), **effort, "horizons": horizons, "best_bound": horizon}
            found = cpsat.has_solution(status, model.model)
            if found:
                return Answer(Status.OPTIMAL, horizon, horizon, model.plan(solver), stats)
            if found is None:
                return Answer(Status.TIMEOUT, bound=horizon, stats=stats,
                              message=f"horizon {horizon} undecided at the {deadline.limit_reached()}")
            horizon += 2
        return Answer(Status.INFEASIBLE, stats=stats,
                      message="every horizon below the number of arrangements is infeasible")
