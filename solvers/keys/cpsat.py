"""CP-SAT model of the key vault over the contracted graph (solver ``keys-cpsat``).

Data: `crosscheck.solvers.keys.routes.contract` gives the Pareto-optimal routes (length, needed
keys, cell path) from every robot start and every key to every key.

Model:
- one `add_circuit` per robot over its start and the keys its region can reach; a
  key's self-loop means "another robot collects it", the start's self-loop means
  "this robot collects nothing", an arc key -> start (cost 0) ends the robot's tour;
- every key is visited by exactly one robot (robots that cannot reach a key have no
  node for it);
- on every arc u -> v, exactly one usable route of the arc is chosen iff the arc is
  used (arcs between two keys are shared by the robots that can use them: a key has
  one successor, so at most one robot uses such an arc);
- ``rank[k]`` is the position of key k in one total order of all collections
  (`add_all_different` over 0 .. K-1).  Using key arc i -> j forces rank i < rank j;
  choosing a route into j that needs key k forces rank k < rank j;
- objective: the total length of the chosen routes.

Why this is exact (soundness: executing the chosen routes in rank order of their target
keys is a valid plan of the objective's cost; completeness: an optimal plan, cut at each
first collection and ranked by it, maps to a solution no dearer), and the strengthenings
(dropped and dominated routes, forced precedences, exact ranks for a single robot, level
cuts, the warm start), each keeping, for every solution, one no dearer:
docs/puzzles/keys.md#why-keys-cpsat-is-exact.

Answer: ``optimal`` when CP-SAT proves it, ``feasible`` with the best bound (rounded up)
otherwise, ``timeout`` with the bound when no solution was found, ``infeasible`` only on
CP-SAT's INFEASIBLE.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal, cast

from crosscheck.models.keys.model import KeyMove, Vault
from crosscheck.solvers.base import Answer, Deadline, Solver, Stats
from crosscheck.solvers.configuration import Options, option
from crosscheck.solvers.engines.cpsat import (
    SEED,
    CpsatOptions,
    configured_solver,
    cp_model,
    run_answer,
    run_stats,
    solve,
)
from crosscheck.solvers.keys.level_cuts import level_cuts
from crosscheck.solvers.keys.routes import ContractedVault, contract
from crosscheck.solvers.keys.warm_start import Step, greedy_sequence, kicked_sequence

#: Kicks of the warm start's iterated local search: enough to reach the optima plain local
#: search stops short of, few enough to stay a small part of a run (docs/puzzles/keys.md).
WARM_START_KICKS = 20
#: The full-search workers of a run with two or more: one plain LP search, one best-bound
#: tree search (CP-SAT's ``lb_tree_search``), which closes the gap from below.
PROOF_SUBSOLVERS = ("default_lp", "lb_tree_search")


@dataclass(frozen=True)
class ArcRoute:
    """One usable route of arc source -> target (node indices), `needs` as a key mask."""

    length: int
    needs: int
    path: str


def usable_routes(cv: ContractedVault) -> tuple[dict[tuple[int, int], list[ArcRoute]], list[int]]:
    """The routes the model may choose, per arc, and the `before` masks per key bit.

    Applies the exact prunings of docs/puzzles/keys.md#strengthening until nothing changes.
    """
    keys = len(cv.letters)
    arcs: dict[tuple[int, int], list[ArcRoute]] = {}
    for source, routes in enumerate(cv.routes):
        own = _bit(cv, source)
        for route in routes:
            needs = route.needs & ~own
            if needs >> (route.target - cv.robots) & 1:
                continue  # needs its own target
            arcs.setdefault((source, route.target), []).append(ArcRoute(route.length, needs, route.path))
    # Shortest first, fewer needs first among equals: `_undominated` keeps the first of a tie.
    arcs = {arc: sorted(routes, key=lambda r: (r.length, r.needs.bit_count())) for arc, routes in arcs.items()}
    while True:
        before = _before(cv, arcs, keys)
        after = [sum(1 << k for k in range(keys) if before[k] >> j & 1) for j in range(keys)]
        pruned = {
            (source, target): _undominated(
                [r for r in routes if not (r.needs | _bit(cv, source)) & after[target - cv.robots]
                 and not (r.needs | before[target - cv.robots]) & _next_only_after(cv, source, after)],
                _bit(cv, source), before[target - cv.robots], before)
            for (source, target), routes in arcs.items()
        }
        pruned = {arc: routes for arc, routes in pruned.items() if routes}
        if pruned == arcs:
            return arcs, before
        arcs = pruned


def _bit(cv: ContractedVault, node: int) -> int:
    """The key mask of `node`: its key's bit, or 0 for a robot start."""
    return 0 if node < cv.robots else 1 << (node - cv.robots)


