"""Write the instance files of instances/tiles/ from seeded draws of `crosscheck_tiles.model.generate`.

Run from the distribution's folder: ``python scripts/make_instances.py``.  Optima are not
written here: `scripts/record_optima.py` computes them with the formulations.
"""

from __future__ import annotations

from pathlib import Path

from crosscheck_tiles.model import Board, generate, parse

FOLDER = Path(__file__).resolve().parents[1] / "instances" / "tiles"

#: File name (without .txt) -> the generator's seed and parameters.
DRAWS: dict[str, tuple[int, dict[str, int | bool]]] = {
    "2x2-random": (5, {"rows": 2, "columns": 2}),
    "2x3-random": (1, {"rows": 2, "columns": 3}),
    "3x2-random": (2, {"rows": 3, "columns": 2}),
    "8puzzle-walk": (1, {"moves": 12}),
    "8puzzle-random-1": (1, {}),
    "8puzzle-random-2": (7, {}),
    "15puzzle-walk-1": (1, {"rows": 4, "columns": 4, "moves": 10}),
    "15puzzle-walk-2": (2, {"rows": 4, "columns": 4, "moves": 18}),
    "24puzzle-walk": (1, {"rows": 5, "columns": 5, "moves": 8}),
    "2x3-unsolvable": (3, {"rows": 2, "columns": 3, "solvable": False}),
    "8puzzle-unsolvable": (4, {"solvable": False}),
}

#: One of the two 8-puzzle boards farthest from the goal (Reinefeld, 1993), written out.
HARDEST = "8 6 7\n2 5 4\n3 0 1\n"


def main() -> None:
    """Write each draw and the hardest 8-puzzle board, each checked to parse back equal."""
    FOLDER.mkdir(parents=True, exist_ok=True)
    boards = [generate(seed, **params) for seed, params in DRAWS.values()]  # type: ignore[arg-type]
    boards.append(parse(HARDEST, "8puzzle-hardest"))
    for name, board in zip([*DRAWS, "8puzzle-hardest"], boards, strict=True):
        path = FOLDER / f"{name}.txt"
        path.write_text(board.to_text())
        assert parse(path.read_text(), str(path)) == Board(name, board.rows, board.columns, board.tiles)
        print(path)


if __name__ == "__main__":
    main()
