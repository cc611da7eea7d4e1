"""The elevator: carry generators and microchips to the top floor without frying a chip.

Everything crosscheck knows of the elevator is in this folder: the model (`model`: parser,
rules, variant, generator, plan checker), the metamorphic relations (`relations`) and the
Hypothesis strategies that hunts draw facilities from (`strategies`).  `PUZZLE` is what the
harness sees of it; the formulations are in ``crosscheck.solvers.elevator``.
"""

from __future__ import annotations

from typing import Any

from crosscheck.models.elevator import model
from crosscheck.models.elevator.relations import RELATIONS
from crosscheck.models.puzzle import Puzzle, Sample, Shape, SizeParameter, strategies_in

#: The sizes a hunt draws instances within: the floors the ordinal words name and the element names
#: of a facility bound them.
SIZES = (
    SizeParameter("floors", "floors", (2, 6), 1, model.MAX_ORDINAL),
    SizeParameter("pairs", "elements (a generator and a microchip each)", (1, 6), 1, len(model.ELEMENT_NAMES)),
)


#: The puzzle's pieces of the trusted base (`crosscheck.harness.independence.trusted`): qualified
#: name -> the tests that hold it against an independent reference.
TRUSTED = {
    "crosscheck.models.elevator.model.parse": "tests/test_elevator_model.py: the example, ordinals, each parse error",
    "crosscheck.models.elevator.model.extended": "tests/test_elevator_model.py::test_extended_variant_adds_two_pairs_on_the_first_floor",
    "crosscheck.models.elevator.model.check_plan": "tests/test_elevator_model.py: the example plan, each broken rule; "
                                             "tests/test_malformed_plans.py: any JSON value, each malformed shape",
    "crosscheck.models.elevator.model._read_move": "tests/test_malformed_plans.py: each malformed shape of an elevator move",
    "crosscheck.models.elevator.model.ElevatorMove": "a NamedTuple: no behaviour",
    "crosscheck.models.elevator.model.Facility": "tests/test_elevator_model.py: parse and generated text round trips",
    "crosscheck.models.elevator.model.item_name": "the move vocabulary's names; the checker reads them back",
}

#: Elements are interchangeable: renaming them maps plans to plans and the goal to itself, so
#: states may be counted up to renaming.  The potential (twice the items' floors below the top,
#: less three times the elevator's) moves by one per step, down for an up step with two riders or
#: a down step with one, up for the others, and is 0 after a plan's last step.  A fault in either
#: argument would mislead every formulation resting on it: lemma -> the modules whose answers rest on it.
LEMMAS = {
    "elevator: plans map to plans under renaming of elements": (
        "crosscheck.solvers.elevator.quotient", "crosscheck.solvers.elevator.cpsat",
        "crosscheck.solvers.elevator.top_floors", "crosscheck.solvers.elevator.sat_counts"),
    "elevator: a plan of T >= 1 steps makes (T - potential at the start) / 2 wasteful steps": (
        "crosscheck.solvers.elevator.cpsat", "crosscheck.solvers.elevator.sat_counts"),
}



def _corpus() -> list[Any]:
    """Small instances, edge cases included, on which the independence analysis traces each formulation."""
    return [model.parse("The first floor contains a hydrogen-compatible microchip and a lithium generator.\n"
                        "The second floor contains a hydrogen generator and a lithium-compatible microchip.\n"
                        "The third floor contains nothing relevant.\n", "unsafe-start"),
            model.generate(1, pairs=2, floors=3), model.generate(2, pairs=1, floors=4)]


PUZZLE = Puzzle(
    name="elevator",
    title="elevator with generators and microchips",
    shape="a first line starting 'The first floor contains'",
    detect=model.detect,
    parse=model.parse,
    check_plan=model.check_plan,
    variant=model.extended,
    variant_name="extended (elerium and dilithium pairs)",
    generate=model.generate,
    generator_params={
        "pairs": f"number of elements, 1 to {len(model.ELEMENT_NAMES)} (default 5)",
        "floors": f"number of floors, 1 to {model.MAX_ORDINAL} (default 4)",
        "spread": "items start on the lowest SPREAD floors, 1 to floors (default floors-1)",
        "safe": "redraw until the start is safe (default true)",
    },
    features=model.features,
    relations=RELATIONS,
    sizes=SIZES,
    instances=strategies_in("crosscheck.models.elevator.strategies"),
    published_shape=model.outside_published_shape,
    corpus=_corpus,
    formulations=("crosscheck.solvers.elevator",),
    trusted=TRUSTED,
    lemmas=LEMMAS,
    reference="elevator-quotient",
    real_shapes={"5-pairs": Shape({"pairs": 5, "floors": 4}), "7-pairs": Shape({"pairs": 5, "floors": 4}, variant=True)},
    # the second set's seeds 2 and 3 start unsafe (no solution): they exercise the start-safety rule
    small_sets=(Sample({"pairs": 3}, count=2, seed=1), Sample({"pairs": 3, "safe": False}, count=2, seed=2)),
)