def _next_only_after(cv: ContractedVault, source: int, after: list[int]) -> int:
    """Keys that cannot be held when the route from `source` to the next key starts: with a
    single robot the next key follows `source` at once, so everything forced after it
    (after its start: every key); with several robots, nothing is known."""
    if cv.robots > 1:
        return 0
    return cv.all_keys if source < cv.robots else after[source - cv.robots]


def _undominated(routes: list[ArcRoute], source: int, target_before: int, before: list[int]) -> list[ArcRoute]:
    """`routes` (of one arc, sorted by length, then by number of needs) without those that
    a kept route beats: no longer, and needing only keys held whenever the beaten route may
    be walked (its needs and `source` key mask, their `before` keys, and `target_before`)."""
    kept: list[ArcRoute] = []
    for route in routes:
        held = _closure(route.needs | source, before) | target_before
        if not any(k.length <= route.length and k.needs & held == k.needs for k in kept):
            kept.append(route)
    return kept


def _before(cv: ContractedVault, arcs: dict[tuple[int, int], list[ArcRoute]], keys: int) -> list[int]:
    """Per key j, a mask of keys every solution collects before j: the greatest fixpoint of
    ``before[j] = AND over routes into j of closure(needs | source)``, where closure adds
    ``before[k]`` of every key k in the set (docs/puzzles/keys.md#strengthening says why any
    fixpoint is sound and why each step stays transitively closed)."""
    entries: list[set[int]] = [set() for _ in range(keys)]
    for (source, target), routes in arcs.items():
        entries[target - cv.robots].update(route.needs | _bit(cv, source) for route in routes)
    # An unreachable key makes the model infeasible anyway; claim nothing about it.
    before = [(1 << keys) - 1 if entries[j] else 0 for j in range(keys)]
    changed = True
    while changed:
        changed = False
        for j in range(keys):
            narrowed = before[j]
            for mask in entries[j]:
                narrowed &= _closure(mask, before)
            if narrowed != before[j]:
                before[j], changed = narrowed, True
    return before


def _closure(mask: int, before: list[int]) -> int:
    """`mask` with the `before` mask of each of its keys added."""
    closed, rest = mask, mask
    while rest:
        low = rest & -rest
        closed |= before[low.bit_length() - 1]
        rest ^= low
    return closed


def regions(cv: ContractedVault, arcs: dict[tuple[int, int], list[ArcRoute]]) -> list[list[int]]:
    """Per robot, the key nodes reachable from its start over usable arcs (sorted)."""
    successors: dict[int, list[int]] = {}
    for source, target in arcs:
        successors.setdefault(source, []).append(target)
    result = []
    for robot in range(cv.robots):
        seen, stack = {robot}, [robot]
        while stack:
            for target in successors.get(stack.pop(), []):
                if target not in seen:
                    seen.add(target)
                    stack.append(target)
        result.append(sorted(seen - {robot}))
    return result


class _Hint:
    """The greedy plan as values for the model's variables (nothing when greedy got stuck)."""

    def __init__(self, model: cp_model.CpModel, cv: ContractedVault, steps: list[Step[ArcRoute]] | None) -> None:
        self.model = model
        self.enabled = steps is not None
        steps = steps or []
        self.rank = {target - cv.robots: position for position, (_, _, target, _) in enumerate(steps)}
        self.owner = {target: robot for robot, _, target, _ in steps}
        self.route = {(source, target): route for _, source, target, route in steps}
        self.arcs = {(robot, source, target) for robot, source, target, _ in steps}
        last = list(range(cv.robots))
        for robot, _, target, _ in steps:
            last[robot] = target
        self.arcs |= {(robot, node, robot) for robot, node in enumerate(last)}  # tour end (or idle)

    def arc(self, robot: int, source: int, target: int) -> bool:
        return (robot, source, target) in self.arcs

    def value(self, variable: cp_model.IntVar, value: int | bool | None) -> None:
        if self.enabled and value is not None:
            self.model.add_hint(variable, int(value))


