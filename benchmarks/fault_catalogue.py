"""The single-point faults the fault audit plants (``python -m benchmarks.fault_audit``).

Each `Fault` replaces one exact snippet of one file by a wrong version: a rule read
wrongly, a bound made inadmissible, an engine's or CP-SAT set-up's bookkeeping broken.
The list is curated rather than generated: a mutation-testing library's operators
(flip a comparison, drop a statement) produce many faults that cannot change any answer
or that crash on import, while each fault here is the kind of slip a researcher makes
in a rule, and says so.  ``benchmarks/tests/test_fault_audit.py`` checks that every snippet still
occurs exactly once in its file, so the list never silently stops applying.

`area` names where the fault lies (``keys``, ``elevator``, ``amphipods``, ``tiles``: a
puzzle's rules and formulations, the sliding-tile puzzle's in ``examples/tiles``, a puzzle
brought from outside; ``engine``: ``solvers/engines/search.py``; ``cpsat``: ``solvers/engines/cpsat.py``;
``checker``: a plan checker); `puzzles` the puzzles whose small sets (`Puzzle.small_sets`) its ``compare`` runs on; and
`tests` the test files that should notice it.  `formulations` names the formulations
the faulted code feeds where no footprint records it (the trusted engines, CP-SAT set-up
and checkers); elsewhere the audit derives them from the footprints
(`benchmarks.fault_relations.fed_formulations`).
"""

from __future__ import annotations

from dataclasses import dataclass

from crosscheck.harness.independence.sharing import stored_footprints


@dataclass(frozen=True)
class Fault:
    """One planted fault: `original` (occurring exactly once in `path`) becomes `replacement`."""

    name: str
    area: str
    path: str  # relative to the repository's root
    original: str
    replacement: str
    description: str
    puzzles: tuple[str, ...]
    tests: tuple[str, ...]
    formulations: tuple[str, ...] = ()  # empty: derived from the footprints


KEYS_TESTS = ("tests/test_keys_model.py", "tests/test_keys_solvers.py", "tests/test_keys_grid.py", "tests/test_keys_routes.py")
#: With each puzzle's compiled searches held against their Python ones: once warmed up, ``compare`` runs the
#: kernels, so a fault in the Python search shows in those tests only.
ELEVATOR_TESTS = ("tests/test_elevator_model.py", "tests/test_elevator_solvers.py", "tests/test_elevator_bfs.py",
                  "tests/test_elevator_quotient_kernel.py")
AMPHIPODS_TESTS = ("tests/test_amphipods_model.py", "tests/test_amphipods_solvers.py", "tests/test_amphipods_stops.py",
                   "tests/test_amphipods_search_kernel.py")
_TILES = "examples/tiles/crosscheck_tiles"
TILES_TESTS = ("examples/tiles/tests/test_model.py", "examples/tiles/tests/test_instances.py",
               "examples/tiles/tests/test_solvers.py")
#: The sliding-tile puzzle's formulations (a plugin's: no stored footprint lists them).
TILES_FORMULATIONS = ("tiles-search", "tiles-cpsat")
ENGINE_TESTS = ("tests/test_search.py", "tests/test_keys_solvers.py")
CPSAT_TESTS = ("tests/test_cpsat.py", "tests/test_keys_cpsat.py")
ALL = ("keys", "elevator", "amphipods")
#: The formulations that search with `crosscheck.solvers.engines.search`'s engine (its importers).
ENGINE_USERS = ("keys-graph", "keys-grid", "elevator-bfs", "elevator-quotient", "amphipods-search",
                "amphipods-steps", "amphipods-stops")
#: The formulations set up with `crosscheck.solvers.engines.cpsat` (its importers).
CPSAT_USERS = ("keys-cpsat", "elevator-cpsat", "amphipods-cpsat")
#: Each puzzle's built-in formulations: its checker judges every plan of each.
CHECKED = {puzzle: tuple(name for name in stored_footprints() if name.startswith(puzzle + "-")) for puzzle in ALL}


def _keys(name: str, path: str, original: str, replacement: str, description: str,
          formulations: tuple[str, ...] = ()) -> Fault:
    return Fault(name, "keys", path, original, replacement, description, ("keys",), KEYS_TESTS, formulations)


def _elevator(name: str, path: str, original: str, replacement: str, description: str) -> Fault:
    return Fault(name, "elevator", path, original, replacement, description, ("elevator",), ELEVATOR_TESTS)


