"""What every puzzle model shares: the error types, the `Instance` protocol and small helpers
for parsers, plan checkers and generators.

A puzzle model parses its own text format, knows its variant transform, generates
seeded instances and replays plans (`crosscheck.models.puzzle` says how the harness reaches
them).  Nothing in `models` imports a solver: the plan checker is the referee, so it must
never depend on the players.
"""

from __future__ import annotations

import reprlib
from collections.abc import Sequence
from typing import Protocol


class InvalidInstance(ValueError):
    """An instance text that breaks its puzzle's format.

    The message names where (source file, 1-based line and column) and what was
    expected there, e.g. ``vault.txt:3:7: unknown character '?' (expected one of ...)``.
    """

    def __init__(
        self,
        reason: str,
        *,
        source: str,
        line: int | None = None,
        column: int | None = None,
        expected: str | None = None,
    ) -> None:
        self.reason = reason
        self.source = source
        self.line = line
        self.column = column
        self.expected = expected
        where = source
        if line is not None:
            where += f":{line}"
            if column is not None:
                where += f":{column}"
        text = f"{where}: {reason}"
        if expected:
            text += f" (expected {expected})"
        super().__init__(text)


class InvalidPlan(ValueError):
    """A plan that breaks the puzzle's rules, or is no plan in its move vocabulary.

    `step` is the 0-based index of the offending move (``plan[step]``), or the plan's
    length when every move was legal but the plan ends short of the goal (`unfinished`);
    `reason` says which rule, or what was expected.  The message counts moves from 1, as
    every number a message shows is counted (lines, columns, floors): ``move 3: ...``
    names ``plan[2]``; an unfinished plan reads ``after the last move (move 5): ...``
    and `where` names any other place (``before any move``, ``the plan``).
    """

    def __init__(self, step: int, reason: str, *, where: str | None = None) -> None:
        self.step = step
        self.reason = reason
        super().__init__(f"{where or f'move {step + 1}'}: {reason}")

    @classmethod
    def unfinished(cls, plan: Sequence[object], reason: str) -> InvalidPlan:
        """The error on `plan`, whose moves were all legal, for ending short of the goal."""
        where = f"after the last move (move {len(plan)})" if plan else "before any move (the plan is empty)"
        return cls(len(plan), reason, where=where)


def plan_moves(plan: object) -> Sequence[object]:
    """`plan` as the moves a checker replays: a list or tuple (a JSON list, or a solver's
    list of moves); `InvalidPlan` naming what it is otherwise (a JSON object or a string
    would iterate, over its keys or characters, as if it were moves)."""
    if not isinstance(plan, (list, tuple)):
        raise InvalidPlan(0, f"{reprlib.repr(plan)} is no plan, expected a list of moves", where="the plan")
    return plan


def move_fields(step: int, move: object, fields: str) -> tuple[object, object]:
    """The two fields of `move`, the plan's move at 0-based index `step`: a list or tuple of
    exactly two values, as a JSON move (``[0, "N"]``) or a puzzle's NamedTuple gives them;
    `InvalidPlan` naming the expected `fields` (``[robot, direction]``) otherwise.  A string
    of two characters or a JSON object of two keys would unpack into two values, and is
    refused like any other shape."""
    if not isinstance(move, (list, tuple)) or len(move) != 2:
        raise InvalidPlan(step, f"malformed move {reprlib.repr(move)}, expected a list of two: {fields}")
    return move[0], move[1]


class Instance(Protocol):
    """A parsed puzzle instance: immutable, named after its source."""

    @property
    def name(self) -> str: ...

    def to_text(self) -> str:
        """The instance in its puzzle's own text format (parses back to an equal instance)."""
        ...


def refuse_leading_blank_lines(lines: Sequence[str], source: str, first: str) -> None:
    """`InvalidInstance` at line 1, column 1 when `lines` open with blank lines, saying how
    many and that `first` (what a puzzle's line 1 holds) was expected there.  Refused, not
    skipped: every line and column a parser names is then the file's own, and an instance
    written back (``to_text``) is the file it came from."""
    blank = next((number for number, line in enumerate(lines) if line.strip()), 0)
    if blank:
        lines_word = "a blank line" if blank == 1 else f"{blank} blank lines"
        raise InvalidInstance(f"the file starts with {lines_word}", source=source, line=1, column=1,
                              expected=f"{first} on line 1")


def check_range(name: str, value: int, low: int, high: int, note: str = "") -> None:
    """`ValueError` naming the generator parameter `name`, its `value` and the allowed range
    (`note` says what else holds it, e.g. why `high`), unless ``low <= value <= high``."""
    if not low <= value <= high:
        raise out_of_range(name, str(value), low, high, note)


def out_of_range(name: str, given: str, low: int, high: int, note: str = "") -> ValueError:
    """The error for parameter `name` given as `given` (a value, or a range ``3-9``) outside
    ``low`` to ``high``, in the words `generate` and `hunt` both use."""
    return ValueError(f"{name}={given}: out of range, expected {low} to {high}{note}")


def instance_name(source: str) -> str:
    """The name an instance parsed from `source` (a path or a label) goes by: its file name
    without the folder and without a ``.txt`` suffix."""
    base = source.replace("\\", "/").rsplit("/", 1)[-1]
    return base[:-4] if base.lower().endswith(".txt") else base


def with_article(word: str) -> str:
    """`word` after the indefinite article its first letter takes: ``a keys``, ``an elevator``,
    ``an optimal`` (by the written vowel, which is right for every word a message here names)."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"