class KeysCpsatOptions(CpsatOptions):
    """keys-cpsat's design choices (docs/puzzles/keys.md#strengthening); every value keeps it exact."""

    level_cuts: Literal["on", "off"] = option(
        "on", "the redundant level cuts and their re-entry literals (crossings of each level cut's boundary)")
    lb_tree_search: Literal["on", "off"] = option(
        "on", "with two or more workers (--cpsat-workers 2 in a comparison on two cores), one runs "
              "CP-SAT's lb_tree_search beside the plain LP search "
              "(off: CP-SAT's own choice of full searches)")


class VaultModel:
    """The CP-SAT model of one contracted vault, built one constraint family at a time.

    `rank[j]` is key j's position in the collection order; `arc_literals[(u, v)]` holds
    (robot, literal) for every robot that may walk arc u -> v; `choices[(u, v)]` holds
    (literal, route) for the routes of that arc; `ends[robot][node]` is true when
    `node` is the robot's last key.
    """

    def __init__(self, vault: Vault, cv: ContractedVault, deadline: Deadline | None = None,
                 level_cuts: bool = True) -> None:
        self.cv = cv
        self.arcs, self.before = usable_routes(cv)
        self.region = regions(cv, self.arcs)
        self.keys, self.robots = len(cv.letters), cv.robots
        self.model = cp_model.CpModel()
        deadline = deadline or Deadline(None)
        self.hint = _Hint(self.model, cv, self._warm_start(deadline))
        self.rank = self._ranks()
        self.arc_literals: dict[tuple[int, int], list[tuple[int, cp_model.IntVar]]] = {}
        self.ends: list[dict[int, cp_model.IntVar]] = [{} for _ in range(self.robots)]
        self._circuits()
        self.choices: dict[tuple[int, int], list[tuple[cp_model.IntVar, ArcRoute]]] = {}
        self._route_choices()
        self.reentries = 0  # re-entry literals of the level cuts
        if level_cuts:
            self._level_cuts(vault, deadline)

    def _warm_start(self, deadline: Deadline) -> list[Step[ArcRoute]] | None:
        """The greedy sequence improved by an iterated local search (`crosscheck.solvers.keys.warm_start`)."""
        steps = greedy_sequence(self.robots, self.keys, self.arcs, self.region)
        if steps is None:
            return None
        return kicked_sequence(self.robots, self.arcs, self.region, steps, WARM_START_KICKS, deadline.expired)

    def stats(self) -> Stats:
        """The model's size: usable arcs and routes, re-entry literals of the level cuts."""
        return {"arcs": len(self.arcs), "routes": sum(len(routes) for routes in self.arcs.values()),
                "reentries": self.reentries, "constraints": len(self.model.proto.constraints)}

    def _ranks(self) -> list[cp_model.IntVar]:
        """Ranks: a permutation of 0..K-1, bounded by the forced predecessors and successors."""
        keys, before = self.keys, self.before
        after_count = [sum(before[k] >> j & 1 for k in range(keys)) for j in range(keys)]
        rank = [
            self.model.new_int_var(bin(before[j]).count("1"), keys - 1 - after_count[j], f"rank_{self.cv.letters[j]}")
            for j in range(keys)
        ]
        for j in range(keys):
            self.hint.value(rank[j], self.hint.rank.get(j))
        if keys:
            self.model.add_all_different(rank)
        for j in range(keys):
            for k in range(keys):
                if before[j] >> k & 1:
                    self.model.add(rank[k] < rank[j])
        return rank

    def _circuits(self) -> None:
        """One circuit per robot (local node 0 is its start, then its region's keys);
        every key visited by exactly one robot."""
        visits: dict[int, list[cp_model.BoolVarT]] = {node: [] for node in range(self.robots, self.robots + self.keys)}
        for robot in range(self.robots):
            local = {robot: 0} | {node: index + 1 for index, node in enumerate(self.region[robot])}
            idle = self.model.new_bool_var(f"idle_r{robot}")
            self.hint.value(idle, self.hint.arc(robot, robot, robot))
            circuit = [(0, 0, idle)]
            for node in self.region[robot]:
                circuit += self._key_node(robot, node, local[node], visits)
            for (source, target) in self.arcs:
                if source in local and target in local and (source == robot or source >= self.robots):
                    name = f"arc_r{robot}_{self._node_name(source)}_{self._node_name(target)}"
                    literal = self.model.new_bool_var(name)
                    self.hint.value(literal, self.hint.arc(robot, source, target))
                    circuit.append((local[source], local[target], literal))
                    self.arc_literals.setdefault((source, target), []).append((robot, literal))
            self.model.add_circuit(circuit)
        for visitors in visits.values():
            self.model.add_exactly_one(visitors)

    def _key_node(self, robot: int, node: int, local: int,
                  visits: dict[int, list[cp_model.BoolVarT]]) -> list[tuple[int, int, cp_model.IntVar]]:
        """The circuit arcs of key `node` in `robot`'s circuit: its self-loop (another
        robot collects it) and its arc back to the start (the robot's last key)."""
        name = self._node_name(node)
        skip = self.model.new_bool_var(f"skip_r{robot}_{name}")
        self.hint.value(skip, self.hint.owner.get(node, robot) != robot)
        visits[node].append(~skip)
        end = self.model.new_bool_var(f"end_r{robot}_{name}")
        self.ends[robot][node] = end
        self.hint.value(end, self.hint.arc(robot, node, robot))
        return [(local, local, skip), (local, 0, end)]

    def _route_choices(self) -> None:
        """Per used arc: one route chosen, the rank order it implies, and the objective."""
        sole_collector = sum(1 for keys_of_robot in self.region if keys_of_robot) == 1
        objective = []
        for (source, target), robot_literals in self.arc_literals.items():
            used = self._used(source, target, robot_literals)
            chosen = self._chosen_routes(source, target, used)
            self.choices[(source, target)] = chosen
            self._order_on_arc(source, target, used, sole_collector)
            for literal, route in chosen:
                self._needs_precede(target - self.robots, route, literal)
                objective.append(route.length * literal)
        self.model.minimize(sum(objective))

    def _used(self, source: int, target: int, robot_literals: list[tuple[int, cp_model.IntVar]]) -> cp_model.IntVar:
        """A literal true iff some robot walks arc source -> target."""
        if len(robot_literals) == 1:
            return robot_literals[0][1]
        used = self.model.new_bool_var(f"used_{source}_{target}")
        self.hint.value(used, (source, target) in self.hint.route)
        self.model.add(sum(literal for _, literal in robot_literals) == used)
        return used

    def _chosen_routes(self, source: int, target: int, used: cp_model.IntVar) -> list[tuple[cp_model.IntVar, ArcRoute]]:
        """One literal per route of the arc; exactly one is true iff the arc is used."""
        routes = self.arcs[(source, target)]
        if len(routes) == 1:
            return [(used, routes[0])]
        chosen = [(self.model.new_bool_var(f"route_{source}_{target}_{index}"), route)
                  for index, route in enumerate(routes)]
        for literal, route in chosen:
            self.hint.value(literal, self.hint.route.get((source, target)) is route)
        self.model.add(sum(literal for literal, _ in chosen) == used)
        return chosen

    def _order_on_arc(self, source: int, target: int, used: cp_model.IntVar, sole_collector: bool) -> None:
        """A used arc collects its target after its source (right after, for a sole collector)."""
        j = target - self.robots
        if sole_collector:
            # One robot collects everything: its tour order is the global order.
            predecessor = -1 if source < self.robots else self.rank[source - self.robots]
            self.model.add(self.rank[j] == predecessor + 1).only_enforce_if(used)
        elif source >= self.robots and not self.before[j] >> (source - self.robots) & 1:
            self.model.add(self.rank[source - self.robots] < self.rank[j]).only_enforce_if(used)

    def _needs_precede(self, j: int, route: ArcRoute, literal: cp_model.IntVar) -> None:
        """A chosen route into key j needs its keys collected before j."""
        # Needs implied by another need's forced predecessors follow transitively.
        implied = self.before[j]
        for k in range(self.keys):
            if route.needs >> k & 1:
                implied |= self.before[k]
        for k in range(self.keys):
            if route.needs >> k & 1 and not implied >> k & 1:
                self.model.add(self.rank[k] < self.rank[j]).only_enforce_if(literal)

    def _level_cuts(self, vault: Vault, deadline: Deadline) -> None:
        """Redundant: a robot alone in its component crosses each level cut's boundary at
        least twice, once if its last key is inside (per key set of the cuts)."""
        for robot, cuts in enumerate(level_cuts(vault, self.cv, deadline)):
            if cuts is None:
                continue
            crossed: dict[int, list[cp_model.LinearExprT]] = {mask: [] for mask in cuts.groups}
            for (source, _), chosen in self.choices.items():
                if self.cv.cells[source] not in cuts.distance:
                    continue  # another robot's component
                deadline.check("adding the level cuts")
                for literal, route in chosen:
                    for mask, count in cuts.crossings(self.cv.cells[source], route.path).items():
                        crossed[mask].append(count * literal)
            for mask, cut_count in cuts.groups.items():
                inside = [end for node, end in self.ends[robot].items() if mask >> (node - self.robots) & 1]
                crossings = cp_model.LinearExpr.sum(crossed[mask] + [cut_count * end for end in inside])
                self.model.add(crossings >= 2 * cut_count)
                for reentry in self._reentries(robot, mask):
                    self.model.add(crossings >= 2 * cut_count + 2 * cut_count * reentry)

    def _reentries(self, robot: int, mask: int) -> list[cp_model.IntVar]:
        """Per key y of the robot outside the level cuts with key set `mask` that some key
        inside must follow (`before`), a literal that is false only if y precedes every key
        inside: when true, the robot is inside, then at y, then inside again, so it crosses
        each of those boundaries twice more (docs/puzzles/keys.md#strengthening)."""
        inside = [node - self.robots for node in self.region[robot] if mask >> (node - self.robots) & 1]
        forced = 0
        for b in inside:
            forced |= self.before[b]
        literals = []
        for node in self.region[robot]:
            y = node - self.robots
            if mask >> y & 1 or not forced >> y & 1:
                continue
            reentry = self.model.new_bool_var(f"reentry_{mask}_{self.cv.letters[y]}")
            for a in inside:
                self.model.add(self.rank[y] < self.rank[a]).only_enforce_if(~reentry)
            literals.append(reentry)
        self.reentries += len(literals)
        return literals

    def _node_name(self, node: int) -> str:
        return f"start{node}" if node < self.robots else self.cv.letters[node - self.robots]

    def plan(self, solver: cp_model.CpSolver) -> list[KeyMove]:
        """The chosen routes as moves, executed in rank order of their target keys."""
        segments: list[tuple[int, int, str]] = []
        for arc, literals in self.arc_literals.items():
            for robot, literal in literals:
                if solver.boolean_value(literal):
                    route = next(route for choice, route in self.choices[arc] if solver.boolean_value(choice))
                    segments.append((solver.value(self.rank[arc[1] - self.robots]), robot, route.path))
        segments.sort()
        return [KeyMove(robot, direction) for _, robot, path in segments for direction in path]