#: Per puzzle, the tests that should notice a fault in its SAT formulation's encoder.
ENCODER_TESTS = {"elevator": (*ELEVATOR_TESTS, "tests/test_sat_certificates.py"),
                 "amphipods": (*AMPHIPODS_TESTS, "tests/test_amphipods_sat.py")}


def _encoder(name: str, puzzle: str, path: str, original: str, replacement: str, description: str,
             tests: str | None = None) -> Fault:
    """A fault in a SAT formulation's encoder, which the certificate tests (and `tests`) should notice too."""
    return Fault(name, puzzle, path, original, replacement, description, (puzzle,),
                 (*ENCODER_TESTS[puzzle], *([tests] if tests else [])))


def _keys_encoder(name: str, original: str, replacement: str, description: str) -> Fault:
    """A fault in keys-sat's encoder, which its certificate tests should notice too."""
    return Fault(name, "keys", "solvers/keys/sat_encoding.py", original, replacement, description, ("keys",),
                 (*KEYS_TESTS, "tests/test_keys_sat.py"))


def _amphipods(name: str, path: str, original: str, replacement: str, description: str,
               formulations: tuple[str, ...] = ()) -> Fault:
    return Fault(name, "amphipods", path, original, replacement, description, ("amphipods",), AMPHIPODS_TESTS,
                 formulations)


def _tiles(name: str, module: str, original: str, replacement: str, description: str,
           formulations: tuple[str, ...] = ()) -> Fault:
    return Fault(name, "tiles", f"{_TILES}/{module}", original, replacement, description, ("tiles",), TILES_TESTS,
                 formulations)


def _engine(name: str, original: str, replacement: str, description: str) -> Fault:
    return Fault(name, "engine", "solvers/engines/search.py", original, replacement, description, ALL, ENGINE_TESTS,
                 ENGINE_USERS)


def _cpsat(name: str, original: str, replacement: str, description: str) -> Fault:
    return Fault(name, "cpsat", "solvers/engines/cpsat.py", original, replacement, description, ALL, CPSAT_TESTS,
                 CPSAT_USERS)


KEYS_FAULTS = (
    _keys("keys-door-b-never-opens", "models/keys/model.py",
          "return char != WALL and (key is None or key in self.keys)",
          'return char != WALL and char != "B" and (key is None or key in self.keys)',
          "Vault.passable: door B never opens (the issue's first fault)"),
    _keys("keys-door-a-not-a-door", "models/keys/model.py",
          'return char.lower() if "A" <= char <= "Z" else None',
          'return char.lower() if "B" <= char <= "Z" else None',
          "door_key: door A needs no key (key letters read wrongly)"),
    _keys("keys-key-a-not-a-key", "models/keys/model.py",
          'return "a" <= char <= "z"',
          'return "b" <= char <= "z"',
          "is_key: key a is not a key (Vault.keys and the PDDL encoding lose it)", CHECKED["keys"]),
    _keys("keys-no-west-neighbour", "models/keys/model.py",
          "            if self.at(target) != WALL:\n                yield direction, target",
          '            if self.at(target) != WALL and direction != "W":\n                yield direction, target',
          "Vault.open_neighbours: never steps west"),
    _keys("keys-grid-door-b-never-opens", "solvers/keys/grid_walks.py",
          'return char != "#" and (door is None or door in letters)',
          'return char != "#" and char != "B" and (door is None or door in letters)',
          "keys-grid's own walkable: door B never opens"),
    _keys("keys-grid-door-a-open", "solvers/keys/grid_walks.py",
          "return char.lower() if char.isalpha() and char.isupper() else None",
          'return char.lower() if char.isalpha() and char.isupper() and char != "A" else None',
          "keys-grid's own door_letter: door A needs no key"),
    _keys("keys-routes-door-free", "solvers/keys/routes.py",
          "door.append(bit_of.get(door_key(flat[i]) or \"\", 0))",
          "door.append(0)",
          "route contraction: doors on routes need no key"),
    _keys("keys-routes-corridor-short", "solvers/keys/routes.py",
          "                corridors.append((n, target, len(path)))",
          "                corridors.append((n, target, len(path) - 1))",
          "route contraction: corridor lengths one short (used by the bounds)"),
    _keys("keys-bound-plus-one", "solvers/keys/bounds.py",
          "return self._tree_walk(node, left) + self._reentry(node, left)",
          "return self._tree_walk(node, left) + self._reentry(node, left) + 1",
          "keys-graph's remaining-keys bound overestimates by one (inadmissible)"),
    Fault("keys-graph-kernel-plus-one", "keys", "solvers/keys/graph_kernel.py",
          "    return walk\n",
          "    return walk + 1\n",
          "keys-graph's compiled bound overestimates by one where no re-entry counts (inadmissible)",
          ("keys",), (*KEYS_TESTS, "tests/test_keys_bounds.py")),
    Fault("keys-graph-kernel-dominance-lax", "keys", "solvers/keys/graph_kernel.py",
          "if other >= 0 and g[other] <= cost:",
          "if other >= 0 and g[other] <= cost + 2:",
          "keys-graph's compiled search skips states 'dominated' by dearer ones (two moves dearer)",
          ("keys",), (*KEYS_TESTS, "tests/test_keys_bounds.py")),
    _keys("keys-cpsat-cuts-too-many", "solvers/keys/cpsat.py",
          "self.model.add(crossings >= 2 * cut_count)",
          "self.model.add(crossings >= 2 * cut_count + 1)",
          "keys-cpsat: level cuts demand one crossing too many"),
    # Encoder fault: candidate arcs that are shortest paths alone leave out the detours around a
    # door (a move left out), which the plan-as-assignment check shows through others' plans.
    _keys_encoder("keys-sat-shortest-paths-only",
                  "                if any(known & ~extended == 0 for known in masks):",
                  "                if masks:",
                  "keys-sat's candidate arcs: one path a cell (the shortest), the Pareto detours left out"),
)

