"""The puzzles crosscheck knows, by name, and routing of instance texts to them.

A puzzle is a `Puzzle` value (`crosscheck.models.puzzle`).  The built-in ones are the
``PUZZLE`` of each package in `BUILT_IN`; a distribution adds its own under the entry point
group ``crosscheck.puzzles`` (``[project.entry-points."crosscheck.puzzles"]``
``tiles = "crosscheck_tiles:PUZZLE"``).  Entry points are read when a name no built-in has
is asked for, or when every puzzle is (`puzzles`), not at import: a command that knows its
puzzle pays nothing for them.  A plugin that cannot be loaded (import error, no `Puzzle`, a
name taken) is left out and its error kept in `PUZZLE_ERRORS`, so one broken plugin never
stops the tool.
"""

from __future__ import annotations

import codecs
import importlib
import os
import stat
from functools import cache

from crosscheck.models.base import Instance, InvalidInstance
from crosscheck.models.puzzle import Puzzle
from crosscheck.models.relations import Relation

#: The packages of the built-in puzzles, each with a ``PUZZLE``, in the order texts are
#: routed to them (`detect_puzzle`): a burrow also looks like a vault without a robot.
BUILT_IN = ("crosscheck.models.amphipods", "crosscheck.models.elevator", "crosscheck.models.keys")
ENTRY_POINT_GROUP = "crosscheck.puzzles"
#: What went wrong loading puzzle plugins, one line each.
PUZZLE_ERRORS: list[str] = []


@cache
def built_in_puzzles() -> dict[str, Puzzle]:
    """The built-in puzzles by name."""
    found = (importlib.import_module(package).PUZZLE for package in BUILT_IN)
    return {puzzle.name: puzzle for puzzle in found}


@cache
def puzzles() -> dict[str, Puzzle]:
    """Every puzzle by name: the built-ins, then those of the ``crosscheck.puzzles`` entry
    points (errors kept in `PUZZLE_ERRORS`)."""
    from importlib.metadata import entry_points

    found = dict(built_in_puzzles())
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        try:
            puzzle = entry.load()
            if not isinstance(puzzle, Puzzle):
                raise TypeError(f"{entry.value} is a {type(puzzle).__name__}, not a crosscheck Puzzle")
            if puzzle.name in found:
                raise ValueError(f"the puzzle name {puzzle.name!r} is taken")
            found[puzzle.name] = puzzle
        except Exception as error:  # a broken plugin must not stop the tool: reported instead
            line = f"puzzle entry point {entry.name} = {entry.value}: {type(error).__name__}: {error}"
            if line not in PUZZLE_ERRORS:
                PUZZLE_ERRORS.append(line)
    return found


def get_puzzle(name: str) -> Puzzle:
    """The puzzle called `name`; a `KeyError` lists the valid names on a typo."""
    known = built_in_puzzles()
    if name not in known:
        known = puzzles()
    try:
        return known[name]
    except KeyError:
        raise KeyError(f"unknown puzzle {name!r}; valid puzzles: {', '.join(sorted(known))}") from None


def relations(puzzle: str) -> dict[str, Relation]:
    """The metamorphic relations of `puzzle` by name (see `crosscheck.models.relations`)."""
    return {relation.name: relation for relation in get_puzzle(puzzle).relations}


def get_relation(puzzle: str, name: str) -> Relation:
    """The relation called `name` of `puzzle`; a `KeyError` lists the valid names on a typo."""
    return get_puzzle(puzzle).relation(name)


def known_formats() -> str:
    """The instance formats crosscheck recognises, in words: ``one of: key vault, a grid ...; ...``."""
    return "one of: " + "; ".join(f"{p.title}, {p.shape}" for p in puzzles().values())


def detect_puzzle(text: str, source: str) -> Puzzle:
    """The first puzzle (`puzzles`' order) whose format `text` is in, or `InvalidInstance` if none claims it."""
    for puzzle in puzzles().values():
        if puzzle.detect(text):
            return puzzle
    raise InvalidInstance("not an instance of any known puzzle", source=source, line=1, column=1,
                          expected=known_formats())


def load_instance(path: str, puzzle_name: str | None = None) -> tuple[Puzzle, Instance]:
    """Read and parse the instance file at `path` (puzzle detected unless named).

    Raises `InvalidInstance` (naming the file) for unreadable or malformed files, and for
    a path that is not a regular file before opening it (`refuse_special_file`).
    """
    refuse_special_file(path)
    text = read_instance_text(path)
    puzzle = get_puzzle(puzzle_name) if puzzle_name else detect_puzzle(text, path)
    return puzzle, puzzle.parse(text, path)


def read_instance_text(path: str) -> str:
    """The text of the instance file at `path`, decoded as UTF-8 with a leading byte-order
    mark dropped (some editors write one; it is no part of the instance, and columns then
    count as the editor shows them).  `InvalidInstance` naming the file when it cannot be
    read, and the line and column of the first byte that is not UTF-8 (`not_utf8`)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise InvalidInstance(f"cannot read file: {error}", source=path) from None
    data = data.removeprefix(codecs.BOM_UTF8)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise not_utf8(data, error, path) from None


def not_utf8(data: bytes, error: UnicodeDecodeError, source: str) -> InvalidInstance:
    """The error for `data` that `error` says is not UTF-8, at the line and column (in
    characters, as an editor counts them) of the first bad byte, naming that byte."""
    before = data[:error.start]
    line_start = before.rfind(b"\n") + 1
    column = len(before[line_start:].decode("utf-8")) + 1  # everything before the first bad byte decodes
    return InvalidInstance(f"not UTF-8 text: byte 0x{data[error.start]:02x} ({error.reason})", source=source,
                           line=before.count(b"\n") + 1, column=column, expected="a file saved as UTF-8")


#: What a path is, by its file type, when it is not a regular file.
_SPECIAL_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                  (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def refuse_special_file(path: str) -> None:
    """Raise `InvalidInstance` naming `path` and what it is when it is no regular file
    (`special_file_kind`), without opening it."""
    kind = special_file_kind(path)
    if kind is not None:
        raise InvalidInstance(f"not a regular file: it is {kind}", source=path, expected="an instance text file")


def special_file_kind(path: str) -> str | None:
    """What `path` is when it exists and is no regular file ("a FIFO (named pipe)", "a
    directory", ...), found without opening it: opening a FIFO blocks until a writer
    comes, and a device such as /dev/zero never ends.  None for a regular file, or for a
    path that cannot be examined (opening it then says why)."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    return next((kind for is_kind, kind in _SPECIAL_KINDS if is_kind(mode)), None)
