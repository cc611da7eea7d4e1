"""Puzzles from outside (entry point group ``crosscheck.puzzles``): without any, crosscheck
knows its three built-in puzzles and works; a plugin that cannot be loaded is a warning,
not a crash; and no known puzzle, built-in or installed, claims another's texts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from itertools import permutations
from pathlib import Path

import pytest
from crosscheck.harness.independence import sharing, trusted, walk
from crosscheck.models.registry import built_in_puzzles, puzzles
from crosscheck.solvers.registry import get_solver

ROOT = Path(__file__).resolve().parents[1]
VAULT = "#########\n#b.A.@.a#\n#########\n"

#: Runs the command line with ARGV[1:] where no distribution declares an entry point of
#: crosscheck's groups (as with no plugin installed), then prints the puzzles it knew.
WITHOUT_PLUGINS = """
import importlib.metadata as metadata, json, sys
every = metadata.entry_points

def none_of_crosscheck(**selection):
    return [] if str(selection.get("group", "")).startswith("crosscheck.") else every(**selection)

metadata.entry_points = none_of_crosscheck
from crosscheck.harness.cli import main
from crosscheck.models.registry import puzzles
try:
    main(sys.argv[1:])
except SystemExit as stop:
    print(json.dumps({"code": stop.code, "puzzles": sorted(puzzles())}))
"""


def without_plugins(*args: str, cwd: Path = ROOT) -> tuple[dict[str, object], subprocess.CompletedProcess[str]]:
    """What `WITHOUT_PLUGINS` reports for ``crosscheck ARGS``, and the process."""
    env = {**os.environ, "CROSSCHECK_SOLVERS": ""}
    done = subprocess.run([sys.executable, "-c", WITHOUT_PLUGINS, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)
    return json.loads(done.stdout.splitlines()[-1]), done


def test_without_plugins_crosscheck_knows_its_three_puzzles_and_works(tmp_path: Path) -> None:
    facts, done = without_plugins("list", "--shares")
    assert facts == {"code": 0, "puzzles": ["amphipods", "elevator", "keys"]}, done.stderr
    assert [line.split(":")[0] for line in done.stdout.splitlines() if line[:1].isalpha()] == \
        ["amphipods", "elevator", "keys"]
    assert "entry point" not in done.stdout and done.stderr == ""
    (tmp_path / "vault.txt").write_text(VAULT)
    facts, done = without_plugins("solve", str(tmp_path / "vault.txt"), "--solver", "keys-grid", cwd=tmp_path)
    assert facts["code"] == 0 and "agree" in done.stdout, done.stderr


def test_a_puzzle_plugin_raising_at_import_is_a_warning_not_a_crash(tmp_path: Path) -> None:
    site = tmp_path / "site"
    info = site / "broken_puzzle-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-puzzle\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[crosscheck.puzzles]\nbroken = broken_puzzle:PUZZLE\n")
    (site / "broken_puzzle.py").write_text('raise RuntimeError("the puzzle module fails at import")\n')
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "crosscheck", "list"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert {"amphipods", "elevator", "keys"} <= {line.split(":")[0] for line in done.stdout.splitlines()
                                                  if line[:1].isalpha()}
    assert done.stderr.splitlines() == ["warning: plugin not loaded: puzzle entry point broken = broken_puzzle:PUZZLE: "
                                        "RuntimeError: the puzzle module fails at import"]


@pytest.mark.parametrize("seed", range(3))
def test_no_puzzle_claims_another_puzzles_generated_text(seed: int) -> None:
    """Every known puzzle, those of installed plugins too: routing a file never depends on
    which puzzle is asked first."""
    assert set(built_in_puzzles()) <= set(puzzles())
    for puzzle, other in permutations(puzzles().values(), 2):
        assert not other.detect(puzzle.generate(seed).to_text()), (puzzle.name, other.name)


@pytest.fixture
def fresh_trusted_base() -> Iterator[None]:
    """The trusted base computed afresh in the test, and again after it."""
    trusted.trusted.cache_clear()
    yield
    trusted.trusted.cache_clear()


def test_a_plugin_puzzles_package_is_formulation_code_and_its_trusted_pieces_are_trusted(
        monkeypatch: pytest.MonkeyPatch, fresh_trusted_base: None) -> None:
    """On the sliding-tile puzzle of examples/tiles (installed by the README's test command)."""
    tiles = pytest.importorskip("crosscheck_tiles")
    search, cpsat = (type(get_solver(name))() for name in ("tiles-search", "tiles-cpsat"))  # footprints uncached
    assert "crosscheck_tiles" in walk.formulation_packages()
    assert "crosscheck_tiles.search.SlidingProblem.heuristic" in sharing.footprint(search)
    assert "crosscheck_tiles.cpsat.permutation_is_odd" in sharing.footprint(cpsat)
    assert sharing.shared(search, cpsat) == frozenset()
    monkeypatch.delitem(tiles.TRUSTED, "crosscheck_tiles.model.goal")  # both run it: shared once untrusted
    trusted.trusted.cache_clear()
    search, cpsat = (type(solver)() for solver in (search, cpsat))
    assert sharing.shared(search, cpsat) == {"crosscheck_tiles.model.goal"}


def test_every_public_name_resolves() -> None:
    """What a plugin may import (`crosscheck.__all__`): each name, and the module ``cpsat``."""
    import crosscheck

    for name in crosscheck.__all__:
        assert getattr(crosscheck, name) is not None, name
    assert crosscheck.cpsat.configured_solver.__module__ == "crosscheck.solvers.engines.cpsat"
