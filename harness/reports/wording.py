"""Words for messages and summaries: counts (``1 instance``, ``2 instances``), a message's first line,
choices (``a, b or c``), a few of many named, a word with its article (`with_article`, defined with
the models, which cannot import the harness)."""

from __future__ import annotations

from crosscheck.models.base import with_article

__all__ = ["alternatives", "counted", "first_line", "some_named", "with_article"]


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """`count` and `noun`, the noun in the plural (`plural`, else ``noun + "s"``) unless
    the count is exactly 1: ``counted(1, "run")`` is ``1 run``, ``counted(0, "run")`` ``0 runs``."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def first_line(message: str, blank: str = "no message") -> str:
    """The first line of a run's `message` (the rest stays in its record), `blank` when it is blank."""
    return message.strip().splitlines()[0] if message.strip() else blank


def alternatives(choices: list[str]) -> str:
    """`choices` as words: ``a``, ``a or b``, ``a, b or c``."""
    return " or ".join(filter(None, [", ".join(choices[:-1]), *choices[-1:]]))


def some_named(items: list[str], shown: int = 3) -> str:
    """The first `shown` of `items`, and how many more: ``a, b, c and 2 more``."""
    more = f" and {len(items) - shown} more" if len(items) > shown else ""
    return ", ".join(items[:shown]) + more
