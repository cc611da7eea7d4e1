"""The sliding-tile puzzle (n x m boards, 2 to 5 each; the 8-puzzle and the 15-puzzle) for crosscheck.

Two entry points make it part of crosscheck once the distribution is installed:

- ``crosscheck.puzzles``: `PUZZLE`, everything the harness needs of the puzzle (the model,
  its relations, what hunts draw, the trusted pieces);
- ``crosscheck.solvers``: this module, whose ``SOLVERS`` lists its two formulations,
  ``tiles-search`` and ``tiles-cpsat``.

``SOLVERS`` is imported when first asked for (a module ``__getattr__``), so that a command
that only routes files to puzzles (``crosscheck solve VAULT`` reads every puzzle's `detect`)
does not import the formulations.  Everything comes from ``crosscheck``'s public names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from crosscheck import Puzzle, Sample, SizeParameter

from crosscheck_tiles import model
from crosscheck_tiles.model import LARGEST, MOST_MOVES, SMALLEST, Board
from crosscheck_tiles.relations import RELATIONS

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

#: The sizes a hunt draws boards within (`crosscheck_tiles.strategies`).
SIZES = (
    SizeParameter("rows", "rows of the board", (2, 3), SMALLEST, LARGEST),
    SizeParameter("columns", "columns of the board", (2, 3), SMALLEST, LARGEST),
    SizeParameter("moves", "the most moves of the blank's walk from the goal (each a legal move)", (0, 40), 0,
                  MOST_MOVES),
)

_MODEL_TESTS = "examples/tiles/tests/test_model.py"
#: The puzzle's pieces of the trusted base: qualified name -> the tests that hold it against an
#: independent reference (the tests' own breadth-first search, `tests/tiles_bfs.py`, has its own
#: moves and goal).
TRUSTED = {
    "crosscheck_tiles.model.parse": f"{_MODEL_TESTS}: round trip and each parse error",
    "crosscheck_tiles.model._row": f"{_MODEL_TESTS}::test_parse_errors_name_line_and_column",
    "crosscheck_tiles.model._tiles": f"{_MODEL_TESTS}::test_parse_errors_name_line_and_column",
    "crosscheck_tiles.model.Board": f"{_MODEL_TESTS}::test_board_refuses_what_is_no_board, the text round trip",
    "crosscheck_tiles.model.goal": "examples/tiles/tests/test_instances.py, test_solvers.py: every optimum against the "
                                   "breadth-first search, whose goal is its own",
    "crosscheck_tiles.model.check_plan": f"{_MODEL_TESTS}: each broken rule, any JSON value; "
                                         "examples/tiles/tests/test_relations.py: optimal plans of the search",
    "crosscheck_tiles.model._misplaced": f"{_MODEL_TESTS}::test_check_plan_rejects (the tiles out of place named)",
    "crosscheck_tiles.model.slide": f"{_MODEL_TESTS}: the checker's moves, the walks' optima against the search",
    "crosscheck_tiles.model.transposed": f"{_MODEL_TESTS}::test_transposed_2x3_by_hand, twice gives the board back",
}


def _instances(ranges: Mapping[str, tuple[int, int]], published: bool) -> SearchStrategy[Any]:
    from crosscheck_tiles.strategies import instances  # Hypothesis is imported by hunts only

    return instances(ranges, published)


def corpus() -> list[Board]:
    """Tiny boards covering the edge cases: solved already (the empty plan), one move from
    the goal, a non-square board a few moves away, and a board without a plan."""
    return [
        Board("corpus-2x2-solved", 2, 2, (1, 2, 3, 0)),
        Board("corpus-2x2-one-move", 2, 2, (1, 2, 0, 3)),
        Board("corpus-3x2-walked", 3, 2, (2, 4, 3, 0, 5, 1)),
        Board("corpus-2x3-unsolvable", 2, 3, (2, 1, 3, 4, 5, 0)),
    ]


PUZZLE = Puzzle(
    name="tiles",
    title="sliding-tile puzzle",
    shape="rows of numbers separated by spaces, 0 for the blank (the first line starts with a digit)",
    detect=model.detect,
    parse=model.parse,
    check_plan=model.check_plan,
    variant=model.transposed,
    variant_name="transposed (tiles renamed so the goal maps to the goal)",
    generate=model.generate,
    generator_params={
        "rows": f"rows, {SMALLEST} to {LARGEST} (default 3)",
        "columns": f"columns, {SMALLEST} to {LARGEST} (default 3)",
        "moves": f"a random walk of MOVES moves from the goal, 0 to {MOST_MOVES} (default: a uniform draw)",
        "solvable": "false swaps two tiles so no plan exists (default true)",
    },
    features=model.features,
    relations=RELATIONS,
    sizes=SIZES,
    instances=_instances,
    published_shape=model.outside_published_shape,
    corpus=corpus,
    formulations=(),  # they come by the crosscheck.solvers entry point: this module's SOLVERS
    reference="tiles-search",
    # 8-puzzles a walk of 16 moves from the goal, 2x3 boards drawn uniformly, and 2x3 boards without a plan
    small_sets=(Sample({"moves": 16}, count=3, seed=1), Sample({"rows": 2}, count=2, seed=1),
                Sample({"rows": 2, "solvable": False}, count=2, seed=1)),
    trusted=TRUSTED,
)


def __getattr__(name: str) -> Any:
    """``SOLVERS``, the two formulations, imported on first use (see the module docstring)."""
    if name != "SOLVERS":
        raise AttributeError(f"module 'crosscheck_tiles' has no attribute {name!r}")
    from crosscheck_tiles.cpsat import TilesCpsat
    from crosscheck_tiles.search import TilesSearch

    solvers = [TilesSearch, TilesCpsat]
    globals()["SOLVERS"] = solvers
    return solvers


__all__ = ["PUZZLE", "SIZES", "SOLVERS", "TRUSTED", "corpus"]
