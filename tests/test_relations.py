"""Metamorphic relations: each holds on many seeded instances (answers from two built-in
formulations), related instances parse back from their text, and a relation that is no
law is caught."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from crosscheck.models.amphipods import model as amphipods
from crosscheck.models.amphipods.relations import states_along
from crosscheck.models.answers import NO_SOLUTION, Optimum
from crosscheck.models.elevator import model as elevator
from crosscheck.models.keys import model as keys
from crosscheck.models.keys.relations import SYMMETRIES
from crosscheck.models.registry import built_in_puzzles, get_relation, relations
from crosscheck.models.relations import NotApplicable, NotLarger, Offset, Related, Relation, Same

from planted.instances import burrows, facilities, vaults
from tests.fixtures.relation_checks import check_relation

INSTANCES: dict[str, Callable[[], Iterable[object]]] = {
    "keys": lambda: vaults(150), "amphipods": lambda: burrows(24), "elevator": lambda: facilities(120)}
#: Least number of pairs each relation must be judged on (the rest: no related instance or no answer).
LEAST = {"keys": 60, "amphipods": 12, "elevator": 25}

#: Every relation of the built-in puzzles (a plugin's are its own tests' to check: examples/tiles/tests).
CASES = [(puzzle, name) for puzzle in built_in_puzzles() for name in relations(puzzle)]


@pytest.mark.parametrize(("puzzle", "name"), CASES, ids=[f"{p}-{n}" for p, n in CASES])
def test_the_relation_holds_on_many_generated_instances(puzzle: str, name: str) -> None:
    verdict = check_relation(get_relation(puzzle, name), INSTANCES[puzzle](), seed=7)
    assert verdict.broken == []
    assert verdict.checked >= LEAST[puzzle], verdict


def remove_a_key(vault: keys.Vault, rng: random.Random, plan: Any = None) -> Related:
    """No law: a key removed (its cell floor), claimed to keep the optimum."""
    if not vault.keys:
        raise NotApplicable("no key to remove")
    letter = rng.choice(sorted(vault.keys))
    rows = tuple(row.replace(letter, ".") for row in vault.rows)
    return Related(keys.parse("\n".join(rows), f"{vault.name}~no-{letter}"), Same(), f"key {letter} removed")


def test_a_relation_that_is_no_law_is_caught() -> None:
    wrong = Relation("remove-a-key", "keys", remove_a_key)
    verdict = check_relation(wrong, vaults(40), seed=7)
    assert verdict.broken, verdict
    assert "expected the same answer" in verdict.broken[0]


def test_expectations_judge_answers() -> None:
    five, none = Optimum(5), NO_SOLUTION
    assert Same().broken(five, five) is None and Same().broken(none, none) is None
    assert "same answer" in (Same().broken(five, none) or "")
    assert NotLarger().broken(five, Optimum(3)) is None and NotLarger().broken(none, Optimum(9)) is None
    assert NotLarger().broken(five, Optimum(6)) and NotLarger().broken(five, none)
    assert Offset(3).broken(Optimum(10), Optimum(7)) is None
    assert Offset(3).broken(Optimum(10), Optimum(8)) and Offset(3).broken(none, Optimum(7))
    assert Offset(3).broken(Optimum(10), none)


def test_relations_are_reproducible_from_their_seed() -> None:
    vault = vaults(1, seed=3)[0]
    for relation in relations("keys").values():
        if not relation.needs_plan:
            first, second = (relation.derive(vault, random.Random(11), None) for _ in range(2))
            assert first.text == second.text and first.detail == second.detail


def test_the_symmetries_are_the_seven_other_images_of_a_rectangle() -> None:
    rows = ("#####", "#@ab#", "#A.c#", "#####")
    images = {transform(rows) for transform in SYMMETRIES.values()}
    assert len(images) == 7 and rows not in images
    assert SYMMETRIES["rotate 90"](rows) == ("####", "#A@#", "#.a#", "#cb#", "####")


def test_suffix_relations_need_a_plan_and_say_when_they_do_not_apply() -> None:
    vault = keys.parse("###\n#@#\n###\n", "v")
    for relation in (get_relation("keys", "suffix"), get_relation("amphipods", "suffix")):
        with pytest.raises(NotApplicable):
            relation.derive(vault, random.Random(0), None)
    with pytest.raises(NotApplicable):
        get_relation("keys", "suffix").derive(vault, random.Random(0), [])
    straight_up = elevator.parse("The first floor contains a x generator.\nThe second floor contains a "
                                 "x-compatible microchip.\n", "e")
    with pytest.raises(NotApplicable, match="never comes back"):
        get_relation("elevator", "suffix").derive(straight_up, random.Random(0), [("up", ["x generator"])])
    with pytest.raises(NotApplicable):
        get_relation("keys", "open-door").derive(vault, random.Random(0), None)


def test_the_vault_suffix_clears_keys_picked_up_on_the_way_and_their_doors() -> None:
    vault = keys.parse("#######\n#@abBA#\n#######\n", "v")
    seen: set[int] = set()
    for seed in range(20):
        related = get_relation("keys", "suffix").derive(vault, random.Random(seed), [(0, "E")] * 4)
        k = int(related.detail.split()[1])
        assert isinstance(related.instance, keys.Vault)
        assert related.instance.rows[1] == ["#.@bB.#", "#..@..#", "#...@.#", "#....@#"][k - 1]
        assert related.expectation == Offset(k)
        seen.add(k)
    assert seen == {1, 2, 3, 4}


def test_elevator_renaming_reaches_names_sharing_a_first_letter_and_any_lowercase_name() -> None:
    facility = elevator.generate(1, pairs=4, floors=4)
    initials = set()
    for seed in range(20):
        related = get_relation("elevator", "rename").derive(facility, random.Random(seed), None)
        if related.detail.startswith("names sharing"):
            assert isinstance(related.instance, elevator.Facility)
            initials.add(len({name[0] for name in related.instance.elements}))
    assert initials == {1}
    odd = ("and", "generator", "microchip", "nothing", "an", "a", "compatible")
    text = "".join(f"The {elevator.ordinal(i + 1)} floor contains an {name} generator and a {name}-compatible "
                   f"microchip.\n" for i, name in enumerate(odd)) + "The eighth floor contains nothing relevant.\n"
    parsed = elevator.parse(text, "odd")
    assert set(parsed.elements) == set(odd) and elevator.parse(parsed.to_text(), "odd") == parsed


def test_reordered_floor_lines_keep_their_order_in_the_text() -> None:
    facility = elevator.generate(4, pairs=5, floors=3)
    texts = {get_relation("elevator", "reorder").derive(facility, random.Random(seed), None).text for seed in range(5)}
    assert len(texts) > 1
    assert all(elevator.parse(text, facility.name) == facility for text in texts)


def test_the_burrow_suffix_skips_states_the_format_cannot_express() -> None:
    burrow = amphipods.parse("#############\n#...........#\n###A#B#C#D###\n  #A#B#C#D#\n  #########\n", "b")
    plan = [("A1", "H1"), ("A2", "A1"), ("A1", "A2"), ("H1", "A1")]  # A2 -> A1 leaves an empty cell below
    assert [state is None for _, state in states_along(burrow, plan)] == [False, False, True, False, False]
    related = get_relation("amphipods", "suffix").derive(burrow, random.Random(0), plan)
    assert related.detail in {"after 1 of 4 moves", "after 3 of 4 moves", "after 4 of 4 moves"}
