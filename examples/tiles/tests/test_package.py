"""The distribution: its entry points, the `PUZZLE` the harness reads, the hunt's ranges,
and the code rules (public names of crosscheck only, small modules and functions, full
annotations, two formulations that share nothing but the model)."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from crosscheck import Puzzle, Relation, SizeParameter
from hypothesis import given, settings
from hypothesis import strategies as st

import crosscheck_tiles
from crosscheck_tiles import PUZZLE, SOLVERS
from crosscheck_tiles.model import Board, parse

PACKAGE = Path(crosscheck_tiles.__file__).parent
DISTRIBUTION = PACKAGE.parent


def test_entry_points_name_the_module_and_the_puzzle() -> None:
    solvers = {entry.name: entry.value for entry in entry_points(group="crosscheck.solvers")}
    puzzles = {entry.name: entry for entry in entry_points(group="crosscheck.puzzles")}
    assert solvers["tiles"] == "crosscheck_tiles"
    assert puzzles["tiles"].load() is PUZZLE


def test_the_puzzle() -> None:
    assert isinstance(PUZZLE, Puzzle) and PUZZLE.name == "tiles"
    assert all(isinstance(relation, Relation) and relation.puzzle == "tiles" for relation in PUZZLE.relations)
    assert all(isinstance(size, SizeParameter) and size.least <= size.default[0] <= size.default[1] <= size.most
               for size in PUZZLE.sizes)
    assert PUZZLE.reference in [solver.name for solver in SOLVERS]
    assert PUZZLE.formulations == ()  # they come by the crosscheck.solvers entry point
    corpus = PUZZLE.corpus()
    assert 3 <= len(corpus) <= 4 and all(isinstance(board, Board) for board in corpus)
    assert all(parse(board.to_text(), board.name) == board for board in corpus)


@pytest.mark.parametrize("name", sorted(PUZZLE.trusted))
def test_each_trusted_piece_exists_and_lies_in_the_model(name: str) -> None:
    module, _, attribute = name.partition(".model.")
    assert module == "crosscheck_tiles" and PUZZLE.trusted[name].strip()
    found: object = importlib.import_module("crosscheck_tiles.model")
    for part in attribute.split("."):
        found = getattr(found, part)


def test_importing_the_puzzle_imports_no_formulation_and_no_hypothesis() -> None:
    """A command that routes a file to its puzzle reads every puzzle: this one costs its model only."""
    script = ("import sys, crosscheck_tiles\n"
              "print(sorted(m for m in sys.modules if m.startswith(('crosscheck_tiles.', 'hypothesis', 'ortools'))))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['crosscheck_tiles.model', 'crosscheck_tiles.relations']"


@pytest.mark.parametrize(("given", "fragment"), [
    ({"depth": (1, 2)}, "unknown parameter 'depth'"),
    ({"rows": (3, 2)}, "empty range"),
    ({"columns": (1, 3)}, "out of range"),
    ({"moves": (0, 10_001)}, "out of range"),
])
def test_ranges_are_checked(given: dict[str, tuple[int, int]], fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        PUZZLE.strategy(given)


def test_published_needs_a_3x3_or_4x4_board() -> None:
    with pytest.raises(ValueError, match="no published board"):
        PUZZLE.strategy({"rows": (2, 2)}, published=True)


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_instances_stay_in_their_ranges(data: st.DataObject) -> None:
    published = data.draw(st.booleans())
    board = data.draw(PUZZLE.strategy({"rows": (2, 4), "columns": (3, 4), "moves": (0, 9)}, published))
    assert 2 <= board.rows <= 4 and 3 <= board.columns <= 4
    if published:
        assert board.rows == board.columns in (3, 4)
        assert PUZZLE.published_shape(board) == ""


@pytest.mark.parametrize("path", sorted([*PACKAGE.glob("*.py"), *(DISTRIBUTION / "tests").glob("*.py"),
                                         *(DISTRIBUTION / "scripts").glob("*.py")]), ids=lambda path: path.name)
def test_only_crosscheck_public_names_are_imported(path: Path) -> None:
    """A puzzle from outside needs nothing crosscheck does not export (``crosscheck.__all__``)."""
    import crosscheck

    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            assert not [a.name for a in node.names if a.name.startswith("crosscheck.")], ast.unparse(node)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "crosscheck":
            assert node.module == "crosscheck", ast.unparse(node)
            assert {alias.name for alias in node.names} <= set(crosscheck.__all__), ast.unparse(node)


def _tree(module: str) -> ast.Module:
    return ast.parse((PACKAGE / f"{module}.py").read_text())


@pytest.mark.parametrize("module", ["__init__", "model", "relations", "strategies", "search", "cpsat"])
def test_small_modules_short_functions_full_annotations(module: str) -> None:
    text = (PACKAGE / f"{module}.py").read_text()
    assert len(text.splitlines()) <= 600  # the project's rule
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef):
            assert node.end_lineno - node.lineno < 60, node.name  # type: ignore[operator]
            assert node.returns is not None, node.name
            arguments = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
            assert all(a.annotation is not None for a in arguments if a.arg not in ("self", "cls")), node.name
            assert ast.get_docstring(node) or node.name.startswith("_") or module != "model" or len(node.body) < 3


@pytest.mark.parametrize(("module", "other"), [("search", "cpsat"), ("cpsat", "search")])
def test_the_formulations_share_nothing_but_the_model(module: str, other: str) -> None:
    imported = {(node.module, alias.name) for node in ast.walk(_tree(module)) if isinstance(node, ast.ImportFrom)
                for alias in node.names if node.module and node.module.startswith("crosscheck_tiles")}
    assert imported == {("crosscheck_tiles.model", "Board"), ("crosscheck_tiles.model", "goal")}
    assert f"crosscheck_tiles.{other}" not in (PACKAGE / f"{module}.py").read_text()
