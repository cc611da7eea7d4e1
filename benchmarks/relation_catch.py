"""How often each metamorphic relation exposes each planted text-reading mistake.

Run as ``python -m benchmarks.relation_catch [--instances N] [--count K] [--seed S]``.
Each planted program of planted/externals that misreads the text (element names, order of
listing, key letters) is judged in-process against itself, as ``crosscheck morph``
judges a lone program: on N seeded instances (elevator facilities of 2-4 pairs on 2-4
floors, the small vaults of planted/instances.py), for each relation of the puzzle
that needs no plan, K distinct related instances are drawn (`distinct_draws`, seeded by
S and the instance's index) and the instance counts as *caught* when the program's
answers on it and on one of them break the relation's law.  Beside it, *wrong* counts
the instances whose original the program answers wrongly (against a built-in
formulation), the most any relation could catch by finding the original wrong... and a
relation may also catch an instance the program reads rightly, through a related one it
reads wrongly.  Catch rates, not speed: no timing.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from crosscheck.models.answers import NO_SOLUTION, ExactAnswer, Optimum
from crosscheck.models.elevator import model as elevator
from crosscheck.models.registry import relations
from crosscheck.models.relations import NotApplicable, distinct_draws
from crosscheck.solvers.base import Solver, Status
from crosscheck.solvers.elevator.bfs import ElevatorBfs
from crosscheck.solvers.keys.grid import KeysGrid

from planted.externals.elevator_appearance_pairs import paired_by_appearance
from planted.externals.elevator_first_listed import claim as first_listed_claim
from planted.externals.elevator_initials import by_prefix
from planted.externals.keys_rank_doors import doors_by_rank
from planted.instances import vaults


def exact(solver: Solver, instance: Any) -> ExactAnswer:
    """`solver`'s exact answer on `instance`; it must finish."""
    result = solver.solve(instance)
    if result.status not in (Status.OPTIMAL, Status.INFEASIBLE):
        raise RuntimeError(f"{solver.name} did not finish {instance.name}: {result.status}")
    return claimed(result.cost)


def claimed(cost: int | None) -> ExactAnswer:
    """An answer as the planted programs give it (None: no solution)."""
    return NO_SOLUTION if cost is None else Optimum(cost)


@dataclass(frozen=True)
class Planted:
    """A planted program: its name, puzzle and answer on an instance read from its text."""

    name: str
    puzzle: str
    answer: Callable[[Any], ExactAnswer]


PLANTED = (
    Planted("elevator_initials", "elevator", lambda f: exact(ElevatorBfs(), by_prefix(f, 1))),
    Planted("elevator_two_letters", "elevator", lambda f: exact(ElevatorBfs(), by_prefix(f, 2))),
    Planted("elevator_appearance_pairs", "elevator", lambda f: exact(ElevatorBfs(), paired_by_appearance(f))),
    Planted("elevator_first_listed", "elevator", lambda f: claimed(first_listed_claim(f))),
    Planted("keys_rank_doors", "keys", lambda v: exact(KeysGrid(), doors_by_rank(v))),
)
#: The built-in formulation each puzzle's right answers come from.
REFERENCE: dict[str, Callable[[], Solver]] = {"elevator": ElevatorBfs, "keys": KeysGrid}


def instances(puzzle: str, count: int, seed: int) -> list[Any]:
    """`count` seeded instances of `puzzle` (module docstring)."""
    if puzzle == "keys":
        return list(vaults(count, seed))
    rng = random.Random(seed)
    return [elevator.generate(rng.randrange(10**6), pairs=rng.randint(2, 4), floors=rng.randint(2, 4))
            for _ in range(count)]


def caught(planted: Planted, relation: str, instance: Any, original: ExactAnswer, rng: random.Random,
           count: int) -> bool:
    """Whether one of `count` draws of `relation` on `instance` breaks its law for `planted`."""
    try:
        draws = distinct_draws(relations(planted.puzzle)[relation], instance, rng, count)
    except NotApplicable:
        return False
    return any(d.expectation.broken(original, planted.answer(d.instance)) for d in draws)


def judge(planted: Planted, count: int, draws: int, seed: int) -> list[tuple[str, int, int, int]]:
    """(relation, instances, wrong on the original, caught) per plan-free relation."""
    plan_free = [name for name, r in sorted(relations(planted.puzzle).items()) if not r.needs_plan]
    found = instances(planted.puzzle, count, seed)
    reference = REFERENCE[planted.puzzle]()
    answers = [planted.answer(instance) for instance in found]
    wrong = sum(answer != exact(reference, instance) for answer, instance in zip(answers, found, strict=True))
    return [(relation, len(found), wrong,
             sum(caught(planted, relation, instance, answer, random.Random(seed * 100_003 + index), draws)
                 for index, (instance, answer) in enumerate(zip(found, answers, strict=True))))
            for relation in plan_free]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=200, help="seeded instances per program")
    parser.add_argument("--count", type=int, default=1, help="related instances drawn per instance and relation")
    parser.add_argument("--seed", type=int, default=1, help="seed of the instances and of the draws")
    args = parser.parse_args(argv)
    print(f"{'program':<26} {'relation':<10} {'instances':>9} {'wrong':>6} {'caught':>6}")
    for planted in PLANTED:
        for relation, total, wrong, hits in judge(planted, args.instances, args.count, args.seed):
            print(f"{planted.name:<26} {relation:<10} {total:>9} {wrong:>6} {hits:>6}")


if __name__ == "__main__":
    main()
