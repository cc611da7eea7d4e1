"""The trusted base: code every formulation may run without its answers counting as shared.

Two formulations that both run a piece of code to decide an answer can be wrong
together, so their agreement is one line of evidence (`crosscheck.solvers.sharing`
computes who runs what).  The pieces below are the exception: parsers, data types,
the plan checkers and the engines.  Each is trusted because a test holds it against an
independent reference, so a planted fault in it fails the test suite; the line beside
each name says which test and which reference.

Rules that decide answers (which cells a robot may stand on, which floors are safe,
which amphipods are home) are deliberately *not* here: where two formulations run one,
it counts as shared; where independence matters, a formulation carries its own second
implementation (labelled as such in its docstring).

A name covers itself and everything inside it (a module its functions and classes, a
class its methods); names are qualified as in ``module.Class.method``.
"""

from __future__ import annotations

#: Qualified name -> how it is verified (which tests, against what reference).
TRUSTED: dict[str, str] = {
    # Solver contract and engines
    "crosscheck.solvers.base": "tests/test_result.py: the Result validator refuses contradictory answers; "
                               "deadlines and error capture tested there",
    "crosscheck.solvers.search": "tests/test_search.py: BFS, Dijkstra and A* against a brute-force shortest path "
                                 "on seeded random graphs",
    "crosscheck.solvers.cpsat": "tests/test_cpsat.py: optimum, infeasibility and bounds of tiny models whose "
                                "answers are known by hand",
    "crosscheck.solvers.keys.packing": "tests/test_keys_model.py::test_robot_packing_round_trips: pack/unpack "
                                       "round trips against the plain lists",
    # Puzzle descriptions, parsers and errors
    "crosscheck.models.base": "tests/test_clear_errors.py: errors name file, line and column",
    "crosscheck.models.registry": "tests/test_clear_errors.py, tests/test_cli.py: detection and loading of files",
    # Key vault: parser, data type, plan checker
    "crosscheck.models.keys.parse": "tests/test_keys_model.py: round trip and each parse error",
    "crosscheck.models.keys.four_robots": "tests/test_keys_model.py::test_four_robots_transform: the block by hand",
    "crosscheck.models.keys.check_plan": "tests/test_keys_model.py: the published optimum plan, each broken rule; "
                                         "tests/test_malformed_plans.py: any JSON value, each malformed shape",
    "crosscheck.models.keys._cell_name": "tests/test_malformed_plans.py::test_the_first_move_is_move_1_in_every_"
                                         "checker",
    "crosscheck.models.keys.KeyMove": "a NamedTuple: no behaviour",
    "crosscheck.models.keys.is_key": "tests/test_keys_model.py::test_vocabulary_of_doors_and_keys (by hand); "
                                     "Vault.keys and the checker read keys through it, so every formulation does",
    "crosscheck.models.keys.Vault.__post_init__": "tests/test_keys_model.py: robots and keys read back from the grid",
    "crosscheck.models.keys.Vault.height": "grid size; every parse test",
    "crosscheck.models.keys.Vault.width": "grid size; every parse test",
    "crosscheck.models.keys.Vault.at": "tests/test_keys_model.py::test_vocabulary_agrees_with_the_checker_step_by_step",
    "crosscheck.models.keys.Vault.letters": "tests/test_keys_model.py::test_vocabulary_of_doors_and_keys (by hand)",
    "crosscheck.models.keys.Vault.key_bits": "tests/test_keys_model.py::test_vocabulary_of_doors_and_keys (by hand) "
                                             "and step by step against the checker",
    "crosscheck.models.keys.Vault.to_text": "tests/test_keys_model.py::test_parse_round_trip_and_name",
    # Amphipod burrow: parser, data type, labels, plan checker
    "crosscheck.models.amphipods.parse": "tests/test_amphipods_model.py: round trip and each parse error",
    "crosscheck.models.amphipods.deep": "tests/test_amphipods_model.py::test_deep_transform_inserts_the_two_lines",
    "crosscheck.models.amphipods.check_plan": "tests/test_amphipods_model.py: the published 12521 plan, each rule; "
                                              "tests/test_malformed_plans.py: any JSON value, each malformed shape",
    "crosscheck.models.amphipods.AmphipodMove": "a NamedTuple: no behaviour",
    "crosscheck.models.amphipods.ENERGY": "tests/test_amphipods_model.py::test_the_published_plan_costs_12521_and_json_"
                                          "lists_are_accepted: the published cost; the checker prices every plan by it",
    "crosscheck.models.amphipods.Burrow": "tests/test_amphipods_model.py: parse round trips",
    "crosscheck.models.amphipods.hallway_label": "the move vocabulary's names; the checker's parse_label reads them back",
    "crosscheck.models.amphipods.room_label": "the move vocabulary's names; the checker's parse_label reads them back",
    "crosscheck.models.amphipods.position_label": "the move vocabulary's names; the checker's parse_label reads them back",
    "crosscheck.models.amphipods.parse_label": "tests/test_amphipods_model.py::test_rejects_malformed_moves_and_"
                                               "unknown_positions, tests/test_malformed_plans.py::test_amphipods_"
                                               "refuses_what_is_no_position_label",
    # Elevator: parser, data type, names, plan checker
    "crosscheck.models.elevator.parse": "tests/test_elevator_model.py: the example, ordinals, each parse error",
    "crosscheck.models.elevator.extended": "tests/test_elevator_model.py::test_extended_variant_adds_two_pairs_on_the_first_floor",
    "crosscheck.models.elevator.check_plan": "tests/test_elevator_model.py: the example plan, each broken rule; "
                                             "tests/test_malformed_plans.py: any JSON value, each malformed shape",
    "crosscheck.models.elevator._read_move": "tests/test_malformed_plans.py: each malformed shape of an elevator move",
    "crosscheck.models.elevator.ElevatorMove": "a NamedTuple: no behaviour",
    "crosscheck.models.elevator.Facility": "tests/test_elevator_model.py: parse and generated text round trips",
    "crosscheck.models.elevator.item_name": "the move vocabulary's names; the checker reads them back",
}


#: Shared arguments: a proof step that formulations rest on without sharing its code.
#: Lemma -> the modules whose answers rest on it; a formulation that runs code of any of
#: them shares the lemma (``lemma: ...`` in its footprint) with every other that does.
LEMMAS: dict[str, tuple[str, ...]] = {
    # Elements are interchangeable: renaming them maps plans to plans and the goal to itself,
    # so states may be counted up to renaming.  A fault in that argument would mislead both.
    "elevator: plans map to plans under renaming of elements": (
        "crosscheck.solvers.elevator.quotient", "crosscheck.solvers.elevator.cpsat",
        "crosscheck.solvers.elevator.top_floors"),
}


def lemmas_of(names: set[str] | frozenset[str]) -> set[str]:
    """The shared lemmas (as ``lemma: ...``) that code with the qualified `names` rests on."""
    return {f"lemma: {lemma}" for lemma, modules in LEMMAS.items()
            if any(name.startswith(module + ".") for name in names for module in modules)}


def is_trusted(qualified_name: str) -> bool:
    """Whether `qualified_name` is a trusted name or lies inside one."""
    return any(qualified_name == name or qualified_name.startswith(name + ".") for name in TRUSTED)
