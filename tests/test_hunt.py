"""`crosscheck hunt`: strategies that build valid instances, and hunts that find and
shrink a counterexample for each planted wrong formulation (planted/hunt_solvers.py as
plugins, planted/externals/ as external programs).

The default suite hunts on small size ranges, bounded by numbers of instances judged (the
same instances on any machine, so a hunt finds its planted mistake or not whatever the
machine's speed); the hunts over the full ranges, with the seconds docs/results.md states
(they measure search power), are marked slow.  Runs go through the real isolation, like
`compare`.
"""

from __future__ import annotations

import io
import itertools
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import crosscheck.harness.runs.batch
import crosscheck.harness.workflows.hunt
import crosscheck.harness.workflows.hunt_summary
import crosscheck.solvers.registry
import pytest
from click.testing import CliRunner
from crosscheck.harness.cli import main
from crosscheck.harness.judging.verdicts import judge
from crosscheck.harness.records.record import RunRecord, Task, read_records
from crosscheck.models.amphipods import model as amphipods
from crosscheck.models.elevator import model as elevator
from crosscheck.models.elevator import strategies as facility_strategies
from crosscheck.models.keys import model as keys
from crosscheck.models.keys import strategies as vault_strategies
from crosscheck.models.puzzle import parse_range, parse_ranges
from crosscheck.models.registry import get_puzzle, puzzles
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st

from planted.externals import EXTERNALS
from tests.fixtures import INSTANCES


@pytest.fixture(autouse=True)
def plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the planted formulations for the runs (the registry is restored afterwards)."""
    monkeypatch.setenv("CROSSCHECK_SOLVERS", "planted.hunt_solvers")
    monkeypatch.setattr(crosscheck.solvers.registry, "SOLVERS", dict(crosscheck.solvers.registry.SOLVERS))


def hunt(out: Path, puzzle: str, *args: str, examples: int = 100, seconds: float | None = None) -> tuple[int, str]:
    """`crosscheck hunt` with seed 1, judging at most `examples` instances and 50 more while
    shrinking, or, with `seconds`, searching and shrinking that long each instead."""
    limits = (["--examples", str(examples), "--shrink-examples", "50"] if seconds is None
              else ["--budget", str(seconds), "--shrink-budget", str(seconds)])
    result = CliRunner().invoke(main, ["hunt", puzzle, "--out", str(out), *limits, "--seed", "1",
                                       "--time-limit", "10", *args], catch_exceptions=False)
    return result.exit_code, result.output


def external(script: str) -> str:
    return f"{sys.executable} {EXTERNALS / script} {{path}}"


# --- strategies ---------------------------------------------------------------------------

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)


@pytest.mark.parametrize("puzzle", sorted(puzzles()))
def test_every_drawn_instance_is_valid_and_parses_back(puzzle: str) -> None:
    @SETTINGS
    @given(get_puzzle(puzzle).strategy())
    def check(instance: keys.Vault | amphipods.Burrow | elevator.Facility) -> None:
        text = instance.to_text()
        assert puzzles()[puzzle].detect(text)
        assert puzzles()[puzzle].parse(text, "drawn").to_text() == text

    check()


def _doors(vault: keys.Vault) -> set[str]:
    return {char for row in vault.rows for char in row if char.isupper()}


def _behind_own_door(vault: keys.Vault) -> bool:
    """A key whose every neighbour is a wall or its own door."""
    return any(all(vault.at(cell) in ("#", key.upper()) for _, cell in _around(cell_of))
               and any(vault.at(cell) == key.upper() for _, cell in _around(cell_of))
               for key, cell_of in vault.keys.items())


def _around(cell: tuple[int, int]) -> list[tuple[str, tuple[int, int]]]:
    return [(d, (cell[0] + dr, cell[1] + dc)) for d, (dr, dc) in keys.DIRECTIONS.items()]


def _has_loop(vault: keys.Vault) -> bool:
    """Some 2x2 block of open cells (the smallest cycle)."""
    return any(all(vault.at((r + dr, c + dc)) != "#" for dr in (0, 1) for dc in (0, 1))
               for r in range(vault.height) for c in range(vault.width))


def _waiting_quadrants(vault: keys.Vault) -> bool:
    """Four robots, and two quadrants each with a door whose key lies in the other."""
    if len(vault.robots) != 4:
        return False
    middle = (sum(r for r, _ in vault.robots) / 4, sum(c for _, c in vault.robots) / 4)

    def quadrant(cell: tuple[int, int]) -> tuple[bool, bool]:
        return cell[0] < middle[0], cell[1] < middle[1]

    waits = {(quadrant((r, c)), quadrant(vault.keys[char.lower()])) for r, row in enumerate(vault.rows)
             for c, char in enumerate(row) if char.isupper() and char.lower() in vault.keys}
    return any(a != b and (b, a) in waits for a, b in waits)


COVERAGE = {
    "keys": {
        "a door whose key is absent": lambda v: bool({d.lower() for d in _doors(v)} - set(v.keys)),
        "a key behind its own door": _behind_own_door,
        "a loop": _has_loop,
        "one robot": lambda v: len(v.robots) == 1,
        "four robots": lambda v: len(v.robots) == 4,
        "quadrants waiting for each other's keys": _waiting_quadrants,
        "keys out of reach": lambda v: keys.collectable_keys(v) != set(v.keys),
    },
    "amphipods": {
        "depth 1": lambda b: b.depth == 1,
        "depth 5": lambda b: b.depth == 5,
        "settled amphipods, not all": lambda b: 0 < sum(amphipods.settled(b)) < 4 * b.depth,
    },
    "elevator": {
        "an unsafe start": lambda f: not elevator.all_safe(f.chips, f.generators),
        "2 floors": lambda f: f.floors == 2,
        "6 floors": lambda f: f.floors == 6,
        "1 pair": lambda f: len(f.elements) == 1,
        "6 pairs, safe": lambda f: len(f.elements) == 6 and elevator.all_safe(f.chips, f.generators),
        "items on the top floor": lambda f: f.top in f.chips + f.generators,
    },
}


@pytest.mark.parametrize("puzzle, feature", [(p, f) for p, features in COVERAGE.items() for f in features])
def test_the_strategies_cover_the_rule_space(puzzle: str, feature: str) -> None:
    find(get_puzzle(puzzle).strategy(), COVERAGE[puzzle][feature],
         settings=settings(max_examples=2000, database=None, phases=[Phase.generate]))  # found: enough


@settings(max_examples=300, database=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=7))
def test_a_safe_start_moves_only_the_chips_that_would_be_fried(pairs: list[tuple[int, int]]) -> None:
    chips, generators = zip(*facility_strategies._safe_start(pairs), strict=True) if pairs else ((), ())
    assert elevator.all_safe(chips, generators)
    assert list(generators) == [generator for _, generator in pairs]
    for (chip, generator), moved in zip(pairs, chips, strict=True):
        fried = chip != generator and chip in generators
        assert moved == (generator if fried else chip)


def test_most_drawn_facilities_with_three_pairs_or_more_start_safe() -> None:
    """Uniform floors give about a third of them a safe start; the safe-start flag raises
    that to more than half (the planted elevator mistakes show only from safe starts)."""
    drawn: list[bool] = []

    @settings(max_examples=400, database=None, phases=[Phase.generate], derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(get_puzzle("elevator").strategy())
    def draw(facility: elevator.Facility) -> None:
        if len(facility.elements) >= 3:
            drawn.append(elevator.all_safe(facility.chips, facility.generators))

    draw()
    assert sum(drawn) > len(drawn) / 2, f"{sum(drawn)} of {len(drawn)} start safe"


def _crossed(rows: list[str], letters: str) -> list[str]:
    grid = [list(row) for row in rows]
    vault_strategies._crossed_doors(grid, letters)
    return ["".join(row) for row in grid]


def _vault(rows: list[str]) -> keys.Vault:
    border = "#" * (len(rows[0]) + 2)
    return keys.parse("\n".join([border, *(f"#{row}#" for row in rows), border]))


def test_crossed_doors_make_the_quadrants_wait_for_each_other_in_a_cycle() -> None:
    """Each quadrant's farthest key (or a new one on its farthest cell, while letters
    last) goes behind a door of the next quadrant's key: here no key can ever be taken,
    while each quadrant alone, other quadrants' doors open, takes two steps."""
    crossed = _crossed(["a.@#@.b", "#######", "..@#@.."], "abc")
    assert crossed == ["aB@#@Cb", "#######", "cA@#@.."]
    assert keys.collectable_keys(_vault(crossed)) == set()
    one = ["a.@#@..", "#######", "..@#@.."]  # one quadrant with a key, no letter left: no cycle
    assert _crossed(one, "a") == one


