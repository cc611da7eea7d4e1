"""The amphipod burrow: four kinds of amphipods sort themselves into four rooms.

Everything crosscheck knows of the burrow is in this folder: the model (`model`: parser,
rules, variant, generator, plan checker), the metamorphic relations (`relations`) and the
Hypothesis strategies that hunts draw burrows from (`strategies`).  `PUZZLE` is what the
harness sees of it; the formulations are in ``crosscheck.solvers.amphipods``.
"""

from __future__ import annotations

from typing import Any

from crosscheck.models.amphipods import model
from crosscheck.models.amphipods.relations import RELATIONS
from crosscheck.models.puzzle import Puzzle, Sample, Shape, SizeParameter, strategies_in

#: The sizes a hunt draws instances within: room depths up to the deepest `generate` makes.
SIZES = (SizeParameter("depth", "room depth", (1, 5), 1, model.MAX_DEPTH),)


#: The puzzle's pieces of the trusted base (`crosscheck.harness.independence.trusted`): qualified
#: name -> the tests that hold it against an independent reference.
TRUSTED = {
    "crosscheck.models.amphipods.model.parse": "tests/test_amphipods_model.py: round trip and each parse error",
    "crosscheck.models.amphipods.model.deep": "tests/test_amphipods_model.py::test_deep_transform_inserts_the_two_lines",
    "crosscheck.models.amphipods.model.check_plan": "tests/test_amphipods_model.py: the published 12521 plan, each rule; "
                                              "tests/test_malformed_plans.py: any JSON value, each malformed shape",
    "crosscheck.models.amphipods.model.AmphipodMove": "a NamedTuple: no behaviour",
    "crosscheck.models.amphipods.model.ENERGY": "tests/test_amphipods_model.py::test_the_published_plan_costs_12521_and_json_"
                                          "lists_are_accepted: the published cost; the checker prices every plan by it",
    "crosscheck.models.amphipods.model.Burrow": "tests/test_amphipods_model.py: parse round trips",
    "crosscheck.models.amphipods.model.hallway_label": "the move vocabulary's names; the checker's parse_label reads them back",
    "crosscheck.models.amphipods.model.room_label": "the move vocabulary's names; the checker's parse_label reads them back",
    "crosscheck.models.amphipods.model.position_label": "the move vocabulary's names; the checker's parse_label reads them back",
    "crosscheck.models.amphipods.model.parse_label": "tests/test_amphipods_model.py::test_rejects_malformed_moves_and_"
                                               "unknown_positions, tests/test_malformed_plans.py::test_amphipods_"
                                               "refuses_what_is_no_position_label",
}

#: Some optimal plan is canonical (the contraction lemma, `crosscheck.solvers.amphipods.common`):
#: the macro-move formulations and amphipods-sat's encoding search only such plans, so a fault in
#: the argument would mislead all of them: lemma -> the modules whose answers rest on it.
#: (amphipods-steps and amphipods-stops assume none of it.)
LEMMAS = {
    "amphipods: some optimal plan moves each amphipod at most twice, home ones never, entrants to the "
    "deepest free cell": (
        "crosscheck.solvers.amphipods.common", "crosscheck.solvers.amphipods.sat_encoding"),
}


def _corpus() -> list[Any]:
    """Small instances, edge cases included, on which the independence analysis traces each formulation."""
    return [model.Burrow("two-swapped", ("BA", "AB", "CC", "DD")),
            model.Burrow("deep-two-swapped", ("BAAA", "ABBB", "CCCC", "DDDD"))]


PUZZLE = Puzzle(
    name="amphipods",
    title="amphipod burrow",
    shape="the top wall '#############' and then a hallway line '#...........#'",
    detect=model.detect,
    parse=model.parse,
    check_plan=model.check_plan,
    variant=model.deep,
    variant_name="deep burrow",
    generate=model.generate,
    generator_params={
        "depth": f"room depth, 1 to {model.MAX_DEPTH} (default 2)",
        "style": "'random' (shuffle depth copies of each kind) or 'real' (like published inputs; depth 2 or 4)",
        "swaps": f"if > 0 (at most {model.MAX_SWAPS}): exchange this many random pairs of cells of the sorted burrow "
                 "instead (default 0)",
    },
    features=model.features,
    relations=RELATIONS,
    sizes=SIZES,
    instances=strategies_in("crosscheck.models.amphipods.strategies"),
    published_shape=model.outside_published_shape,
    corpus=_corpus,
    formulations=("crosscheck.solvers.amphipods",),
    trusted=TRUSTED,
    lemmas=LEMMAS,
    reference="amphipods-search",
    real_shapes={"depth-2": Shape({"depth": 2, "style": "real"}), "depth-4": Shape({"depth": 4, "style": "real"})},
    small_sets=(Sample({}, count=3, seed=1),),
)
