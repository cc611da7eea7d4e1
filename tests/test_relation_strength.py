"""The renaming and reordering relations expose the text-reading mistakes they claim to,
on every draw where the instance allows it, and keep their law for the built-ins.

Each planted program (planted/externals) misreads the text in one way; the instance is
chosen so that the relation's draw can expose it.  The relations before these draws
(new names sharing only a first letter; each floor line shuffled at random; a letter
permutation that may keep the letters' order) missed each program on some seeds here.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from crosscheck.harness.cli import main
from crosscheck.models.answers import NO_SOLUTION, ExactAnswer, Optimum
from crosscheck.models.base import Instance
from crosscheck.models.elevator import model as elevator
from crosscheck.models.keys import model as keys
from crosscheck.models.registry import get_relation
from crosscheck.models.relations import distinct_draws
from crosscheck.solvers.base import Solver, Status
from crosscheck.solvers.elevator.bfs import ElevatorBfs
from crosscheck.solvers.keys.grid import KeysGrid

from planted.externals import EXTERNALS
from planted.externals.elevator_appearance_pairs import paired_by_appearance
from planted.externals.elevator_first_listed import claim as first_listed_claim
from planted.externals.elevator_initials import by_prefix
from planted.externals.keys_rank_doors import doors_by_rank
from planted.instances import facilities, vaults
from tests.fixtures.relation_checks import check_relation

SEEDS = range(30)
#: Optimum 13; hydrogen's chip and generator start apart, lithium's together, and the
#: first floor's line names hydrogen first.
NAME_DEPENDENT = ("The first floor contains a hydrogen generator, a lithium generator, and a lithium-compatible "
                  "microchip.\nThe second floor contains a hydrogen-compatible microchip.\n"
                  "The third floor contains nothing relevant.\nThe fourth floor contains nothing relevant.\n")
#: Key ``a``, door ``B``, key ``b`` in a row: ``b`` lies behind its own door (no solution),
#: but a program pairing doors with keys by rank opens ``B`` with ``a`` (3 moves).
DOOR_BEHIND = "######\n#@aBb#\n######\n"


def exact(solver: Solver, instance: object) -> ExactAnswer:
    result = solver.solve(instance, 10.0)
    assert result.status in (Status.OPTIMAL, Status.INFEASIBLE), result
    return claimed(result.cost)


def claimed(cost: int | None) -> ExactAnswer:
    """An answer as the planted programs give it (None: no solution)."""
    return NO_SOLUTION if cost is None else Optimum(cost)


def two_letters(facility: Instance) -> ExactAnswer:
    """The reviewer's my_lift2.py: elements keyed by their first two letters."""
    assert isinstance(facility, elevator.Facility)
    return exact(ElevatorBfs(), by_prefix(facility, 2))


def test_names_sharing_a_longer_prefix_expose_a_program_keying_elements_by_two_letters() -> None:
    facility = elevator.parse(NAME_DEPENDENT, "name-dependent")
    original = two_letters(facility)
    assert original == exact(ElevatorBfs(), facility) == Optimum(13)  # hydrogen and lithium do not collide
    caught = 0
    for seed in SEEDS:
        draws = distinct_draws(get_relation("elevator", "rename"), facility, random.Random(seed), 2)
        caught += any(d.expectation.broken(original, two_letters(d.instance)) for d in draws)
    assert caught >= 24, caught  # a prefix of one letter (1 in 8 draws) leaves it unseen


def test_new_names_reach_long_shared_prefixes_names_that_are_prefixes_and_parse_back() -> None:
    facility = elevator.generate(1, pairs=4, floors=4)
    prefixes, nested = set(), 0
    for seed in range(40):
        related = get_relation("elevator", "rename").derive(facility, random.Random(seed), None)
        if related.detail.startswith("names sharing the prefix"):
            assert isinstance(related.instance, elevator.Facility)
            names = related.instance.elements
            prefix = related.detail.split("'")[1]
            assert all(name.startswith(prefix) for name in names)
            prefixes.add(len(prefix))
            nested += any(a != b and b.startswith(a) for a in names for b in names)
            assert elevator.parse(related.text, related.instance.name) == related.instance
    assert max(prefixes) >= 5 and min(prefixes) <= 2 and nested, (prefixes, nested)