ELEVATOR_FAULTS = (
    _elevator("elevator-safety-ignores-first", "models/elevator/model.py",
              "    if floor not in generators:\n        return True",
              "    if floor not in generators[1:]:\n        return True",
              "is_safe: the first element's generator does not count (the safety rule)"),
    _elevator("elevator-start-unchecked", "solvers/elevator/common.py",
              "return all_safe(facility.chips, facility.generators)",
              "return True",
              "start_is_safe: every start is safe (the issue's start-safety fault)"),
    _elevator("elevator-all-safe-skips-first", "models/elevator/model.py",
              "return all(is_safe(chips, generators, floor) for floor in set(chips))",
              "return all(is_safe(chips, generators, floor) for floor in set(chips[1:]))",
              "all_safe: the first element's chip floor is never checked (start safety)"),
    _elevator("elevator-bfs-start-unchecked", "solvers/elevator/bfs.py",
              "        if not safe_everywhere(moves, start):",
              "        if False:",
              "elevator-bfs's own start-safety test skipped"),
    _elevator("elevator-bfs-safety-wrong", "solvers/elevator/packed.py",
              "return np.asarray((generators == 0) | (exposed == 0), dtype=bool)",
              "return np.asarray((generators == 0) | (exposed != chips), dtype=bool)",
              "elevator-bfs's packed safety test: a floor is safe unless every chip is exposed"),
    _elevator("elevator-quotient-canonical-drops-generator", "solvers/elevator/quotient.py",
              "return (labelled[0], *sorted(chip * floors + generator for chip, generator in zip(chips, generators, "
              "strict=True)))",
              "return (labelled[0], *sorted(chip * floors + 0 * generator for chip, generator in zip(chips, "
              "generators, strict=True)))",
              "quotient canonicalisation forgets the generators' floors"),
    _elevator("elevator-quotient-safety-skipped", "solvers/elevator/quotient.py",
              "if not ((moved & generators_left and moved & exposed_left)\n"
              "                        or (moved & generators_there and moved & exposed_there)):",
              "if not (moved & generators_there and moved & exposed_there):",
              "elevator-quotient: the floor left behind is not checked"),
    _elevator("elevator-crossing-bound-inadmissible", "solvers/elevator/common.py",
              "total += max(1, 2 * below - 3) if elevator <= boundary else 2 * below",
              "total += max(1, 2 * below - 2) if elevator <= boundary else 2 * below",
              "crossing_bound overestimates by one per boundary (inadmissible)"),
    _elevator("elevator-moves-pairs-only", "solvers/elevator/common.py",
              "loads = [(i,) for i in here] + list(combinations(here, 2))",
              "loads = list(combinations(here, 2)) or [(i,) for i in here]",
              "labelled_moves: one item rides alone only when it is the only one on the floor"),
    _elevator("elevator-cpsat-three-riders", "solvers/elevator/transitions.py",
              "model.add(self._riders(t) <= 2)",
              "model.add(self._riders(t) <= 3)",
              "elevator-cpsat: the elevator carries up to three items"),
    # Encoder faults: a certificate proves something about the CNF, so an encoding that leaves
    # plans out makes refutations of the encoding, not of the puzzle (the plan-as-assignment check).
    _encoder("elevator-sat-one-rider", "elevator", "solvers/elevator/sat_encoding.py",
             "    for three in combinations(carries, 3):",
             "    for three in combinations(carries, 2):",
             "elevator-sat's encoding: a step carries one item, the moves with two left out"),
    _encoder("elevator-sat-safety-later-only", "elevator", "solvers/elevator/sat_encoding.py",
             "                if other != chip_of:",
             "                if other > chip_of:",
             "elevator-sat's encoding: a chip meets only the generators of elements after it"),
    _encoder("elevator-sat-counts-one-rider", "elevator", "solvers/elevator/sat_counts.py",
             "    cnf.add(-layout.two(time), *seconds)",
             "    cnf.add(-layout.two(time))\n    for second in seconds:\n        cnf.add(-second)",
             "elevator-sat's encoding over counts: a step carries one item, the second transfer never moves",
             "tests/test_sat_counts.py"),
    _encoder("elevator-sat-counts-budget-all-wasteful", "elevator", "solvers/elevator/sat_counts.py",
             "            clause(cnf, negated(fewer), -waste, after)",
             "            clause(cnf, negated(fewer), after)",
             "elevator-sat's invariant at a bound: every step counted wasteful, so lower bounds come too easily",
             "tests/test_sat_counts.py"),
    # The text-reading mistakes of a reviewer's lone programs (my_lift.py, my_lift2.py), planted
    # in the shared parser: every formulation and the checker read the same wrong facility.
    Fault("elevator-parse-pairs-by-appearance", "elevator", "models/elevator/model.py",
          "        chips=tuple(seen[(element, MICROCHIP)][0] for element in elements),\n"
          "        generators=tuple(seen[(element, GENERATOR)][0] for element in elements),",
          "        chips=tuple(sorted(seen[(element, MICROCHIP)][0] for element in elements)),\n"
          "        generators=tuple(sorted(seen[(element, GENERATOR)][0] for element in elements)),",
          "parse: the i-th chip listed paired with the i-th generator listed, not by name",
          ("elevator",), ELEVATOR_TESTS, CHECKED["elevator"]),
    Fault("elevator-parse-two-letter-names", "elevator", "models/elevator/model.py",
          "        for element, kind, column in _parse_line(line, number, source):\n"
          "            if (element, kind) in seen:",
          "        for element, kind, column in ((e[:2], k, c) for e, k, c in _parse_line(line, number, source)):\n"
          "            if (element, kind) in seen and False:",
          "parse: elements keyed by their first two letters, a later one overwriting",
          ("elevator",), ELEVATOR_TESTS, CHECKED["elevator"]),
)