def test_crossed_doors_leave_a_longer_way_round_where_there_is_one() -> None:
    """The door goes nearest the key where the robot can still go round it, the longer
    way: one robot must take that detour (optimum 8, the per-quadrant sum 6).  Where two
    shortest ways lead to the key and none round, each gets a door."""
    rows = ["#...#...#", "b..@#@..a", "#########", "...@#@...", "....#...."]
    crossed = _crossed(rows, "ab")
    assert crossed == ["#...#...#", "b.A@#@B.a", *rows[2:]]
    assert crosscheck.solvers.registry.get_solver("keys-graph").solve(_vault(crossed)).cost == 8
    crossed = _crossed([".a.####", "..@#@.b", "#######", "..@#@..", "...#..."], "ab")
    assert crossed == [".aB####", ".B@#@Ab", "#######", "..@#@..", "...#..."]
    assert keys.collectable_keys(_vault(crossed)) == set()


def test_size_ranges_are_checked() -> None:
    assert parse_range("2-4") == (2, 4) and parse_range("3") == (3, 3)
    assert parse_ranges(["pairs=3", "floors=2-4"]) == {"pairs": (3, 3), "floors": (2, 4)}
    assert get_puzzle("elevator").ranges({"floors": (2, 3)})["pairs"] == (1, 6)
    for puzzle, given_ranges in (("elevator", {"lifts": (1, 2)}), ("elevator", {"floors": (3, 2)}),
                                 ("keys", {"robots": (2, 3)}), ("amphipods", {"depth": (0, 2)})):
        with pytest.raises(ValueError):
            get_puzzle(puzzle).strategy(given_ranges)
    for malformed in ("two", "3-", "-3", "2-x"):
        with pytest.raises(ValueError):
            parse_range(malformed)
    with pytest.raises(ValueError):
        parse_ranges(["floors=two"])


def _interior(vault: keys.Vault) -> tuple[int, int]:
    return len(vault.rows) - 2, len(vault.rows[0]) - 2


@pytest.mark.parametrize(("puzzle", "asked"), [
    ("keys", {"keys": (2, 4), "robots": (4, 4)}), ("keys", {"keys": (3, 3), "height": (1, 2), "width": (1, 3)}),
    ("keys", {"keys": (5, 5), "height": (3, 3), "width": (3, 4), "robots": (1, 4)}), ("keys", {}),
    ("amphipods", {"depth": (2, 3)}), ("elevator", {"floors": (3, 4), "pairs": (2, 3)})])