def test_reordering_changes_the_element_each_line_names_first() -> None:
    facility = elevator.parse(NAME_DEPENDENT, "name-dependent")
    for seed in SEEDS:
        related = get_relation("elevator", "reorder").derive(facility, random.Random(seed), None)
        first_line = related.text.splitlines()[0]
        assert first_line.startswith("The first floor contains a lithium"), first_line
        assert elevator.parse(related.text, facility.name) == facility


@pytest.mark.parametrize("seed", SEEDS)
def test_reordering_exposes_a_program_that_treats_the_first_listed_element_apart(seed: int) -> None:
    facility = elevator.parse(NAME_DEPENDENT, "name-dependent")
    original = claimed(first_listed_claim(facility))
    assert original == Optimum(12)  # hydrogen, named first, is apart: one less than 13
    [related] = distinct_draws(get_relation("elevator", "reorder"), facility, random.Random(seed), 1)
    assert isinstance(related.instance, elevator.Facility)
    assert related.expectation.broken(original, claimed(first_listed_claim(related.instance)))


@pytest.mark.parametrize("seed", SEEDS)
def test_a_letter_permutation_exposes_a_program_pairing_doors_with_keys_by_rank(seed: int) -> None:
    vault = keys.parse(DOOR_BEHIND, "door-behind")
    original = exact(KeysGrid(), doors_by_rank(vault))
    assert (original, exact(KeysGrid(), vault)) == (Optimum(3), NO_SOLUTION)
    related = get_relation("keys", "letters").derive(vault, random.Random(seed), None)
    assert isinstance(related.instance, keys.Vault)
    assert related.expectation.broken(original, exact(KeysGrid(), doors_by_rank(related.instance)))


def test_no_renaming_or_reordering_moves_an_item_so_pairing_by_appearance_goes_unseen() -> None:
    """The limit docs/hunting.md states: what my_lift.py reads (the i-th chip listed with
    the i-th generator listed) is the same facility for every related text."""
    for facility in facilities(30, seed=5):
        seen = paired_by_appearance(facility)
        read = (seen.floors, seen.chips, seen.generators)
        for name in ("rename", "reorder"):
            for related in distinct_draws(get_relation("elevator", name), facility, random.Random(3), 3):
                assert isinstance(related.instance, elevator.Facility)
                again = paired_by_appearance(related.instance)
                assert (again.floors, again.chips, again.generators) == read


@pytest.mark.parametrize(("puzzle", "name"), [("elevator", "rename"), ("elevator", "reorder"), ("keys", "letters")])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_built_ins_keep_the_strengthened_relations_on_many_draws(puzzle: str, name: str, seed: int) -> None:
    instances = facilities(40, seed=seed) if puzzle == "elevator" else vaults(60, seed=seed)
    verdict = check_relation(get_relation(puzzle, name), instances, seed=seed)
    assert verdict.broken == [] and verdict.checked >= 20, verdict


def test_morph_finds_the_two_letter_program_running_it_alone(tmp_path: Path) -> None:
    (tmp_path / "name-dependent.txt").write_text(NAME_DEPENDENT)
    script = f"elevator:twoletters={sys.executable} {EXTERNALS / 'elevator_two_letters.py'} {{path}}"
    result = CliRunner().invoke(main, ["morph", str(tmp_path / "name-dependent.txt"), "--external", script,
                                       "--relations", "rename", "--count", "2", "--seed", "1", "--time-limit", "60",
                                       "--out", str(tmp_path / "out")], catch_exceptions=False)
    assert result.exit_code == 1, result.output
    assert "names sharing the prefix" in result.output and "morph-mismatch: twoletters" in result.output