AMPHIPODS_FAULTS = (
    _amphipods("amphipods-settled-from-top", "models/amphipods/model.py",
               "        for kind in reversed(room):\n            if kind != KINDS[r]:",
               "        for kind in room:\n            if kind != KINDS[r]:",
               "settled: counts home amphipods from the top of the room"),
    _amphipods("amphipods-no-stop-left-end", "models/amphipods/model.py",
               "STOPS = tuple(h for h in range(HALLWAY_LENGTH) if h not in ROOM_DOORS)",
               "STOPS = tuple(h for h in range(1, HALLWAY_LENGTH) if h not in ROOM_DOORS)",
               "hallway stop rule: the left end of the hallway is no stop"),
    _amphipods("amphipods-energy-b", "models/amphipods/model.py",
               'ENERGY = {"A": 1, "B": 10, "C": 100, "D": 1000}',
               'ENERGY = {"A": 1, "B": 11, "C": 100, "D": 1000}',
               "step costs: a B step costs 11", CHECKED["amphipods"]),
    _amphipods("amphipods-path-skips-room-cell", "models/amphipods/model.py",
               "        cells += [(room, s) for s in range(slot + 1)]",
               "        cells += [(room, s) for s in range(1, slot + 1)]",
               "path: entering a room skips its top cell (blocking and cost)"),
    _amphipods("amphipods-layout-entry-slot", "solvers/amphipods/common.py",
               "return self.depth - self.settled[room] - entered - 1",
               "return max(0, self.depth - self.settled[room] - entered - 2)",
               "Layout.entry_slot: an entrant stops one cell higher than the deepest free one"),
    _amphipods("amphipods-search-heuristic", "solvers/amphipods/search.py",
               "walk = abs(ROOM_DOORS[r] - ROOM_DOORS[t]) if t != r else 2",
               "walk = abs(ROOM_DOORS[r] - ROOM_DOORS[t]) if t != r else 4",
               "amphipods-search's heuristic: a mover leaving its own room walks 4 (inadmissible)"),
    _amphipods("amphipods-steps-climbs-thrice", "solvers/amphipods/steps_kernel.py",
               "total += STEP_ENERGY[kind] * slot * (1 if slot <= lowest_stranger else -1)",
               "total += STEP_ENERGY[kind] * slot * (3 if slot <= lowest_stranger else -1)",
               "amphipods-steps' column energy: an amphipod that must leave is charged two climbs more (inadmissible)"),
    _amphipods("amphipods-steps-stuck-walker", "solvers/amphipods/steps_kernel.py",
               "    if mover < HALLWAY and row[size + 1] == 0:", "    if False:",
               "amphipods-steps' stuck test: an amphipod still walking out of a room counts as stopped"),
    _amphipods("amphipods-stops-enter-blocked", "solvers/amphipods/stops.py",
               "        if lo <= door <= hi:\n            moved = rooms.copy()",
               "        if True:\n            moved = rooms.copy()",
               "amphipods-stops: a hallway amphipod goes home through others"),
    # Encoder faults (the plan-as-assignment check): moves left out of amphipods-sat's CNF.
    _encoder("amphipods-sat-no-direct-moves", "amphipods", "solvers/amphipods/sat_encoding.py",
             "            direct = [layout.direct[a]] if a in layout.direct else []",
             "            direct = []",
             "amphipods-sat's encoding: no move straight from room to room, every leaver stops in the hallway"),
    _encoder("amphipods-sat-no-end-stops", "amphipods", "solvers/amphipods/sat_encoding.py",
             "            exactly_one(cnf, [*direct, *(layout.hall[a, s] for s in STOPS)])",
             "            exactly_one(cnf, [*direct, *(layout.hall[a, s] for s in STOPS[1:-1])])",
             "amphipods-sat's encoding: the stops at the hallway's two ends left out"),
)