def test_every_drawn_instance_is_within_each_range_given(puzzle: str, asked: dict[str, tuple[int, int]]) -> None:
    """What -p bounds is what a drawn instance has: its features (the hunt's summary shows
    them) and a vault's interior, whatever else the strategy does to the grid."""
    chosen = get_puzzle(puzzle).ranges(asked)

    @SETTINGS
    @given(get_puzzle(puzzle).strategy(asked))
    def check(instance: keys.Vault | amphipods.Burrow | elevator.Facility) -> None:
        features = puzzles()[puzzle].features(instance)
        sizes = {**features, **(dict(zip(("height", "width"), _interior(instance), strict=True))
                                if isinstance(instance, keys.Vault) else {})}
        for name, (low, high) in chosen.items():
            assert low <= sizes[name] <= high, (name, instance.to_text())

    check()


def test_a_key_range_no_vault_in_the_ranges_has_room_for_is_refused() -> None:
    with pytest.raises(ValueError, match=r"keys=3-4: a vault of at most 1x2 inside the wall has room for 1 key"):
        get_puzzle("keys").strategy({"height": (1, 1), "width": (1, 2), "keys": (3, 4)})
    with pytest.raises(ValueError, match=r"robots=4: four robots need a vault of at least 3x3 inside the wall"):
        get_puzzle("keys").strategy({"height": (1, 2), "robots": (4, 4)})


@pytest.mark.parametrize(("puzzle", "name", "most"), [
    ("keys", "height", keys.MAX_SIZE - 2), ("keys", "width", keys.MAX_SIZE - 2), ("keys", "keys", keys.MAX_KEYS),
    ("amphipods", "depth", amphipods.MAX_DEPTH), ("elevator", "floors", elevator.MAX_ORDINAL),
    ("elevator", "pairs", len(elevator.ELEMENT_NAMES))])
