"""The puzzles crosscheck knows, by name, and routing of instance texts to them."""

from __future__ import annotations

import codecs
import os
import stat

from crosscheck.models import amphipods, amphipods_relations, elevator, elevator_relations, keys, keys_relations
from crosscheck.models.base import Instance, InvalidInstance, Puzzle
from crosscheck.models.relations import Relation

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


#: Per puzzle, its metamorphic relations by name (see `crosscheck.models.relations`).
RELATIONS: dict[str, dict[str, Relation]] = {
    puzzle: {relation.name: relation for relation in relations}
    for puzzle, relations in (
        (keys.PUZZLE.name, keys_relations.RELATIONS),
        (amphipods.PUZZLE.name, amphipods_relations.RELATIONS),
        (elevator.PUZZLE.name, elevator_relations.RELATIONS),
    )
}


def get_relation(puzzle: str, name: str) -> Relation:
    """The relation called `name` of `puzzle`; a `KeyError` lists the valid names on a typo."""
    relations = RELATIONS[get_puzzle(puzzle).name]
    try:
        return relations[name]
    except KeyError:
        raise KeyError(f"unknown relation {name!r} for {puzzle}; valid relations: {', '.join(relations)}") from None


def known_formats() -> str:
    """The instance formats crosscheck recognises, in words: ``one of: key vault, a grid ...; ...``."""
    return "one of: " + "; ".join(f"{p.title}, {p.shape}" for p in PUZZLES.values())


def detect_puzzle(text: str, source: str) -> Puzzle:
    """The puzzle whose format `text` is in, or `InvalidInstance` if none claims it."""
    for puzzle in PUZZLES.values():
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
