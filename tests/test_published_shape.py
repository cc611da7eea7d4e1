"""Hunting and generating within the published inputs' shape (`--published-shape`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from crosscheck.harness.cli import main
from crosscheck.harness.records.record import read_records
from crosscheck.models.base import Instance
from crosscheck.models.elevator import model as elevator
from crosscheck.models.keys import model as keys
from crosscheck.models.puzzle import Shape
from crosscheck.models.registry import get_puzzle, puzzles
from hypothesis import HealthCheck, find, given, settings

PUZZLE_NAMES = sorted(puzzles())


@pytest.mark.parametrize("puzzle", PUZZLE_NAMES)
def test_every_draw_within_the_published_shape_has_it(puzzle: str) -> None:
    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(get_puzzle(puzzle).strategy({}, published=True))
    def check(instance: Instance) -> None:
        assert get_puzzle(puzzle).published_shape(instance) == "", instance.to_text()

    check()


@pytest.mark.parametrize("puzzle", PUZZLE_NAMES)
def test_without_the_switch_draws_leave_the_shape(puzzle: str) -> None:
    shape = get_puzzle(puzzle).published_shape
    found = find(get_puzzle(puzzle).strategy(), lambda instance: shape(instance) != "",
                 settings=settings(max_examples=500, database=None))
    assert shape(found)


def test_the_shape_is_kept_on_top_of_the_ranges() -> None:
    drawn = find(get_puzzle("elevator").strategy({"pairs": (2, 2)}, published=True), lambda facility: True)
    assert isinstance(drawn, elevator.Facility) and drawn.floors == 4 and len(drawn.elements) == 2
    for puzzle, ranges in (("elevator", {"floors": (2, 3)}), ("amphipods", {"depth": (3, 3)})):
        with pytest.raises(ValueError, match="published"):
            get_puzzle(puzzle).strategy(ranges, published=True)


def test_what_is_outside_the_shape_is_named() -> None:
    assert "key is absent: B" in keys.outside_published_shape(keys.parse("#####\n#@Ba#\n#####\n", "v"))
    assert "2 floors" in elevator.outside_published_shape(elevator.generate(1, pairs=2, floors=2))
    assert elevator.outside_published_shape(elevator.generate(1, pairs=2, floors=4)) == ""


def test_generate_refuses_an_instance_outside_the_shape(tmp_path: Path) -> None:
    runner = CliRunner()
    refused = runner.invoke(main, ["generate", "elevator", "-p", "floors=3", "--published-shape", "-o", str(tmp_path)])
    assert refused.exit_code == 2 and "seed 0: not of the published shape: 3 floors" in refused.output
    kept = runner.invoke(main, ["generate", "elevator", "--count", "2", "--published-shape", "-o", str(tmp_path)])
    assert kept.exit_code == 0 and json.loads((tmp_path / "family.json").read_text())["puzzle"] == "elevator"


def test_a_hunt_within_the_published_shape_judges_only_such_instances(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["hunt", "elevator", "--solver", "elevator-quotient", "--published-shape",
                                  "--examples", "4", "--seed", "2", "--out", str(tmp_path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    judged = [elevator.parse(path.read_text(), str(path)) for path in (tmp_path / "judged").glob("*.txt")]
    assert len(judged) == 4 and all(elevator.outside_published_shape(facility) == "" for facility in judged)
    assert {r.solver for r in read_records(tmp_path / "judged.jsonl")} == {"elevator-quotient"}
    refused = runner.invoke(main, ["hunt", "amphipods", "--published-shape", "-p", "depth=3", "--out", str(tmp_path)])
    assert refused.exit_code == 2 and "published" in refused.output




@pytest.mark.parametrize("puzzle", [name for name in PUZZLE_NAMES if get_puzzle(name).real_shapes])
def test_the_real_shapes_draw_instances_of_the_published_shape(puzzle: str) -> None:
    """`Puzzle.real_shapes` says how to draw instances like the published inputs' parts; they
    must be of the published shape (the variant applied where the shape says so)."""
    found = get_puzzle(puzzle)
    assert found.real_shapes
    for name, shape in found.real_shapes.items():
        instance = found.shaped(shape, 0)
        assert found.published_shape(instance) == "", (name, instance.to_text())


def test_a_shape_with_the_variant_is_the_variant_of_what_the_generator_draws() -> None:
    lifts = get_puzzle("elevator")
    assert lifts.shaped(Shape({"pairs": 2, "floors": 4}, variant=True), 3) == elevator.extended(
        elevator.generate(3, pairs=2, floors=4))
    assert lifts.shaped(Shape({"pairs": 2, "floors": 4}), 3) == elevator.generate(3, pairs=2, floors=4)


@pytest.mark.parametrize("puzzle", PUZZLE_NAMES)
def test_each_small_set_is_what_generate_writes_from_its_arguments(puzzle: str, tmp_path: Path) -> None:
    """`Sample.arguments` are the options of ``crosscheck generate`` that write the set: each
    file is the generator's instance of its seed and parameters."""
    found = get_puzzle(puzzle)
    assert found.small_sets
    for number, sample in enumerate(found.small_sets):
        folder = tmp_path / str(number)
        result = CliRunner().invoke(main, ["generate", puzzle, *sample.arguments(), "-o", str(folder)])
        assert result.exit_code == 0, result.output
        written = sorted(path.read_text() for path in folder.glob("*.txt"))
        expected = sorted(found.generate(seed, **sample.params).to_text()
                          for seed in range(sample.seed, sample.seed + sample.count))
        assert written == expected and len(written) == sample.count