def test_hunt_ranges_are_bounded_as_generate_bounds_its_parameters(tmp_path: Path, puzzle: str, name: str,
                                                                   most: int) -> None:
    """Up to the bound `generate` holds the parameter to is drawn; one more is refused before
    anything is drawn (exit 2), naming the parameter, the range given and the allowed one."""
    assert get_puzzle(puzzle).ranges({name: (1, most)})[name] == (1, most)
    result = CliRunner().invoke(main, ["hunt", puzzle, "-p", f"{name}=1-{most + 1}", "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    least = next(size.least for size in get_puzzle(puzzle).sizes if size.name == name)
    assert result.output.splitlines()[-1].endswith(f"{name}=1-{most + 1}: out of range, expected {least} to {most}")
    assert not (tmp_path / "out").exists()


# --- hunts (default suite: small ranges) ----------------------------------------------------

def _check_found(out: Path, puzzle: str, output: str, verdicts: tuple[str, ...]) -> None:
    """The hunt wrote a shrunk counterexample no larger than the one it found (by the sum
    of the puzzle's size measures: a wider grid with fewer open cells is smaller), and its
    records still show the same kind of wrong verdict."""
    assert "Counterexample (" in output and any(f"({v})" in output for v in verdicts), output

    def size(name: str) -> int:
        return sum(puzzles()[puzzle].features(puzzles()[puzzle].parse((out / name).read_text(), name)).values())

    assert size(f"counterexample-{puzzle}.txt") <= size(f"counterexample-{puzzle}-as-found.txt")
    records = read_records(out / "runs.jsonl")
    assert judge(records).verdict in verdicts
    assert {r.instance for r in records} == {f"counterexample-{puzzle}.txt"}


NODOWN2 = ("--solver", "elevator-quotient", "-p", "pairs=3", "-p", "floors=2")


def test_an_external_plan_that_never_carries_two_items_down_is_caught(tmp_path: Path) -> None:
    status, output = hunt(tmp_path, "elevator", *NODOWN2, "--external", f"nodown2={external('elevator_nodown2.py')}")
    assert status == 1
    _check_found(tmp_path, "elevator", output, ("false-optimal", "false-infeasible"))
    assert "nodown2 " in output and "[claim]" in output


def test_a_later_hunt_replays_the_counterexample_first(tmp_path: Path) -> None:
    args = (*NODOWN2, "--external", f"nodown2={external('elevator_nodown2.py')}", "--db", str(tmp_path / "db"))
    assert hunt(tmp_path / "first", "elevator", *args)[0] == 1
    status, output = hunt(tmp_path / "again", "elevator", *args, "--seed", "7")
    assert status == 1 and "after 1 instance " in output
    assert (tmp_path / "again" / "counterexample-elevator.txt").read_text() == (
        tmp_path / "first" / "counterexample-elevator.txt").read_text()


def _interrupt_runs(monkeypatch: pytest.MonkeyPatch, when: Callable[[int], bool]) -> None:
    """Run the hunt's solvers in this process (fast) and raise KeyboardInterrupt, as Ctrl-C
    would, on the calls to `run_tasks` that `when` picks (counted from 1)."""
    calls = itertools.count(1)

    def runs(*args: Any, **kwargs: Any) -> list[RunRecord]:
        if when(next(calls)):
            raise KeyboardInterrupt
        return crosscheck.harness.runs.batch.run_tasks(*args, **kwargs, isolate=False)

    monkeypatch.setattr(crosscheck.harness.workflows.hunt, "run_tasks", runs)


ONEPATH_SMALL = ("--solver", "keys-graph", "--solver", "keys-onepath",
                 "-p", "height=1-3", "-p", "width=2-3", "-p", "keys=1-2", "-p", "robots=1")


def test_an_interrupted_hunt_keeps_the_smallest_counterexample_so_far(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    found = tmp_path / "counterexample-keys-as-found.txt"
    _interrupt_runs(monkeypatch, lambda call: found.exists() and call % 5 == 0)  # some way into shrinking
    db = tmp_path / "db"
    status, output = hunt(tmp_path, "keys", *ONEPATH_SMALL, "--db", str(db), "--seed", "2")  # finds one in 100
    assert status == 1 and "Smallest so far (shrinking was interrupted)" in output
    _check_found(tmp_path, "keys", output, ("false-infeasible", "false-optimal"))
    saved = list(db.glob("*/*.txt"))  # the smallest so far replaced the one as found in the database
    assert [path.read_text() for path in saved] == [(tmp_path / "counterexample-keys.txt").read_text()]


def test_a_hunt_interrupted_before_any_counterexample_exits_130(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    _interrupt_runs(monkeypatch, lambda call: call == 3)
    status, output = hunt(tmp_path, "keys", *ONEPATH_SMALL)
    assert status == 130
    assert "No wrong verdict on 2 keys instances" in output and "before the hunt was interrupted" in output
    assert not list(tmp_path.glob("counterexample-*"))


@pytest.mark.slow
def test_a_vault_solver_taking_doors_from_one_shortest_path_is_caught_on_small_vaults(tmp_path: Path) -> None:
    status, output = hunt(tmp_path, "keys", "--solver", "keys-graph", "--solver", "keys-onepath",
                          "-p", "height=1-3", "-p", "width=2-3", "-p", "keys=1-2", "-p", "robots=1", seconds=120)
    assert status == 1
    _check_found(tmp_path, "keys", output, ("false-infeasible", "false-optimal"))


def test_no_counterexample_exits_0_and_says_what_was_tried(tmp_path: Path) -> None:
    status, output = hunt(tmp_path, "elevator", "--solver", "elevator-quotient", "--solver", "elevator-bfs",
                          "-p", "pairs=1", "-p", "floors=2", examples=20)
    assert status == 0
    assert "No wrong verdict on" in output and "pairs 1" in output and "floors 2" in output
    assert "Hypothesis ran out of distinct instances" in output
    assert output.endswith("\nFinding none is no evidence that the formulations are right: a wrong answer may need an "
                           "instance this search did not draw. Try wider -p ranges or --morph.\n")
    assert not (tmp_path / "counterexample-elevator.txt").exists()


def test_the_advice_after_an_exhausted_hunt_with_morph_reads_as_one_choice() -> None:
    """Hypothesis ran out of instances and ``--morph`` was given: one thing left to try."""
    outcome, config = SimpleNamespace(exhausted=True), SimpleNamespace(seed=1, morph=("rename",))
    not_evidence: Any = crosscheck.harness.workflows.hunt_summary._not_evidence
    assert not_evidence(outcome, config).endswith(" Try wider -p ranges.")


def test_every_judged_instance_and_its_runs_are_kept_and_a_later_hunt_numbers_after_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A crash is not a wrong answer, so the hunt goes on; the instance that made it is on
    disk with the error record naming it, next to every other instance judged."""
    _interrupt_runs(monkeypatch, lambda call: False)
    args = ("--solver", "elevator-quotient", "--solver", "elevator-crashes", "-p", "pairs=1-2", "-p", "floors=2-3")
    status, output = hunt(tmp_path, "elevator", *args, examples=8)
    assert status == 3 and "runs crashed or ran out of memory (their instances are in judged/" in output
    assert "No wrong verdict on 8 elevator instances" in output and "within the budget (8 instances)" in output
    assert ("Finding none is no evidence that the formulations are right: a wrong answer may need an instance this "
            "search did not draw. Try a larger --budget (or --examples), another --seed, narrower -p ranges around "
            "the sizes you suspect or --morph.") in output
    records = read_records(tmp_path / "judged.jsonl")
    files = sorted((tmp_path / "judged").glob("hunt-*.txt"))
    tried = 8
    assert len(files) == tried and len(records) == 2 * tried
    assert {record.instance for record in records} == {path.name for path in files}
    crashed = [record for record in records if record.status == "error"]
    assert crashed and all("planted crash" in record.message for record in crashed)
    for record in crashed:
        facility = elevator.parse((tmp_path / "judged" / record.instance).read_text(), record.instance)
        assert len(facility.elements) >= 2
    hunt(tmp_path, "elevator", *args, "--seed", "2", examples=4)
    numbers = sorted(int(path.stem.split("-")[1]) for path in (tmp_path / "judged").glob("hunt-*.txt"))
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) > tried
    assert len(read_records(tmp_path / "judged.jsonl")) == 2 * len(numbers)


def test_compare_on_the_hunted_instances_catches_a_stop_above_a_room(tmp_path: Path) -> None:
    """The burrow a hunt found against amphipods-aboverooms stays in instances/ for compare."""
    result = CliRunner().invoke(main, ["compare", str(INSTANCES / "amphipods" / "hunted"), "--solver", "amphipods-search",
                                       "--solver", "amphipods-aboverooms", "--out", str(tmp_path / "runs.jsonl")],
                                catch_exceptions=False)
    assert result.exit_code == 1 and "invalid-plan" in result.output and "directly above a room" in result.output


def test_compare_catches_the_sum_of_region_optima_on_a_published_vault(tmp_path: Path) -> None:
    """The per-region external's bare claim (70) falls below keys-graph's proven optimum (72)
    on a published vault, a detour the hunt's crossed doors rarely draw (see docs/hunting.md)."""
    result = CliRunner().invoke(main, ["compare", str(INSTANCES / "keys" / "four-robots-4.txt"), "--solver",
                                       "keys-graph", "--external", f"regions={external('keys_regions.py')}",
                                       "--out", str(tmp_path / "runs.jsonl")], catch_exceptions=False)
    assert result.exit_code == 1 and "regions claimed optimum 70 below keys-graph's lower bound 72" in result.output


REGIONS_SMALL = ("-p", "robots=4", "-p", "keys=2-3", "-p", "height=3-5", "-p", "width=5-7")


def test_a_sum_of_region_optima_is_caught_on_small_four_robot_vaults(tmp_path: Path) -> None:
    """Crossed doors make quadrants wait for each other's keys in a cycle; the per-region
    sum, other quadrants' doors open, claims an optimum where there is none or below it."""
    status, output = hunt(tmp_path, "keys", "--solver", "keys-graph", "--external",
                          f"regions={external('keys_regions.py')}", *REGIONS_SMALL, examples=30)
    assert status == 1, output
    _check_found(tmp_path, "keys", output, ("disagree",))


@pytest.mark.slow
@pytest.mark.parametrize("seed, ranges", [
    ("1", ("-p", "keys=3-5", "-p", "height=5-7", "-p", "width=7-9")),
    ("2", ("-p", "keys=3-5", "-p", "height=5-7", "-p", "width=7-9")),
    ("3", ()),
], ids=["narrowed-seed-1", "narrowed-seed-2", "default-ranges-seed-3"])
def test_a_sum_of_region_optima_is_caught_on_four_robot_vaults(tmp_path: Path, seed: str,
                                                              ranges: tuple[str, ...]) -> None:
    """The hunt of docs/results.md's table, with more than the one seed that found it before
    crossed doors (see docs/results.md), and over the default ranges."""
    status, output = hunt(tmp_path, "keys", "--solver", "keys-graph", "--external",
                          f"regions={external('keys_regions.py')}", "-p", "robots=4", *ranges, "--seed", seed,
                          seconds=120)
    assert status == 1, output
    _check_found(tmp_path, "keys", output, ("disagree",))


def test_compare_catches_the_sum_of_region_optima_on_the_hunted_vault(tmp_path: Path) -> None:
    """The vault the hunt found against the per-region external stays in instances/."""
    result = CliRunner().invoke(main, ["compare", str(INSTANCES / "keys" / "hunted" / "four-robots-detour.txt"),
                                       "--solver", "keys-graph", "--external", f"regions={external('keys_regions.py')}",
                                       "--out", str(tmp_path / "runs.jsonl")], catch_exceptions=False)
    assert result.exit_code == 1 and "regions claimed optimum 4 below keys-graph's lower bound 6" in result.output


# --- hunts over the full ranges (slow; seconds as stated in docs/results.md) ------------

@pytest.mark.slow
@pytest.mark.parametrize("puzzle, args, verdicts", [
    ("keys", ("--solver", "keys-graph", "--solver", "keys-onepath"), ("false-infeasible", "false-optimal")),
    ("elevator", ("--solver", "elevator-quotient", "--external", f"nodown2={external('elevator_nodown2.py')}"),
     ("false-optimal", "false-infeasible")),
    ("elevator", ("--solver", "elevator-quotient", "--solver", "elevator-leftfloor"), ("invalid-plan",)),
    ("amphipods", ("--solver", "amphipods-search", "--solver", "amphipods-hallhops", "-p", "depth=1-3"),
     ("invalid-plan", "disagree")),
    ("amphipods", ("--solver", "amphipods-search", "--solver", "amphipods-aboverooms", "-p", "depth=1-3"),
     ("invalid-plan", "disagree")),
], ids=["keys-onepath", "elevator-nodown2", "elevator-leftfloor", "amphipods-hallhops",
        "amphipods-aboverooms"])
def test_each_planted_formulation_is_caught_over_the_full_ranges(tmp_path: Path, puzzle: str, args: tuple[str, ...],
                                                                verdicts: tuple[str, ...]) -> None:
    status, output = hunt(tmp_path, puzzle, *args, seconds=300)
    assert status == 1, output
    _check_found(tmp_path, puzzle, output, verdicts)


def _hunt_streams(out: Path, mode: str | None, *args: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of a small seeded hunt, with ``--progress mode`` (None: the default)."""
    progress = [] if mode is None else ["--progress", mode]
    result = CliRunner().invoke(main, ["hunt", "elevator", "--out", str(out), "--examples", "4", "--seed", "1",
                                       "--time-limit", "10", "--solver", "elevator-quotient", "--solver",
                                       "elevator-bfs", "-p", "pairs=1", "-p", "floors=2", *progress, *args],
                                catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_hunt_progress_lines_show_each_instance_judged_on_stderr_only(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    quiet = _hunt_streams(tmp_path / "none", "none")
    default = _hunt_streams(tmp_path / "default", None)  # auto, and stderr is no terminal here
    monkeypatch.setenv("CROSSCHECK_PROGRESS", "lines")
    loud = _hunt_streams(tmp_path / "lines", None)
    assert quiet[0] == loud[0] == default[0] == 0
    assert quiet[1] == loud[1] == default[1] and "No wrong verdict on 4 elevator instances" in quiet[1]
    assert quiet[2] == default[2] == ""
    lines = loud[2].splitlines()
    assert [line.split()[:2] for line in lines] == [[f"[{n}]", f"hunt-{n}.txt"] for n in range(1, 5)]
    assert all("(pairs 1, floors 2" in line and ": agree: " in line and "elevator-bfs" in line for line in lines)
    assert "\x1b" not in loud[2]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_hunt_progress_draws_a_live_line_on_a_terminal_and_counts_shrinking_apart(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from crosscheck.harness.reports.hunt_progress import HuntProgress

    monkeypatch.setenv("COLUMNS", "200")  # the terminal's width: the live line is cut to it
    now = [0.0]
    terminal, log = _Terminal(), io.StringIO()
    live, lines = (HuntProgress("auto", stream, now=lambda: now[0]) for stream in (terminal, log))
    for progress in (live, lines):
        progress.judging("hunt-1.txt", shrinking=False)
        now[0] += 2.0
        progress.judged("hunt-1.txt", {"robots": 1}, "false-optimal: a claims 8, b proves 10", shrinking=False,
                        drawn="with swap seed 3")
        progress.judging("hunt-2.txt", shrinking=True)
        progress.judged("hunt-2.txt", {"robots": 1}, "false-optimal: a claims 6, b proves 8", shrinking=True)
        progress.close()
    assert log.getvalue() == ""  # auto, and no terminal
    drawn = terminal.getvalue()
    assert drawn.count("\r\x1b[K") == 4 and drawn.endswith("\n") and "\n" not in drawn[:-1]
    last = drawn.rsplit("\r\x1b[K", 1)[1]
    assert last.startswith("hunt: 1 judged (1 shrinking), elapsed 0:00:02")
    assert "last hunt-2.txt: false-optimal: a claims 6" in last
    assert "judging hunt-2.txt (shrinking)" in drawn
    monkeypatch.setenv("COLUMNS", "30")
    narrow = _Terminal()
    HuntProgress("auto", narrow).judged("hunt-1.txt", {"robots": 1}, "agree: " + "x" * 80, shrinking=False)
    assert len(narrow.getvalue()) == len("\r\x1b[K") + 29  # one screen line, or \r would not go back over it
    plain = io.StringIO()
    shown = HuntProgress("lines", plain, now=lambda: now[0])
    shown.judging("hunt-1.txt", shrinking=False)
    now[0] += 1.5
    shown.judged("hunt-1.txt", {"robots": 1}, "false-optimal: a claims 8\nmore", shrinking=False, drawn="with swap seed 3")
    shown.judging("hunt-2.txt", shrinking=True)
    now[0] += 0.5
    shown.judged("hunt-2.txt", {"robots": 1}, "false-optimal: a claims 6", shrinking=True)
    assert plain.getvalue().splitlines() == ["[1] hunt-1.txt with swap seed 3 (robots 1) 1.5 s: false-optimal: a claims 8",
                                             "[shrinking 1] hunt-2.txt (robots 1) 0.5 s: false-optimal: a claims 6"]
    with pytest.raises(ValueError, match="unknown progress mode"):
        HuntProgress("loud")


def test_a_formulation_of_another_puzzle_is_refused_before_the_hunt(tmp_path: Path) -> None:
    """A hunt whose formulations cannot run on its puzzle would spend its budget on
    `unsupported` runs and report no wrong verdict: it is a usage error instead."""
    status, output = hunt(tmp_path / "out", "elevator", "--solver", "keys-graph", examples=3)
    assert status == 2 and "keys-graph is a formulation of keys, and hunt elevator draws only elevator" in output
    status, output = hunt(tmp_path / "out", "elevator", "--external", "keys:mine=" + external("keys_regions.py"),
                          examples=3)
    assert status == 2 and "keys:mine runs on keys instances only" in output
    assert not (tmp_path / "out").exists()


def test_the_summary_counts_every_run_without_an_answer_per_formulation(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Crashes and declined instances are no wrong verdict, but the summary says how many
    runs of whom gave no answer."""
    _interrupt_runs(monkeypatch, lambda call: False)
    declines = tmp_path / "declines.py"
    declines.write_text("print('unsupported')\n")
    status, output = hunt(tmp_path / "out", "elevator", "--solver", "elevator-quotient", "--solver", "elevator-crashes",
                          "--external", f"mine={sys.executable} {declines} {{path}}", "-p", "pairs=2", "-p", "floors=2",
                          examples=3)
    assert status == 3 and "No wrong verdict on 3 elevator instances" in output  # 3: runs crashed
    assert "Runs without an answer: elevator-crashes 3 of 3 (3 error); mine 3 of 3 (3 unsupported)." in output
    assert "elevator-quotient" not in output.partition("Runs without an answer")[2]  # it answered every time


def test_a_hunt_whose_runs_all_crashed_exits_3_not_0(tmp_path: Path) -> None:
    """Like compare and morph: no counterexample, but runs crashed, is no clean result."""
    crash = tmp_path / "crash.py"
    crash.write_text("raise SystemExit('cannot parse')\n")
    status, output = hunt(tmp_path / "out", "elevator", "--external", f"cr={sys.executable} {crash} {{path}}",
                          "-p", "pairs=1", examples=2)
    assert "No wrong verdict" in output and "cr 2 of 2 (2 error)" in output
    assert status == 3


def test_a_program_that_fails_alike_on_its_first_runs_stops_the_hunt_with_why(tmp_path: Path) -> None:
    """A program that never ran (its file missing) fails the same way every time: the hunt
    stops after its first `SAME_FAILURES_TO_STOP` runs rather than spend its budget, exit 3,
    and the summary says why runs failed, as compare does."""
    missing = tmp_path / "my_vault.py"
    status, output = hunt(tmp_path / "out", "keys", "--solver", "keys-graph",
                          "--external", f"mine={sys.executable} {missing} {{path}}", "-p", "robots=1", examples=40)
    stop = crosscheck.harness.workflows.hunt.SAME_FAILURES_TO_STOP
    assert status == 3
    assert f"mine failed the same way on each of its first {stop} runs, before any answer: mine (" in output
    assert f"Runs without an answer: mine {stop} of {stop} ({stop} error)." in output
    [reason] = [line for line in output.splitlines() if line.startswith("mine: ")]
    assert reason.startswith(f"mine: {stop} error runs; on hunt-1.txt: mine (") and "my_vault.py" in reason
    assert len(read_records(tmp_path / "out" / "judged.jsonl")) == 2 * stop  # keys-graph's and mine's
    assert "Try a larger --budget" not in output and "Fix the program or its command" in output


def test_a_program_that_fails_otherwise_or_answers_first_does_not_stop_the_hunt(tmp_path: Path) -> None:
    """Failures that differ, or come after an answer, are the program's own: the hunt goes on."""
    flaky = tmp_path / "flaky.py"
    flaky.write_text("import sys, random\nsys.exit(f'bad luck {random.random()}')\n")
    status, output = hunt(tmp_path / "out", "elevator", "--solver", "elevator-quotient",
                          "--external", f"mine={sys.executable} {flaky} {{path}}", "-p", "pairs=1", examples=5)
    assert status == 3 and "No wrong verdict on 5 elevator instances" in output
    assert "failed the same way" not in output
    assert sum(line.startswith("mine: 1 of 5 error runs; on hunt-") for line in output.splitlines()) == 5


def test_a_counterexample_on_a_broken_programs_last_allowed_failure_is_still_reported(tmp_path: Path) -> None:
    """The instance on which a program's first `SAME_FAILURES_TO_STOP` runs have all failed
    alike is also where the formulations disagree: the counterexample wins over the stop
    (exit 1, its files written), and the hunt goes on to shrink it."""
    stop = crosscheck.harness.workflows.hunt.SAME_FAILURES_TO_STOP
    calls, liar = tmp_path / "calls", tmp_path / "liar.py"
    liar.write_text(f"import pathlib\ncalls = pathlib.Path({str(calls)!r})\n"  # wrong on its run number `stop` only
                    "number = int(calls.read_text()) + 1 if calls.exists() else 1\ncalls.write_text(str(number))\n"
                    f"print('infeasible' if number == {stop} else 'unsupported')\n")
    status, output = hunt(tmp_path / "out", "elevator", "--solver", "elevator-quotient",  # one pair: always feasible
                          "--external", f"liar={sys.executable} {liar} {{path}}",
                          "--external", f"broken={sys.executable} {tmp_path / 'missing.py'} {{path}}",
                          "-p", "pairs=1", "-p", "floors=2-4", examples=20)
    assert status == 1 and "Counterexample (false-infeasible)" in output, output
    assert "stopped early" not in output and "failed the same way" not in output
    found = tmp_path / "out" / "counterexample-elevator-as-found.txt"
    assert found.read_text() == (tmp_path / "out" / "judged" / f"hunt-{stop}.txt").read_text()
    broken = [r for r in read_records(tmp_path / "out" / "judged.jsonl") if r.solver == "broken"]
    assert len(broken) > stop and {r.status for r in broken} == {"error"}  # shrinking went on past the stop


def test_a_lone_program_without_morph_is_warned_that_its_claims_cannot_be_checked(tmp_path: Path) -> None:
    """A program that prints only claims, hunted alone, can never be contradicted: the hunt
    says so as it starts, and not when a formulation or --morph can check it."""
    claims = tmp_path / "claims.py"
    claims.write_text("print('optimum: 0')\n")
    program = ("--external", f"mine={sys.executable} {claims} {{path}}", "-p", "pairs=1", "--examples", "1",
               "--seed", "1")
    alone = CliRunner().invoke(main, ["hunt", "elevator", "--out", str(tmp_path / "alone"), *program, "--no-reference"])
    assert alone.stderr.count("warning: external programs alone, without --morph") == 1
    assert "add --solver NAME or --morph" in alone.stderr
    beside = CliRunner().invoke(main, ["hunt", "elevator", "--out", str(tmp_path / "beside"), *program,
                                       "--solver", "elevator-quotient"])
    assert beside.exit_code == 1 and "external programs alone" not in beside.stderr  # optimum 0 is contradicted


def test_a_lone_program_is_hunted_beside_the_puzzles_reference_formulation(tmp_path: Path) -> None:
    """A program that answers one step short whenever the element listed first has its chip
    and generator apart (planted/externals/elevator_first_listed.py) claims only numbers: alone,
    nothing can contradict it; hunted with --external alone, the puzzle's reference
    formulation runs beside it (saying so) and its proven answer catches the program."""
    program = ("--external", f"mine={external('elevator_first_listed.py')}", "-p", "pairs=1-2", "-p", "floors=2-3")
    status, output = hunt(tmp_path / "beside", "elevator", *program, examples=10)
    assert status == 1 and "Counterexample (" in output and "mine" in output, output
    assert ("note: also running elevator-quotient, the puzzle's reference, so that the program's claims can be "
            "contradicted; --no-reference to run the program alone") in output
    assert {r.solver for r in read_records(tmp_path / "beside" / "runs.jsonl")} == {"mine", "elevator-quotient"}
    reproduce = next(line for line in output.splitlines() if line.startswith("reproduce: "))
    assert "--solver elevator-quotient" in reproduce  # compare runs what the hunt ran
    status, output = hunt(tmp_path / "alone", "elevator", *program, "--no-reference", examples=10)
    assert status == 0 and "No wrong verdict on 10 elevator instances" in output, output
    assert "also running" not in output


def test_solve_runs_the_reference_beside_a_lone_program(tmp_path: Path) -> None:
    """One pair apart on two floors takes one move; the planted program claims none."""
    path = tmp_path / "apart.txt"
    path.write_text("The first floor contains a hydrogen-compatible microchip.\n"
                    "The second floor contains a hydrogen generator.\n")
    program = ("--external", f"mine={external('elevator_first_listed.py')}")
    beside = CliRunner().invoke(main, ["solve", str(path), *program])
    assert beside.exit_code == 1 and "elevator-quotient" in beside.stdout and "disagree" in beside.stdout
    assert "note: also running elevator-quotient, the puzzle's reference" in beside.stderr
    alone = CliRunner().invoke(main, ["solve", str(path), *program, "--no-reference"])
    assert alone.exit_code == 0 and "elevator-quotient" not in alone.output, alone.output


def test_hypothesis_keeps_its_own_files_under_out_not_in_the_current_folder(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from hypothesis.configuration import storage_directory

    homes: list[Path] = []

    def runs(*args: Any, **kwargs: Any) -> list[RunRecord]:
        homes.append(storage_directory(intent_to_write=False).home_directory)
        return crosscheck.harness.runs.batch.run_tasks(*args, **kwargs, isolate=False)

    monkeypatch.setattr(crosscheck.harness.workflows.hunt, "run_tasks", runs)
    before = storage_directory(intent_to_write=False).home_directory
    status, _ = hunt(tmp_path / "out", "elevator", "--solver", "elevator-quotient", "-p", "pairs=1", examples=2)
    assert status == 0 and set(homes) == {tmp_path / "out" / "hypothesis"}
    assert storage_directory(intent_to_write=False).home_directory == before  # restored for whatever runs next


def _run_reproduce_line(output: str, monkeypatch: pytest.MonkeyPatch, cwd: Path) -> Any:
    """Run the hunt's ``reproduce:`` line through the CLI (in `cwd`, with the environment
    variables it sets before ``crosscheck``) and return click's result."""
    lines = [line for line in output.splitlines() if line.startswith("reproduce: ")]
    assert len(lines) == 1, output
    words = shlex.split(lines[0].removeprefix("reproduce: "))
    while "=" in words[0] and not words[0].startswith("crosscheck"):
        name, _, value = words.pop(0).partition("=")
        monkeypatch.setenv(name, value)
    assert words[0] == "crosscheck", words
    monkeypatch.chdir(cwd)  # compare writes its records to results/ in the current folder
    return CliRunner().invoke(main, words[1:], catch_exceptions=False)


def test_the_reproduce_line_judges_the_shrunk_counterexample_wrong_again(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The printed command names the shrunk file, the formulations, the program and the
    limits: without the program (or with another file) compare would find nothing wrong."""
    status, output = hunt(tmp_path / "out", "elevator", *NODOWN2, "--clock", "cpu", "--memory-limit", "1024",
                          "--external", f"nodown2={external('elevator_nodown2.py')}")
    assert status == 1, output
    line = next(line for line in output.splitlines() if line.startswith("reproduce: "))
    assert str(tmp_path / "out" / "counterexample-elevator.txt") in line and "--clock cpu" in line
    assert "--memory-limit 1024" in line and "--time-limit 10.0" in line
    result = _run_reproduce_line(output, monkeypatch, tmp_path)
    assert result.exit_code == 1, result.output
    verdict = output.split("Counterexample (")[1].split(")")[0]
    assert f"{verdict}:" in result.output and "nodown2" in result.output


def test_the_reproduce_line_of_a_morph_hunt_draws_the_same_related_instance(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """``morph --seed`` relates the same instance to the counterexample's file as the hunt
    did, so the pair breaks the relation again (exit 1); the line names the relation and seed."""
    status, output = hunt(tmp_path / "out", "elevator", "--morph", "--relations", "rename",
                          "--external", f"initials={external('elevator_initials.py')}",
                          "-p", "pairs=2-3", "-p", "floors=2-3", "--no-reference", examples=20)
    assert status == 1 and "Counterexample (morph-mismatch)" in output, output
    line = next(line for line in output.splitlines() if line.startswith("reproduce: "))
    assert " morph " in line and "--relations rename --count 1 --seed " in line
    result = _run_reproduce_line(output, monkeypatch, tmp_path)
    assert result.exit_code == 1 and "morph-mismatch: initials" in result.output, result.output
    assert "1 pair judged: 1 morph-mismatch" in result.output


def test_no_reproduce_line_without_a_counterexample(tmp_path: Path) -> None:
    status, output = hunt(tmp_path, "elevator", "--solver", "elevator-quotient", "-p", "pairs=1", examples=2)
    assert status == 0 and "reproduce:" not in output


def test_a_formulation_named_twice_runs_once_per_instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--solver X --solver X`` ran X twice on every instance drawn, as ``solve`` did."""
    names: list[list[str]] = []

    def runs(tasks: list[tuple[Task, Any]], *args: Any, **kwargs: Any) -> list[RunRecord]:
        names.append([run.solver for run, _ in tasks])
        return crosscheck.harness.runs.batch.run_tasks(tasks, *args, **kwargs, isolate=False)

    monkeypatch.setattr(crosscheck.harness.workflows.hunt, "run_tasks", runs)
    status, output = hunt(tmp_path / "out", "elevator", "--solver", "elevator-quotient", "--solver",
                          "elevator-quotient", "-p", "pairs=1", examples=2)
    assert status == 0 and names and all(batch == ["elevator-quotient"] for batch in names), (names, output)
