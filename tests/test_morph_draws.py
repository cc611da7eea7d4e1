"""Several related instances of one instance by one relation are several instances:
distinct from each other and from the original (as texts), fewer when the relation has
fewer images, said in the summary; `rename`'s draws of two elements hold their swap."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from crosscheck.harness.cli import main
from crosscheck.models.elevator import model as elevator
from crosscheck.models.keys import model as keys
from crosscheck.models.registry import get_relation
from crosscheck.models.relations import NotApplicable, distinct_draws

from tests.fixtures import INSTANCES

TWO_PAIRS = INSTANCES / "elevator/two-pairs-example.txt"
#: The shared examples' rtg/name-dependent.txt (optimum 13): a program that treats the
#: first element by name apart gets it wrong, and right once hydrogen and lithium swap.
NAME_DEPENDENT = ("The first floor contains a hydrogen generator, a lithium generator, and a lithium-compatible "
                  "microchip.\nThe second floor contains a hydrogen-compatible microchip.\n"
                  "The third floor contains nothing relevant.\nThe fourth floor contains nothing relevant.\n")
SWAP = "names permuted: hydrogen->lithium, lithium->hydrogen"
#: A planted program: exact, but one less when the alphabetically first element's chip
#: and generator start on different floors (it treats that element apart).
FIRST_NAME_APART = """
import sys
from pathlib import Path
from crosscheck.models.elevator.model import parse
from crosscheck.solvers.elevator.bfs import ElevatorBfs
facility = parse(Path(sys.argv[1]).read_text(), sys.argv[1])
result = ElevatorBfs().solve(facility)
print(result.cost - (facility.chips[0] != facility.generators[0]))
"""


def test_reorder_of_the_two_pairs_example_has_one_image_other_than_the_original() -> None:
    """Only the first floor holds two items: one other order, asked three times."""
    facility = elevator.parse(TWO_PAIRS.read_text(), "two")
    for seed in range(5):
        draws = distinct_draws(get_relation("elevator", "reorder"), facility, random.Random(seed), 3)
        assert [d.text != facility.to_text() for d in draws] == [True]


@pytest.mark.parametrize("seed", range(20))
def test_three_renamings_of_two_elements_are_distinct_and_hold_the_swap(seed: int) -> None:
    facility = elevator.parse(NAME_DEPENDENT, "name-dependent")
    draws = distinct_draws(get_relation("elevator", "rename"), facility, random.Random(seed), 3)
    texts = [d.text for d in draws]
    assert len(set(texts)) == 3 and facility.to_text() not in texts
    assert SWAP in [d.detail for d in draws]
    assert [d.detail for d in distinct_draws(get_relation("elevator", "rename"), facility, random.Random(seed),
                                             3)] == [d.detail for d in draws]  # the same seed, the same draws


def test_a_kind_that_cannot_apply_is_dropped_and_a_relation_that_cannot_raises() -> None:
    lone = elevator.parse("The first floor contains a tin generator.\nThe second floor contains a "
                          "tin-compatible microchip.\n", "lone")
    draws = distinct_draws(get_relation("elevator", "rename"), lone, random.Random(0), 2)
    assert len(draws) == 2 and all(d.detail.startswith("names sharing") for d in draws)
    vault = keys.parse("#####\n#@.a#\n#####\n", "v")
    assert [d.detail for d in distinct_draws(get_relation("keys", "ring"), vault, random.Random(0), 3)] == [
        "wall ring added"]
    with pytest.raises(NotApplicable):
        distinct_draws(get_relation("keys", "open-door"), vault, random.Random(0), 2)


def morph(out: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["morph", *args, "--time-limit", "60", "--out", str(out)],
                                catch_exceptions=False)
    return result.output


def test_morph_judges_distinct_related_instances_and_says_when_there_are_fewer(tmp_path: Path) -> None:
    output = morph(tmp_path, str(TWO_PAIRS), "--solver", "elevator-quotient", "--relations", "rename,reorder")
    original = TWO_PAIRS.read_text()
    texts = [path.read_text() for path in sorted((tmp_path / "related").rglob("*.txt"))]
    assert len(texts) == 4 and len(set(texts)) == 4 and original not in texts
    assert ("fewer related instances than asked: reorder on elevator/two-pairs-example.txt: "
            "1 distinct related instance (of 3 asked)") in output
    assert "4 pairs judged: 4 agree;" in output
    pairs = [json.loads(line) for line in (tmp_path / "morph-verdicts.jsonl").read_text().splitlines()]
    assert len({pair["related"] for pair in pairs}) == len(pairs) == 4


@pytest.mark.parametrize("seed", [65, 92, 122])
def test_rename_finds_a_program_that_treats_the_first_name_apart(tmp_path: Path, seed: int) -> None:
    """Seeds whose three draws, each kind drawn at random, were all new names keeping
    hydrogen's place first: the swap is drawn whatever the seed."""
    (tmp_path / "name-dependent.txt").write_text(NAME_DEPENDENT)
    (tmp_path / "first.py").write_text(FIRST_NAME_APART)
    output = morph(tmp_path / "out", str(tmp_path / "name-dependent.txt"), "--external",
                   f"elevator:first={sys.executable} {tmp_path / 'first.py'} {{path}}", "--relations", "rename",
                   "--seed", str(seed))
    assert f"~rename ({SWAP}): morph-mismatch: first: expected the same answer, got 12 and 13" in output, output