TILES_FAULTS = (
    _tiles("tiles-goal-blank-first", "model.py",
           "    return (*range(1, rows * columns), BLANK)",
           "    return (BLANK, *range(1, rows * columns))",
           "goal: the blank first, not last (the model's goal, which every formulation and the checker read)",
           TILES_FORMULATIONS),
    _tiles("tiles-parse-rows-reversed", "model.py",
           "    tiles = _tiles(rows, columns, source)",
           "    tiles = _tiles(rows[::-1], columns, source)",
           "parse: the rows read bottom first", TILES_FORMULATIONS),
    _tiles("tiles-search-row-conflicts-triple", "search.py",
           "            bound += 2 * (len(line) - _longest_increasing(line))\n        for column in range(columns):",
           "            bound += 3 * (len(line) - _longest_increasing(line))\n        for column in range(columns):",
           "tiles-search's linear conflicts: three moves per tile leaving its row (inadmissible)"),
    _tiles("tiles-cpsat-parity-flipped", "cpsat.py",
           "    return (len(start) - cycles) % 2 == 1",
           "    return (len(start) - cycles) % 2 == 0",
           "tiles-cpsat's parity lemma: odd and even permutations swapped"),
    _tiles("tiles-cpsat-first-horizon-high", "cpsat.py",
           "    return least + (least - blank) % 2",
           "    return least + (least - blank) % 2 + 2",
           "tiles-cpsat's first horizon: two moves above the misplaced tiles' bound"),
)

