"""The key vault: robots collect every key on a grid of walls and doors.

Everything crosscheck knows of the vault is in this folder: the model (`model`: parser,
rules, variant, generator, plan checker), the metamorphic relations (`relations`) and the
Hypothesis strategies that hunts draw vaults from (`strategies`).  `PUZZLE` is what the
harness sees of it; the formulations are in ``crosscheck.solvers.keys``.
"""

from __future__ import annotations

from typing import Any

from crosscheck.models.keys import model
from crosscheck.models.keys.relations import RELATIONS
from crosscheck.models.puzzle import Puzzle, Sample, Shape, SizeParameter, strategies_in

#: The sizes a hunt draws instances within: the interior inside the outer wall of the largest grid
#: `generate` draws, the key letters a to z, one or four robots.
SIZES = (
    SizeParameter("height", "rows inside the outer wall", (1, 7), 1, model.MAX_SIZE - 2),
    SizeParameter("width", "columns inside the outer wall", (1, 9), 1, model.MAX_SIZE - 2),
    SizeParameter("keys", "keys in the vault (the letters a, b, ...; each once; doors may name one more)",
                  (1, 5), 1, model.MAX_KEYS),
    SizeParameter("robots", "1 or 4 (a range 1-4 draws both)", (1, 4), 1, 4),
)


#: The puzzle's pieces of the trusted base (`crosscheck.harness.independence.trusted`): qualified
#: name -> the tests that hold it against an independent reference.
TRUSTED = {
    "crosscheck.solvers.keys.packing": "tests/test_keys_model.py::test_robot_packing_round_trips: pack/unpack "
                                       "round trips against the plain lists",
    "crosscheck.models.keys.model.parse": "tests/test_keys_model.py: round trip and each parse error",
    "crosscheck.models.keys.model.four_robots": "tests/test_keys_model.py::test_four_robots_transform: the block by hand",
    "crosscheck.models.keys.model.check_plan": "tests/test_keys_model.py: the published optimum plan, each broken rule; "
                                         "tests/test_malformed_plans.py: any JSON value, each malformed shape",
    "crosscheck.models.keys.model._cell_name": "tests/test_malformed_plans.py::test_the_first_move_is_move_1_in_every_"
                                         "checker",
    "crosscheck.models.keys.model.KeyMove": "a NamedTuple: no behaviour",
    "crosscheck.models.keys.model.is_key": "tests/test_keys_model.py::test_vocabulary_of_doors_and_keys (by hand); "
                                     "Vault.keys and the checker read keys through it, so every formulation does",
    "crosscheck.models.keys.model.Vault.__post_init__": "tests/test_keys_model.py: robots and keys read back from the grid",
    "crosscheck.models.keys.model.Vault.height": "grid size; every parse test",
    "crosscheck.models.keys.model.Vault.width": "grid size; every parse test",
    "crosscheck.models.keys.model.Vault.at": "tests/test_keys_model.py::test_vocabulary_agrees_with_the_checker_step_by_step",
    "crosscheck.models.keys.model.Vault.letters": "tests/test_keys_model.py::test_vocabulary_of_doors_and_keys (by hand)",
    "crosscheck.models.keys.model.Vault.key_bits": "tests/test_keys_model.py::test_vocabulary_of_doors_and_keys (by hand) "
                                             "and step by step against the checker",
    "crosscheck.models.keys.model.Vault.to_text": "tests/test_keys_model.py::test_parse_round_trip_and_name",
}

#: keys-sat's tour walks only candidate arcs between points of interest (starts and keys); its
#: certificates prove no tour of them is short enough, which says no plan is only when the arcs
#: are complete (docs/puzzles/keys.md): lemma -> the modules whose answers rest on it.
LEMMAS = {
    "keys: every walk between two points of interest is dominated by a candidate arc": (
        "crosscheck.solvers.keys.sat_encoding", "crosscheck.solvers.keys.sat"),
}


def _corpus() -> list[Any]:
    """Small instances, edge cases included, on which the independence analysis traces each formulation."""
    return [model.parse("#########\n#b.A.@.a#\n#########\n", "published-8"),
            model.parse("#######\n#@.Aa.#\n#######\n", "door-before-its-key"),
            model.parse("#######\n#@.Bab#\n#######\n", "door-without-key"),
            model.four_robots(model.generate(3, size=9, keys=3, loops=1)),
            model.generate(5, size=9, keys=4, loops=2)]


PUZZLE = Puzzle(
    name="keys",
    title="key vault",
    shape="a grid whose first line is all wall '#' (or starts with '#' when the grid holds a robot '@')",
    detect=model.detect,
    parse=model.parse,
    check_plan=model.check_plan,
    variant=model.four_robots,
    variant_name="four robots",
    generate=model.generate,
    generator_params={
        "size": f"grid side, 4k+1 from 9 to {model.MAX_SIZE} (default 81)",
        "keys": "number of keys, 1-26 (default 26)",
        "doors": "number of doors, 0 to keys (default keys-2)",
        "loops": "extra wall openings that create cycles, 0 to 4(k-1)^2 for size 4k+1 (default 0)",
        "robots": "1 or 4 (default 1)",
    },
    features=model.features,
    relations=RELATIONS,
    sizes=SIZES,
    instances=strategies_in("crosscheck.models.keys.strategies"),
    published_shape=model.outside_published_shape,
    corpus=_corpus,
    formulations=("crosscheck.solvers.keys",),
    trusted=TRUSTED,
    lemmas=LEMMAS,
    reference="keys-graph",
    real_shapes={"1-robot": Shape({"size": 81, "keys": 26, "robots": 1}),
                 "4-robots": Shape({"size": 81, "keys": 26, "robots": 4})},
    small_sets=(Sample({"size": 13, "keys": 6, "loops": 2}, count=3, seed=1),),
)