class KeysCpsat(Solver):
    """Circuits with optional keys, Pareto route choice and global collection ranks."""

    name = "keys-cpsat"
    puzzle = "keys"
    summary = "CP-SAT: one circuit per robot over the contracted graph, route choice per arc, global key ranks"
    runs_cpsat = True
    Options: ClassVar[type[Options]] = KeysCpsatOptions

    def __init__(self, num_workers: int | None = None, random_seed: int = SEED) -> None:
        self.num_workers = num_workers  # None: crosscheck.solvers.engines.cpsat.default_workers() at each run
        self.random_seed = random_seed

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        cv = contract(instance, deadline)
        options: KeysCpsatOptions = cast(KeysCpsatOptions, self.options)  # as `configured` checks
        vault_model = VaultModel(instance, cv, deadline, options.level_cuts == "on")
        solver = configured_solver(deadline, self.random_seed, self.num_workers)
        # Every worker searches the whole model (CP-SAT would give one of two workers to
        # LNS): the warm start is usually optimal already, what is left is the proof.
        solver.parameters.num_full_subsolvers = solver.parameters.num_workers
        if solver.parameters.num_workers >= 2 and options.lb_tree_search == "on":
            # The proof needs the bound raised: lb_tree_search branches where the LP bound
            # is lowest (its effect on loopy vaults: docs/puzzles/keys.md).
            solver.parameters.subsolvers.extend(PROOF_SUBSOLVERS)
        status = solve(solver, vault_model.model, deadline, options.cpsat)
        stats = run_stats(solver) | {"num_booleans": solver.num_booleans,
                                     "subsolvers": ",".join(solver.parameters.subsolvers)} | vault_model.stats()
        return run_answer(solver, status, vault_model.model, lambda: vault_model.plan(solver), stats,
                          infeasible="the exact model has no solution")