ENGINE_FAULTS = (
    _engine("engine-no-reopen", "if old_g is not None and old_g <= new_g:", "if old_g is not None:",
            "closed set: a state reached again more cheaply is not pushed again"),
    _engine("engine-greedy", "heapq.heappush(heap, (new_g + h(successor),", "heapq.heappush(heap, (h(successor),",
            "best-first on the heuristic alone (goal test ordering no longer by f)"),
    _engine("engine-goal-at-generation",
            "                best[successor] = new_g\n                parents[successor] = (state, action)\n",
            "                best[successor] = new_g\n                parents[successor] = (state, action)\n"
            "                if problem.is_goal(successor):\n"
            "                    return SearchOutcome(Ending.SOLVED, new_g, _plan(parents, successor), new_g, expanded, "
            "generated)\n",
            "goal tested when generated rather than popped (Dijkstra and A* no longer optimal)"),
    _engine("engine-tie-break-shallow", "depth = -1 if problem.deeper_ties else 0",
            "depth = 1 if problem.deeper_ties else 0",
            "tie-break: shallower first where deeper was asked (cannot change a cost)"),
    _engine("engine-bfs-depth", "return SearchOutcome(Ending.SOLVED, depth + 1, _plan(parents, successor), depth + 1,",
            "return SearchOutcome(Ending.SOLVED, depth + 2, _plan(parents, successor), depth + 2,",
            "BFS reports a cost one too high"),
    _engine("engine-timeout-is-exhausted",
            "deadline.expired(CHECK_EVERY):\n                return SearchOutcome(Ending.TIMEOUT, None, None, f, expanded, "
            "generated)",
            "deadline.expired(CHECK_EVERY):\n                return SearchOutcome(Ending.EXHAUSTED, None, None, None, "
            "expanded, generated)",
            "a search stopped by the deadline reports the space exhausted (infeasible)"),
    _engine("engine-timeout-bound", "return Answer(Status.TIMEOUT, bound=self.bound, stats=stats)",
            "return Answer(Status.TIMEOUT, bound=None if self.bound is None else self.bound + 1, stats=stats)",
            "a timed-out search reports its bound one too high"),
)

CPSAT_FAULTS = (
    _cpsat("cpsat-feasible-is-optimal", "    if status == cp_model.OPTIMAL:\n        return Answer(Status.OPTIMAL,",
           "    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):\n        return Answer(Status.OPTIMAL,",
           "status mapping: a feasible solution is reported optimal"),
    _cpsat("cpsat-unknown-is-infeasible", "    if status == cp_model.INFEASIBLE:\n        return False",
           "    if status in (cp_model.INFEASIBLE, cp_model.UNKNOWN):\n        return False",
           "status mapping: a run stopped by a limit is reported infeasible"),
    _cpsat("cpsat-bound-rounds-up", "return max(0, math.ceil(value - 1e-6))", "return max(0, math.ceil(value + 0.5))",
           "bound reporting: the objective bound rounded up past an integer"),
    _cpsat("cpsat-offset-dropped", "    cost = offset + round(solver.objective_value)",
           "    cost = round(solver.objective_value)",
           "run_answer: the objective's offset is left out of the cost"),
)

CHECKER_FAULTS = (
    Fault("checker-keys-door-b", "checker", "models/keys/model.py",
          "if char.isupper() and char.lower() not in held:",
          'if char.isupper() and char.lower() not in held and char != "B":',
          "keys check_plan: walks through door B without its key", ("keys",), ("tests/test_keys_model.py",),
          CHECKED["keys"]),
    Fault("checker-elevator-start", "checker", "models/elevator/model.py",
          "    if not all_safe(floors[MICROCHIP], floors[GENERATOR]):",
          "    if False:",
          "elevator check_plan: an unsafe start is accepted", ("elevator",), ("tests/test_elevator_model.py",),
          CHECKED["elevator"]),
    Fault("checker-tiles-off-the-side", "checker", f"{_TILES}/model.py",
          "        if not (0 <= row + drow < board.rows and 0 <= column + dcolumn < board.columns):",
          "        if not (0 <= row + drow < board.rows):",
          "tiles check_plan: the blank may leave the board by a side (a wrapping move)", ("tiles",),
          ("examples/tiles/tests/test_model.py",), TILES_FORMULATIONS),
    Fault("checker-amphipods-door-stop", "checker", "models/amphipods/model.py",
          "        if target[0] == \"H\" and target[1] in ROOM_DOORS:\n            raise InvalidPlan(",
          "        if False:\n            raise InvalidPlan(",
          "amphipods check_plan: stopping above a room is accepted", ("amphipods",),
          ("tests/test_amphipods_model.py",), CHECKED["amphipods"]),
)

#: Every fault the audit plants, by area.
FAULTS: tuple[Fault, ...] = (KEYS_FAULTS + ELEVATOR_FAULTS + AMPHIPODS_FAULTS + TILES_FAULTS + ENGINE_FAULTS
                             + CPSAT_FAULTS + CHECKER_FAULTS)
