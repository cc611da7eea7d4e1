"""instances/: every file has an index entry, and every entry is confirmed by breadth-first
search and by both formulations (plans replayed by the checker)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from crosscheck import Solver, Status

from crosscheck_tiles import SOLVERS
from crosscheck_tiles.model import Board, check_plan, detect, parse, transposed
from tiles_bfs import optimum

FOLDER = Path(__file__).resolve().parents[1] / "instances"
INDEX = tomllib.loads((FOLDER / "index.toml").read_text())
FILES = sorted((FOLDER / "tiles").glob("*.txt"))


def board_of(path: Path) -> Board:
    return parse(path.read_text(), str(path))


def test_every_file_has_an_entry_and_every_entry_a_file() -> None:
    assert sorted(INDEX) == [f"tiles/{path.name}" for path in FILES]
    assert all(detect(path.read_text()) for path in FILES)
    shapes = {(board.rows, board.columns) for board in map(board_of, FILES)}
    assert {(2, 2), (2, 3), (3, 3), (4, 4)} <= shapes
    assert sum(INDEX[name].get("infeasible", False) for name in INDEX) >= 2


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_the_index_agrees_with_breadth_first_search(path: Path) -> None:
    board, entry = board_of(path), INDEX[f"tiles/{path.name}"]
    found = optimum(board.tiles, board.rows, board.columns)
    assert found == entry.get("optimum")
    assert (found is None) == entry.get("infeasible", False)
    image = transposed(board)  # the puzzle's variant: the same optimum
    assert optimum(image.tiles, image.rows, image.columns) == found


#: The runs of more than a second (the 8-puzzles the CP-SAT model climbs many horizons on, and
#: the search's proof of no plan, which expands all 181,440 arrangements): `crosscheck compare`
#: proves them too.
SLOW = {("8puzzle-hardest.txt", "tiles-cpsat"), ("8puzzle-random-1.txt", "tiles-cpsat"),
        ("8puzzle-random-2.txt", "tiles-cpsat"), ("8puzzle-unsolvable.txt", "tiles-search")}


@pytest.mark.parametrize(("path", "solver_class"), [
    pytest.param(path, solver_class, id=f"{path.name}-{solver_class.name}",
                 marks=[pytest.mark.slow] if (path.name, solver_class.name) in SLOW else [])
    for path in FILES for solver_class in SOLVERS])
def test_each_formulation_proves_the_index(path: Path, solver_class: type[Solver]) -> None:
    board, entry = board_of(path), INDEX[f"tiles/{path.name}"]
    result = solver_class().solve(board, time_limit=60)
    if entry.get("infeasible"):
        assert result.status is Status.INFEASIBLE, result
    else:
        assert result.status is Status.OPTIMAL and result.cost == entry["optimum"], result
        assert result.plan is not None and check_plan(board, result.plan) == entry["optimum"]
