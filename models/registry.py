"""The puzzles crosscheck knows, by name, and routing of instance texts to them."""

from __future__ import annotations

from crosscheck.models import amphipods, elevator, keys
from crosscheck.models.base import Instance, InvalidInstance, Puzzle

PUZZLES: dict[str, Puzzle] = {
    puzzle.name: puzzle
    for puzzle in (
        keys.PUZZLE,
        amphipods.PUZZLE,
        elevator.PUZZLE,
    )
}


def get_puzzle(name: str) -> Puzzle:
    """The puzzle called `name`; a `KeyError` lists the valid names on a typo."""
    try:
        return PUZZLES[name]
    except KeyError:
        raise KeyError(f"unknown puzzle {name!r}; valid puzzles: {', '.join(sorted(PUZZLES))}") from None


def detect_puzzle(text: str, source: str) -> Puzzle:
    """The puzzle whose format `text` is in, or `InvalidInstance` if none claims it."""
    for puzzle in PUZZLES.values():
        if puzzle.detect(text):
            return puzzle
    raise InvalidInstance(
        "not an instance of any known puzzle",
        source=source,
        line=1,
        column=1,
        expected=f"a {' / '.join(p.title for p in PUZZLES.values())} instance",
    )


def load_instance(path: str, puzzle_name: str | None = None) -> tuple[Puzzle, Instance]:
    """Read and parse the instance file at `path` (puzzle detected unless named).

    Raises `InvalidInstance` (naming the file) for unreadable or malformed files.
    """
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidInstance(f"cannot read file: {error}", source=path) from None
    puzzle = get_puzzle(puzzle_name) if puzzle_name else detect_puzzle(text, path)
    return puzzle, puzzle.parse(text, path)
